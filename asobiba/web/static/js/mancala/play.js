// The Mancala play page: settings → POST /api/rooms → the game's own address
// (/games/mancala/<room>, kept in the address bar) → the room's WebSocket → the board.
//
// The server renders that address with `room` in the page data: the seat the guest cookie holds,
// or none for a spectator, who watches without acting. Messages are queued and handled one at a
// time, so the bot's reply (which arrives right after the player's move) animates after it.
// See docs/ARCHITECTURE.md for the contract.
import { LANG, pick, tn, t } from "../i18n.js";
import { PlayPage } from "../play-page.js";
import { levelName, ruleName } from "../rules-name.js";
import { cpuName } from "../seat-names.js";
import { bindSpeed } from "../speed.js";
import { toast } from "../toast.js";
import { MancalaBoard, describe } from "./board.js";

const ruleChip = document.getElementById("rule-chip");
const nameYou = document.getElementById("name-you");
const nameThem = document.getElementById("name-them");
const resultBarScore = document.getElementById("result-bar-score");
const resultBarDetail = document.getElementById("result-bar-detail");
const assist = document.getElementById("assist");
const hintButton = document.getElementById("hint-button");
const hintSaid = document.getElementById("hint-said");

const board = new MancalaBoard(document.getElementById("board"), {
  seat: 0,
  onPit: (pit) => act(pit),
});
bindSpeed(document.getElementById("speed"), (speed) => board.setSpeed(speed));

let obs = null;
let legal = [];
let hurry = false;
let resultShown = false;
let hintAsked = false;
let hintsUsed = 0;

const page = new PlayPage({
  preview,
  enter,
  message: handle,
  failed: () => obs !== null,
  unfinished: () => Boolean(obs && !obs.outcome),
  idle: () => {
    hurry = false;
  },
  serial: true,
});
const { data, dialog } = page;

/** The starting position for the form's settings, drawn while the player chooses. */
function preview() {
  const { options } = page.readSettings();
  const seeds = options.seeds ?? 4;
  const pits = 6;
  board.setSeat(0);
  board.show({
    pits: [Array(pits).fill(seeds), Array(pits).fill(seeds)],
    stores: [0, 0],
    last: null,
  });
  ruleChip.textContent = ruleName(options, data.options);
  // The person at seat 0 as the preview shows it; the computer named as in the game.
  nameThem.textContent = t("seat.with_level", { name: cpuName(1), level: levelName(page.checked("level"), data.levels) });
  nameYou.textContent = t("play.you");
  page.setTurn("preview", t("play.preview"));
}

// --- the game ------------------------------------------------------------------------------

function enter(created) {
  obs = null;
  legal = [];
  resultShown = false;
  hintAsked = false;
  hintsUsed = 0;
  hintSaid.textContent = "";
  board.setSeat(created.seat ?? 0);
  board.setLegal([]);
  const settings = created.settings ?? {};
  ruleChip.textContent = ruleName(settings.options ?? {}, data.options);
  showNames();
}

const seatName = (seat) => page.seatName(seat);

/** The bottom row is the viewer's seat (seat 0 for a spectator), the top row the other one;
 * a computer's level beside its name ("CPU 2 (Beginner)"): the page shows it nowhere else. */
function showNames() {
  const bottom = page.seat ?? 0;
  nameYou.textContent = page.seatLabel(bottom);
  nameThem.textContent = page.seatLabel(1 - bottom);
}

async function handle(msg) {
  if (msg.type === "sync") {
    board.setSeat(page.seat ?? 0);
    showNames();
    obs = msg.obs;
    legal = msg.legal ?? [];
    board.show(obs, { legal });
    afterUpdate();
  } else if (msg.type === "event") {
    obs = msg.obs;
    legal = msg.legal ?? [];
    hintSaid.textContent = "";
    // Until the stones land, say whose stones are moving, not whose turn comes next.
    if (obs.last) page.setTurn("sowing", sowingLabel(obs.last.seat));
    if (obs.last && obs.last.seat !== mySeat()) page.say(describe(obs, { name: seatName }));
    await board.play(obs, { legal, fast: hurry, whose: whose(obs.last) });
    afterUpdate();
  } else if (msg.type === "hint") {
    hintAsked = false;
    hintsUsed += 1;
    board.markHint(msg.action.pit);
    // Japanese sentences follow each other without a space.
    const gap = LANG === "ja" ? "" : " ";
    const words = t("assist.said", { n: msg.action.pit + 1, why: pick(msg.why) });
    hintSaid.textContent = [words, outlook(msg.value), t("assist.apart")].filter(Boolean).join(gap);
    afterUpdate();
  } else if (msg.type === "error") {
    hintAsked = false;
    toast(page.errorText(msg), { kind: "error" });
    board.setLegal(legal);
    if (obs) afterUpdate();
  }
}

