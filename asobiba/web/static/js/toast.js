// Toasts: short notices and errors at the bottom of the screen (#toasts, aria-live).
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Show `message`; errors stay until dismissed, notices go after `timeout` ms. */
export function toast(message, { kind = "info", timeout = 4000 } = {}) {
  const box = document.getElementById("toasts");
  if (!box) return () => {};
  const close = () => node.remove();
  const node = h(
    "div",
    { class: `toast toast--${kind}`, role: kind === "error" ? "alert" : "status" },
    h("p", {}, message),
    h(
      "button",
      { class: "btn btn--ghost btn--small", type: "button", onclick: close },
      t("error.dismiss"),
    ),
  );
  box.append(node);
  if (kind !== "error" && timeout > 0) setTimeout(close, timeout);
  else if (timeout > 0) setTimeout(close, Math.max(timeout, 8000));
  return close;
}
