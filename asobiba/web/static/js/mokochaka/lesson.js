// The Mokochaka course's table (learn.js loads /static/js/<game>/lesson.js): the play page's own
// table (mokochaka/board.js: seats, piles, token, bubbles) and call pad (mokochaka/pad.js), with
// one prompt of the lessons only: "Let it go" ({"wait": true}, key W) when someone else turned
// the card. The page judges nothing: every move goes to learn.js's `onMove`, and the server's
// engine answers with the table as it then stands.
//
// In a lesson the clock stands still (the rule page says how the server dates the learner's
// moves), so the flipper's ring shows full and nothing runs out.
//
// `mountDemo` draws a worked example's frames (learn.js's player steps through them): the same
// table, each frame's bubbles and the events since the previous frame in words.
import { h } from "../dom.js";
import { t, tn } from "../i18n.js";
import { MokochakaBoard, describe as describeFrame, eventText, newEvents, reasonText, seatNames } from "./board.js";
import { CallPad, buildPad } from "./pad.js";

const WAIT_KEY = "w";
const LEARNER = 0;

/** The players of a lesson's table: the learner and computer players ("CPU n"). */
function players(view) {
  const n = view?.seats ?? 0;
  return Array.from({ length: n }, (_, seat) => ({ kind: seat === LEARNER ? "human" : "bot" }));
}

/** The events of the turn shown: from the last flip on (all of them before any flip). */
function turnEvents(view) {
  const events = view?.events ?? [];
  const flip = events.findLastIndex((event) => event.type === "flip");
  return flip >= 0 ? events.slice(flip) : events;
}

/** The right calls of the last judgement in `view`'s events. */
function lastRight(view) {
  return (view?.events ?? []).filter((event) => event.type === "judgement").at(-1)?.correct ?? [];
}

