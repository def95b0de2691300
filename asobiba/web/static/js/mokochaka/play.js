// The Mokochaka play page: settings (players, strength) → POST /api/rooms → the game's own
// address (/games/mokochaka/<room>) → the room's WebSocket → the table.
//
// Real time: every message is shown the moment it arrives (nothing waits for an animation), the
// flip is animated on every screen at once when the server's event lands, and the 3-second ring
// on the flipper runs from that arrival (the server's clock decides; the ring only shows it).
// Calls are assembled from animal keys/buttons and sent with Enter; a special call grabs at once.
// Everything said, judged and penalised is shown as speech bubbles and in the table's log, from
// the observation's numbered `events` (docs/ARCHITECTURE.md, "Mokochaka specifics"). The table
// itself (seats, piles, token, bubbles) is drawn by mokochaka/board.js, which the replay shares.
import { h, keepInSight } from "../dom.js";
import { t, tn } from "../i18n.js";
import { PlayPage } from "../play-page.js";
import { levelName } from "../rules-name.js";
import { bindSpeed } from "../speed.js";
import { toast } from "../toast.js";
import { cues } from "./coach.js";
import { MokochakaBoard, eventText, reasonText } from "./board.js";
import { CallPad } from "./pad.js";

const ruleChip = document.getElementById("rule-chip");
const judgeBox = document.getElementById("judge");
const padRoot = document.getElementById("pad");
const log = document.getElementById("log");

let obs = null;
let legal = [];
let seen = 0; // the highest event number shown
let chosenPiles = []; // piles picked so far when taking
let ring = null; // {flips, start (performance.now()), ms}
let ringFrame = 0;
let resultShown = false;
let lastJudgement = null;

const page = new PlayPage({
  preview,
  coach: cues,
  enter,
  leave: stopRing,
  message: receive,
  failed: () => obs !== null,
  unfinished: () => Boolean(obs && !obs.outcome),
  reveal: () => keepInSight(document.getElementById("you-seat"), document.getElementById("dock")),
});
const { data, play, dialog } = page;
const SEATS = data.seats ?? { min: 2, max: 6 };

// The table's drawing (seats, piles, token, bubbles): mokochaka/board.js, shared with the replay.
const board = new MokochakaBoard(document.getElementById("table"), {
  names: { name: seatName, level: seatLevel },
  onPile: pressPile,
  onGive: (seat) => send({ give: seat }),
});

// The call pad (mokochaka/pad.js, shared with the course and the trainer); a spectator has none.
const pad = padRoot ? new CallPad(padRoot, { onAction: send }) : null;

bindSpeed(document.getElementById("speed"), (value) => {
  board.setSpeed(value);
  play.dataset.speed = value;
});

// --- settings ------------------------------------------------------------------------------

/** The table as it will look: the chosen number of seats around three sample piles. */
function preview() {
  log.replaceChildren();
  judgeBox.replaceChildren();
  const settings = page.readSettings();
  const n = settings.players ?? SEATS.min;
  page.room = { seat: 0, players: Array.from({ length: n }, (_, i) => ({ kind: i ? "bot" : "human", level: settings.level })), settings };
  const hand = Math.floor(29 / n);
  obs = {
    seats: n,
    seat: 0,
    phase: "preview",
    turn: 0,
    to_move: [],
    hands: Array(n).fill(hand),
    piles: [
      { top: "paka3", size: 1 },
      { top: "pome1", size: 1 },
      { top: "moko2", size: 1 },
    ],
    flips: 0,
    events: [],
    choice: null,
    outcome: null,
  };
  legal = [];
  ruleChip.textContent = t("moko.chip", { n, level: levelName(settings.level, data.levels) });
  render();
  page.room = null;
  page.setTurn("preview", t("play.preview"));
}

// --- the room ------------------------------------------------------------------------------

function enter(created) {
  obs = null;
  legal = [];
  seen = 0;
  pad?.reset();
  chosenPiles = [];
  resultShown = false;
  lastJudgement = null;
  log.replaceChildren();
  judgeBox.replaceChildren();
  const settings = created.settings ?? {};
  const players = created.players?.length ?? settings.players;
  ruleChip.textContent = t("moko.chip", {
    n: players ?? "",
    level: levelName(settings.level, data.levels),
  });
}

