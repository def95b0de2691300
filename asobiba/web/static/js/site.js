// Every page: the theme button (auto → light → dark), remembered in localStorage.
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
