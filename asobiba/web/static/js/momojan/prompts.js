// The MOMOJAN prompts (ロン, ツモ, ポン, チー, 開, 3枚引く, リーチ, 見送る) and their keys, shared by the
// play page (momojan/play.js) and the course (momojan/lesson.js), so a lesson asks exactly as a
// game does. Every prompt comes from the legal actions the server sent; nothing is judged here.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { cardSVG } from "./cards.js";

/** Each prompt's key (`aria-keyshortcuts` on its button; `promptKey` below). */
export const SHORTCUTS = { tsumo: "T", ron: "R", pon: "P", chi: "C", kai: "K", riichi: "L", draw3: "D", pass: "N" };

/** A game term's button label: the page's word, and on an English page the Japanese term
 * beside it ("Pon ポン"); on a Japanese page the two are the same and shown once. */
function termLabel(type) {
  const label = t(`momojan.act.${type}`);
  const term = t(`momojan.act.${type}.term`);
  return term === label ? label : [label, " ", h("span", { class: "mj-prompt-term", lang: "ja" }, term)];
}

function gloss(key) {
  const text = t(`momojan.kind.${key}.gloss`);
  return text && text !== `momojan.kind.${key}.gloss` ? text : null;
}

function promptButton(label, { cls = "", onclick, cards = [], gloss: note = null, action = null }) {
  return h(
    "button",
    {
      type: "button",
      class: `btn mj-prompt ${cls}`.trim(),
      "data-action": action,
      "data-cards": cards.length ? cards.join(" ") : null,
      "aria-keyshortcuts": SHORTCUTS[action] ?? null,
      onclick,
    },
    h("span", { class: "mj-prompt-label" }, label),
    note ? h("span", { class: "mj-prompt-gloss" }, note) : null,
    cards.length
      ? h(
          "span",
          { class: "mj-prompt-cards", "aria-hidden": "true" },
          cards.map((c) => cardSVG(c, { cls: "mj-card--tiny", label: false })),
        )
      : null,
  );
}

/**
 * The prompt buttons for `legal`: wins first, then calls and 開, drawing three, riichi (a toggle:
 * `onRiichi`, then a card of the hand) and letting the last discard go. `offer` is the discard
 * that may be called; `act(action)` sends a choice.
 */
export function promptButtons(legal, { offer, riichiMode, act, onRiichi }) {
  const buttons = [];
  for (const action of legal) {
    if (action.type === "ron" || action.type === "tsumo") {
      buttons.push(
        promptButton(termLabel(action.type), {
          cls: "btn--primary mj-prompt--win",
          gloss: gloss(action.type),
          action: action.type,
          cards: action.type === "ron" && offer ? [offer] : [],
          onclick: () => act({ type: action.type }),
        }),
      );
    }
  }
  for (const action of legal) {
    if (action.type === "pon" || action.type === "chi") {
      buttons.push(
        promptButton(termLabel(action.type), {
          cls: "btn--accent",
          gloss: gloss(action.type),
          action: action.type,
          cards: [...action.cards, offer],
          onclick: () => act({ type: action.type, cards: action.cards }),
        }),
      );
    } else if (action.type === "kai") {
      buttons.push(
        promptButton(termLabel("kai"), {
          cls: "btn--accent",
          gloss: gloss("kai"),
          action: "kai",
          cards: action.cards,
          onclick: () => act({ type: "kai", cards: action.cards }),
        }),
      );
    }
  }
  if (legal.some((a) => a.type === "draw3")) {
    buttons.push(promptButton(t("momojan.act.draw3"), { action: "draw3", onclick: () => act({ type: "draw3" }) }));
  }
  if (legal.some((a) => a.type === "discard" && a.riichi)) {
    buttons.push(
      promptButton(riichiMode ? t("momojan.act.riichi_cancel") : termLabel("riichi"), {
        cls: riichiMode ? "btn--ghost" : "",
        gloss: riichiMode ? null : gloss("riichi"),
        action: "riichi",
        onclick: onRiichi,
      }),
    );
  }
  if (legal.some((a) => a.type === "pass")) {
    buttons.push(promptButton(t("momojan.act.pass"), { action: "pass", onclick: () => act({ type: "pass" }) }));
  }
  return buttons;
}

// Keyboard (the pages list it: momojan.hint_keys): 1-8 discard the hand's n-th card (the drawn
// cards last); D draws, one card from the tallest pile at the start of a turn or three after
// 開/ポン/チー; N lets a discard pass; T ツモ, R ロン; P ポン, C チー, K 開 and L リーチ press their
// prompt button (with several, the key moves the focus from one to the next and Enter takes it);
// Esc leaves riichi mode.
const PROMPT_KEYS = Object.fromEntries(
  Object.entries(SHORTCUTS)
    .filter(([action]) => action !== "draw3")
    .map(([action, key]) => [key.toLowerCase(), action]),
);

function pressPrompt(prompts, kind) {
  const buttons = [...prompts.querySelectorAll(`[data-action="${kind}"]`)];
  if (buttons.length === 1) buttons[0].click();
  else if (buttons.length) buttons[(buttons.indexOf(document.activeElement) + 1) % buttons.length].focus();
  return buttons.length > 0;
}

/**
 * Handle a key of the table's on the seat's own move. `hand` is the root holding the hand's card
 * buttons, `prompts` the prompt bar; `draw(pile)` asks for a draw of one card, `act(action)`
 * sends one, `leaveRiichi()` leaves riichi mode. True when the key was taken.
 */
export function tableKey(event, { legal, piles, hand, prompts, draw, act, riichiMode, leaveRiichi }) {
  const key = event.key.toLowerCase();
  const digit = Number(event.key);
  if (Number.isInteger(digit) && digit >= 1 && digit <= 9) {
    const button = hand.querySelectorAll(".mj-hand--mine .mj-hand-card")[digit - 1];
    if (!button?.classList.contains("is-legal")) return false;
    button.click();
    return true;
  }
  if (key === "d") {
    const draws = legal.filter((a) => a.type === "draw");
    if (legal.some((a) => a.type === "draw3")) {
      act({ type: "draw3" });
      return true;
    }
    if (!draws.length) return false;
    draw(draws.reduce((best, a) => (piles[a.pile] > piles[best.pile] ? a : best)).pile);
    return true;
  }
  if (PROMPT_KEYS[key] && !event.shiftKey) return pressPrompt(prompts, PROMPT_KEYS[key]);
  if (key === "escape" && riichiMode) {
    leaveRiichi();
    return true;
  }
  return false;
}
