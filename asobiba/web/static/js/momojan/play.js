// The MOMOJAN play page: settings → POST /api/rooms → the game's own address
// (/games/momojan/<room>) → the room's WebSocket → the table.
//
// Every message is the viewer's own observation and legal actions; the prompts (ロン, ポン, チー,
// 開, ツモ, リーチ, 3枚引く, 見送る) come only from `legal`. Messages are handled one at a time, with a
// short pause after each (the speed setting), so the opponent's turn can be followed; a round
// that ends opens its result (win breakdown or wall settlement) before the next deal is shown.
import { Assist } from "../assist.js";
import { keepInSight } from "../dom.js";
import { t } from "../i18n.js";
import { PlayPage } from "../play-page.js";
import { cpuName, versus } from "../seat-names.js";
import { bindSpeed } from "../speed.js";
import { toast } from "../toast.js";
import { cues } from "./coach.js";
import { cardSVG, pointsText } from "./cards.js";
import { promptButtons, tableKey } from "./prompts.js";
import { endReason, middleLeft, roundView, roundsTable } from "./results.js";
import { MomojanTable } from "./table.js";

const ruleChip = document.getElementById("rule-chip");
const prompts = document.getElementById("prompts");
const roundDialog = document.getElementById("round-result");

const table = new MomojanTable(document.getElementById("board"), {
  onDiscard: (card, riichi) => act({ type: "discard", card, riichi: Boolean(riichi) }),
  onDraw: (pile) => tapPile(pile),
});
bindSpeed(document.getElementById("speed"), (speed) => table.setSpeed(speed));

let obs = null;
let legal = [];
let resultShown = false;
let seenResults = 0;
let riichiMode = false;
let sending = false;
// A draw tapped while the page was still showing moves the server had already sent: sent once
// the person's turn is on show (or refused there, in words), never dropped.
let early = null;
const turnNote = document.getElementById("turn-note");

const page = new PlayPage({
  preview,
  coach: cues,
  enter,
  leave: () => {
    if (roundDialog.open) roundDialog.close();
  },
  message: handle,
  failed: () => {
    table.setLegal([]);
    prompts.replaceChildren();
    return obs !== null;
  },
  unfinished: () => Boolean(obs && !obs.outcome),
  reveal: keepHandInView,
  serial: true,
});
const { dialog } = page;
const assist = new Assist({
  page,
  expect: "momojan.assist.expect",
  // The card to throw, or the prompt of the call or win.
  mark: (action) =>
    action.type === "discard"
      ? `.mj-hand--mine .mj-hand-card[data-card="${action.card}"]`
      : `#prompts [data-action="${action.type}"]`,
});
const setTurn = (kind, text) => page.setTurn(kind, text);

/** A dealt-looking table while the player chooses: both players at 40, hands face down. */
function preview() {
  const seat = null;
  table.setSeat(0);
  table.setOrderKey(null);
  table.setNames([t("play.you"), cpuName(1)]);
  table.setRiichiMode(false);
  table.show(
    {
      seat,
      round: 1,
      dealer: 0,
      streak: 0,
      dealerships: 1,
      stake: 1,
      points: [40, 39],
      middle: 1,
      dora_indicator: "M4",
      dead_wall: 3,
      piles: [12, 12, 11],
      hand: null,
      hand_sizes: [7, 7],
      open_sets: [[], []],
      rivers: [[], []],
      riichi: [false, false],
      to_move: null,
      phase: "start",
      offer: null,
      last: null,
      results: [],
      outcome: null,
      options: { dealerships: 2 },
    },
    { legal: [] },
  );
  ruleChip.textContent = t("momojan.preview");
  setTurn("preview", t("momojan.preview"));
  prompts.replaceChildren();
}

// --- the game ------------------------------------------------------------------------------

function enter(created) {
  obs = null;
  legal = [];
  resultShown = false;
  seenResults = 0;
  riichiMode = false;
  early = null;
  assist.reset();
  table.setQueued(null);
  note(null);
  table.setSeat(created.seat ?? 0);
  // The player's own order of their hand, kept for this room across reloads (hand-order.js).
  table.setOrderKey(created.seat === null ? null : `asobiba.${page.game}.hand.${created.room_id}`);
  table.setRiichiMode(false);
  table.setLegal([]);
  showChip();
  showNames();
}

