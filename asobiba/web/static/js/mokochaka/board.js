// The Mokochaka table, drawn from an observation: the seats round the felt (avatar, name, level,
// hand size, the 3-second ring, speech bubbles), the three piles and the token between them, and
// the judge's line. The play page (mokochaka/play.js) and the replay viewer (replay.js) both draw
// with it; what happened is put in words by `eventText` (the play page's log, the replay's lines).
//
// Nothing here talks to the server or keeps time: the play page tells the board what this seat may
// do (`act`, `legal`, the piles chosen so far) and runs the ring's clock; the replay shows frames.
import { h, reducedMotion, svg } from "../dom.js";
import { t, tn } from "../i18n.js";
import { seatName } from "../seat-names.js";
import { cardFace, cardText, parseCard, wordText } from "./cards.js";

export const BUBBLE_MS = { slow: 4500, normal: 3000, fast: 2200, instant: 2200 };
const FLIP_MS = { slow: 700, normal: 420, fast: 220, instant: 0 };

const RING_R = 27;
const RING_LENGTH = 2 * Math.PI * RING_R;

const REASON_KEYS = {
  wrong_call: "moko.reason.wrong_call",
  too_slow: "moko.reason.too_slow",
  false_grab: "moko.reason.false_grab",
  wrong_special: "moko.reason.wrong_special",
};

/** A call word in quotes, as the page shows it: “モコ” / “Moko”. */
export function quoted(word) {
  return t("moko.quote", { word: wordText(word) });
}

/** A penalty's reason in words; `right` is the preceding judgement's right calls. */
export function reasonText(reason, right = []) {
  return t(REASON_KEYS[reason] ?? "moko.reason.other", { right: right.map(quoted).join(t("moko.or")) });
}

function pileList(piles) {
  return piles.map((i) => i + 1).join(t("moko.and"));
}

/**
 * Names of the seats: `players` as the room lists them (`{kind}` each, "bot" or "human"),
 * `viewer` the seat seen as "You" (null for a spectator), `level` the bots' level in words.
 * One name per seat for every viewer (seat-names.js): a computer is "CPU n" with its level on
 * the line under it; a person is called by the name they sat down with, else "Player n".
 */
export function seatNames(players, viewer, level = "") {
  const name = (seat) => seatName(seat, players, viewer);
  const levelOf = (seat) => {
    if (seat === viewer) return "";
    const player = players?.[seat];
    if (player && player.kind !== "bot") return t("play.player");
    return level;
  };
  return { name, level: levelOf };
}

/**
 * One event in plain words (`line`, for the log and the replay), the bubble it puts over a seat
 * (`bubble`: [seat, text, kind], if any) and the judge's line (`judge`, for a judgement).
 * `name(seat)` names a seat; `viewer` is the seat named "You" (null: nobody), whom a sentence
 * speaks to in the second person; `right` is the preceding judgement's right calls (for a
 * penalty).
 */
