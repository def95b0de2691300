// UI strings of the page's language, embedded by the server as JSON (<script id="i18n">).

const node = document.getElementById("i18n");
const STRINGS = node ? JSON.parse(node.textContent) : {};

/** The page's language, "ja" or "en". */
export const LANG = document.documentElement.lang || "ja";

/**
 * The UI string `key`, with `{name}` holes filled from `params`. A missing key shows the key
 * itself, so a forgotten string is visible rather than blank.
 */
export function t(key, params = {}) {
  const text = STRINGS[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (hole, name) => (name in params ? String(params[name]) : hole));
}

/**
 * `t` for a string about `n` things: the `.one` form when n is 1 and the language has one
 * ("1 stone", not "1 stones"), else the plain key.
 */
export function tn(key, n, params = {}) {
  const one = `${key}.one`;
  return t(n === 1 && one in STRINGS ? one : key, { n, ...params });
}

/** A `{ja, en}` pair from the game data, in the page's language. */
export function pick(names) {
  if (!names) return "";
  if (typeof names === "string") return names;
  return names[LANG] ?? names.en ?? names.ja ?? "";
}

/** Data the page embedded for its module (<script id="page-data">). */
export function pageData() {
  const data = document.getElementById("page-data");
  return data ? JSON.parse(data.textContent) : {};
}
