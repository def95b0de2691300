// The Mancala play page: settings → POST /api/rooms → the game's own address
// (/games/mancala/<room>, kept in the address bar) → the room's WebSocket → the board.
//
// The server renders that address with `room` in the page data: the seat the guest cookie holds,
// or none for a spectator, who watches without acting. Messages are queued and handled one at a
// time, so the bot's reply (which arrives right after the player's move) animates after it.
// See docs/ARCHITECTURE.md for the contract.
import { ApiError, postJSON } from "../api.js";
import { confirmDialog } from "../dialog.js";
import { pageData, t, tn } from "../i18n.js";
import { RoomSocket } from "../room-socket.js";
import { levelName, ruleName, valueKey } from "../rules-name.js";
import { bindSpeed } from "../speed.js";
import { toast } from "../toast.js";
import { MancalaBoard } from "./board.js";

const data = pageData();
const GAME = data.game ?? "mancala";
const SETTINGS_KEY = `asobiba.${GAME}.settings`;

const play = document.getElementById("play");
const form = document.getElementById("settings");
const startButton = document.getElementById("start");
const turn = document.getElementById("turn");
const turnText = document.getElementById("turn-text");
const ruleChip = document.getElementById("rule-chip");
const nameYou = document.getElementById("name-you");
const nameThem = document.getElementById("name-them");
const dialog = document.getElementById("result");
const resultBarScore = document.getElementById("result-bar-score");
const resultBarDetail = document.getElementById("result-bar-detail");

const board = new MancalaBoard(document.getElementById("board"), {
  seat: 0,
  onPit: (pit) => act(pit),
});
bindSpeed(document.getElementById("speed"), (speed) => board.setSpeed(speed));

let room = null; // {room_id, seat (null: watching), ws, players, settings}
let socket = null;
let obs = null;
let legal = [];
let queue = [];
let pumping = false;
let hurry = false;
let lastSettings = null;
let resultShown = false;

// --- settings form -------------------------------------------------------------------------

function radios(name) {
  return [...form.querySelectorAll(`input[name="${name}"]`)];
}

function checked(name) {
  return radios(name).find((input) => input.checked && !input.disabled)?.value ?? null;
}

function setChecked(name, value) {
  const input = radios(name).find((node) => node.value === String(value));
  if (input) input.checked = true;
}

/** Show an option only while the option it depends on has the wanted value (only_when). */
function applyOnlyWhen() {
  for (const fieldset of form.querySelectorAll("fieldset[data-only-when]")) {
    const [key, wanted] = JSON.parse(fieldset.dataset.onlyWhen);
    const active = checked(key) === valueKey(wanted);
    fieldset.hidden = !active;
    fieldset.disabled = !active;
  }
}

function readSettings() {
  const options = {};
  for (const spec of data.options) {
    const fieldset = form.querySelector(`fieldset[data-option="${spec.key}"]`);
    if (!fieldset || fieldset.disabled) continue;
    const raw = checked(spec.key);
    const value = spec.values.find((v) => valueKey(v) === raw);
    if (value !== undefined) options[spec.key] = value;
  }
  return { options, level: checked("level"), order: checked("order") ?? "first" };
}

function restoreSettings() {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? "null");
  } catch {
    saved = null;
  }
  if (!saved) return;
  for (const [key, value] of Object.entries(saved.options ?? {})) setChecked(key, valueKey(value));
  if (saved.level) setChecked("level", saved.level);
  if (saved.order) setChecked("order", saved.order);
}

function saveSettings(settings) {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    /* not remembered */
  }
}

/** The starting position for the form's settings, drawn while the player chooses. */
function preview() {
  const { options } = readSettings();
  const seeds = options.seeds ?? 4;
  const pits = 6;
  board.setSeat(0);
  board.show({
    pits: [Array(pits).fill(seeds), Array(pits).fill(seeds)],
    stores: [0, 0],
    last: null,
  });
  ruleChip.textContent = ruleName(options, data.options);
  nameThem.textContent = t("play.bot", { level: levelName(checked("level"), data.levels) });
  nameYou.textContent = t("play.you");
  setTurn("preview", t("play.preview"));
}