/** The viewer's seat; null for a spectator. */
function mySeat() {
  return page.seat;
}

/** Who made a move, for the board's call-outs: "you", or the seat's one name ("CPU 2"). */
function whose(last) {
  if (!last) return null;
  if (last.seat === mySeat()) return "you";
  return seatName(last.seat);
}

function sowingLabel(seat) {
  return seat === mySeat() ? t("play.turn.sowing_you") : t("play.turn.sowing", { name: seatName(seat) });
}

function turnKind() {
  if (!obs) return "wait";
  if (obs.outcome) return "over";
  if (mySeat() === null) return obs.to_move === 0 ? "bottom" : "top";
  return obs.to_move === mySeat() ? "you" : "them";
}

function turnLabel(kind) {
  if (kind === "over") return resultWords(obs.outcome).title;
  if (kind === "bottom" || kind === "top") {
    return t("play.turn.seat", { name: seatName(obs.to_move) });
  }
  // A person met at a table is named: "Aiko to move".
  if (kind === "them" && page.room?.players?.[obs.to_move]?.name) {
    return t("play.turn.seat", { name: seatName(obs.to_move) });
  }
  return { you: t("play.turn.you"), them: t("play.turn.opponent") }[kind] ?? t("play.connecting");
}

/**
 * The hint button: only for the seated player in a game against the computer (the server
 * checks again and refuses anyone else), usable on their own turn, one hint at a time.
 */
function showAssist(kind) {
  const players = page.room?.players ?? [];
  const againstBots = players.every((player, seat) => seat === mySeat() || player.kind === "bot");
  assist.hidden = !page.data.hints || mySeat() === null || !againstBots || kind === "over";
  hintButton.disabled = kind !== "you" || hintAsked || board.busy;
  hintButton.textContent = hintAsked ? t("assist.thinking") : t("assist.ask");
  assist.dataset.used = String(hintsUsed);
}

/** Where best play leads, in stones: Kalah counts stones; Basic's values are a race's. */
function outlook(value) {
  if (obs?.options?.variant !== "kalah" || typeof value !== "number") return "";
  const n = Math.round(Math.abs(value));
  if (n === 0) return t("assist.even");
  return tn(value > 0 ? "assist.ahead" : "assist.behind", n);
}

function askHint() {
  if (hintButton.disabled || !page.socket) return;
  hintAsked = true;
  showAssist(turnKind());
  if (!page.socket.send({ type: "hint" })) {
    hintAsked = false;
    toast(t("play.reconnecting"));
    showAssist(turnKind());
  }
}

hintButton.addEventListener("click", askHint);

function afterUpdate() {
  const kind = turnKind();
  page.setTurn(kind, turnLabel(kind));
  showAssist(kind);
  // A call-out belongs to its move: the opponent's is gone once the turn comes back to you.
  if (kind === "you" && obs.last && obs.last.seat !== mySeat()) board.clearCallout();
  if (kind === "over") {
    const review = `/replay/${encodeURIComponent(page.room.room_id)}?review=1`;
    for (const link of document.querySelectorAll(".review-link")) link.href = review;
    const words = resultWords(obs.outcome);
    resultBarScore.textContent = words.score;
    resultBarDetail.textContent = words.detail;
    if (!resultShown && page.queue.length === 0 && mySeat() !== null) {
      resultShown = true;
      showResult(obs.outcome);
    }
  }
}

function act(pit) {
  if (!page.socket || !obs || obs.outcome || mySeat() === null || obs.to_move !== mySeat()) return;
  if (page.queue.length || board.busy) return;
  if (!legal.some((action) => action.pit === pit)) return;
  board.setLegal([]);
  page.setTurn("sowing", sowingLabel(mySeat()));
  if (!page.send({ pit })) {
    board.setLegal(legal);
    afterUpdate();
  }
}

