// The MICHIKAKE play page: settings (players 3 or 4, strength) → a room → the table.
//
// Every message is the viewer's own observation and legal actions; the prompts (上がり, 奪取,
// 見送り) come only from `legal`. In a claim window every seat but the discarder is asked at
// once and the answers stay secret, so the page shows the same countdown to everyone and never
// answers for the person: a seat whose only answer is to pass still gets its Pass button and
// may let the window run out. Messages are handled one at a time with a short pause after each
// (the speed setting); a deal that ends opens its screen (the win broken down, or the exhausted
// pile) before the next deal is shown, and the session's end opens the ranking.
import { Assist } from "../assist.js";
import { h, keepInSight } from "../dom.js";
import { t } from "../i18n.js";
import { PlayPage } from "../play-page.js";
import { levelName } from "../rules-name.js";
import { bindSpeed } from "../speed.js";
import { toast } from "../toast.js";
import { cues } from "./coach.js";
import { cardName, cardSVG } from "./cards.js";
import { dealView, dealsList, rankingTable } from "./results.js";
import { MichikakeTable, eventLine, seatNamer } from "./table.js";

const ruleChip = document.getElementById("rule-chip");
const prompts = document.getElementById("prompts");
const dealDialog = document.getElementById("deal-result");

let obs = null;
let legal = [];
let resultShown = false;
let seenResults = 0;
let sending = false;
let countdown = null; // {key, start (performance.now()), ms}
let syncedLeft = null; // seconds left of the open window, as the last sync said (deadline_in)
let frame = 0;

const page = new PlayPage({
  preview,
  coach: cues,
  enter,
  leave: () => {
    stopCountdown();
    if (dealDialog.open) dealDialog.close();
  },
  message: handle,
  failed: () => {
    table.setLegal([]);
    prompts.replaceChildren();
    return obs !== null;
  },
  unfinished: () => Boolean(obs && !obs.outcome),
  reveal: showHand,
  serial: true,
});
const { data, play, dialog } = page;
const assist = new Assist({
  page,
  expect: "michikake.assist.expect",
  // The card to throw, or the answer's button.
  mark: (action) =>
    "discard" in action
      ? `.mk-seat--mine .mk-hand-card[data-card="${action.discard}"]`
      : `#prompts [data-action="${Object.keys(action)[0]}"]`,
});

/** "You", "CPU 2", …: the preview seats the person at seat 0. */
const namer = () =>
  seatNamer({
    viewer: page.room ? page.seat : 0,
    players: page.room?.players ?? [],
  });
const seatName = (seat) => namer()(seat);
// The names carry the viewer, so sentences about seats speak to them (table.js `said`).
Object.defineProperty(seatName, "viewer", { get: () => namer().viewer });

const table = new MichikakeTable(document.getElementById("board"), {
  name: seatName,
  onDiscard: (card) => act({ discard: card }),
});
bindSpeed(document.getElementById("speed"), (speed) => table.setSpeed(speed));

function chip(players, level) {
  return t("michikake.chip", { n: players, level: levelName(level, data.levels) });
}

/** The table as it will look: the chosen number of seats, freshly dealt, hands face down. */
function preview() {
  const settings = page.readSettings();
  const n = settings.players ?? 3;
  const crests = ["C", "W", "R", "H"].slice(0, n);
  obs = null;
  table.setSeat(0);
  table.show({
    players: n,
    seat: null,
    points: Array(n).fill(1000),
    deal: 0,
    dealer: 0,
    crests,
    pile: n === 3 ? 72 : 94,
    hand: null,
    drawn: null,
    bonus: null,
    hand_sizes: Array(n).fill(5),
    shown: Array.from({ length: n }, () => []),
    discards: Array.from({ length: n }, () => []),
    steals: Array(n).fill(0),
    phase: "preview",
    turn: null,
    window: null,
    last: [],
    results: [],
    outcome: null,
  });
  ruleChip.textContent = chip(n, settings.level);
  page.setTurn("preview", t("play.preview"));
  prompts.replaceChildren();
}

