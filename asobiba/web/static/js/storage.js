// What a page remembers in localStorage as JSON (the settings form, a table's set-up): reading
// and writing never fail, since a browser may refuse storage (private mode, full, disabled).

/** The value stored under `key`, or null when there is none or it cannot be read. */
export function loadJSON(key) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? "null");
  } catch {
    return null;
  }
}

/** Store `value` under `key`; nothing happens when the browser refuses. */
export function saveJSON(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* not remembered */
  }
}