export function eventText(event, { name, viewer = null, right = [] }) {
  const who = name(event.seat);
  const mine = viewer !== null && event.seat === viewer;
  switch (event.type) {
    case "start":
      return {
        line: mine ? t("moko.ev.start_you") : t("moko.ev.start", { name: who }),
        bubble: [event.seat, t("moko.bubble.start"), "start"],
      };
    case "flip":
      return {
        line: t(event.auto ? "moko.ev.flip_auto" : "moko.ev.flip", {
          name: who,
          card: cardText(event.card),
          n: event.pile + 1,
        }),
      };
    case "call":
      return {
        line: t("moko.ev.call", { name: who, word: quoted(event.word) }),
        bubble: [event.seat, quoted(event.word), "call"],
      };
    case "grab":
      return {
        line: t("moko.ev.grab", { name: who, word: quoted(event.word) }),
        bubble: [event.seat, t("moko.bubble.grab", { word: quoted(event.word) }), "grab"],
      };
    case "judgement": {
      const words = (event.correct ?? []).map(quoted).join(t("moko.or"));
      return { line: t("moko.ev.judgement", { right: words }), judge: words };
    }
    case "token":
      return {
        line: t("moko.ev.token", { name: who, word: quoted(event.word) }),
        bubble: [event.seat, t("moko.bubble.token"), "token"],
      };
    case "penalty": {
      const reason = reasonText(event.reason, right);
      return {
        line: mine ? t("moko.ev.penalty_you", { reason }) : t("moko.ev.penalty", { name: who, reason }),
        bubble: [event.seat, t("moko.bubble.penalty", { reason }), "penalty"],
      };
    }
    case "take":
      return {
        line:
          tn(mine ? "moko.ev.take_you" : "moko.ev.take", event.cards, { name: who, piles: pileList(event.piles ?? []) }) +
          (event.how === "timeout" ? t("moko.ev.timeout") : ""),
        bubble: [event.seat, tn("moko.bubble.take", event.cards), "take"],
      };
    case "bonus":
      return {
        line: tn("moko.ev.bonus", event.cards, { name: who }),
        bubble: [event.seat, tn("moko.bubble.bonus", event.cards), "take"],
      };
    case "give":
      if (event.to === null || event.to === undefined) return { line: t("moko.ev.give_none", { name: who }) };
      {
        const toYou = viewer !== null && event.to === viewer;
        return {
          line:
            tn(toYou ? "moko.ev.give_to_you" : "moko.ev.give", event.cards, { name: who, to: name(event.to) }) +
            (event.how === "timeout" ? t("moko.ev.timeout") : ""),
          bubble: [event.seat, tn(toYou ? "moko.bubble.give_to_you" : "moko.bubble.give", event.cards, { to: name(event.to) }), "give"],
        };
      }
    case "end": {
      const emptied = event.emptied ?? [];
      const others = emptied.filter((seat) => seat !== viewer).map(name).join(t("moko.and"));
      if (!emptied.includes(viewer)) return { line: t("moko.ev.end", { names: others }) };
      return { line: others ? t("moko.ev.end_with_you", { names: others }) : t("moko.ev.end_you") };
    }
    default:
      return { line: event.type };
  }
}

export class MokochakaBoard {
  /**
   * @param {HTMLElement} root holds the table's parts (`.mk-seats--others`, `.mk-piles`,
   *   `.mk-judge`, `.mk-seats--you`); they are built in it when it has none (the replay).
   * @param {{seat?: number|null, names?: {name: (seat) => string, level: (seat) => string},
   *   onPile?: (pile: number) => void, onGive?: (seat: number) => void}} options
   *   `seat`: the viewer's seat (drawn at the bottom; null for a spectator, seat 0 drawn there).
   */
  constructor(root, { seat = null, names = null, onPile = null, onGive = null } = {}) {
    this.root = root;
    this.seat = seat;
    this.names = names ?? seatNames([], seat);
    this.onPile = onPile;
    this.onGive = onGive;
    this.speed = "normal";
    this.obs = null;
    this.busy = false;
    this.bubbleTimers = new Map();
    this.judgeTimer = 0;
    if (!root.querySelector(".mk-piles")) this.build();
    this.others = root.querySelector(".mk-seats--others");
    this.you = root.querySelector(".mk-seats--you");
    this.piles = root.querySelector(".mk-piles");
    this.judgeBox = root.querySelector(".mk-judge");
  }

  build() {
    this.root.classList.add("mk-table");
    this.root.append(
      h("ul", { class: "mk-seats mk-seats--others", "aria-label": t("moko.others") }),
      h(
        "div",
        { class: "mk-field" },
        h("div", { class: "mk-piles" }),
        h("div", { class: "mk-judge", "aria-live": "polite", hidden: true }),
      ),
      h("ul", { class: "mk-seats mk-seats--you" }),
    );
  }

  setSeat(seat) {
    this.seat = seat;
  }

  setSpeed(speed) {
    this.speed = speed in FLIP_MS ? speed : "normal";
  }

  /** `step`: ms the flip takes (0 when nothing animates). */
  timing() {
    return { step: reducedMotion() ? 0 : FLIP_MS[this.speed] ?? FLIP_MS.normal };
  }

  seatNode(seat) {
    return this.root.querySelector(`.mk-seat[data-seat="${seat}"]`);
  }

  /** Seats from the viewer's left, clockwise: the viewer last (drawn at the bottom). */
  seatOrder(obs) {
    const n = obs.seats ?? obs.hands?.length ?? 0;
    const me = this.seat ?? 0;
    return Array.from({ length: n }, (_, k) => (me + 1 + k) % n);
  }

