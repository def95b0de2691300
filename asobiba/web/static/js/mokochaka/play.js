// The Mokochaka play page: settings (players, strength) → POST /api/rooms → the game's own
// address (/games/mokochaka/<room>) → the room's WebSocket → the table.
//
// Real time: every message is shown the moment it arrives (nothing waits for an animation), the
// flip is animated on every screen at once when the server's event lands, and the 3-second ring
// on the flipper runs from that arrival (the server's clock decides; the ring only shows it).
// Calls are assembled from animal keys/buttons and sent with Enter; a special call grabs at once.
// Everything said, judged and penalised is shown as speech bubbles and in the table's log, from
// the observation's numbered `events` (docs/ARCHITECTURE.md, "Mokochaka specifics").
import { ApiError, postJSON } from "../api.js";
import { confirmDialog } from "../dialog.js";
import { h, reducedMotion, svg } from "../dom.js";
import { pageData, t, tn } from "../i18n.js";
import { RoomSocket } from "../room-socket.js";
import { levelName } from "../rules-name.js";
import { bindSpeed } from "../speed.js";
import { toast } from "../toast.js";
import { ANIMALS, SPECIALS, cardFace, cardText, parseCard, wordText } from "./cards.js";

const data = pageData();
const GAME = data.game ?? "mokochaka";
const SETTINGS_KEY = `asobiba.${GAME}.settings`;
const SEATS = data.seats ?? { min: 2, max: 6 };

const play = document.getElementById("play");
const form = document.getElementById("settings");
const startButton = document.getElementById("start");
const turn = document.getElementById("turn");
const turnText = document.getElementById("turn-text");
const ruleChip = document.getElementById("rule-chip");
const others = document.getElementById("others");
const youSeat = document.getElementById("you-seat");
const pilesBox = document.getElementById("piles");
const judgeBox = document.getElementById("judge");
const pad = document.getElementById("pad");
const assembledBox = document.getElementById("assembled");
const assembledText = document.getElementById("assembled-text");
const log = document.getElementById("log");
const dialog = document.getElementById("result");

/** Keys of the pad: animals 1-4 (or their initials), specials 7-9 (or Z X C). */
const ANIMAL_KEYS = { 1: "moko", 2: "paka", 3: "pome", 4: "gabu", m: "moko", p: "paka", o: "pome", g: "gabu" };
const SPECIAL_KEYS = { 7: "mokochaka", 8: "chakamoko", 9: "chakamokochaka", z: "mokochaka", x: "chakamoko", c: "chakamokochaka" };
const KEY_OF = { moko: "1", paka: "2", pome: "3", gabu: "4", mokochaka: "7", chakamoko: "8", chakamokochaka: "9" };

const BUBBLE_MS = { slow: 4500, normal: 3000, fast: 2200, instant: 2200 };
const FLIP_MS = { slow: 700, normal: 420, fast: 220, instant: 0 };

let speed = "normal";
let room = null; // {room_id, seat (null: watching), ws, players, settings}
let socket = null;
let obs = null;
let legal = [];
let seen = 0; // the highest event number shown
let typed = []; // the call being assembled, as animal syllables
let chosenPiles = []; // piles picked so far when taking
let ring = null; // {flips, start (performance.now()), ms}
let ringFrame = 0;
let lastSettings = null;
let resultShown = false;
let lastJudgement = null;
const bubbleTimers = new Map();

bindSpeed(document.getElementById("speed"), (value) => {
  speed = value;
  play.dataset.speed = value;
});

// --- settings form -------------------------------------------------------------------------

function checked(name) {
  return form.querySelector(`input[name="${name}"]:checked`)?.value ?? null;
}

function setChecked(name, value) {
  const input = form.querySelector(`input[name="${name}"][value="${CSS.escape(String(value))}"]`);
  if (input) input.checked = true;
}

function readSettings() {
  const players = Number(checked("players") ?? SEATS.min);
  return { options: {}, level: checked("level"), players, order: "random" };
}

function restoreSettings() {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? "null");
  } catch {
    saved = null;
  }
  if (!saved) return;
  if (saved.players) setChecked("players", saved.players);
  if (saved.level) setChecked("level", saved.level);
}

