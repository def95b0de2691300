// Every page: the theme button (auto → light → dark), remembered in localStorage, and the
// language switch, which comes back to the address shown now (a play page pushes its game's
// address after the server drew the page).
import { t } from "./i18n.js";

const KEY = "asobiba.theme";
const ORDER = ["auto", "light", "dark"];

function current() {
  try {
    const value = localStorage.getItem(KEY);
    return ORDER.includes(value) ? value : "auto";
  } catch {
    return "auto";
  }
}

function apply(choice) {
  const root = document.documentElement;
  if (choice === "auto") root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", choice);
  root.dataset.themeChoice = choice;
  const button = document.getElementById("theme-toggle");
  if (button) {
    const label = t("theme.button", { name: t(`theme.${choice}`) });
    button.setAttribute("aria-label", label);
    button.title = label;
  }
}

apply(current());

document.getElementById("theme-toggle")?.addEventListener("click", () => {
  const next = ORDER[(ORDER.indexOf(current()) + 1) % ORDER.length];
  try {
    if (next === "auto") localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, next);
  } catch {
    /* not remembered, but still applied */
  }
  apply(next);
});

/** Point the language switch back at the address in the bar now, query and fragment kept. */
function langLinksHere() {
  const here = encodeURIComponent(location.pathname + location.search + location.hash);
  for (const link of document.querySelectorAll(".lang-switch a[data-lang]")) {
    link.href = `/lang/${link.dataset.lang}?next=${here}`;
  }
}

// Before a click, a middle click or a context menu reads the link.
for (const type of ["pointerdown", "focusin", "click"]) {
  document.querySelector(".lang-switch")?.addEventListener(type, langLinksHere, { capture: true });
}