  /**
   * Draw `obs`. `act` is what the viewer may do now ("flip", "call", "grab", "take", "give" or
   * ""), `legal` its actions, `chosen` the piles picked so far when taking, `flipped` the flip
   * event to animate (its pile turns over). Bubbles showing stay.
   */
  render(obs, { act = "", legal = [], chosen = [], flipped = null } = {}) {
    this.obs = obs;
    this.renderSeats(obs, act, legal);
    this.renderPiles(obs, act, legal, chosen, flipped);
  }

  renderSeats(obs, act, legal) {
    const order = this.seatOrder(obs);
    const me = this.seat ?? (order.length ? order[order.length - 1] : 0);
    const items = order.map((seat) => this.seatItem(obs, seat, act, legal));
    this.others.replaceChildren(...items.slice(0, -1));
    this.you.replaceChildren(...items.slice(-1));
    this.others.dataset.count = String(items.length - 1);
    this.you.dataset.seat = String(me);
  }

  seatItem(obs, seat, act, legal) {
    const { name, level } = this.names;
    const acting = obs.phase === "flip" || obs.phase === "call" ? obs.turn : obs.choice?.seat;
    const hand = obs.hands?.[seat] ?? 0;
    const pick = act === "give" && legal.some((action) => action.give === seat);
    const bubble = h("span", { class: "mk-bubble", "data-bubble": "", hidden: true });
    const old = this.seatNode(seat)?.querySelector(".mk-bubble");
    if (old && !old.hidden) {
      bubble.hidden = false;
      bubble.className = old.className;
      bubble.replaceChildren(...old.childNodes);
    }
    const winner = obs.outcome?.winners?.includes(seat);
    const body = [
      h(
        "span",
        { class: "mk-avatar" },
        ringSvg(),
        h("span", { class: "mk-avatar-face", "aria-hidden": "true" }, name(seat).slice(0, 1)),
      ),
      h(
        "span",
        { class: "mk-seat-text" },
        h("span", { class: "mk-seat-name" }, name(seat)),
        level(seat) ? h("span", { class: "mk-seat-level" }, level(seat)) : null,
        h(
          "span",
          { class: "mk-hand", "data-hand": String(hand) },
          h("span", { class: "mk-hand-icon", "aria-hidden": "true" }),
          tn("moko.hand", hand),
        ),
      ),
    ];
    const inner = pick
      ? h(
          "button",
          {
            class: "mk-seat-body mk-seat-pick",
            type: "button",
            "data-give": String(seat),
            onclick: () => this.onGive?.(seat),
            "aria-label": t("moko.give_to", { name: name(seat) }),
          },
          ...body,
        )
      : h("div", { class: "mk-seat-body" }, ...body);
    return h(
      "li",
      {
        class: [
          "mk-seat",
          seat === acting && obs.phase !== "over" && obs.phase !== "preview" ? "mk-seat--acting" : "",
          seat === this.seat ? "mk-seat--you" : "",
          winner ? "mk-seat--winner" : "",
          obs.phase === "call" && seat === obs.turn ? "mk-seat--calling" : "",
        ]
          .filter(Boolean)
          .join(" "),
        "data-seat": String(seat),
      },
      inner,
      bubble,
    );
  }

  /** Show how much of the flipper's 3 seconds is left (`left` from 1 to 0) on their ring. */
  setRing(seat, left) {
    const seatNode = this.seatNode(seat);
    const arc = seatNode?.querySelector(".mk-ring-left");
    if (!arc) return;
    arc.style.strokeDashoffset = String((RING_LENGTH * (1 - left)).toFixed(2));
    seatNode.dataset.left = left.toFixed(2);
    seatNode.classList.toggle("mk-seat--late", left <= 0);
    seatNode.classList.toggle("mk-seat--hurry", left > 0 && left < 0.34);
  }