function receive(msg) {
  if (msg.type === "sync") {
    const room = page.room;
    if (room) {
      ruleChip.textContent = t("moko.chip", {
        n: room.players.length,
        level: levelName(room.settings?.level ?? room.players.find((p) => p.level)?.level, data.levels),
      });
    }
    const first = obs === null;
    update(msg.obs, msg.legal ?? [], { quiet: first && msg.obs.flips > 0, left: msg.deadline_in });
  } else if (msg.type === "event") {
    update(msg.obs, msg.legal ?? [], {});
  } else if (msg.type === "error") {
    // A call that arrives after the turn was settled is refused: the moment had passed.
    const late = ["not_your_turn", "illegal_action"].includes(msg.code);
    const key = late ? "moko.error.too_late" : `error.${msg.code}`;
    toast(page.errorText(msg, key), { kind: late ? "info" : "error" });
    if (obs) render();
  }
}

function update(next, nextLegal, { quiet, left = null }) {
  const before = obs;
  obs = next;
  legal = nextLegal;
  if (!before || before.flips !== obs.flips || obs.phase !== "call") pad?.reset();
  if (!(obs.phase === "take" && obs.choice?.seat === mySeat())) chosenPiles = [];
  const fresh = (obs.events ?? []).filter((event) => event.n > seen);
  seen = Math.max(seen, ...(obs.events ?? []).map((event) => event.n));
  const flipped = fresh.filter((event) => event.type === "flip").at(-1);
  const opened = obs.phase === "call" && (!ring || ring.flips !== obs.flips);
  if (obs.phase === "call" && (opened || left !== null)) {
    const ms = (obs.call_deadline - obs.flip_at) * 1000;
    // A sync (a reload, a reconnect after the server was away) says how long the server's
    // timer has left: the ring goes on from there instead of starting full again.
    const callLeft = left === null ? ms : (left + obs.call_deadline - obs.deadline) * 1000;
    ring = { flips: obs.flips, start: performance.now() - Math.max(0, ms - callLeft), ms };
  }
  if (obs.phase !== "call") stopRing();
  // The last flip's "Right call" is old news once a new card asks for a call.
  if (flipped) board.clearJudge();
  render({ flipped: quiet ? null : flipped });
  for (const event of fresh) tell(event, { quiet, old: Boolean(flipped) && event.n < flipped.n });
  if (obs.phase === "call") runRing();
  afterUpdate();
  if (opened) keepPilesInSight();
}

// --- who is who ----------------------------------------------------------------------------

/** The viewer's seat; null for a spectator. */
function mySeat() {
  return page.seat;
}

/** A seat's one name ("You", a person's, "CPU n": seat-names.js). */
function seatName(seat) {
  return page.seatName(seat);
}

/** The line under a seat's name: a computer's level, or "Player". */
function seatLevel(seat) {
  const room = page.room;
  const player = room?.players?.[seat];
  if (room && seat === room.seat) return "";
  if (player && player.kind !== "bot") return t("play.player");
  return levelName(player?.level ?? room?.settings?.level, data.levels);
}

// --- drawing -------------------------------------------------------------------------------

/** What the viewer may do now: "flip", "call", "grab", "take", "give" or "". */
function myAct() {
  if (!obs || mySeat() === null || !legal.length) return "";
  const keys = new Set(legal.map((action) => Object.keys(action)[0]));
  for (const key of ["flip", "call", "take", "give", "grab"]) if (keys.has(key)) return key;
  return "";
}

/** The seat's last moment to act (myAct), so a new call window is said once (#announce). */
let saidAct = "";

function render({ flipped = null } = {}) {
  if (!obs) return;
  const act = myAct();
  // The others' flips and calls are read from the log (a polite live region); the call
  // window, the seat's own 3 seconds, is said as it opens.
  if (act === "call" && saidAct !== "call") page.say(t("moko.turn.call_you"));
  saidAct = act;
  play.dataset.phase = obs.phase;
  play.dataset.act = act;
  play.dataset.flips = String(obs.flips ?? 0);
  board.setSeat(mySeat());
  board.render(obs, { act, legal, chosen: chosenPiles, flipped });
  pad?.setLegal(legal, { idle: obs.phase === "call" ? t("moko.turn.call_wait") : t("moko.pad_idle") });
}

