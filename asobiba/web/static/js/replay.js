// The replay viewer: GET /api/rooms/{id}/replay → step through the frames with the game's board
// (first / previous / next / last, the ← → keys, a slider and autoplay).
import { getJSON } from "./api.js";
import { pageData, t } from "./i18n.js";
import { levelName, ruleName } from "./rules-name.js";
import { bindSpeed } from "./speed.js";

const data = pageData();
const meta = document.getElementById("replay-meta");
const section = document.getElementById("replay");
const scrub = document.getElementById("scrub");
const position = document.getElementById("position");
const moveText = document.getElementById("move-text");
const autoplayButton = document.getElementById("autoplay");

/** Board modules per game; a new game adds its line here. */
const BOARDS = {
  mancala: async () => (await import("./mancala/board.js")).MancalaBoard,
  momojan: async () => (await import("./momojan/table.js")).MomojanTable,
};

let frames = [];
let index = 0;
let board = null;
let seat = 0;
let timer = null;
let game = null;
let viewer = null; // the viewer's seat in this game; null when they did not play it

/** "you", "computer" or "player": who made the move shown in `frame` (for the call-outs). */
function whose(frame) {
  const last = frame?.last;
  if (!last) return null;
  if (last.seat === viewer) return "you";
  return game.seats?.[last.seat]?.kind === "human" ? "player" : "computer";
}

function describe(frame) {
  const last = frame?.last;
  // A board that words its own moves (MOMOJAN's table) says what happened.
  if (board?.describe) return board.describe(frame) || t("replay.start");
  if (!last) return t("replay.start");
  const who = {
    you: t("play.you"),
    player: t("play.player"),
    computer: t("play.bot", { level: levelName(game.level, game.levels) }),
  }[whose(frame)];
  let text = t("replay.move", { who, n: last.pit + 1 });
  if (last.capture_from) text += ` — ${t("call.capture")}`;
  else if (last.extra_turn) text += ` — ${t("call.extra")}`;
  return text;
}

function update() {
  scrub.value = String(index);
  position.textContent = t("replay.position", { i: index, n: frames.length - 1 });
  moveText.textContent = describe(frames[index]);
  document.getElementById("first").disabled = index === 0;
  document.getElementById("prev").disabled = index === 0;
  document.getElementById("next").disabled = index >= frames.length - 1;
  document.getElementById("last").disabled = index >= frames.length - 1;
}

let navigation = Promise.resolve();
let waiting = 0;

/**
 * Move to a frame: `target` is a number or a function of the current index (evaluated when this
 * step's turn comes, so quick key presses add up). Steps run one after another; a step forward
 * animates unless more steps are already waiting.
 */
function go(target, { animate = false } = {}) {
  waiting += 1;
  if (board.busy) board.skip();
  navigation = navigation.then(async () => {
    waiting -= 1;
    const wanted = typeof target === "function" ? target() : target;
    const next = Math.max(0, Math.min(frames.length - 1, wanted));
    const step = animate && next === index + 1;
    index = next;
    update();
    if (step) await board.play(frames[index], { fast: waiting > 0, whose: whose(frames[index]) });
    else board.show(frames[index]);
  });
  return navigation;
}

function stopAutoplay() {
  clearTimeout(timer);
  timer = null;
  autoplayButton.setAttribute("aria-pressed", "false");
  autoplayButton.setAttribute("aria-label", t("replay.play"));
  autoplayButton.title = t("replay.play");
}

async function tick() {
  if (!timer) return;
  if (index >= frames.length - 1) {
    stopAutoplay();
    return;
  }
  await go(() => index + 1, { animate: true });
  if (timer) timer = setTimeout(tick, board.timing().step ? 500 : 350);
}

function toggleAutoplay() {
  if (timer) {
    stopAutoplay();
    return;
  }
  if (index >= frames.length - 1) go(0);
  autoplayButton.setAttribute("aria-pressed", "true");
  autoplayButton.setAttribute("aria-label", t("replay.pause"));
  autoplayButton.title = t("replay.pause");
  timer = setTimeout(tick, 200);
}

async function main() {
  let replay;
  try {
    replay = await getJSON(`/api/rooms/${encodeURIComponent(data.room_id)}/replay`);
  } catch {
    meta.textContent = t("replay.error");
    meta.classList.add("notice", "notice--error");
    return;
  }
  const load = BOARDS[replay.game];
  if (!load || !replay.frames?.length) {
    meta.textContent = t(load ? "replay.error" : "replay.unsupported");
    return;
  }
  const info = data.games?.[replay.game] ?? { options: [], levels: [] };
  game = { level: replay.level, levels: info.levels, seats: replay.seats };
  viewer = replay.seat ?? null;
  seat = viewer ?? 0;
  frames = replay.frames;
  const Board = await load();
  board = new Board(document.getElementById("board"), { seat });
  bindSpeed(document.getElementById("speed"), (speed) => board.setSpeed(speed));
  const vs = t("replay.vs", {
    rules: ruleName(replay.options ?? frames[0].options ?? {}, info.options),
    level: levelName(replay.level, info.levels),
  });
  const order = viewer === null ? null : t(`replay.order.${viewer === 0 ? "first" : "second"}`);
  meta.textContent = [vs, order].filter(Boolean).join(t("replay.sep"));
  const name = (s) =>
    s === viewer
      ? t("play.you")
      : replay.seats?.[s]?.kind === "human"
        ? t("play.player")
        : t("play.bot", { level: levelName(replay.level, info.levels) });
  document.getElementById("name-you").textContent = name(seat);
  document.getElementById("name-them").textContent = name(1 - seat);
  if (board.setNames) {
    // A board that names its own seats (MOMOJAN's table) replaces the name rows.
    board.setNames([name(0), name(1)]);
    for (const row of section.querySelectorAll(".player-row")) row.hidden = true;
  }
  scrub.max = String(frames.length - 1);
  section.hidden = false;
  index = 0;
  board.show(frames[0]);
  update();

  document.getElementById("first").addEventListener("click", () => {
    stopAutoplay();
    go(0);
  });
  document.getElementById("prev").addEventListener("click", () => {
    stopAutoplay();
    go(() => index - 1);
  });
  document.getElementById("next").addEventListener("click", () => {
    stopAutoplay();
    go(() => index + 1, { animate: true });
  });
  document.getElementById("last").addEventListener("click", () => {
    stopAutoplay();
    go(() => frames.length - 1);
  });
  autoplayButton.addEventListener("click", toggleAutoplay);
  scrub.addEventListener("input", () => {
    stopAutoplay();
    go(Number(scrub.value));
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, select, textarea")) return;
    if (event.key === "ArrowRight") {
      event.preventDefault();
      stopAutoplay();
      go(() => index + 1, { animate: true });
    } else if (event.key === "ArrowLeft") {
      event.preventDefault();
      stopAutoplay();
      go(() => index - 1);
    } else if (event.key === "Home") {
      stopAutoplay();
      go(0);
    } else if (event.key === "End") {
      stopAutoplay();
      go(frames.length - 1);
    }
  });
}

main();