  renderPiles(obs, act, legal, chosen, flipped) {
    const takeable = new Set();
    if (act === "take") for (const action of legal) for (const i of action.take) takeable.add(i);
    const flippable = new Set(act === "flip" ? legal.map((action) => action.flip) : []);
    const flipMs = this.timing().step;
    const piles = (obs.piles ?? []).map((pile, i) => {
      const card = pile.top;
      const parsed = parseCard(card);
      const can = flippable.has(i) || takeable.has(i);
      const label = parsed
        ? t("moko.pile", { n: i + 1, card: cardText(card), size: pile.size })
        : t("moko.pile_empty", { n: i + 1 });
      const face = h("span", { class: "mk-pile-card" }, cardFace(card, { label }));
      if (flipped && flipped.pile === i && flipMs) {
        face.classList.add("mk-flipping");
        face.style.setProperty("--mk-flip-ms", `${flipMs}ms`);
      }
      const attrs = {
        class: [
          "mk-pile",
          can ? "mk-pile--legal" : "",
          chosen.includes(i) ? "mk-pile--chosen" : "",
          flipped && flipped.pile === i ? "mk-pile--new" : "",
        ]
          .filter(Boolean)
          .join(" "),
        "data-pile": String(i),
        "data-card": card ?? "",
      };
      const size = h("span", { class: "mk-pile-size" }, tn("moko.pile_size", pile.size));
      const key = h("kbd", { class: "mk-pile-key" }, String(i + 1));
      if (can) {
        return h(
          "button",
          {
            ...attrs,
            type: "button",
            onclick: () => this.onPile?.(i),
            "aria-label":
              act === "flip" ? t("moko.flip_onto", { n: i + 1 }) : t("moko.take_pile", { n: i + 1, label }),
            "aria-pressed": act === "take" ? String(chosen.includes(i)) : null,
          },
          face,
          size,
          key,
        );
      }
      return h("div", attrs, face, size);
    });
    const token = h(
      "div",
      { class: "mk-token", "data-race": obs.window_end ? "open" : "" },
      svg(
        "svg",
        { viewBox: "0 0 60 60", "aria-hidden": "true" },
        svg("circle", { class: "mk-token-disc", cx: 30, cy: 30, r: 26 }),
        svg("path", {
          class: "mk-token-mark",
          d: "M30 14 l4.5 10 l11 1.2 l-8.2 7.4 l2.4 10.8 l-9.7 -5.6 l-9.7 5.6 l2.4 -10.8 l-8.2 -7.4 l11 -1.2 z",
        }),
      ),
      h("span", { class: "visually-hidden" }, t("moko.token")),
    );
    // The token sits between the piles: pile 1, token, piles 2 and 3 on a phone's single row.
    this.piles.replaceChildren(piles[0] ?? "", token, ...piles.slice(1));
  }

  /** A speech bubble over `seat`; it goes after `ms` (never when `ms` is null). */
  bubble(seat, text, kind, { ms = BUBBLE_MS[this.speed] ?? 3000 } = {}) {
    const node = this.seatNode(seat)?.querySelector(".mk-bubble");
    if (!node) return;
    node.className = `mk-bubble mk-bubble--${kind}`;
    node.replaceChildren(h("span", { class: "mk-bubble-text" }, text));
    node.hidden = false;
    clearTimeout(this.bubbleTimers.get(seat));
    if (ms === null) return;
    this.bubbleTimers.set(
      seat,
      setTimeout(() => {
        const current = this.seatNode(seat)?.querySelector(".mk-bubble");
        if (current) current.hidden = true;
      }, ms),
    );
  }

  /** The judge's line over the felt ("Right call: …"); it goes after `ms` (never when null). */
  judge(right, { ms = (BUBBLE_MS[this.speed] ?? 3000) + 800 } = {}) {
    this.judgeBox.replaceChildren(h("span", { class: "mk-judge-text" }, t("moko.judge", { right })));
    this.judgeBox.hidden = false;
    clearTimeout(this.judgeTimer);
    if (ms !== null) this.judgeTimer = setTimeout(() => (this.judgeBox.hidden = true), ms);
  }

  /** Take the judge's line off the table (a new flip asks for a new call). */
  clearJudge() {
    clearTimeout(this.judgeTimer);
    this.judgeBox.replaceChildren();
    this.judgeBox.hidden = true;
  }

  /** Take every bubble and the judge's line off the table. */
  clearTalk() {
    for (const timer of this.bubbleTimers.values()) clearTimeout(timer);
    this.bubbleTimers.clear();
    clearTimeout(this.judgeTimer);
    for (const node of this.root.querySelectorAll(".mk-bubble")) node.hidden = true;
    this.clearJudge();
  }

  // --- replay ---------------------------------------------------------------------------