form.addEventListener("change", () => {
  applyOnlyWhen();
  if (play.dataset.state === "setup") preview();
});

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const settings = readSettings();
  saveSettings(settings);
  start(settings);
});

// --- the game ------------------------------------------------------------------------------

function setTurn(kind, text) {
  turn.dataset.turn = kind;
  turnText.textContent = text;
  play.dataset.turn = kind;
}

function showState(state) {
  play.dataset.state = state;
}

async function start(settings) {
  startButton.disabled = true;
  const label = startButton.textContent;
  startButton.textContent = t("play.starting");
  dialog.open && dialog.close();
  try {
    const created = await postJSON("/api/rooms", {
      game: GAME,
      options: settings.options,
      level: settings.level,
      order: settings.order,
    });
    lastSettings = settings;
    history.pushState(null, "", address(created.room_id));
    enterRoom({ ...created, players: null, settings });
  } catch (error) {
    const message =
      error instanceof ApiError && error.code === "network" ? t("error.network") : error.message;
    toast(t("error.start", { message }), { kind: "error" });
  } finally {
    startButton.disabled = false;
    startButton.textContent = label;
  }
}

/** The address of a game, or of the settings (no room); `?speed=` and the like stay. */
function address(roomId = null) {
  const path = roomId ? `/games/${GAME}/${encodeURIComponent(roomId)}` : `/games/${GAME}`;
  return path + window.location.search;
}

function enterRoom(created) {
  leaveRoom();
  room = created;
  obs = null;
  legal = [];
  queue = [];
  resultShown = false;
  board.setSeat(created.seat ?? 0);
  board.setLegal([]);
  const settings = created.settings ?? {};
  ruleChip.textContent = ruleName(settings.options ?? {}, data.options);
  showNames();
  showState("playing");
  setTurn("wait", t("play.connecting"));
  document.getElementById("table").scrollIntoView({ block: "nearest" });
  socket = new RoomSocket(created.ws, { onMessage: receive, onStatus: status });
}

function leaveRoom() {
  socket?.close();
  socket = null;
  room = null;
  queue = [];
}

/** Back to the settings, at the settings' address. */
function toSettings() {
  leaveRoom();
  if (window.location.pathname !== `/games/${GAME}`) history.pushState(null, "", address());
  showState("setup");
  preview();
}

// Back and forward move between a game's address and the settings': the server decides what
// each address shows (a seat, a spectator's view, the settings), so load it afresh.
window.addEventListener("popstate", () => window.location.reload());

/** Whose seat is whose: "You", "Computer (Beginner)" or, for a person seen by a spectator,
 * "Player". */
function seatName(seat) {
  if (room && seat === room.seat) return t("play.you");
  const player = room?.players?.[seat];
  if (player && player.kind !== "bot") return t("play.player");
  return t("play.bot", { level: levelName(room?.settings?.level, data.levels) });
}

/** The bottom row is the viewer's seat (seat 0 for a spectator), the top row the other one. */
function showNames() {
  const bottom = room?.seat ?? 0;
  nameYou.textContent = seatName(bottom);
  nameThem.textContent = seatName(1 - bottom);
}

function status(kind, event) {
  if (kind === "reconnecting") setTurn("wait", t("play.reconnecting"));
  else if (kind === "failed") {
    const hadGame = obs !== null;
    leaveRoom();
    if (!hadGame) toSettings();
    // A 4xxx close follows the server's own error message, already shown.
    if (!(event?.code >= 4000 && event.code < 5000)) toast(t("error.network"), { kind: "error" });
  }
}

function receive(msg) {
  queue.push(msg);
  pump();
}

async function pump() {
  if (pumping) return;
  pumping = true;
  try {
    while (queue.length) {
      const msg = queue.shift();
      await handle(msg);
    }
  } finally {
    pumping = false;
    hurry = false;
  }
}