// --- the game ------------------------------------------------------------------------------

function enter(created) {
  obs = null;
  legal = [];
  resultShown = false;
  seenResults = 0;
  sending = false;
  assist.reset();
  table.setSeat(created.seat ?? 0);
  table.setLegal([]);
  const settings = created.settings ?? {};
  ruleChip.textContent = chip(created.players?.length ?? settings.players ?? "", settings.level);
}

async function handle(msg) {
  if (assist.take(msg)) return;
  if (msg.type === "sync") {
    table.setSeat(page.seat ?? 0);
    obs = msg.obs;
    // A sync (a reload, a reconnect) restarts the countdown from what the server has left.
    countdown = null;
    syncedLeft = obs.window ? (msg.deadline_in ?? null) : null;
    legal = msg.legal ?? [];
    sending = false;
    ruleChip.textContent = chip(obs.players, page.room?.settings?.level);
    // Deals that ended before this sync are history, not news (the final screen lists them).
    seenResults = obs.results.length;
    table.show(obs, { legal: myLegal() });
    afterUpdate();
  } else if (msg.type === "event") {
    const before = obs;
    obs = msg.obs;
    legal = msg.legal ?? [];
    sending = false;
    assist.clear();
    const newDeals = obs.results.slice(seenResults);
    if (newDeals.length) {
      seenResults = obs.results.length;
      stopCountdown();
      table.show(obs, { legal: [] });
      page.setTurn("wait", t("michikake.deal_over"));
      for (const result of newDeals) await showDeal(result);
      // Closing the deal's screen asks for the next deal (the table waits for every seat, or
      // deals on by itself when the break runs out).
      if (can("next")) act({ next: true });
    } else {
      const others = (obs.last ?? []).some((event) => event.seat !== page.seat);
      const pause = others && before && page.queue.length < 4 && !myLegal().length;
      await table.play(obs, { legal: myLegal(), fast: !pause });
    }
    afterUpdate();
    const others = (obs.last ?? []).filter((event) => event.seat !== page.seat);
    const lines = others.map((event) => eventLine(event, seatName)).filter(Boolean);
    if (lines.length) lines.push(can("pass") ? page.claimWords(prompts) : "");
    page.say(lines.filter(Boolean).join(" "));
  } else if (msg.type === "error") {
    sending = false;
    const key = msg.code === "illegal_action" ? "michikake.error.illegal" : `error.${msg.code}`;
    toast(page.errorText(msg, key), { kind: "error" });
    if (obs) afterUpdate();
  }
}

/** The legal actions shown: none for a spectator, after the end or while an answer is sent. */
function myLegal() {
  if (!obs || obs.outcome || page.seat === null || sending) return [];
  return legal;
}

function can(key) {
  return myLegal().some((action) => key in action);
}

function turnWords() {
  if (!obs) return ["wait", t("play.connecting")];
  if (obs.outcome) return ["over", finalWords(obs.outcome).title];
  const me = page.seat;
  if (obs.phase === "break") {
    return can("next") ? ["you", t("michikake.turn.break")] : ["them", t("michikake.turn.break_ready")];
  }
  if (obs.phase === "claim") {
    const window = obs.window;
    if (can("pass")) {
      const card = cardName(window.card);
      if (can("win")) return ["you", t("michikake.turn.claim_win", { card })];
      if (can("steal")) return ["you", t("michikake.turn.claim_steal", { card })];
      return ["you", t("michikake.turn.claim_pass", { card })];
    }
    if (window.discarder === me) return ["them", t("michikake.turn.claim_mine")];
    if (window.answer) return ["them", t("michikake.turn.claim_answered")];
    return ["them", t("michikake.turn.claim_others", { name: seatName(window.discarder) })];
  }
  if (obs.turn === me && can("win")) return ["you", t("michikake.turn.win_draw")];
  if (obs.turn === me && can("discard")) return ["you", t("michikake.turn.discard")];
  if (obs.turn === me) return ["you", t("michikake.turn.stolen")];
  return ["them", t("play.turn.seat", { name: seatName(obs.turn) })];
}

