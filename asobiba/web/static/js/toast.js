// Toasts: short notices and errors (#toasts, aria-live), shown over the site's sticky header.
// The header is the band kept for them (components.css), so a notice never covers a page's
// controls; it takes no taps and leaves on its own. The newest is on top.
import { h } from "./dom.js";

/** Show `message` for `timeout` ms (errors at least 8 s); returns a function that removes it. */
export function toast(message, { kind = "info", timeout = 4000 } = {}) {
  const box = document.getElementById("toasts");
  if (!box) return () => {};
  const node = h(
    "div",
    { class: `toast toast--${kind}`, role: kind === "error" ? "alert" : "status" },
    h("p", {}, message),
  );
  const close = () => node.remove();
  box.prepend(node);
  if (timeout > 0) setTimeout(close, kind === "error" ? Math.max(timeout, 8000) : timeout);
  return close;
}