function saveSettings(settings) {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    /* not remembered */
  }
}

/** The table as it will look: the chosen number of seats around three sample piles. */
function preview() {
  const settings = readSettings();
  const n = settings.players;
  room = { seat: 0, players: Array.from({ length: n }, (_, i) => ({ kind: i ? "bot" : "human", level: settings.level })), settings };
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
  room = null;
  setTurn("preview", t("play.preview"));
}

form.addEventListener("change", () => {
  if (play.dataset.state === "setup") preview();
});

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const settings = readSettings();
  saveSettings(settings);
  start(settings);
});

// --- the room ------------------------------------------------------------------------------

function setTurn(kind, text) {
  turn.dataset.turn = kind;
  turnText.textContent = text;
  play.dataset.turn = kind;
}

async function start(settings) {
  startButton.disabled = true;
  const label = startButton.textContent;
  startButton.textContent = t("play.starting");
  if (dialog.open) dialog.close();
  try {
    const created = await postJSON("/api/rooms", {
      game: GAME,
      options: {},
      level: settings.level,
      order: "random",
      players: settings.players,
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
  seen = 0;
  typed = [];
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
  play.dataset.state = "playing";
  setTurn("wait", t("play.connecting"));
  document.getElementById("table").scrollIntoView({ block: "nearest" });
  socket = new RoomSocket(created.ws, { onMessage: receive, onStatus: status });
}

function leaveRoom() {
  socket?.close();
  socket = null;
  room = null;
  stopRing();
}

function toSettings() {
  leaveRoom();
  if (window.location.pathname !== `/games/${GAME}`) history.pushState(null, "", address());
  play.dataset.state = "setup";
  log.replaceChildren();
  judgeBox.replaceChildren();
  preview();
}

window.addEventListener("popstate", () => window.location.reload());

function status(kind, event) {
  if (kind === "reconnecting") setTurn("wait", t("play.reconnecting"));
  else if (kind === "failed") {
    const hadGame = obs !== null;
    leaveRoom();
    if (!hadGame) toSettings();
    if (!(event?.code >= 4000 && event.code < 5000)) toast(t("error.network"), { kind: "error" });
  }
}

function receive(msg) {
  if (msg.type === "sync") {
    if (room) {
      room.seat = msg.seat ?? null;
      room.players = msg.players ?? room.players;
      ruleChip.textContent = t("moko.chip", {
        n: room.players.length,
        level: levelName(room.settings?.level ?? room.players.find((p) => p.level)?.level, data.levels),
      });
    }
    const first = obs === null;
    update(msg.obs, msg.legal ?? [], { quiet: first && msg.obs.flips > 0 });
  } else if (msg.type === "event") {
    update(msg.obs, msg.legal ?? [], {});
  } else if (msg.type === "error") {
    // A call that arrives after the turn was settled is refused: the moment had passed.
    const late = ["not_your_turn", "illegal_action"].includes(msg.code);
    const key = late ? "moko.error.too_late" : `error.${msg.code}`;
    const text = t(key) === key ? t("error.generic", { message: msg.message ?? msg.code }) : t(key);
    toast(text, { kind: late ? "info" : "error" });
    if (obs) render();
  }
}

function update(next, nextLegal, { quiet }) {
  const before = obs;
  obs = next;
  legal = nextLegal;
  if (!before || before.flips !== obs.flips || obs.phase !== "call") typed = [];
  if (!(obs.phase === "take" && obs.choice?.seat === mySeat())) chosenPiles = [];
  const fresh = (obs.events ?? []).filter((event) => event.n > seen);
  seen = Math.max(seen, ...(obs.events ?? []).map((event) => event.n));
  const flipped = fresh.filter((event) => event.type === "flip").at(-1);
  if (obs.phase === "call" && (!ring || ring.flips !== obs.flips)) {
    ring = { flips: obs.flips, start: performance.now(), ms: (obs.call_deadline - obs.flip_at) * 1000 };
  }
  if (obs.phase !== "call") stopRing();
  render({ flipped: quiet ? null : flipped });
  for (const event of fresh) tell(event, { quiet });
  if (obs.phase === "call") runRing();
  afterUpdate();
}

// --- who is who ----------------------------------------------------------------------------

/** The viewer's seat; null for a spectator. */
function mySeat() {
  return room ? room.seat : null;
}

function seatCount() {
  return obs?.seats ?? room?.players?.length ?? 0;
}

/** Bots get sleepy names (the winner sleeps best), in seat order. */
function seatName(seat) {
  if (seat === null || seat === undefined) return "";
  if (room && seat === room.seat) return t("play.you");
  const players = room?.players ?? [];
  const player = players[seat];
  if (player && player.kind !== "bot") return t("moko.player_n", { n: seat + 1 });
  const names = t("moko.bot_names").split(",");
  const index = players.slice(0, seat).filter((p) => p.kind === "bot").length;
  return names[index % names.length];
}

function seatLevel(seat) {
  const player = room?.players?.[seat];
  if (room && seat === room.seat) return "";
  if (player && player.kind !== "bot") return t("play.player");
  return t("play.bot", { level: levelName(player?.level ?? room?.settings?.level, data.levels) });
}

/** Seats from the viewer's left, clockwise: the viewer last (drawn at the bottom). */
function seatOrder() {
  const n = seatCount();
  const me = mySeat() ?? 0;
  return Array.from({ length: n }, (_, k) => (me + 1 + k) % n);
}

// --- drawing -------------------------------------------------------------------------------

/** What the viewer may do now: "flip", "call", "grab", "take", "give" or "". */
function myAct() {
  if (!obs || mySeat() === null || !legal.length) return "";
  const keys = new Set(legal.map((action) => Object.keys(action)[0]));
  for (const key of ["flip", "call", "take", "give", "grab"]) if (keys.has(key)) return key;
  return "";
}

function render({ flipped = null } = {}) {
  if (!obs) return;
  const act = myAct();
  play.dataset.phase = obs.phase;
  play.dataset.act = act;
  play.dataset.flips = String(obs.flips ?? 0);
  renderSeats(act);
  renderPiles(act, flipped);
  renderPad(act);
}

function renderSeats(act) {
  const order = seatOrder();
  const me = mySeat() ?? (order.length ? order[order.length - 1] : 0);
  const items = order.map((seat) => seatItem(seat, act));
  others.replaceChildren(...items.slice(0, -1));
  youSeat.replaceChildren(...items.slice(-1));
  others.dataset.count = String(items.length - 1);
  youSeat.dataset.seat = String(me);
}

function seatItem(seat, act) {
  const acting = obs.phase === "flip" || obs.phase === "call" ? obs.turn : obs.choice?.seat;
  const hand = obs.hands?.[seat] ?? 0;
  const pick = act === "give" && legal.some((action) => action.give === seat);
  const bubble = h("span", { class: "mk-bubble", "data-bubble": "", hidden: true });
  const old = document.querySelector(`.mk-seat[data-seat="${seat}"] .mk-bubble`);
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
      h("span", { class: "mk-avatar-face", "aria-hidden": "true" }, seatName(seat).slice(0, 1)),
    ),
    h(
      "span",
      { class: "mk-seat-text" },
      h("span", { class: "mk-seat-name" }, seatName(seat)),
      seatLevel(seat) ? h("span", { class: "mk-seat-level" }, seatLevel(seat)) : null,
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
          onclick: () => send({ give: seat }),
          "aria-label": t("moko.give_to", { name: seatName(seat) }),
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
        seat === mySeat() ? "mk-seat--you" : "",
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

const RING_R = 27;
const RING_LENGTH = 2 * Math.PI * RING_R;

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

/** The flipper's ring empties over the 3 seconds from the flip (as this screen saw it). */
function runRing() {
  cancelAnimationFrame(ringFrame);
  const step = () => {
    if (!ring || !obs || obs.phase !== "call") return;
    const left = Math.max(0, 1 - (performance.now() - ring.start) / ring.ms);
    const seatNode = document.querySelector(`.mk-seat[data-seat="${obs.turn}"]`);
    const arc = seatNode?.querySelector(".mk-ring-left");
    if (arc) {
      arc.style.strokeDashoffset = String((RING_LENGTH * (1 - left)).toFixed(2));
      seatNode.dataset.left = left.toFixed(2);
      seatNode.classList.toggle("mk-seat--late", left <= 0);
      seatNode.classList.toggle("mk-seat--hurry", left > 0 && left < 0.34);
    }
    if (left > 0) ringFrame = requestAnimationFrame(step);
  };
  step();
}

function stopRing() {
  cancelAnimationFrame(ringFrame);
  ring = null;
}

function renderPiles(act, flipped) {
  const takeable = new Set();
  if (act === "take") for (const action of legal) for (const i of action.take) takeable.add(i);
  const flippable = new Set(act === "flip" ? legal.map((action) => action.flip) : []);
  const piles = (obs.piles ?? []).map((pile, i) => {
    const card = pile.top;
    const parsed = parseCard(card);
    const can = flippable.has(i) || takeable.has(i);
    const label = parsed
      ? t("moko.pile", { n: i + 1, card: cardText(card), size: pile.size })
      : t("moko.pile_empty", { n: i + 1 });
    const face = h("span", { class: "mk-pile-card" }, cardFace(card, { label }));
    if (flipped && flipped.pile === i && FLIP_MS[speed] && !reducedMotion()) {
      face.classList.add("mk-flipping");
      face.style.setProperty("--mk-flip-ms", `${FLIP_MS[speed]}ms`);
    }
    const attrs = {
      class: [
        "mk-pile",
        can ? "mk-pile--legal" : "",
        chosenPiles.includes(i) ? "mk-pile--chosen" : "",
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
          onclick: () => pressPile(i),
          "aria-label": act === "flip" ? t("moko.flip_onto", { n: i + 1 }) : t("moko.take_pile", { n: i + 1, label }),
          "aria-pressed": act === "take" ? String(chosenPiles.includes(i)) : null,
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
  pilesBox.replaceChildren(piles[0] ?? "", token, ...piles.slice(1));
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

// --- the call pad --------------------------------------------------------------------------

function legalWords(kind) {
  return legal.filter((action) => kind in action).map((action) => action[kind]);
}

/** The animals that may come next: those that keep the call a start of some legal word. */
function nextAnimals() {
  const words = legalWords("call");
  const sofar = typed.join("");
  return new Set(
    ANIMALS.filter((animal) => words.some((word) => word.startsWith(sofar + animal))),
  );
}

function renderPad(act) {
  if (!pad) return;
  const calling = legalWords("call").length > 0;
  const grabs = new Set(legalWords("grab"));
  const next = calling ? nextAnimals() : new Set();
  const word = typed.join("");
  pad.dataset.active = calling || grabs.size ? "true" : "false";
  // Built once and only enabled or disabled afterwards: a button replaced under a finger would
  // lose its tap.
  const animals = document.getElementById("animals");
  if (!animals.children.length) {
    animals.append(
      ...ANIMALS.map((animal) =>
        h(
          "button",
          {
            class: `btn mk-key mk-key--animal mk-key--${animal}`,
            type: "button",
            "data-animal": animal,
            onclick: () => addAnimal(animal),
          },
          h("span", { class: "mk-key-art", "aria-hidden": "true" }, cardFace(`${animal}1`, { label: "" })),
          h("span", { class: "mk-key-name" }, wordText(animal)),
          h("kbd", {}, KEY_OF[animal]),
        ),
      ),
    );
  }
  const specials = document.getElementById("specials");
  if (!specials.children.length) {
    specials.append(
      ...SPECIALS.map((special) =>
        h(
          "button",
          {
            class: "btn btn--accent mk-key mk-key--special",
            type: "button",
            "data-grab": special,
            onclick: () => grab(special),
          },
          h("span", { class: "mk-key-name" }, wordText(special)),
          h("kbd", {}, KEY_OF[special]),
        ),
      ),
    );
  }
  for (const button of animals.children) button.disabled = !next.has(button.dataset.animal);
  for (const button of specials.children) button.disabled = !grabs.has(button.dataset.grab);
  document.getElementById("backspace").disabled = !calling || typed.length === 0;
  document.getElementById("send").disabled = !calling || !legalWords("call").includes(word);
  assembledBox.dataset.empty = typed.length ? "false" : "true";
  assembledBox.dataset.word = word;
  assembledText.textContent = typed.length
    ? wordText(word)
    : calling
      ? t("moko.assemble_hint")
      : act === "grab"
        ? t("moko.grab_hint")
        : t("moko.wait_hint");
}

function addAnimal(animal) {
  if (!nextAnimals().has(animal)) {
    shake();
    return;
  }
  typed = [...typed, animal];
  renderPad(myAct());
}

function undo() {
  if (!typed.length) return;
  typed = typed.slice(0, -1);
  renderPad(myAct());
}

function sendCall() {
  const word = typed.join("");
  if (!legalWords("call").includes(word)) {
    shake();
    return;
  }
  typed = [];
  send({ call: word });
}

function grab(word) {
  if (!legalWords("grab").includes(word)) {
    shake();
    return;
  }
  typed = [];
  send({ grab: word });
}

function shake() {
  if (!assembledBox) return;
  assembledBox.classList.remove("mk-shake");
  void assembledBox.offsetWidth; // restart the animation
  assembledBox.classList.add("mk-shake");
}

function send(action) {
  if (!socket || !obs || mySeat() === null) return;
  if (!socket.act(action)) {
    toast(t("play.reconnecting"));
    return;
  }
  // Nothing more to do until the server answers: the pad and the choices wait for it.
  legal = [];
  render();
}

document.getElementById("backspace")?.addEventListener("click", undo);
document.getElementById("send")?.addEventListener("click", sendCall);

document.addEventListener("keydown", (event) => {
  if (play.dataset.state !== "playing" || event.altKey || event.ctrlKey || event.metaKey) return;
  if (mySeat() === null || !obs || dialog.open) return;
  if (event.target.closest?.("input, select, textarea")) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const act = myAct();
  if ((act === "flip" || act === "take") && ["1", "2", "3"].includes(key)) {
    event.preventDefault();
    pressPile(Number(key) - 1);
  } else if (key in SPECIAL_KEYS && legalWords("grab").length) {
    event.preventDefault();
    grab(SPECIAL_KEYS[key]);
  } else if (key in ANIMAL_KEYS && act === "call") {
    event.preventDefault();
    addAnimal(ANIMAL_KEYS[key]);
  } else if (key === "Backspace" && act === "call") {
    event.preventDefault();
    undo();
  } else if (key === "Enter" && act === "call" && !event.target.closest?.("a")) {
    // Enter sends the call wherever the focus is (a focused pad button would add an animal).
    event.preventDefault();
    sendCall();
  }
});

// --- what happened: speech bubbles and the log ------------------------------------------------

const REASON_KEYS = {
  wrong_call: "moko.reason.wrong_call",
  too_slow: "moko.reason.too_slow",
  false_grab: "moko.reason.false_grab",
  wrong_special: "moko.reason.wrong_special",
};

function quoted(word) {
  return t("moko.quote", { word: wordText(word) });
}

function pileList(piles) {
  return piles.map((i) => i + 1).join(t("moko.and"));
}

/** One event in plain words for the log, and the bubble it puts over a seat (if any). */
function describe(event) {
  const name = seatName(event.seat);
  switch (event.type) {
    case "start":
      return { line: t("moko.ev.start", { name }), bubble: [event.seat, t("moko.bubble.start"), "start"] };
    case "flip":
      return {
        line: t(event.auto ? "moko.ev.flip_auto" : "moko.ev.flip", {
          name,
          card: cardText(event.card),
          n: event.pile + 1,
        }),
      };
    case "call":
      return { line: t("moko.ev.call", { name, word: quoted(event.word) }), bubble: [event.seat, quoted(event.word), "call"] };
    case "grab":
      return {
        line: t("moko.ev.grab", { name, word: quoted(event.word) }),
        bubble: [event.seat, t("moko.bubble.grab", { word: quoted(event.word) }), "grab"],
      };
    case "judgement": {
      const right = (event.correct ?? []).map(quoted).join(t("moko.or"));
      return { line: t("moko.ev.judgement", { right }), judge: right };
    }
    case "token":
      return {
        line: t("moko.ev.token", { name, word: quoted(event.word) }),
        bubble: [event.seat, t("moko.bubble.token"), "token"],
      };
    case "penalty": {
      const reason = t(REASON_KEYS[event.reason] ?? "moko.reason.other", {
        right: (lastJudgement ?? []).map(quoted).join(t("moko.or")),
      });
      return {
        line: t("moko.ev.penalty", { name, reason }),
        bubble: [event.seat, t("moko.bubble.penalty", { reason }), "penalty"],
      };
    }
    case "take":
      return {
        line:
          tn("moko.ev.take", event.cards, { name, piles: pileList(event.piles ?? []) }) +
          (event.how === "timeout" ? t("moko.ev.timeout") : ""),
        bubble: [event.seat, tn("moko.bubble.take", event.cards), "take"],
      };
    case "bonus":
      return {
        line: tn("moko.ev.bonus", event.cards, { name }),
        bubble: [event.seat, tn("moko.bubble.bonus", event.cards), "take"],
      };
    case "give":
      if (event.to === null || event.to === undefined) return { line: t("moko.ev.give_none", { name }) };
      return {
        line:
          tn("moko.ev.give", event.cards, { name, to: seatName(event.to) }) +
          (event.how === "timeout" ? t("moko.ev.timeout") : ""),
        bubble: [event.seat, tn("moko.bubble.give", event.cards, { to: seatName(event.to) }), "give"],
      };
    case "end":
      return { line: t("moko.ev.end", { names: (event.emptied ?? []).map(seatName).join(t("moko.and")) }) };
    default:
      return { line: event.type };
  }
}

function tell(event, { quiet = false } = {}) {
  if (event.type === "judgement") lastJudgement = event.correct ?? [];
  const { line, bubble, judge } = describe(event);
  log.prepend(h("li", { class: `mk-log-line mk-log-line--${event.type}`, "data-event": event.type, "data-n": String(event.n) }, line));
  while (log.children.length > 60) log.lastElementChild.remove();
  if (quiet) return;
  if (judge) showJudge(judge);
  if (bubble) showBubble(...bubble);
}

function showBubble(seat, text, kind) {
  const node = document.querySelector(`.mk-seat[data-seat="${seat}"] .mk-bubble`);
  if (!node) return;
  node.className = `mk-bubble mk-bubble--${kind}`;
  node.textContent = text;
  node.hidden = false;
  clearTimeout(bubbleTimers.get(seat));
  bubbleTimers.set(
    seat,
    setTimeout(() => {
      const current = document.querySelector(`.mk-seat[data-seat="${seat}"] .mk-bubble`);
      if (current) current.hidden = true;
    }, BUBBLE_MS[speed] ?? 3000),
  );
}

let judgeTimer = 0;
function showJudge(right) {
  judgeBox.replaceChildren(h("span", { class: "mk-judge-text" }, t("moko.judge", { right })));
  judgeBox.hidden = false;
  clearTimeout(judgeTimer);
  judgeTimer = setTimeout(() => (judgeBox.hidden = true), (BUBBLE_MS[speed] ?? 3000) + 800);
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
        ? ["you", t("moko.turn.give_you", { reason: t(REASON_KEYS[obs.choice.reason] ?? "moko.reason.other", { right: (lastJudgement ?? []).map(quoted).join(t("moko.or")) }) })]
        : ["them", t("moko.turn.give", { name })];
    default:
      return ["wait", t("play.connecting")];
  }
}

function afterUpdate() {
  if (obs.outcome) {
    const words = resultWords(obs.outcome);
    setTurn("over", words.title);
    document.getElementById("result-bar-score").textContent = words.score;
    fillResultTable(document.getElementById("result-bar-table"), obs.outcome);
    if (!resultShown && mySeat() !== null) {
      resultShown = true;
      showResult(obs.outcome);
    }
    return;
  }
  const [kind, text] = turnWords();
  setTurn(kind, text);
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
  setTimeout(() => {
    if (!dialog.open) dialog.showModal();
    document.getElementById("rematch").focus();
  }, 400);
}

function rematch() {
  if (dialog.open) dialog.close();
  start(lastSettings ?? readSettings());
}

function changeSettings() {
  if (dialog.open) dialog.close();
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

if (data.room) {
  // This page is a game's own address: play it (or watch it) from where it stands.
  const players = data.room.players?.length;
  lastSettings = { ...data.room.settings, players, order: "random" };
  enterRoom({ ...data.room, settings: lastSettings });
} else preview();
