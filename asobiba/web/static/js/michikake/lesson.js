// The MICHIKAKE course's table (learn.js loads /static/js/<game>/lesson.js): the play page's own
// table (michikake/table.js: seats, crests, points, discard rows, the hand as discard buttons
// with the drawn card set apart), its card faces (cards.js), its prompts (Win, Steal, Pass; keys
// 1-6, W, S, P) and its deal screen (results.js: the win broken down, the empty pile, the
// session's ranking). The page judges nothing: every move goes to learn.js's `onMove`, and the
// server's engine answers with the table as it then stands.
//
// In a lesson the clock stands still (the rule page says how the server dates the learner's
// moves): a claim window's bar stays full and says so.
//
// `mountDemo` draws a worked example's frames (learn.js's player steps through them): the same
// table, the events since the previous frame in words, and the deal's screen at its end.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { cardName, cardSVG } from "./cards.js";
import { dealView, rankingTable } from "./results.js";
import { MichikakeTable, seatNamer } from "./table.js";

const LEARNER = 0;
const KEYS = { w: "win", s: "steal", p: "pass" };
/** "You" for the learner, "CPU n" for the computer players (a lesson seats nobody else). */
const NAMES = seatNamer({ viewer: LEARNER, players: [] });

/** A claim window's countdown in a lesson: full, and standing still. */
function stopClock(root) {
  const bar = root.querySelector(".mk-countdown-bar");
  const text = root.querySelector(".mk-countdown-text");
  if (bar) bar.style.transform = "scaleX(1)";
  if (text) text.textContent = t("michikake.lesson.clock");
}

/** The deal's end under the table once the view has one: the play page's deal screen, and the
 * ranking when the session is over. */
function showResult(box, view) {
  const result = view?.results?.at(-1);
  box.hidden = !result;
  if (!result) {
    box.replaceChildren();
    return;
  }
  const deal = dealView(result, { name: NAMES, players: view.players });
  box.dataset.kind = deal.kind;
  const parts = [h("h3", { class: "mk-lesson-result-title" }, deal.title), deal.body];
  if (view.outcome) parts.push(h("div", { class: "table-wrap" }, rankingTable(view.outcome, { name: NAMES })));
  box.replaceChildren(...parts);
}