function afterUpdate() {
  const [kind, text] = turnWords();
  page.setTurn(kind, text);
  play.dataset.phase = obs?.phase ?? "";
  play.dataset.act = myLegal()
    .map((action) => Object.keys(action)[0])
    .filter((key, i, all) => all.indexOf(key) === i)
    .join(" ");
  table.setLegal(myLegal());
  renderPrompts();
  // A hint is for a choice: a break's "next deal" is none.
  const choosing = myLegal().length > 1 || can("discard");
  assist.update({ canAsk: choosing && !table.busy && !page.queue.length, over: Boolean(obs?.outcome) });
  runCountdown();
  keepHandInSight();
  if (obs?.outcome) {
    const review = `/replay/${encodeURIComponent(page.room.room_id)}?review=1`;
    for (const link of document.querySelectorAll(".review-link")) link.href = review;
    const words = finalWords(obs.outcome);
    document.getElementById("result-bar-score").textContent = words.score;
    if (!resultShown && page.queue.length === 0) {
      resultShown = true;
      showFinal();
    }
  }
}

function act(action) {
  if (!page.socket || sending || page.queue.length || table.busy) return;
  const key = Object.keys(action)[0];
  if (!myLegal().some((a) => key in a && (key !== "discard" || a.discard === action.discard))) return;
  sending = true;
  table.setLegal([]);
  prompts.replaceChildren();
  if (!page.send(action)) {
    sending = false;
    afterUpdate();
  }
}

/** While a decision is asked, the hand stays in sight: if the answer buttons (a bar held at the
 * bottom of a phone's screen) or the screen's edge would hide it, scroll just enough to show it
 * above them and below the site's header. */
function keepHandInSight() {
  if (myLegal().length && !dealDialog.open) showHand();
}

/** The viewer's hand between the site's header and the answer buttons (when there are any). */
function showHand() {
  const hand = document.querySelector(".mk-seat--mine .mk-hand");
  if (hand) keepInSight(hand, prompts.childElementCount ? prompts : null);
}

// --- the claim window's countdown ----------------------------------------------------------

/** The countdown runs from when this screen learnt of the discard over the window's length, or
 * after a sync over what the server said was left (the server's timer decides; the bar only
 * shows it, the same for every seat). */
function runCountdown() {
  const window = obs?.window;
  if (!window || obs.outcome) {
    stopCountdown();
    return;
  }
  const key = `${obs.deal}:${obs.ply}:${window.discarder}`;
  if (!countdown || countdown.key !== key) {
    const ms = window.seconds * 1000;
    const left = syncedLeft === null ? ms : Math.min(ms, syncedLeft * 1000);
    countdown = { key, start: performance.now() - (ms - left), ms };
    syncedLeft = null;
  }
  cancelAnimationFrame(frame);
  const step = () => {
    if (!countdown) return;
    const left = Math.max(0, countdown.ms - (performance.now() - countdown.start));
    table.setCountdown(left / countdown.ms, left / 1000);
    if (left > 0) frame = requestAnimationFrame(step);
  };
  step();
}

function stopCountdown() {
  cancelAnimationFrame(frame);
  countdown = null;
}

// --- prompts -------------------------------------------------------------------------------

function promptButton(label, key, { cls = "", action, card = null }) {
  return h(
    "button",
    { type: "button", class: `btn mk-prompt ${cls}`.trim(), "data-action": Object.keys(action)[0], onclick: () => act(action) },
    card ? cardSVG(card, { cls: "mk-card--tiny", label: false }) : null,
    h("span", { class: "mk-prompt-label" }, label),
    h("kbd", {}, key),
  );
}

