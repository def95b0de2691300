// The Mancala play page: settings → POST /api/rooms → the room's WebSocket → the board.
//
// Messages are queued and handled one at a time, so the bot's reply (which arrives right after
// the player's move) animates after it. See docs/ARCHITECTURE.md for the contract.
import { ApiError, postJSON } from "../api.js";
import { confirmDialog } from "../dialog.js";
import { pageData, t } from "../i18n.js";
import { RoomSocket } from "../room-socket.js";
import { levelName, ruleName, valueKey } from "../rules-name.js";
import { bindSpeed } from "../speed.js";
import { toast } from "../toast.js";
import { MancalaBoard } from "./board.js";

const data = pageData();
const GAME = data.game ?? "mancala";
const SETTINGS_KEY = `asobiba.${GAME}.settings`;
const ROOM_KEY = `asobiba.${GAME}.room`;

const play = document.getElementById("play");
const form = document.getElementById("settings");
const startButton = document.getElementById("start");
const turn = document.getElementById("turn");
const turnText = document.getElementById("turn-text");
const ruleChip = document.getElementById("rule-chip");
const nameYou = document.getElementById("name-you");
const nameThem = document.getElementById("name-them");
const dialog = document.getElementById("result");

const board = new MancalaBoard(document.getElementById("board"), {
  seat: 0,
  onPit: (pit) => act(pit),
});
bindSpeed(document.getElementById("speed"), (speed) => board.setSpeed(speed));

let room = null; // {room_id, seat, ws, settings}
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
    enterRoom({ ...created, settings });
  } catch (error) {
    const message =
      error instanceof ApiError && error.code === "network" ? t("error.network") : error.message;
    toast(t("error.start", { message }), { kind: "error" });
  } finally {
    startButton.disabled = false;
    startButton.textContent = label;
  }
}

function enterRoom(created) {
  leaveRoom();
  room = created;
  try {
    sessionStorage.setItem(ROOM_KEY, JSON.stringify(created));
  } catch {
    /* a reload will not resume */
  }
  obs = null;
  legal = [];
  queue = [];
  resultShown = false;
  board.setSeat(created.seat ?? 0);
  board.setLegal([]);
  const settings = created.settings ?? {};
  ruleChip.textContent = ruleName(settings.options ?? {}, data.options);
  nameThem.textContent = t("play.bot", { level: levelName(settings.level, data.levels) });
  nameYou.textContent = t("play.you");
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
  try {
    sessionStorage.removeItem(ROOM_KEY);
  } catch {
    /* nothing kept */
  }
}

function status(kind, event) {
  if (kind === "reconnecting") setTurn("wait", t("play.reconnecting"));
  else if (kind === "failed") {
    const hadGame = obs !== null;
    leaveRoom();
    if (!hadGame) {
      showState("setup");
      preview();
    }
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
    if (typeof msg.seat === "number" && room) room.seat = msg.seat;
    board.setSeat(room?.seat ?? msg.seat ?? 0);
    obs = msg.obs;
    legal = msg.legal ?? [];
    board.show(obs, { legal });
    afterUpdate();
  } else if (msg.type === "event") {
    obs = msg.obs;
    legal = msg.legal ?? [];
    await board.play(obs, { legal, fast: hurry });
    afterUpdate();
  } else if (msg.type === "error") {
    const key = `error.${msg.code}`;
    const text = t(key) === key ? t("error.generic", { message: msg.message ?? msg.code }) : t(key);
    toast(text, { kind: "error" });
    board.setLegal(legal);
  }
}

function mySeat() {
  return room?.seat ?? 0;
}

function turnKind() {
  if (!obs) return "wait";
  if (obs.outcome) return "over";
  return obs.to_move === mySeat() ? "you" : "them";
}

function turnLabel() {
  return (
    { you: t("play.turn.you"), them: t("play.turn.opponent"), over: t("play.turn.over") }[
      turnKind()
    ] ?? t("play.connecting")
  );
}

function afterUpdate() {
  const kind = turnKind();
  setTurn(kind, turnLabel());
  if (kind === "over" && !resultShown && queue.length === 0) {
    resultShown = true;
    try {
      sessionStorage.removeItem(ROOM_KEY);
    } catch {
      /* nothing kept */
    }
    showResult(obs.outcome);
  }
}

function act(pit) {
  if (!socket || !obs || obs.outcome || obs.to_move !== mySeat() || queue.length || board.busy) {
    return;
  }
  if (!legal.some((action) => action.pit === pit)) return;
  board.setLegal([]);
  if (!socket.act({ pit })) {
    board.setLegal(legal);
    toast(t("play.reconnecting"));
  }
}

document.addEventListener("keydown", (event) => {
  if (play.dataset.state !== "playing" || event.altKey || event.ctrlKey || event.metaKey) return;
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

function showResult(outcome) {
  const seat = mySeat();
  const winners = outcome.winners ?? [];
  const result = winners.length === 0 ? "draw" : winners.includes(seat) ? "win" : "loss";
  const scores = outcome.scores ?? [0, 0];
  dialog.dataset.result = result;
  document.getElementById("result-title").textContent = t(`result.${result}`);
  const scoreLine = document.getElementById("result-score");
  const detail = document.getElementById("result-detail");
  if (outcome.win_by === "emptied_side") {
    const left = outcome.left ?? [0, 0];
    scoreLine.textContent = t(winners.includes(seat) ? "result.basic_you" : "result.basic_them");
    detail.textContent = t("result.left", { you: left[seat], them: left[1 - seat] });
  } else {
    scoreLine.textContent = t("result.stores", { you: scores[seat], them: scores[1 - seat] });
    detail.textContent = outcome.margin ? t("result.margin", { n: outcome.margin }) : "";
  }
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

document.getElementById("rematch").addEventListener("click", () => {
  dialog.close();
  start(lastSettings ?? readSettings());
});

document.getElementById("change").addEventListener("click", () => {
  dialog.close();
  leaveRoom();
  showState("setup");
  preview();
  form.querySelector("input:checked")?.focus();
});

document.getElementById("close-result").addEventListener("click", () => dialog.close());

document.getElementById("new-game").addEventListener("click", async () => {
  if (obs && !obs.outcome) {
    const leave = await confirmDialog(t("play.abandon_confirm"), {
      yes: t("play.abandon_yes"),
      no: t("play.abandon_no"),
    });
    if (!leave) return;
  }
  leaveRoom();
  showState("setup");
  preview();
  form.scrollIntoView({ block: "nearest" });
});

// --- start-up ------------------------------------------------------------------------------

restoreSettings();
applyOnlyWhen();

function resume() {
  let saved = null;
  try {
    saved = JSON.parse(sessionStorage.getItem(ROOM_KEY) ?? "null");
  } catch {
    saved = null;
  }
  if (saved?.ws) {
    lastSettings = saved.settings ?? null;
    enterRoom(saved);
    return true;
  }
  return false;
}

if (!resume()) preview();
