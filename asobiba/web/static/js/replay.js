// The replay viewer: GET /api/rooms/{id}/replay → step through the frames with the game's board
// (first / previous / next / last, the ← → keys, a slider and autoplay).
//
// It knows no game's rules: the game's board module draws each frame and says what happened in
// it (the contract is in asobiba/web/README.md, "Adding a game's pages"). A game that hides
// cards (`can_reveal`) gets a "show every hand" toggle: the same frames from
// `?reveal=true`, drawn by the same board (every replay is of a finished game).
//
// A game with people names its seats (`seats[k].name`, the name each took the seat with), lists
// them over the board with a mark on a seat a stand-in played for, says on a frame that a
// stand-in made its move (`standins`) and shows the table's chat below the board. Names and
// chat are data: they only ever become text (h() children, textContent), never markup.
//
// A private table's replay is its people's and share-link holders' only: the page passes the
// `share` token it was opened with to every API call, and its people see the link (`share`).
import { getJSON } from "./api.js";
import { h } from "./dom.js";
import { LANG, pageData, t } from "./i18n.js";
import { Review } from "./review.js";
import { levelName } from "./rules-name.js";
import { seatLabel, seatName } from "./seat-names.js";
import { bindSpeed } from "./speed.js";
import { stampContent } from "./stamps.js";
import { toast } from "./toast.js";
import { copyText } from "./waiting-room.js";

const data = pageData();
const meta = document.getElementById("replay-meta");
const section = document.getElementById("replay");
const scrub = document.getElementById("scrub");
const position = document.getElementById("position");
const moveText = document.getElementById("move-text");
const autoplayButton = document.getElementById("autoplay");
const revealButton = document.getElementById("reveal");
const playersList = document.getElementById("replay-players");
const chatBox = document.getElementById("replay-chat");
/** `?share=…` (the token this page was opened with) for the API's addresses, else "". */
const shared = data.share ? `share=${encodeURIComponent(data.share)}` : "";
const api = (path, query = "") => {
  const all = [query, shared].filter(Boolean).join("&");
  return `/api/rooms/${encodeURIComponent(data.room_id)}/${path}${all ? `?${all}` : ""}`;
};

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
/** The moves a stand-in played for a person: {frame, seat, level}. */
let standins = [];

/** Say under the move that a stand-in played it (or one of the moves leading to this frame). */
function sayStandins() {
  for (const mark of standins.filter((entry) => entry.frame === index)) {
    const line = t("replay.people.standin", { who: context.name(mark.seat), level: context.levelOf(mark.level) });
    moveText.append(h("span", { class: "replay-line replay-standin" }, line));
  }
}

/** The table's players over the board: each seat's name (or the bots' level), "you", and a
 * mark on a seat a stand-in played for. */
function showPlayers(seats, viewer) {
  playersList.replaceChildren(
    ...seats.map((seat, index) => {
      const stood = standins.filter((mark) => mark.seat === index).map((mark) => mark.level);
      return h(
        "li",
        { class: `replay-player replay-player--${seat.kind}`, dataset: { seat: String(index) } },
        h("span", { class: "replay-player-name" }, context.name(index, { plain: true })),
        index === viewer ? h("span", { class: "badge badge--primary" }, t("play.you")) : null,
        stood.length
          ? h(
              "span",
              { class: "badge replay-standin-badge", title: t("replay.people.standin_title") },
              t("replay.people.standin_mark", { level: context.levelOf(stood[0]) }),
            )
          : null,
      );
    }),
  );
  playersList.hidden = false;
}

/** "14:05": a chat line's wall-clock time (Unix seconds) in the page's language. */
function clockTime(at) {
  const date = new Date(at * 1000);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(LANG, { hour: "2-digit", minute: "2-digit" }).format(date);
}

/** The table's chat below the board, oldest first: who wrote (as they were named at the
 * table), when, and what (text or a stamp). */
