// The animation speed control (<select id="speed">): remembered in localStorage; a `?speed=`
// URL parameter (slow, normal, fast, instant) wins, which the end-to-end tests use.
const KEY = "asobiba.speed";
const SPEEDS = ["slow", "normal", "fast", "instant"];

export function initialSpeed() {
  const fromUrl = new URLSearchParams(window.location.search).get("speed");
  if (SPEEDS.includes(fromUrl)) return fromUrl;
  try {
    const saved = localStorage.getItem(KEY);
    if (SPEEDS.includes(saved)) return saved;
  } catch {
    /* no storage */
  }
  return "normal";
}

/** Wire the select to `onChange(speed)`; returns the starting speed. */
export function bindSpeed(select, onChange) {
  const speed = initialSpeed();
  if (select) {
    select.value = speed;
    select.addEventListener("change", () => {
      try {
        localStorage.setItem(KEY, select.value);
      } catch {
        /* not remembered */
      }
      onChange(select.value);
    });
  }
  onChange(speed);
  return speed;
}
