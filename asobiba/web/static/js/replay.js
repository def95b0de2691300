// The replay viewer: GET /api/rooms/{id}/replay → step through the frames with the game's board
// (first / previous / next / last, the ← → keys, a slider and autoplay).
//
// It knows no game's rules: the game's board module draws each frame and says what happened in
// it (the contract is in asobiba/web/README.md, "Adding a game's pages"). A game that hides
// cards (`can_reveal`) gets a "show every hand" toggle: the same frames from
// `?reveal=true`, drawn by the same board (every replay is of a finished game).
import { getJSON } from "./api.js";
import { h } from "./dom.js";
import { pageData, t } from "./i18n.js";
import { Review } from "./review.js";
import { levelName } from "./rules-name.js";
import { bindSpeed } from "./speed.js";

const data = pageData();
const meta = document.getElementById("replay-meta");
const section = document.getElementById("replay");
const scrub = document.getElementById("scrub");
const position = document.getElementById("position");
const moveText = document.getElementById("move-text");
const autoplayButton = document.getElementById("autoplay");
const revealButton = document.getElementById("reveal");

/**
 * Board modules per game; a new game adds its line here. A module exports
 * `mountReplay(stage, context)` (draws its board in `stage`, returns it), `describe(frame,
 * context)` (what happened in a frame: a string or a list of lines) and `summary(context)` (the
 * line under the title).
 */
const BOARDS = {
  mancala: () => import("./mancala/board.js"),
  mokochaka: () => import("./mokochaka/board.js"),
  momojan: () => import("./momojan/table.js"),
  michikake: () => import("./michikake/table.js"),
};

let frames = [];
/** The viewer's own frames, and the same frames with every hand shown (fetched when asked). */
const views = { own: [], all: null };
let index = 0;
let board = null;
let timer = null;
let module = null;
let context = null;
/** The game's review (a game whose engine values moves: `can_review`), else null. */
let review = null;
/** The hints taken in the game: {frame, seat, action (the viewer's own only)}. */
let hints = [];

const hintsHere = () => hints.filter((hint) => hint.frame === index);

/** Say under the move that a hint was taken in this position. */
function sayHints() {
  for (const hint of hintsHere()) {
    const line = t("replay.hinted", { who: context.name(hint.seat) });
    moveText.append(h("span", { class: "replay-line replay-hint" }, line));
  }
}

/** Draw on the board the move a hint showed (the viewer's own hints carry it). */
function markHints() {
  for (const hint of hintsHere()) if (hint.action) board.showHint?.(hint.action);
}

function update() {
  scrub.value = String(index);
  position.textContent = t("replay.position", { i: index, n: frames.length - 1 });
  const said = module.describe(frames[index], { ...context, previous: frames[index - 1] ?? null });
  if (Array.isArray(said)) {
    moveText.dataset.lines = String(said.length);
    moveText.replaceChildren(...said.map((line) => h("span", { class: "replay-line" }, line)));
  } else {
    delete moveText.dataset.lines;
    moveText.textContent = said;
  }
  sayHints();
  document.getElementById("first").disabled = index === 0;
  document.getElementById("prev").disabled = index === 0;
  document.getElementById("next").disabled = index >= frames.length - 1;
  document.getElementById("last").disabled = index >= frames.length - 1;
  review?.update(index);
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
    const previous = frames[index - 1] ?? null;
    if (step) await board.play(frames[index], { fast: waiting > 0, previous });
    else board.show(frames[index], { previous });
    if (index === next) markHints();
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
  // A board may keep the game's own rhythm (the time until the next frame); else a steady pace.
  const pause = board.pause?.(frames[index], frames[index + 1]) ?? (board.timing().step ? 500 : 350);
  if (timer) timer = setTimeout(tick, pause);
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

async function toggleReveal() {
  const showAll = revealButton.getAttribute("aria-pressed") !== "true";
  if (showAll && !views.all) {
    revealButton.disabled = true;
    try {
      const url = `/api/rooms/${encodeURIComponent(data.room_id)}/replay?reveal=true`;
      views.all = (await getJSON(url)).frames;
    } catch {
      meta.textContent = t("replay.error");
      return;
    } finally {
      revealButton.disabled = false;
    }
  }
  revealButton.setAttribute("aria-pressed", String(showAll));
  revealButton.classList.toggle("btn--primary", showAll);
  frames = showAll ? views.all : views.own;
  go(index);
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
  const viewer = replay.seat ?? null;
  const level = levelName(replay.level, info.levels);
  frames = replay.frames;
  hints = replay.hints ?? [];
  views.own = frames;
  context = {
    viewer, // the viewer's seat in this game; null when they did not play it
    seat: viewer ?? 0, // the seat drawn at the bottom
    players: replay.seats ?? [], // [{kind: "bot" | "human"}] by seat
    options: replay.options ?? frames[0].options ?? {},
    optionSpecs: info.options,
    level, // the bots' level in words
    /** A seat in words: "You", "Player" or "Computer (level)". */
    name: (s) =>
      s === viewer
        ? t("play.you")
        : replay.seats?.[s]?.kind === "human"
          ? t("play.player")
          : t("play.bot", { level }),
  };
  module = await load();
  section.dataset.game = replay.game;
  board = module.mountReplay(document.getElementById("stage"), context);
  bindSpeed(document.getElementById("speed"), (speed) => board.setSpeed(speed));
  meta.textContent = module.summary(context);
  scrub.max = String(frames.length - 1);
  section.hidden = false;
  index = 0;
  board.show(frames[0]);
  update();
  markHints();

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
  revealButton.hidden = !replay.can_reveal;
  revealButton.addEventListener("click", toggleReveal);
  if (replay.can_review) {
    review = new Review({
      roomId: data.room_id,
      context,
      frameEvents: replay.frame_events,
      module,
      board,
      go: (frame, { scroll = false } = {}) => {
        stopAutoplay();
        go(frame);
        if (scroll) document.getElementById("stage").scrollIntoView({ block: "start" });
      },
    });
    // The result dialog's "Review" opens the replay with ?review=1: the review starts at once.
    review.load({ start: new URLSearchParams(location.search).has("review") });
  }
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