const seatName = (seat) => page.seatName(seat);

/** The chip names who plays: the opponent with a computer's level beside its name ("vs CPU 2
 * (Beginner)", "vs ベン"); to a spectator, both players ("Aki vs ベン"). */
function showChip() {
  const seat = page.room ? page.seat : 0;
  ruleChip.textContent =
    seat === null
      ? t("momojan.rule_chip_all", { names: versus([page.seatLabel(0), page.seatLabel(1)]) })
      : t("momojan.rule_chip", { level: page.seatLabel(1 - seat) });
}

function showNames() {
  table.setNames([seatName(0), seatName(1)]);
}

async function handle(msg) {
  if (assist.take(msg)) return;
  if (msg.type === "sync") {
    table.setSeat(page.seat ?? 0);
    showChip();
    showNames();
    obs = msg.obs;
    legal = msg.legal ?? [];
    sending = false;
    // Rounds that ended before this sync are history, not news (the game-end screen lists them).
    seenResults = obs.results.length;
    table.show(obs, { legal: [] });
    afterUpdate();
  } else if (msg.type === "event") {
    const before = obs;
    obs = msg.obs;
    legal = msg.legal ?? [];
    sending = false;
    assist.clear();
    riichiMode = false;
    table.riichiMode = false;
    const fromOpponent = obs.last && obs.last.seat !== mySeat();
    const newRounds = obs.results.slice(seenResults);
    if (newRounds.length) {
      // Show the round as it ended (revealed in the dialog) over the next deal.
      seenResults = obs.results.length;
      table.show(obs, { legal: [] });
      setTurn("wait", table.describe(obs) || t("momojan.round.over"));
      for (const result of newRounds) await showRound(result);
    } else {
      const pause = fromOpponent && before && page.queue.length < 4;
      // Nothing is ready while the move is on show: afterUpdate marks what `legal` allows.
      await table.play(obs, { legal: [], fast: !pause });
    }
    afterUpdate();
    if (fromOpponent || newRounds.length) {
      const claim = legal.some((a) => a.type === "pass") ? page.claimWords(prompts) : "";
      page.say([table.describe(obs), claim].filter(Boolean).join(" "));
    }
  } else if (msg.type === "error") {
    sending = false;
    const key = msg.code === "illegal_action" ? "momojan.error.illegal" : `error.${msg.code}`;
    toast(page.errorText(msg, key), { kind: "error" });
    if (obs) afterUpdate();
  }
}

function mySeat() {
  return page.seat;
}

/** True when the viewer is seated and it is their move. */
function mine() {
  return obs && !obs.outcome && mySeat() !== null && obs.to_move === mySeat();
}

/** True while the page still shows moves it has received: a pause on one, more queued, a
 * round's screen open. Nothing is shown as ready then, even when `legal` already allows it. */
function catchingUp() {
  return table.busy || page.queue.length > 0 || roundDialog.open;
}

/** The person's different choices now: the draws from the three piles are one, as nobody
 * knows their order (a hint is for a choice). */
function choices() {
  const draws = legal.some((a) => a.type === "draw") ? 1 : 0;
  return draws + legal.filter((a) => a.type !== "draw").length;
}

/** True when the person's controls are ready: their move, on show, nothing sent yet. */
function ready() {
  return Boolean(mine()) && !sending && !catchingUp();
}

/** A line under the turn line: why a tap was not taken, or that it waits (null: none). */
function note(text) {
  turnNote.hidden = !text;
  turnNote.textContent = text ?? "";
}

/**
 * A tap on a pile (or D). Ready and drawable: sent. While the page still shows moves the
 * server already made (the opponent's discard pausing on screen), kept and sent once the
 * person's turn is shown (afterUpdate). Otherwise refused, with the reason under the turn line.
 */