/** A call window is open: the piles must be in sight together with the call pad, which is docked
 * at the foot of the screen. Scroll as little as needed to bring between the site's sticky header
 * and the dock the whole table (the other seats with their bubbles, the piles, the viewer's seat)
 * when it fits, else the piles and the viewer's seat, else the piles. */
function keepPilesInSight() {
  const dock = document.getElementById("dock");
  if (getComputedStyle(dock).position !== "sticky" || dialog.open) return;
  const margin = 4;
  const top = (document.querySelector(".site-header")?.getBoundingClientRect().bottom ?? 0) + margin;
  const bottom = window.innerHeight - dock.offsetHeight - margin;
  const box = (id) => document.getElementById(id).getBoundingClientRect();
  const [others, field, you] = [box("others"), box("field"), box("you-seat")];
  const spans = [
    [others.top, you.bottom],
    [field.top, you.bottom],
    [field.top, field.bottom],
  ];
  const [start, end] = spans.find(([a, b]) => b - a <= bottom - top) ?? spans.at(-1);
  let by = 0;
  if (start < top) by = start - top;
  else if (end > bottom) by = Math.min(end - bottom, start - top);
  if (by) window.scrollBy({ top: by, behavior: "instant" });
}

/** The flipper's ring empties over the 3 seconds from the flip (as this screen saw it). */
function runRing() {
  cancelAnimationFrame(ringFrame);
  const step = () => {
    if (!ring || !obs || obs.phase !== "call") return;
    const left = Math.max(0, 1 - (performance.now() - ring.start) / ring.ms);
    board.setRing(obs.turn, left);
    if (left > 0) ringFrame = requestAnimationFrame(step);
  };
  step();
}

function stopRing() {
  cancelAnimationFrame(ringFrame);
  ring = null;
}

function pressPile(i) {
  const act = myAct();
  if (act === "flip") {
    if (legal.some((action) => action.flip === i)) send({ flip: i });
  } else if (act === "take") {
    if (!legal.some((action) => action.take.includes(i))) return;
    chosenPiles = chosenPiles.includes(i) ? chosenPiles.filter((p) => p !== i) : [...chosenPiles, i];
    const want = obs.choice?.count ?? 1;
    const wanted = [...chosenPiles].sort((a, b) => a - b);
    const match = legal.find(
      (action) => action.take.length === wanted.length && action.take.every((p, k) => p === wanted[k]),
    );
    if (match && wanted.length >= Math.min(want, legal[0].take.length)) {
      chosenPiles = [];
      send({ take: match.take });
    } else render();
  }
}

function send(action) {
  if (!page.socket || !obs || mySeat() === null) return;
  if (!page.send(action)) return;
  // Nothing more to do until the server answers: the pad and the choices wait for it.
  legal = [];
  render();
}

document.addEventListener("keydown", (event) => {
  if (!page.playing || event.altKey || event.ctrlKey || event.metaKey) return;
  if (mySeat() === null || !obs || dialog.open) return;
  if (event.target.closest?.("input, select, textarea")) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const act = myAct();
  if ((act === "flip" || act === "take") && ["1", "2", "3"].includes(key)) {
    event.preventDefault();
    pressPile(Number(key) - 1);
  } else {
    pad?.key(key, event);
  }
});

// --- what happened: speech bubbles and the log ------------------------------------------------

/** Put an event in the log and on the table; an `old` one (before a flip in the same message)
 * shows no judge's line, which belongs to the flip before. */
function tell(event, { quiet = false, old = false } = {}) {
  if (event.type === "judgement") lastJudgement = event.correct ?? [];
  const { line, bubble, judge } = eventText(event, {
    name: seatName,
    viewer: page.room?.seat ?? null,
    right: lastJudgement ?? [],
  });
  log.prepend(h("li", { class: `mk-log-line mk-log-line--${event.type}`, "data-event": event.type, "data-n": String(event.n) }, line));
  while (log.children.length > 60) log.lastElementChild.remove();
  if (quiet) return;
  if (judge && !old) board.judge(judge);
  if (bubble) board.bubble(...bubble);
}

