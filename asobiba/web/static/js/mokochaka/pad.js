// The Mokochaka call pad: the call being assembled and Undo; the four animals and Call; the three
// special calls. The play page (its template's #pad), the course and the call trainer (built here
// by `buildPad`) all call with it, so the prompts are the same everywhere.
//
// It knows no rule: a word is sent only when `legal` holds it, and an animal key is live only
// while some legal word starts with the call so far. A special call's button or key grabs at once
// (a grab always carries its word). Keys: animals 1-4 (or M P O G), Enter calls, Backspace undoes,
// specials 7-9 (or Z X C).
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { ANIMALS, SPECIALS, cardFace, wordText } from "./cards.js";

const ANIMAL_KEYS = { 1: "moko", 2: "paka", 3: "pome", 4: "gabu", m: "moko", p: "paka", o: "pome", g: "gabu" };
const SPECIAL_KEYS = { 7: "mokochaka", 8: "chakamoko", 9: "chakamokochaka", z: "mokochaka", x: "chakamoko", c: "chakamokochaka" };
const KEY_OF = { moko: "1", paka: "2", pome: "3", gabu: "4", mokochaka: "7", chakamoko: "8", chakamokochaka: "9" };

/** The pad's markup (the play page's template holds the same, with ids for its tests). */
export function buildPad() {
  return h(
    "div",
    { class: "mk-pad" },
    h(
      "div",
      { class: "mk-pad-row" },
      h(
        "p",
        { class: "mk-assembled", "aria-live": "polite", "data-empty": "" },
        h("span", { class: "visually-hidden" }, t("moko.your_call")),
        h("span", { class: "mk-assembled-text" }, t("moko.assemble_hint")),
      ),
      h(
        "button",
        { class: "btn mk-key mk-undo", type: "button", "data-key": "Backspace" },
        h("span", {}, t("moko.undo")),
        h("kbd", {}, "⌫"),
      ),
    ),
    h(
      "div",
      { class: "mk-pad-row" },
      h("div", { class: "mk-animals", role: "group", "aria-label": t("moko.animals") }),
      h(
        "button",
        { class: "btn btn--primary mk-key mk-send", type: "button", "data-key": "Enter" },
        h("span", {}, t("moko.send")),
        h("kbd", {}, "Enter"),
      ),
    ),
    h("div", { class: "mk-specials", role: "group", "aria-label": t("moko.specials") }),
  );
}

export class CallPad {
  /**
   * @param {HTMLElement} root the `.mk-pad` (from the template or `buildPad`).
   * @param {{onAction: (action: object) => void}} options `onAction` gets `{call: word}` or
   *   `{grab: word}`, only ever one of `legal`.
   */
  constructor(root, { onAction }) {
    this.root = root;
    this.onAction = onAction;
    this.legal = [];
    this.typed = [];
    this.idle = "";
    this.assembled = root.querySelector(".mk-assembled");
    this.assembledText = root.querySelector(".mk-assembled-text");
    this.animals = root.querySelector(".mk-animals");
    this.specials = root.querySelector(".mk-specials");
    this.undoButton = root.querySelector(".mk-undo");
    this.sendButton = root.querySelector(".mk-send");
    // Built once and only enabled or disabled afterwards: a button replaced under a finger would
    // lose its tap.
    this.animals.append(
      ...ANIMALS.map((animal) =>
        h(
          "button",
          {
            class: `btn mk-key mk-key--animal mk-key--${animal}`,
            type: "button",
            "data-animal": animal,
            onclick: () => this.add(animal),
          },
          h("span", { class: "mk-key-art", "aria-hidden": "true" }, cardFace(`${animal}1`, { label: "" })),
          h("span", { class: "mk-key-name" }, wordText(animal)),
          h("kbd", {}, KEY_OF[animal]),
        ),
      ),
    );
    this.specials.append(
      ...SPECIALS.map((special) =>
        h(
          "button",
          {
            class: "btn btn--accent mk-key mk-key--special",
            type: "button",
            "data-grab": special,
            onclick: () => this.grab(special),
          },
          h("span", { class: "mk-key-name" }, wordText(special)),
          h("kbd", {}, KEY_OF[special]),
        ),
      ),
    );
    this.undoButton.addEventListener("click", () => this.undo());
    this.sendButton.addEventListener("click", () => this.send());
  }