function showChat(lines) {
  const list = h(
    "ol",
    { class: "replay-chat-list", id: "replay-chat-list" },
    lines.map((line) =>
      h(
        "li",
        { class: `replay-chat-line${line.stamp ? " replay-chat-line--stamp" : ""}` },
        h("time", { class: "replay-chat-time muted" }, clockTime(line.at)),
        h("span", { class: "replay-chat-name" }, line.name ?? ""),
        line.seat === null || line.seat === undefined
          ? h("span", { class: "replay-chat-spectator muted" }, t("replay.people.spectator"))
          : null,
        h("span", { class: "replay-chat-text" }, line.stamp ? stampContent(line.stamp) : (line.text ?? "")),
      ),
    ),
  );
  chatBox.replaceChildren(
    h("h2", { class: "replay-chat-title", id: "replay-chat-title" }, t("replay.people.chat")),
    lines.length ? list : h("p", { class: "muted" }, t("replay.people.no_chat")),
  );
  chatBox.hidden = false;
}

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
  sayStandins();
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
      views.all = (await getJSON(api("replay", "reveal=true"))).frames;
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

/** The share link of a private table's replay, for one of its people to copy. */
function showShare(link) {
  const box = document.getElementById("replay-share");
  const field = document.getElementById("replay-share-link");
  field.value = link;
  document.getElementById("replay-share-copy").addEventListener("click", async () => {
    const copied = await copyText(link, field);
    toast(t(copied ? "table.share.copied" : "table.share.copy_failed"), { kind: copied ? "info" : "error" });
  });
  box.hidden = false;
}

async function main() {
  let replay;
  try {
    replay = await getJSON(api("replay"));
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
  const seats = replay.seats ?? [];
  const levelOf = (id) => levelName(id, info.levels);
  // A person who deleted their data still sat here: their seat counts and is named "Deleted player".
  const person = (seat) => seat.kind === "human" || seat.kind === "deleted";
  const people = seats.filter(person).length;
  /** A person's seat by the name they took it with ("Player n" for a seat stored without one). */
  const personName = (s) => seatName(s, seats);
  const others = seats.flatMap((seat, s) => (person(seat) && s !== viewer ? [personName(s)] : []));
  // The line under the title names the opponents: the bots' level, or (a game between people
  // with no bot) the other people's names.
  const level = replay.level ? levelOf(replay.level) : others.join(t("records.people.names_sep"));
  frames = replay.frames;
  hints = replay.hints ?? [];
  standins = replay.standins ?? [];
  views.own = frames;
  context = {
    viewer, // the viewer's seat in this game; null when they did not play it
    seat: viewer ?? 0, // the seat drawn at the bottom
    players: seats, // [{kind: "bot" | "human" | "deleted", name, level?}] by seat
    options: replay.options ?? frames[0].options ?? {},
    optionSpecs: info.options,
    level, // the bots' level in words (the other people's names where no seat was a bot)
    levelOf, // a level id in words
    /** A seat in words, one name per seat (seat-names.js): "You", a person's name ("Player n"
     * if stored without one), "Deleted player" or "CPU n"; `plain` names the viewer's own seat too and puts a
     * computer's level beside its name ("CPU 2 (Beginner)", the list of players). */
    name: (s, { plain = false } = {}) =>
      plain
        ? seatLabel(s, seats, null, levelOf(seats[s]?.level ?? replay.level))
        : seatName(s, seats, viewer),
  };
  module = await load();
  section.dataset.game = replay.game;
  board = module.mountReplay(document.getElementById("stage"), context);
  bindSpeed(document.getElementById("speed"), (speed) => board.setSpeed(speed));
  meta.textContent = module.summary(context);
  if (people > 1 || standins.length) showPlayers(seats, viewer);
  if (people > 1 || replay.chat?.length) showChat(replay.chat ?? []);
  if (replay.share) showShare(new URL(replay.share, location.origin).href);
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
      url: api("review"),
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
