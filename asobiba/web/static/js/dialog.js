// Small dialogs built on <dialog class="dialog"> (the design system's dialog): a yes/no question and
// a one-line answer (a name).
import { h } from "./dom.js";

/** Ask a yes/no question; resolves true when the confirming button is chosen. `danger`: the
 * confirming button says the answer destroys something (deleting one's data). */
export function confirmDialog(message, { yes, no, danger = false }) {
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
              class: danger ? "btn btn--danger" : "btn btn--primary",
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

/** Ask for one line of text (a name); resolves the trimmed text, or null when cancelled. */
export function promptDialog(message, { label, yes, no, value = "", maxlength = 100 }) {
  return new Promise((resolve) => {
    const answer = (text) => {
      dialog.close();
      dialog.remove();
      resolve(text);
    };
    const input = h("input", {
      class: "input",
      id: "prompt-input",
      type: "text",
      maxlength,
      autocomplete: "nickname",
      value,
      required: true,
    });
    const form = h(
      "form",
      {
        class: "dialog-body",
        method: "dialog",
        onsubmit: (event) => {
          event.preventDefault();
          const text = input.value.trim();
          if (text) answer(text);
          else input.focus();
        },
      },
      h("p", { class: "dialog-message" }, message),
      h("label", { class: "field-label", for: "prompt-input" }, label),
      input,
      h(
        "div",
        { class: "dialog-actions dialog-actions--row" },
        h("button", { class: "btn", type: "button", onclick: () => answer(null) }, no),
        h("button", { class: "btn btn--primary", type: "submit", "data-confirm": "" }, yes),
      ),
    );
    const dialog = h("dialog", { class: "dialog dialog--confirm", "aria-label": message }, form);
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      answer(null);
    });
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
  });
}