  /**
   * Show a replay frame as it stood: the table, the bubbles and judge's line of the events that
   * led to it (those after `previous`), kept while the frame shows, and the flipper's ring as it
   * stood at the frame's last event.
   */
  show(frame, { previous = null, animate = false } = {}) {
    this.clearTalk();
    const fresh = newEvents(frame, previous);
    const flipped = animate ? fresh.filter((event) => event.type === "flip").at(-1) ?? null : null;
    this.render(frame, { flipped });
    for (const event of fresh) {
      const { bubble, judge } = eventText(event, {
        name: this.names.name,
        viewer: this.seat,
        right: judgementBefore(frame, event),
      });
      if (judge) this.judge(judge, { ms: null });
      if (bubble) this.bubble(...bubble, { ms: null });
    }
    if (frame.phase === "call" && frame.flip_at && frame.call_deadline) {
      const at = Math.max(frame.flip_at, ...fresh.map((event) => event.at ?? 0));
      this.setRing(frame.turn, Math.max(0, 1 - (at - frame.flip_at) / (frame.call_deadline - frame.flip_at)));
    }
  }

  /** Step to the next frame: as `show`, with the new flip turning over. */
  async play(frame, { previous = null, fast = false } = {}) {
    this.show(frame, { previous, animate: !fast });
  }

  skip() {}

  /** Real time between two frames' last events (autoplay keeps the game's own rhythm), in ms. */
  pause(frame, next) {
    const last = (f) => Math.max(0, ...(f?.events ?? []).map((event) => event.at ?? 0));
    const seconds = last(next) - last(frame);
    const scale = { slow: 1.6, normal: 1, fast: 0.5, instant: 0.3 }[this.speed] ?? 1;
    return Math.round(Math.min(2500, Math.max(350, seconds * 1000 * scale)));
  }
}

/** The events that led from `previous` to `frame` (all of the first frame's). */
export function newEvents(frame, previous) {
  const seen = Math.max(0, ...(previous?.events ?? []).map((event) => event.n));
  return (frame?.events ?? []).filter((event) => event.n > seen);
}

/** The right calls of the judgement before `event` in `frame`'s events. */
function judgementBefore(frame, event) {
  const judgement = (frame.events ?? []).filter((e) => e.type === "judgement" && e.n <= event.n).at(-1);
  return judgement?.correct ?? [];
}

/** Seconds from the flip before `event` (in `frame`'s events) to the event; null if unknown. */
function sinceFlip(frame, event) {
  if (event.at === undefined || event.at === null) return null;
  const flip = (frame.events ?? []).filter((e) => e.type === "flip" && e.n < event.n).at(-1);
  return flip ? Math.max(0, event.at - flip.at) : null;
}

const TIMED = new Set(["call", "grab", "token", "penalty"]);

// --- the replay viewer (replay.js) ------------------------------------------------------------

/** Draw the replay's table in `stage` (the viewer at the bottom, everyone named as in play). */
export function mountReplay(stage, { viewer, players, level }) {
  return new MokochakaBoard(stage, { seat: viewer, names: seatNames(players, viewer, level) });
}

/** The line under the replay's title: "3 players · Expert". */
export function summary({ players, level }) {
  return t("moko.chip", { n: players.length, level });
}

/**
 * What happened in a replay frame, in lines: each event since the previous frame (a call, a grab,
 * the token and a penalty with the seconds since the flip), and the winners on the last frame.
 */
export function describe(frame, { previous = null, viewer, players, level }) {
  const { name } = seatNames(players, viewer, level);
  const lines = newEvents(frame, previous).map((event) => {
    const { line } = eventText(event, { name, viewer, right: judgementBefore(frame, event) });
    const seconds = TIMED.has(event.type) ? sinceFlip(frame, event) : null;
    return seconds === null
      ? line
      : t("moko.timed", { line, time: t("moko.seconds", { s: seconds.toFixed(2) }) });
  });
  if (frame.outcome) {
    lines.push(t("moko.result.seat_won", { names: (frame.outcome.winners ?? []).map(name).join(t("moko.and")) }));
  }
  return lines;
}

function ringSvg() {
  return svg(
    "svg",
    { class: "mk-ring", viewBox: "0 0 60 60", "aria-hidden": "true" },
    svg("circle", { class: "mk-ring-track", cx: 30, cy: 30, r: RING_R }),
    svg("circle", {
      class: "mk-ring-left",
      cx: 30,
      cy: 30,
      r: RING_R,
      "stroke-dasharray": RING_LENGTH.toFixed(2),
      transform: "rotate(-90 30 30)",
    }),
  );
}