async function handle(msg) {
  if (msg.type === "sync") {
    if (room) {
      room.seat = msg.seat ?? null;
      room.players = msg.players ?? room.players;
    }
    board.setSeat(room?.seat ?? 0);
    showNames();
    obs = msg.obs;
    legal = msg.legal ?? [];
    board.show(obs, { legal });
    afterUpdate();
  } else if (msg.type === "event") {
    obs = msg.obs;
    legal = msg.legal ?? [];
    // Until the stones land, say whose stones are moving, not whose turn comes next.
    if (obs.last) setTurn("sowing", sowingLabel(obs.last.seat));
    await board.play(obs, { legal, fast: hurry, whose: whose(obs.last) });
    afterUpdate();
  } else if (msg.type === "error") {
    const key = `error.${msg.code}`;
    const text = t(key) === key ? t("error.generic", { message: msg.message ?? msg.code }) : t(key);
    toast(text, { kind: "error" });
    board.setLegal(legal);
    if (obs) afterUpdate();
  }
}

/** The viewer's seat; null for a spectator. */
function mySeat() {
  return room ? room.seat : null;
}

/** Who made a move, for the board's call-outs: you, the computer or (to a spectator) the
 * player. */
function whose(last) {
  if (!last) return null;
  if (last.seat === mySeat()) return "you";
  return room?.players?.[last.seat]?.kind === "human" ? "player" : "computer";
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
  return { you: t("play.turn.you"), them: t("play.turn.opponent") }[kind] ?? t("play.connecting");
}

function afterUpdate() {
  const kind = turnKind();
  setTurn(kind, turnLabel(kind));
  // A call-out belongs to its move: the opponent's is gone once the turn comes back to you.
  if (kind === "you" && obs.last && obs.last.seat !== mySeat()) board.clearCallout();
  if (kind === "over") {
    const words = resultWords(obs.outcome);
    resultBarScore.textContent = words.score;
    resultBarDetail.textContent = words.detail;
    if (!resultShown && queue.length === 0 && mySeat() !== null) {
      resultShown = true;
      showResult(obs.outcome);
    }
  }
}

function act(pit) {
  if (!socket || !obs || obs.outcome || mySeat() === null || obs.to_move !== mySeat()) return;
  if (queue.length || board.busy) return;
  if (!legal.some((action) => action.pit === pit)) return;
  board.setLegal([]);
  setTurn("sowing", sowingLabel(mySeat()));
  if (!socket.act({ pit })) {
    board.setLegal(legal);
    afterUpdate();
    toast(t("play.reconnecting"));
  }
}

document.addEventListener("keydown", (event) => {
  if (play.dataset.state !== "playing" || event.altKey || event.ctrlKey || event.metaKey) return;
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
  setTimeout(() => {
    if (!dialog.open) dialog.showModal();
    document.getElementById("rematch").focus();
  }, 250);
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

function rematch() {
  dialog.open && dialog.close();
  start(lastSettings ?? readSettings());
}

function changeSettings() {
  dialog.open && dialog.close();
  toSettings();
  form.querySelector("input:checked")?.focus();
}

document.getElementById("rematch").addEventListener("click", rematch);
document.getElementById("change").addEventListener("click", changeSettings);
document.getElementById("rematch-bar")?.addEventListener("click", rematch);
document.getElementById("change-bar")?.addEventListener("click", changeSettings);

document.getElementById("close-result").addEventListener("click", () => dialog.close());

document.getElementById("new-game")?.addEventListener("click", async () => {
  if (obs && !obs.outcome) {
    const leave = await confirmDialog(t("play.abandon_confirm"), {
      yes: t("play.abandon_yes"),
      no: t("play.abandon_no"),
    });
    if (!leave) return;
  }
  toSettings();
  form.scrollIntoView({ block: "nearest" });
});

// --- start-up ------------------------------------------------------------------------------

restoreSettings();
applyOnlyWhen();

if (data.room) {
  // This page is a game's own address: play it (or watch it) from where it stands.
  lastSettings = data.room.settings;
  enterRoom(data.room);
} else preview();