  /** The words `kind` ("call" or "grab") the seat may say now. */
  words(kind) {
    return this.legal.filter((action) => kind in action).map((action) => action[kind]);
  }

  /** The animals that may come next: those that keep the call a start of some legal word. */
  nextAnimals() {
    const words = this.words("call");
    const sofar = this.typed.join("");
    return new Set(ANIMALS.filter((animal) => words.some((word) => word.startsWith(sofar + animal))));
  }

  /** Clear the call being assembled (a new card asks for a new call). */
  reset() {
    this.typed = [];
    this.render();
  }

  /**
   * Show what the seat may say now. `idle`: the line shown in place of the call while there is
   * nothing to assemble (what the table waits for).
   */
  setLegal(legal, { idle = "" } = {}) {
    this.legal = legal;
    this.idle = idle;
    if (!this.words("call").length) this.typed = [];
    this.render();
  }

  render() {
    const calling = this.words("call").length > 0;
    const grabs = new Set(this.words("grab"));
    const next = calling ? this.nextAnimals() : new Set();
    const word = this.typed.join("");
    this.root.dataset.active = calling || grabs.size ? "true" : "false";
    for (const button of this.animals.children) button.disabled = !next.has(button.dataset.animal);
    for (const button of this.specials.children) button.disabled = !grabs.has(button.dataset.grab);
    this.undoButton.disabled = !calling || this.typed.length === 0;
    this.sendButton.disabled = !calling || !this.words("call").includes(word);
    this.assembled.dataset.empty = this.typed.length ? "false" : "true";
    this.assembled.dataset.word = word;
    this.assembledText.textContent = this.typed.length
      ? wordText(word)
      : calling
        ? t("moko.assemble_hint")
        : grabs.size
          ? t("moko.grab_hint")
          : this.idle;
  }

  add(animal) {
    if (!this.nextAnimals().has(animal)) {
      this.shake();
      return;
    }
    this.typed = [...this.typed, animal];
    this.render();
  }

  undo() {
    if (!this.typed.length) return;
    this.typed = this.typed.slice(0, -1);
    this.render();
  }

  send() {
    const word = this.typed.join("");
    if (!this.words("call").includes(word)) {
      this.shake();
      return;
    }
    this.typed = [];
    this.onAction({ call: word });
  }

  grab(word) {
    if (!this.words("grab").includes(word)) {
      this.shake();
      return;
    }
    this.typed = [];
    this.onAction({ grab: word });
  }

  shake() {
    this.assembled.classList.remove("mk-shake");
    void this.assembled.offsetWidth; // restart the animation
    this.assembled.classList.add("mk-shake");
  }

  /**
   * A key for the pad (`key` lower-cased when one character): true when the pad took it. Digits
   * 1-3 are the piles' while a pile is to be chosen, so the caller asks the pad only otherwise.
   */
  key(key, event) {
    if (key in SPECIAL_KEYS && this.words("grab").length) {
      event.preventDefault();
      this.grab(SPECIAL_KEYS[key]);
      return true;
    }
    if (!this.words("call").length) return false;
    if (key in ANIMAL_KEYS) {
      event.preventDefault();
      this.add(ANIMAL_KEYS[key]);
      return true;
    }
    if (key === "Backspace") {
      event.preventDefault();
      this.undo();
      return true;
    }
    if (key === "Enter" && !event.target.closest?.("a")) {
      // Enter sends the call wherever the focus is (a focused pad button would add an animal).
      event.preventDefault();
      this.send();
      return true;
    }
    return false;
  }
}