export function mountLesson(stage, { onMove }) {
  const tableRoot = h("div", { class: "mk mk-lesson-table" });
  const turnText = h("span", { class: "turn-text" });
  const turn = h("p", { class: "turn", "aria-live": "polite" }, h("span", { class: "turn-dot", "aria-hidden": "true" }), turnText);
  const prompts = h("div", { class: "prompt-bar mk-lesson-prompts", role: "group", "aria-label": t("michikake.prompts") });
  const keys = h("p", { class: "hint muted mk-lesson-keys" }, h("span", { class: "hint-keys" }, t("michikake.lesson.keys")));
  const result = h("section", { class: "mk-lesson-result", "aria-label": t("michikake.lesson.result"), hidden: true });
  const root = h("div", { class: "mk-lesson" }, tableRoot, turn, prompts, keys, result);
  stage.replaceChildren(root);

  let view = null;
  let legal = [];
  const table = new MichikakeTable(tableRoot, { name: NAMES, onDiscard: (card) => move({ discard: card }) });
  table.setSeat(LEARNER);

  function can(key) {
    return legal.some((action) => key in action);
  }

  function move(action) {
    const key = Object.keys(action)[0];
    if (!legal.some((a) => key in a && (key !== "discard" || a.discard === action.discard))) return;
    legal = [];
    draw();
    onMove(action);
  }

  function turnWords() {
    if (!view) return ["wait", ""];
    if (view.outcome) return ["over", t("michikake.lesson.session_over")];
    if (view.phase === "break") return ["over", t("michikake.deal_over")];
    if (view.phase === "claim" && can("pass")) {
      const card = cardName(view.window.card);
      if (can("win")) return ["you", t("michikake.turn.claim_win", { card })];
      if (can("steal")) return ["you", t("michikake.turn.claim_steal", { card })];
      return ["you", t("michikake.turn.claim_pass", { card })];
    }
    if (can("win")) return ["you", t("michikake.turn.win_draw")];
    if (can("discard")) return ["you", t("michikake.turn.discard")];
    return ["wait", t("michikake.lesson.still")];
  }

  function button(label, key, { cls = "", action, card = null }) {
    return h(
      "button",
      { type: "button", class: `btn mk-prompt ${cls}`.trim(), "data-action": Object.keys(action)[0], onclick: () => move(action) },
      card ? cardSVG(card, { cls: "mk-card--tiny", label: false }) : null,
      h("span", { class: "mk-prompt-label" }, label),
      h("kbd", {}, key),
    );
  }

  function renderPrompts() {
    const buttons = [];
    const card = view?.window?.card ?? null;
    if (can("win")) {
      const claim = view.phase === "claim";
      buttons.push(
        button(claim ? t("michikake.act.win_on") : t("michikake.act.win_draw"), "W", {
          cls: "btn--primary mk-prompt--win",
          action: { win: true },
          card: claim ? card : null,
        }),
      );
    }
    if (can("steal")) {
      buttons.push(button(t("michikake.act.steal", { cost: view.steal_cost }), "S", { cls: "btn--accent", action: { steal: true }, card }));
    }
    if (can("pass")) {
      buttons.push(button(t("michikake.act.pass"), "P", { cls: "btn--large mk-prompt--pass", action: { pass: true } }));
    }
    prompts.replaceChildren(...buttons);
  }

  function draw() {
    if (!view) return;
    root.dataset.act = [...new Set(legal.map((action) => Object.keys(action)[0]))].join(" ");
    root.dataset.phase = view.phase;
    table.setLegal(legal);
    stopClock(tableRoot);
    renderPrompts();
    const [kind, words] = turnWords();
    turn.dataset.turn = kind;
    turnText.textContent = words;
    showResult(result, view);
  }

  document.addEventListener("keydown", (event) => {
    if (!legal.length || !stage.isConnected || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, select, textarea, .learn-demo, .learn-list")) return;
    const key = event.key.toLowerCase();
    const digit = Number(event.key);
    if (Number.isInteger(digit) && digit >= 1 && digit <= 6) {
      const card = stage.querySelectorAll(".mk-hand .mk-hand-card")[digit - 1];
      if (card && !card.disabled) {
        event.preventDefault();
        move({ discard: card.dataset.card });
      }
    } else if (key in KEYS && can(KEYS[key])) {
      event.preventDefault();
      move({ [KEYS[key]]: true });
    }
  });

  return {
    /** Show a lesson's position (or the last one accepted, for another try). */
    show(next, nextLegal) {
      view = next;
      legal = nextLegal;
      table.show(view, { legal });
      draw();
    },
    /** The server's answer to a move: the table as it now stands, after the play page's pause. */
    async play(next, nextLegal) {
      view = next;
      legal = nextLegal;
      const shown = table.play(view, { legal }); // draws at once, then pauses
      draw();
      await shown;
    },
    setLegal(nextLegal) {
      legal = nextLegal;
      draw();
    },
    setSpeed(speed) {
      table.setSpeed(speed);
    },
  };
}

/** A worked example's table: each frame as the learner's seat sees it (learn.js plays them). */
export function mountDemo(stage, { seat = LEARNER } = {}) {
  const root = h("div", { class: "mk mk-demo-table" });
  const result = h("section", { class: "mk-lesson-result", "aria-label": t("michikake.lesson.result"), hidden: true });
  stage.replaceChildren(root, result);
  const table = new MichikakeTable(root, { name: NAMES });
  table.setSeat(seat);
  return {
    /** Draw `frame` and say what led to it from `previous`, one line per event. */
    show(frame, previous) {
      table.show(frame, { legal: [] });
      stopClock(root);
      showResult(result, frame);
      return previous ? table.describe(frame, previous) : [];
    },
    /** How long autoplay holds a frame: three of the play page's pauses, time to read the
     * table (never less than a third of a second, even at the instant speed). */
    pause() {
      return Math.max(350, 3 * table.timing().step);
    },
    setSpeed(speed) {
      table.setSpeed(speed);
    },
  };
}
