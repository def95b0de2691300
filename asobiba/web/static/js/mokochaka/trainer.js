// Mokochaka's call trainer table (trainer.js loads /static/js/<game>/trainer.js): the play page's
// piles, token and call pad (mokochaka/board.js, mokochaka/pad.js), the learner alone at the
// table as the one who turned the card. Each card the server sends turns over on its pile; the
// 3-second ring runs from its arrival (the server's timer decides; the ring only shows it); the
// verdict puts the right call on the felt and the learner's words in their bubble.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { MokochakaBoard, quoted, seatNames } from "./board.js";
import { CallPad, buildPad } from "./pad.js";

export function mountTrainer(stage, { onAnswer }) {
  const table = h("div", { class: "mk-table mk-trainer-table" });
  const padRoot = buildPad();
  const root = h("div", { class: "mk-lesson mk-trainer" }, table, h("div", { class: "mk-dock mk-lesson-dock" }, padRoot));
  stage.replaceChildren(root);
  const board = new MokochakaBoard(table, { seat: 0, names: { ...seatNames([{ kind: "human" }], 0), level: () => "" } });
  const pad = new CallPad(padRoot, { onAction: answer });
  let view = null;
  let legal = [];
  let ring = null;

  function answer(action) {
    if (!legal.length) return;
    legal = [];
    pad.setLegal([], { idle: t("moko.trainer.idle") });
    stopRing();
    const word = action.call ?? action.grab;
    board.bubble(0, action.grab ? t("moko.bubble.grab", { word: quoted(word) }) : quoted(word), action.grab ? "grab" : "call", { ms: null });
    onAnswer(action);
  }

  function runRing(limit) {
    stopRing();
    const begun = performance.now();
    const step = () => {
      const left = Math.max(0, 1 - (performance.now() - begun) / (limit * 1000));
      board.setRing(0, left);
      if (left > 0 && ring !== null) ring = requestAnimationFrame(step);
    };
    ring = requestAnimationFrame(step);
    board.setRing(0, 1);
  }

  function stopRing() {
    if (ring !== null) cancelAnimationFrame(ring);
    ring = null;
  }

  document.addEventListener("keydown", (event) => {
    if (!legal.length || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, select, textarea")) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    pad.key(key, event);
  });

  return {
    /** A new session: an empty table. */
    reset() {
      view = null;
      legal = [];
      board.clearTalk();
      pad.reset();
      pad.setLegal([], { idle: t("moko.trainer.idle") });
    },
    /** A card just turned at the learner: it turns over, the pad opens, the ring runs. */
    show(next, nextLegal, limit) {
      view = next;
      legal = nextLegal;
      board.clearTalk();
      board.render(view, { act: "call", legal, flipped: view.events.at(-1) });
      pad.reset();
      pad.setLegal(legal, { idle: t("moko.trainer.idle") });
      runRing(limit);
    },
    /** The server's verdict: the right call on the felt. */
    judged(msg) {
      legal = [];
      stopRing();
      pad.setLegal([], { idle: t("moko.trainer.idle") });
      if (view) board.render(view, { act: "", legal: [] });
      board.judge(msg.correct.map((action) => quoted(action.call ?? action.grab)).join(t("moko.or")), { ms: null });
      table.dataset.right = String(msg.right);
    },
    setSpeed(speed) {
      board.setSpeed(speed);
    },
  };
}