function renderPrompts() {
  const buttons = [];
  const card = obs?.window?.card ?? null;
  if (can("win")) {
    buttons.push(
      promptButton(obs.phase === "claim" ? t("michikake.act.win_on") : t("michikake.act.win_draw"), "W", {
        cls: "btn--primary mk-prompt--win",
        action: { win: true },
        card: obs.phase === "claim" ? card : null,
      }),
    );
  }
  if (can("steal")) {
    const label = t("michikake.act.steal", { cost: obs.steal_cost });
    buttons.push(promptButton(label, "S", { cls: "btn--accent", action: { steal: true }, card }));
  }
  if (can("pass")) {
    buttons.push(promptButton(t("michikake.act.pass"), "P", { cls: "btn--large mk-prompt--pass", action: { pass: true } }));
  }
  if (can("next")) {
    buttons.push(promptButton(t("michikake.deal_next"), "N", { cls: "btn--primary", action: { next: true } }));
  }
  prompts.replaceChildren(...buttons);
}

// Keyboard: 1-6 discard the hand's n-th card (the drawn card last), W wins, S steals, P passes,
// N asks for the next deal.
document.addEventListener("keydown", (event) => {
  if (!page.playing || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest?.("input, select, textarea") || dialog.open || dealDialog.open) return;
  const key = event.key.toLowerCase();
  const digit = Number(event.key);
  if (Number.isInteger(digit) && digit >= 1 && digit <= 6) {
    const button = document.querySelectorAll(".mk-hand .mk-hand-card")[digit - 1];
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  } else if (key in KEYS && can(KEYS[key])) {
    event.preventDefault();
    act({ [KEYS[key]]: true });
  }
});

const KEYS = { w: "win", s: "steal", p: "pass", n: "next" };

// --- deal and session results --------------------------------------------------------------

function showDeal(result) {
  const view = dealView(result, { name: seatName, players: obs.players });
  dealDialog.dataset.kind = view.kind;
  document.getElementById("deal-title").textContent = view.title;
  document.getElementById("deal-body").replaceChildren(view.body);
  return new Promise((resolve) => {
    const done = () => {
      dealDialog.removeEventListener("close", done);
      resolve();
    };
    dealDialog.addEventListener("close", done);
    dealDialog.showModal();
    document.getElementById("deal-next").focus();
  });
}

document.getElementById("deal-next").addEventListener("click", () => dealDialog.close());

function finalWords(outcome) {
  const me = page.seat;
  const score = outcome.scores
    .map((points, seat) => t("michikake.score_of", { name: seatName(seat), n: points }))
    .join(t("michikake.sep"));
  if (me === null) {
    const names = outcome.winners.map(seatName).join(t("michikake.and"));
    return { result: "draw", title: t("michikake.final.top", { names }), score };
  }
  const rank = outcome.ranks[me];
  if (rank === 1 && outcome.winners.length === 1) return { result: "win", title: t("result.win"), score };
  if (rank === 1) return { result: "draw", title: t("michikake.final.shared"), score };
  return { result: "loss", title: t("michikake.final.place", { n: rank }), score };
}

function showFinal() {
  const { result, title, score } = finalWords(obs.outcome);
  dialog.dataset.result = result;
  document.getElementById("result-title").textContent = title;
  document.getElementById("result-score").textContent = t(`michikake.final.end_${obs.outcome.end}`, {
    n: obs.outcome.deals,
  });
  document.getElementById("result-detail").textContent = score;
  document.getElementById("result-ranking").replaceChildren(rankingTable(obs.outcome, { name: seatName }));
  document.getElementById("result-deals").replaceChildren(dealsList(obs.results, { name: seatName }));
  page.openResult();
}

document.getElementById("show-final").addEventListener("click", () => obs?.outcome && showFinal());

// --- start-up ------------------------------------------------------------------------------

page.boot();