function tapPile(pile) {
  if (!obs || obs.outcome || mySeat() === null || sending) return;
  const action = { type: "draw", pile };
  if (ready() && legal.some((a) => a.type === "draw" && a.pile === pile)) {
    act(action);
  } else if (catchingUp()) {
    early = action;
    table.setQueued(pile);
    note(t("momojan.note.queued", { n: pile + 1 }));
  } else if (!mine()) {
    note(t("momojan.note.not_yet", { name: seatName(obs.to_move) }));
  } else {
    note(t("momojan.note.no_draw", { what: turnLabel("you") }));
  }
}

/** The turn is on show: send the draw tapped early, unless the person now has a call or win
 * to consider (then say so) or that pile may not be drawn (then say why). */
function takeEarly() {
  const action = early;
  early = null;
  table.setQueued(null);
  const calls = legal.filter((a) => ["ron", "pon", "chi"].includes(a.type));
  if (calls.length) {
    note(t("momojan.note.held_call"));
  } else if (legal.some((a) => a.type === "draw" && a.pile === action.pile)) {
    act(action);
  } else {
    note(t("momojan.note.no_draw", { what: turnLabel("you") }));
  }
}

function turnKind() {
  if (!obs) return "wait";
  if (obs.outcome) return "over";
  if (mySeat() === null) return obs.to_move === 0 ? "bottom" : "top";
  return obs.to_move === mySeat() ? "you" : "them";
}

function turnLabel(kind) {
  if (kind === "over") return finalWords(obs.outcome).title;
  if (kind === "bottom" || kind === "top") return t("play.turn.seat", { name: seatName(obs.to_move) });
  // A person met at a table is named: "Aiko to move".
  if (kind === "them" && page.room?.players?.[obs.to_move]?.name) {
    return t("play.turn.seat", { name: seatName(obs.to_move) });
  }
  if (kind === "them") return t("play.turn.opponent");
  if (kind !== "you") return t("play.connecting");
  if (riichiMode) return t("momojan.turn.riichi_pick");
  const can = (type) => legal.some((a) => a.type === type);
  if (obs.riichi[mySeat()] && obs.phase !== "start") {
    return can("tsumo") ? t("momojan.turn.tsumo_or_discard") : t("momojan.turn.riichi_discard");
  }
  if (obs.phase === "start") {
    if (can("pass")) return t("momojan.turn.empty");
    if (can("ron") || can("pon") || can("chi")) return t("momojan.turn.call_or_draw");
    return t("momojan.turn.draw");
  }
  if (obs.phase === "called") {
    return can("draw3") ? t("momojan.turn.draw3_or_discard") : t("momojan.turn.discard");
  }
  return t("momojan.turn.discard");
}

function afterUpdate() {
  const kind = turnKind();
  setTurn(kind, turnLabel(kind));
  if (early && !catchingUp()) {
    if (mine() && !sending) takeEarly();
    else {
      // The moves on show are done and it is still not the person's turn.
      early = null;
      table.setQueued(null);
      note(t("momojan.note.not_yet", { name: seatName(obs.to_move) }));
    }
  } else if (ready()) note(null);
  table.setRiichiMode(riichiMode);
  table.setLegal(ready() ? legal : []);
  renderPrompts();
  assist.update({ canAsk: ready() && choices() > 1, over: kind === "over" });
  if (ready()) keepHandInView();
  if (kind === "over") {
    const review = `/replay/${encodeURIComponent(page.room.room_id)}?review=1`;
    for (const link of document.querySelectorAll(".review-link")) link.href = review;
    const words = finalWords(obs.outcome);
    document.getElementById("result-bar-score").textContent = words.score;
    document.getElementById("result-bar-detail").textContent = words.detail;
    if (!resultShown && page.queue.length === 0) {
      resultShown = true;
      showFinal();
    }
  }
}

/**
 * While a decision is asked, and when a table's game starts, the player's hand must be on screen
 * and not under the sticky dock (turn line and prompts) nor the sticky site header.
 */
