// A small confirm dialog built on <dialog class="dialog"> (the design system's dialog).
import { h } from "./dom.js";

/** Ask a yes/no question; resolves true when the first (confirming) button is chosen. */
export function confirmDialog(message, { yes, no }) {
  return new Promise((resolve) => {
    const answer = (value) => {
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    const dialog = h(
      "dialog",
      { class: "dialog dialog--confirm", "aria-label": message },
      h(
        "div",
        { class: "dialog-body" },
        h("p", { class: "dialog-message" }, message),
        h(
          "div",
          { class: "dialog-actions dialog-actions--row" },
          h("button", { class: "btn", type: "button", onclick: () => answer(false) }, no),
          h(
            "button",
            {
              class: "btn btn--primary",
              type: "button",
              "data-confirm": "",
              onclick: () => answer(true),
            },
            yes,
          ),
        ),
      ),
    );
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      answer(false);
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}