// --- the turn line and the end -------------------------------------------------------------

function turnWords() {
  const act = myAct();
  const acting = obs.phase === "flip" || obs.phase === "call" ? obs.turn : obs.choice?.seat;
  const name = seatName(acting);
  switch (obs.phase) {
    case "flip":
      return act === "flip" ? ["you", t("moko.turn.flip_you")] : ["them", t("moko.turn.flip", { name })];
    case "call":
      if (act === "call") return ["you", t("moko.turn.call_you")];
      if (act === "grab") return ["them", t("moko.turn.call_grab", { name })];
      return ["them", t("moko.turn.call_wait")];
    case "take":
      return act === "take"
        ? ["you", tn("moko.turn.take_you", obs.choice.count)]
        : ["them", t("moko.turn.take", { name })];
    case "give":
      return act === "give"
        ? ["you", t("moko.turn.give_you", { reason: reasonText(obs.choice.reason, lastJudgement ?? []) })]
        : ["them", t("moko.turn.give", { name })];
    default:
      return ["wait", t("play.connecting")];
  }
}

function afterUpdate() {
  if (obs.outcome) {
    const words = resultWords(obs.outcome);
    page.setTurn("over", words.title);
    document.getElementById("result-bar-score").textContent = words.score;
    fillResultTable(document.getElementById("result-bar-table"), obs.outcome);
    if (!resultShown && mySeat() !== null) {
      resultShown = true;
      showResult(obs.outcome);
    }
    return;
  }
  const [kind, text] = turnWords();
  page.setTurn(kind, text);
}

function resultWords(outcome) {
  const me = mySeat();
  const winners = outcome.winners ?? [];
  const names = winners.map(seatName).join(t("moko.and"));
  let result = "loss";
  let title;
  if (me !== null && winners.includes(me)) {
    result = winners.length > 1 ? "draw" : "win";
    title = winners.length > 1 ? t("moko.result.tie_you", { names }) : t("result.win");
  } else if (me !== null) {
    title = t("moko.result.loss", { names });
  } else {
    title = t("moko.result.seat_won", { names });
  }
  const score = me === null ? "" : tn("moko.result.your_cards", outcome.scores[me]);
  return { result, title, score };
}

function fillResultTable(table, outcome) {
  const head = h(
    "thead",
    {},
    h(
      "tr",
      {},
      h("th", { scope: "col" }, t("moko.result.player")),
      h("th", { scope: "col" }, t("moko.result.score")),
      h("th", { scope: "col" }, t("moko.result.cards")),
      h("th", { scope: "col" }, t("moko.result.gabu")),
      h("th", { scope: "col" }, t("moko.result.fastest")),
    ),
  );
  const seats = [...Array(outcome.scores.length).keys()];
  const rows = seats.map((seat) => {
    const fastest = outcome.fastest_call?.[seat];
    const won = outcome.winners.includes(seat);
    return h(
      "tr",
      { class: won ? "mk-result-winner" : "", "data-seat": String(seat) },
      h(
        "th",
        { scope: "row", "data-label": t("moko.result.player") },
        seatName(seat),
        won ? h("span", { class: "badge badge--win" }, t("moko.result.winner")) : null,
      ),
      h("td", { "data-label": t("moko.result.score") }, String(outcome.scores[seat])),
      h("td", { "data-label": t("moko.result.cards") }, String(outcome.cards[seat])),
      h("td", { "data-label": t("moko.result.gabu") }, String(outcome.gabu[seat])),
      h(
        "td",
        { "data-label": t("moko.result.fastest") },
        fastest === null || fastest === undefined ? "—" : t("moko.seconds", { s: fastest.toFixed(2) }),
      ),
    );
  });
  table.replaceChildren(head, h("tbody", {}, ...rows));
}

function showResult(outcome) {
  const { result, title, score } = resultWords(outcome);
  dialog.dataset.result = result;
  document.getElementById("result-title").textContent = title;
  document.getElementById("result-score").textContent = score;
  fillResultTable(document.getElementById("result-table"), outcome);
  page.openResult(400);
}

// --- start-up ------------------------------------------------------------------------------

page.boot();