export function mountLesson(stage, { onMove }) {
  const table = h("div", { class: "mk-table mk-lesson-table" });
  const turnText = h("span", { class: "turn-text" });
  const turn = h("p", { class: "turn", "aria-live": "polite" }, h("span", { class: "turn-dot", "aria-hidden": "true" }), turnText);
  const padRoot = buildPad();
  const wait = h(
    "button",
    { class: "btn mk-key mk-wait", type: "button", "data-wait": "", hidden: true, onclick: () => letGo() },
    h("span", { class: "mk-key-name" }, t("moko.lesson.wait")),
    h("kbd", {}, WAIT_KEY.toUpperCase()),
  );
  const keys = h("p", { class: "hint muted mk-lesson-keys" }, h("span", { class: "hint-keys" }, t("moko.lesson.keys")));
  const dock = h("div", { class: "mk-dock mk-lesson-dock" }, turn, padRoot, wait, keys);
  const root = h("div", { class: "mk-lesson" }, table, dock);
  stage.replaceChildren(root);

  let view = null;
  let legal = [];
  let chosen = [];
  const names = { name: (seat) => seatNames(players(view), LEARNER).name(seat), level: () => "" };
  const board = new MokochakaBoard(table, { seat: LEARNER, names, onPile: pressPile, onGive: (seat) => move({ give: seat }) });
  const pad = new CallPad(padRoot, { onAction: move });

  function act() {
    const keys = new Set(legal.map((action) => Object.keys(action)[0]));
    for (const key of ["flip", "call", "take", "give", "grab"]) if (keys.has(key)) return key;
    return "";
  }

  function move(action) {
    if (!legal.length) return;
    legal = [];
    chosen = [];
    draw();
    onMove(action);
  }

  function letGo() {
    if (legal.some((action) => action.wait === true)) move({ wait: true });
  }

  function pressPile(i) {
    const now = act();
    if (now === "flip") {
      if (legal.some((action) => action.flip === i)) move({ flip: i });
    } else if (now === "take") {
      if (!legal.some((action) => action.take.includes(i))) return;
      chosen = chosen.includes(i) ? chosen.filter((p) => p !== i) : [...chosen, i];
      const wanted = [...chosen].sort((a, b) => a - b);
      const match = legal.find((action) => action.take.length === wanted.length && action.take.every((p, k) => p === wanted[k]));
      if (match) move({ take: match.take });
      else draw();
    }
  }

  function turnWords() {
    const now = act();
    if (now === "flip") return ["you", t("moko.turn.flip_you")];
    if (now === "call") return ["you", t("moko.lesson.call")];
    if (now === "grab") return ["you", t("moko.lesson.grab_or_wait", { name: names.name(view.turn) })];
    if (now === "take") return ["you", tn("moko.turn.take_you", view.choice?.count ?? 1)];
    if (now === "give") return ["you", t("moko.turn.give_you", { reason: reasonText(view.choice?.reason, lastRight(view)) })];
    return ["wait", view?.outcome ? t("moko.lesson.over") : t("moko.lesson.still")];
  }

  function draw(flipped = null) {
    if (!view) return;
    const now = act();
    root.dataset.act = now;
    root.dataset.phase = view.phase;
    board.render(view, { act: now, legal, chosen, flipped });
    if (view.phase === "call") board.setRing(view.turn, 1);
    pad.setLegal(legal, { idle: t("moko.lesson.idle") });
    wait.hidden = !legal.some((action) => action.wait === true);
    const [kind, words] = turnWords();
    turn.dataset.turn = kind;
    turnText.textContent = words;
  }

  /** Bubbles and the judge's line for `events` (kept until the table changes again). */
  function tell(events) {
    for (const event of events) {
      const { bubble, judge } = eventText(event, { name: names.name, viewer: LEARNER, right: lastRight(view) });
      if (judge) board.judge(judge, { ms: null });
      if (bubble) board.bubble(...bubble, { ms: null });
    }
  }

  document.addEventListener("keydown", (event) => {
    if (!legal.length || !stage.isConnected || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, select, textarea, .learn-demo, .learn-list")) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    const now = act();
    if ((now === "flip" || now === "take") && ["1", "2", "3"].includes(key)) {
      event.preventDefault();
      pressPile(Number(key) - 1);
    } else if (now === "give" && /^[1-9]$/.test(key)) {
      // CPU n sits at seat n - 1: its number gives it the card.
      const seat = Number(key) - 1;
      if (legal.some((action) => action.give === seat)) {
        event.preventDefault();
        move({ give: seat });
      }
    } else if (key === WAIT_KEY && legal.some((action) => action.wait === true)) {
      event.preventDefault();
      letGo();
    } else {
      pad.key(key, event);
    }
  });

  return {
    /** Show a lesson's position (or the last one accepted, for another try). */
    show(next, nextLegal) {
      view = next;
      legal = nextLegal;
      chosen = [];
      pad.reset();
      board.clearTalk();
      draw();
      tell(turnEvents(view));
    },
    /** The server's answer to a move: the table as it now stands, the new card turning over. */
    async play(next, nextLegal) {
      const previous = view;
      view = next;
      legal = nextLegal;
      chosen = [];
      const fresh = newEvents(next, previous);
      const flipped = fresh.filter((event) => event.type === "flip").at(-1) ?? null;
      if (flipped) board.clearTalk();
      draw(flipped);
      tell(fresh);
    },
    setLegal(nextLegal) {
      legal = nextLegal;
      draw();
    },
    setSpeed(speed) {
      board.setSpeed(speed);
    },
  };
}

/** A worked example's table: each frame as the learner's seat sees it (learn.js plays them). */
export function mountDemo(stage, { seat = LEARNER } = {}) {
  const table = h("div", { class: "mk-table mk-demo-table" });
  stage.replaceChildren(table);
  let context = { viewer: seat, players: [], level: "" };
  const board = new MokochakaBoard(table, { seat });
  return {
    /** Draw `frame`, the bubbles of what led to it from `previous`, and say it in lines. */
    show(frame, previous, { animate = false } = {}) {
      context = { viewer: seat, players: players(frame), level: "" };
      board.names = seatNames(context.players, seat);
      board.show(frame, { previous, animate });
      return describeFrame(frame, { previous, ...context });
    },
    /** How long autoplay holds `frame` before `next`: the game's own rhythm. */
    pause(frame, next) {
      return board.pause(frame, next);
    },
    setSpeed(speed) {
      board.setSpeed(speed);
    },
  };
}