document.addEventListener("keydown", (event) => {
  if (!page.playing || event.altKey || event.ctrlKey || event.metaKey) return;
  if (mySeat() === null) return;
  if (event.target.closest?.("input, select, textarea") || dialog.open) return;
  const digit = Number(event.key);
  if (Number.isInteger(digit) && digit >= 1 && digit <= board.n) {
    event.preventDefault();
    board.press(digit - 1);
  }
});

// A click on the board during an animation fast-forwards everything already received.
document.getElementById("board").addEventListener("click", () => {
  if (board.busy) hurry = true;
});

// --- result dialog -------------------------------------------------------------------------

/**
 * The result in words, from the viewer's side (a spectator's from seat 0's): `result` (win, loss,
 * draw), a `title` ("You win!"), the `score` and the `detail` with the margin ("Won by 22
 * stones").
 */
function resultWords(outcome) {
  const seat = mySeat() ?? 0;
  const winners = outcome.winners ?? [];
  const result = winners.length === 0 ? "draw" : winners.includes(seat) ? "win" : "loss";
  let title = t(`result.${result}`);
  if (mySeat() === null) {
    title =
      result === "draw" ? t("result.draw") : t("result.seat_won", { name: seatName(winners[0]) });
  }
  const margin = outcome.margin ?? 0;
  const by = (key) => tn(key, margin, { n: margin });
  if (outcome.win_by === "emptied_side") {
    const left = outcome.left ?? [0, 0];
    const emptied = winners.includes(seat) ? "result.basic_you" : "result.basic_them";
    return {
      result,
      title,
      score: mySeat() === null ? t("result.basic_seat", { name: seatName(winners[0]) }) : t(emptied),
      detail: t("result.left", { you: left[seat], them: left[1 - seat] }),
    };
  }
  const scores = outcome.scores ?? [0, 0];
  const detail =
    result === "draw" || !margin
      ? ""
      : mySeat() === null
        ? by("result.by")
        : by(result === "win" ? "result.won_by" : "result.lost_by");
  return {
    result,
    title,
    score:
      mySeat() === null
        ? t("result.stores_seats", {
            bottom: seatName(0),
            top: seatName(1),
            a: scores[0],
            b: scores[1],
          })
        : t("result.stores", { you: scores[seat], them: scores[1 - seat] }),
    detail,
  };
}

function showResult(outcome) {
  const { result, title, score, detail } = resultWords(outcome);
  dialog.dataset.result = result;
  document.getElementById("result-title").textContent = title;
  document.getElementById("result-score").textContent = score;
  document.getElementById("result-detail").textContent = detail;
  document.getElementById("result-art").replaceChildren(resultArt(result));
  page.openResult(250);
}

const SPARKLES = `<g class="result-sparkles">
  <path d="M-48 -30 l4 -10 l4 10 l10 4 l-10 4 l-4 10 l-4 -10 l-10 -4z"/>
  <path d="M44 -36 l3 -7 l3 7 l7 3 l-7 3 l-3 7 l-3 -7 l-7 -3z"/>
  <path d="M40 26 l2 -5 l2 5 l5 2 l-5 2 l-2 5 l-2 -5 l-5 -2z"/>
</g>`;

function resultArt(result) {
  const faces = {
    win: "M-14 6 q14 14 28 0",
    draw: "M-12 10 h24",
    loss: "M-13 14 q13 -11 26 0",
  };
  const ns = "http://www.w3.org/2000/svg";
  const node = document.createElementNS(ns, "svg");
  node.setAttribute("viewBox", "-60 -50 120 100");
  node.setAttribute("class", `result-face result-face--${result}`);
  node.innerHTML = `
    <circle r="38" class="result-face-body"/>
    <circle cx="-13" cy="-8" r="4.5" class="result-face-eye"/>
    <circle cx="13" cy="-8" r="4.5" class="result-face-eye"/>
    <path d="${faces[result]}" class="result-face-mouth"/>
    ${result === "win" ? SPARKLES : ""}`;
  return node;
}

// --- start-up ------------------------------------------------------------------------------

page.boot();
