// The MOMOJAN course's table (learn.js loads /static/js/<game>/lesson.js): the play page's own
// table (momojan/table.js: hands, open sets, rivers, dora indicator, piles, points and the
// middle), its prompts and keys (momojan/prompts.js), and, when a round ends, the play page's
// own account of it (momojan/results.js: the winning hand, its yaku, dora, set bonus and
// payment, or the wall settlement). The page judges nothing: every move goes to learn.js's
// `onMove`, and the server's engine answers with the table as it then stands (the computer
// player's moves made).
//
// `mountDemo` draws a worked example's frames (learn.js's player steps through them) on the same
// table; the frame that ends a round shows its account instead.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { cpuName } from "../seat-names.js";
import { promptButtons, tableKey } from "./prompts.js";
import { roundView } from "./results.js";
import { MomojanTable } from "./table.js";

const LEARNER = 0;
/** How long the demo's autoplay holds a frame, by the speed setting (ms). */
const DEMO_PAUSE = { slow: 2600, normal: 1800, fast: 1000, instant: 350 };

/** The seats as a lesson names them: "You" and the computer player "CPU 2". */
function seatNames() {
  return [t("play.you"), cpuName(1)];
}

function nameOf(seat) {
  return seatNames()[seat] ?? "";
}

/** The round that `view` shows ended since `previous` (null: none ended). */
function endedRound(view, previous) {
  const before = previous?.results?.length ?? view.results.length;
  return view.results.length > before ? view.results[view.results.length - 1] : null;
}

/** A finished round's account, as the play page's round dialog gives it. */
function roundBox(box, result, view) {
  const { title, body } = roundView(result, { name: nameOf, viewer: LEARNER, over: Boolean(view.outcome) });
  box.replaceChildren(h("h3", { class: "mj-lesson-round-title" }, title), body);
  box.dataset.end = result.end;
  box.hidden = false;
}

export function mountLesson(stage, { onMove }) {
  const board = h("div", { class: "mj mj-lesson-table" });
  const ended = h("section", { class: "mj-lesson-round", hidden: true });
  const turnText = h("span", { class: "turn-text" });
  const turn = h("p", { class: "turn", "aria-live": "polite" }, h("span", { class: "turn-dot", "aria-hidden": "true" }), turnText);
  const prompts = h("div", { class: "prompt-bar mj-lesson-prompts", role: "group", "aria-label": t("momojan.prompts") });
  const keys = h("p", { class: "hint muted mj-lesson-keys" }, h("span", { class: "hint-keys" }, t("momojan.lesson.keys")));
  const dock = h("div", { class: "mj-lesson-dock" }, turn, prompts, keys);
  const root = h("div", { class: "mj-lesson" }, ended, board, dock);
  stage.replaceChildren(root);

  let view = null;
  let legal = [];
  let riichiMode = false;
  /** The lesson's table stopped: the server answered with no move left (right or wrong). */
  let stopped = false;
  const table = new MomojanTable(board, {
    seat: LEARNER,
    names: seatNames(),
    onDiscard: (card, riichi) => move({ type: "discard", card, riichi: Boolean(riichi) }),
    onDraw: (pile) => drawFrom(pile),
  });
  table.setOrderKey(null);

  function move(action) {
    if (!legal.length) return;
    legal = [];
    riichiMode = false;
    draw();
    onMove(action);
  }

  function drawFrom(pile) {
    if (legal.some((action) => action.type === "draw" && action.pile === pile)) move({ type: "draw", pile });
  }

  function toggleRiichi() {
    riichiMode = !riichiMode;
    draw();
  }

  /** The turn line: what the table waits for, from the learner's moves (as on the play page). */
  function turnWords() {
    if (!legal.length) {
      if (view?.outcome) return ["over", t("momojan.lesson.over")];
      if (!stopped) return ["wait", t("momojan.lesson.still")];
      return ["wait", board.hidden ? t("momojan.round.over") : t("momojan.lesson.stopped")];
    }
    if (riichiMode) return ["you", t("momojan.turn.riichi_pick")];
    const can = (type) => legal.some((action) => action.type === type);
    if (view.riichi[LEARNER] && view.phase !== "start") {
      return ["you", can("tsumo") ? t("momojan.turn.tsumo_or_discard") : t("momojan.turn.riichi_discard")];
    }
    if (view.phase === "start") {
      if (can("pass")) return ["you", t("momojan.turn.empty")];
      if (can("ron") || can("pon") || can("chi")) return ["you", t("momojan.turn.call_or_draw")];
      return ["you", t("momojan.turn.draw")];
    }
    if (view.phase === "called") {
      return ["you", can("draw3") ? t("momojan.turn.draw3_or_discard") : t("momojan.turn.discard")];
    }
    return ["you", t("momojan.turn.discard")];
  }

  function draw() {
    if (!view) return;
    root.dataset.act = legal.length ? "you" : "";
    table.riichiMode = riichiMode;
    table.setLegal(legal);
    prompts.replaceChildren(...promptButtons(legal, { offer: view.offer, riichiMode, act: move, onRiichi: toggleRiichi }));
    const [kind, words] = turnWords();
    turn.dataset.turn = kind;
    turnText.textContent = words;
  }

  function showTable(next, nextLegal, previous) {
    stopped = false;
    view = next;
    legal = nextLegal;
    riichiMode = false;
    const result = previous ? endedRound(next, previous) : null;
    // A round that ended is told by its account; the next deal under it is not the lesson's.
    board.hidden = Boolean(result);
    if (result) roundBox(ended, result, next);
    else ended.hidden = true;
  }

  document.addEventListener("keydown", (event) => {
    if (!legal.length || !stage.isConnected || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, select, textarea, .learn-demo, .learn-list")) return;
    const taken = tableKey(event, {
      legal,
      piles: view.piles,
      hand: board,
      prompts,
      draw: drawFrom,
      act: move,
      riichiMode,
      leaveRiichi: () => {
        riichiMode = false;
        draw();
      },
    });
    if (taken) event.preventDefault();
  });

  return {
    /** Show a lesson's position (or the last one accepted, for another try). */
    show(next, nextLegal) {
      showTable(next, nextLegal, null);
      table.show(next, { legal: [] });
      draw();
    },
    /** The server's answer to a move: the table as it now stands, after a short pause. */
    async play(next, nextLegal) {
      const previous = view;
      showTable(next, [], previous);
      await table.play(next, { legal: [] });
      legal = nextLegal;
      stopped = !nextLegal.length;
      draw();
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
  const board = h("div", { class: "mj mj-demo-table" });
  const ended = h("section", { class: "mj-lesson-round mj-demo-round", hidden: true });
  stage.replaceChildren(board, ended);
  const table = new MomojanTable(board, { seat: seat ?? LEARNER, names: seatNames() });
  table.setOrderKey(null);
  let speed = "normal";
  return {
    /** Draw `frame` (the round's account if it ended there) and say what happened in lines. */
    show(frame, previous) {
      table.show(frame, { legal: [] });
      const result = previous ? endedRound(frame, previous) : null;
      board.hidden = Boolean(result);
      if (result) roundBox(ended, result, frame);
      else ended.hidden = true;
      const said = table.describe(frame);
      return said ? [said] : [];
    },
    /** How long autoplay holds `frame` before `next`. */
    pause() {
      return DEMO_PAUSE[speed] ?? DEMO_PAUSE.normal;
    },
    setSpeed(next) {
      speed = next;
      table.setSpeed(next);
    },
  };
}