function keepHandInView() {
  const hand = document.querySelector(".mj-hand--mine");
  if (hand) keepInSight(hand, document.getElementById("dock"));
}

function act(action) {
  if (!page.socket || !ready()) return;
  sending = true;
  note(null);
  riichiMode = false;
  table.riichiMode = false;
  table.setLegal([]);
  prompts.replaceChildren();
  if (!page.send(action)) {
    sending = false;
    afterUpdate();
  }
}

// --- prompts -------------------------------------------------------------------------------

function renderPrompts() {
  if (!ready()) {
    prompts.replaceChildren();
    return;
  }
  prompts.replaceChildren(
    ...promptButtons(legal, {
      offer: obs.offer,
      riichiMode,
      act,
      onRiichi: () => {
        riichiMode = !riichiMode;
        afterUpdate();
      },
    }),
  );
}

// The keys (momojan/prompts.js, `tableKey`; listed in the page's hint, momojan.hint_keys).
document.addEventListener("keydown", (event) => {
  if (!page.playing || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest?.("input, select, textarea") || dialog.open || roundDialog.open) return;
  if (!mine()) return;
  const taken = tableKey(event, {
    legal,
    piles: obs.piles,
    hand: document,
    prompts,
    draw: tapPile,
    act,
    riichiMode,
    leaveRiichi: () => {
      riichiMode = false;
      afterUpdate();
    },
  });
  if (taken) event.preventDefault();
});

// --- round and game results ----------------------------------------------------------------

function showRound(result) {
  const over = Boolean(obs?.outcome) && result === obs.results[obs.results.length - 1];
  const view = roundView(result, { name: seatName, viewer: mySeat(), over });
  roundDialog.dataset.kind = view.kind;
  document.getElementById("round-title").textContent = view.title;
  document.getElementById("round-body").replaceChildren(view.body);
  return new Promise((resolve) => {
    const done = () => {
      roundDialog.removeEventListener("close", done);
      resolve();
    };
    roundDialog.addEventListener("close", done);
    roundDialog.showModal();
    // Read from the top (the hand, the breakdown); the button keeps the keyboard's focus.
    document.getElementById("round-next").focus({ preventScroll: true });
    roundDialog.scrollTop = 0;
  });
}

document.getElementById("round-next").addEventListener("click", () => roundDialog.close());

function finalWords(outcome) {
  const seat = mySeat() ?? 0;
  const winner = outcome.winners?.[0];
  const result = winner === seat ? "win" : "loss";
  const title =
    mySeat() === null ? t("result.seat_won", { name: seatName(winner) }) : t(`result.${result}`);
  const scores = outcome.scores ?? [0, 0];
  const why = endReason(outcome, obs.results, { name: seatName, viewer: mySeat() });
  // The final score is the last round's plus what was left in the middle: say so.
  const left = middleLeft(outcome, obs.results);
  const middle = !left
    ? ""
    : winner === mySeat()
      ? t("momojan.final.middle.you", { n: left })
      : t("momojan.final.middle", { winner: seatName(winner), n: left });
  return {
    result,
    title,
    score: t("momojan.points_after", {
      a: seatName(0),
      x: pointsText(scores[0]),
      b: seatName(1),
      y: pointsText(scores[1]),
    }),
    detail: [why, middle].filter(Boolean).join(" "),
  };
}

function showFinal() {
  const { result, title, score, detail } = finalWords(obs.outcome);
  dialog.dataset.result = result;
  document.getElementById("result-title").textContent = title;
  document.getElementById("result-score").textContent = score;
  document.getElementById("result-detail").textContent = detail;
  document.getElementById("result-rounds").replaceChildren(
    roundsTable(obs.results, { name: seatName, outcome: obs.outcome }),
  );
  document.getElementById("result-art").replaceChildren(resultArt(result));
  page.openResult();
}

function resultArt(result) {
  const card = cardSVG(result === "win" ? "M9" : "moon", { cls: "mj-result-card" });
  return card;
}

document.getElementById("show-final").addEventListener("click", () => obs?.outcome && showFinal());

// --- start-up ------------------------------------------------------------------------------

page.boot();
