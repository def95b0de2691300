// The lobby (/tables): public tables waiting for people and games being played
// (docs/ARCHITECTURE.md, "Tables between people"). GET /api/tables draws the lists at once, then
// WS /ws/lobby replaces them whenever the server says they changed; a dropped socket reconnects
// with backoff, and while it cannot, the page asks the API every 10 s instead. Rows are kept by
// room id and only rewritten when what they show changed, so a busy lobby redraws little. Host
// and player names are the visitors' own words: they are set as text, never as markup.
import { ApiError, getJSON } from "./api.js";
import { h } from "./dom.js";
import { pageData, t } from "./i18n.js";
import { ruleName } from "./rules-name.js";
import { socketURL } from "./room-socket.js";

const GAMES = pageData().games ?? {};
const SHOWN = 100; // rows per list at most (the server sends no more than that)
const POLL_MS = 10_000;
const SOCKET_TRIES = 2; // failed connections in a row before polling takes over meanwhile
const CODE = /^[A-Za-z0-9]{4,8}$/;

const statusBox = document.getElementById("lobby-status");
const statusText = document.getElementById("lobby-status-text");

/** One of the two lists: its element, its empty state, its count and its rows by room id. */
function listOf(kind) {
  return {
    kind,
    list: document.getElementById(kind),
    empty: document.getElementById(`${kind}-empty`),
    count: document.getElementById(`${kind}-count`),
    more: document.getElementById(`${kind}-more`),
    rows: new Map(), // room_id → {node, key, parts}
  };
}

const lists = { waiting: listOf("waiting"), playing: listOf("playing") };

function setStatus(status) {
  statusBox.dataset.status = status;
  statusText.textContent = t(`lobby.status.${status}`);
}

// --- rows ---------------------------------------------------------------------------------

const count = (value) => (Array.isArray(value) ? value.length : Number(value) || 0);

/** A local address for the table: the server's `url` when it is one, else the game's own. */
function tableURL(entry) {
  const url = typeof entry.url === "string" ? entry.url : "";
  if (url.startsWith("/") && !url.startsWith("//") && !url.includes("\\")) return url;
  return `/games/${encodeURIComponent(entry.game)}/${encodeURIComponent(entry.room_id)}`;
}

/** The table's rules in words (empty for a game that offers no options: its row's seat count
 * says what there is to say). */
function rulesText(entry, info) {
  return ruleName(entry.options ?? {}, info.options ?? []);
}

/** What a row shows, as plain strings: equal strings mean the row needs no redraw. */
function partsOf(entry, kind) {
  const info = GAMES[entry.game];
  const game = t(`game.${entry.game}.name`);
  const host = typeof entry.host === "string" && entry.host ? entry.host : "";
  const names = (Array.isArray(entry.names) ? entry.names : [])
    .filter((name) => typeof name === "string" && name)
    .join(t("lobby.names_sep"));
  const seats = count(entry.seats);
  return {
    game,
    rules: rulesText(entry, info),
    seats:
      kind === "waiting"
        ? t("lobby.free", { n: count(entry.free), seats })
        : t("lobby.players", { n: seats }),
    host: host ? t("lobby.host", { name: host }) : "",
    names: kind === "playing" && names ? t("lobby.with", { names }) : "",
    url: tableURL(entry),
    label: t(kind === "waiting" ? "lobby.join_label" : "lobby.watch_label", {
      name: host || "—",
      game,
    }),
  };
}

function buildRow(kind) {
  const refs = {
    game: h("span", { class: "lobby-game" }),
    rules: h("span", { class: "lobby-rules" }),
    seats: h("span", { class: `lobby-seats badge ${kind === "waiting" ? "badge--primary" : ""}` }),
    host: h("span", { class: "lobby-host" }),
    names: h("span", { class: "lobby-names" }),
    link: h(
      "a",
      { class: `btn btn--small ${kind === "waiting" ? "btn--primary" : ""} lobby-go` },
      t(kind === "waiting" ? "lobby.join" : "lobby.watch"),
    ),
  };
  const node = h(
    "li",
    { class: `lobby-row lobby-row--${kind}` },
    h("div", { class: "lobby-row-main" }, refs.game, refs.rules),
    h("div", { class: "lobby-row-meta" }, refs.seats, refs.host, refs.names),
    refs.link,
  );
  return { node, refs };
}

function fillRow(row, parts) {
  const { refs } = row;
  for (const name of ["game", "rules", "seats", "host", "names"]) {
    if (refs[name].textContent !== parts[name]) refs[name].textContent = parts[name];
    refs[name].hidden = !parts[name];
  }
  refs.link.href = parts.url;
  refs.link.setAttribute("aria-label", parts.label);
}

/** Replace one list's rows with `entries` (newest first): unchanged rows stay as they are, new
 * ones are built off the page and put in with a fragment, rows gone are removed. */
function renderList(state, entries) {
  const known = (entry) =>
    typeof entry?.room_id === "string" && Object.hasOwn(GAMES, entry.game);
  const valid = (Array.isArray(entries) ? entries : []).filter(known);
  const shown = valid.slice(0, SHOWN);
  const wanted = new Set(shown.map((entry) => entry.room_id));
  for (const [id, row] of state.rows) {
    if (!wanted.has(id)) {
      row.node.remove();
      state.rows.delete(id);
    }
  }
  const nodes = [];
  for (const entry of shown) {
    const parts = partsOf(entry, state.kind);
    const key = JSON.stringify(parts);
    let row = state.rows.get(entry.room_id);
    if (!row) {
      row = buildRow(state.kind);
      row.node.dataset.roomId = entry.room_id;
      row.node.dataset.game = entry.game;
      state.rows.set(entry.room_id, row);
    }
    if (row.key !== key) {
      fillRow(row, parts);
      row.key = key;
    }
    nodes.push(row.node);
  }
  // Walk the list in the wanted order: rows already in place stay (a focused link keeps its
  // focus), the rest go in together before the next row that is.
  const { list } = state;
  let cursor = list.firstElementChild;
  let batch = null;
  const flush = () => {
    if (batch) list.insertBefore(batch, cursor);
    batch = null;
  };
  for (const node of nodes) {
    if (node === cursor) {
      flush();
      cursor = cursor.nextElementSibling;
    } else {
      batch ??= document.createDocumentFragment();
      batch.append(node);
    }
  }
  flush();
  while (cursor) {
    const next = cursor.nextElementSibling;
    cursor.remove();
    cursor = next;
  }
  list.removeAttribute("aria-busy");
  list.hidden = nodes.length === 0;
  state.empty.hidden = nodes.length > 0;
  state.count.hidden = nodes.length === 0;
  state.count.textContent = String(valid.length);
  state.more.hidden = valid.length <= SHOWN;
  state.more.textContent = valid.length > SHOWN ? t("lobby.more", { n: SHOWN }) : "";
}

function render(data) {
  renderList(lists.waiting, data?.waiting);
  renderList(lists.playing, data?.playing);
}

// --- data: the API first, then the socket, polling while the socket cannot serve ------------

let socket = null;
let socketTimer = null;
let pollTimer = null;
let failures = 0; // socket connections in a row that closed before any message
let live = false;

async function load() {
  try {
    render(await getJSON("/api/tables"));
    return true;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (!live) setStatus("error");
    return false;
  }
}

function startPolling() {
  if (pollTimer !== null) return;
  const tick = async () => {
    if ((await load()) && !live) setStatus("polling");
    if (pollTimer !== null) pollTimer = setTimeout(tick, POLL_MS);
  };
  pollTimer = setTimeout(tick, POLL_MS);
  if (!live) setStatus("polling");
}

function stopPolling() {
  clearTimeout(pollTimer);
  pollTimer = null;
}

function connect() {
  socketTimer = null;
  let ws;
  try {
    ws = new WebSocket(socketURL("/ws/lobby"));
  } catch {
    startPolling();
    return;
  }
  socket = ws;
  let heard = false;
  ws.addEventListener("message", (event) => {
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch {
      return;
    }
    if (msg.type === "ping") {
      ws.send(JSON.stringify({ type: "pong", id: msg.id }));
      return;
    }
    if (msg.type !== "lobby") return;
    heard = true;
    failures = 0;
    live = true;
    stopPolling();
    setStatus("live");
    render(msg);
  });
  ws.addEventListener("close", (event) => {
    if (ws !== socket) return;
    socket = null;
    live = false;
    if (!heard) failures += 1;
    // 1008 and 4xxx are the server saying no: do not ask again, the API serves meanwhile.
    const refused = event.code === 1008 || (event.code >= 4000 && event.code < 5000);
    if (refused || failures >= SOCKET_TRIES) startPolling();
    else setStatus("reconnecting");
    if (refused) return;
    // Backoff: quick after a socket that served, slower after failures (polling covers those).
    const delay = Math.min(30_000, 500 * 2 ** Math.min(failures, 6));
    socketTimer = setTimeout(connect, delay * (0.75 + Math.random() / 2));
  });
}

// A phone waking up or a tab coming back: reconnect at once instead of waiting out the backoff.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && socket === null && socketTimer !== null) {
    clearTimeout(socketTimer);
    connect();
  }
});

async function start() {
  const loaded = await load();
  if (!loaded) startPolling();
  connect();
}

// --- the code box ------------------------------------------------------------------------

const form = document.getElementById("code-form");
const input = document.getElementById("code");
const codeError = document.getElementById("code-error");

function showCodeError(message) {
  codeError.textContent = message;
  codeError.hidden = !message;
  if (message) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
}

input.addEventListener("input", () => {
  // Letters as the host sees them: capitals, no spaces or dashes typed or pasted in.
  const cleaned = input.value.replace(/[\s-]/g, "").toUpperCase();
  if (cleaned !== input.value) input.value = cleaned;
  showCodeError("");
});

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const code = input.value.replace(/[\s-]/g, "").toUpperCase();
  if (!CODE.test(code)) {
    showCodeError(t("lobby.code.invalid"));
    input.focus();
    return;
  }
  try {
    await getJSON(`/api/tables/${code}`);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 429)) {
      // 429: codes are looked up a few a second at most, so nobody can guess them.
      showCodeError(error.status === 404 ? t("lobby.code.unknown", { code }) : t("lobby.code.too_many"));
      input.focus();
      return;
    }
    // Anything else: the address itself will say what there is.
  }
  window.location.assign(`/t/${code}`);
});

start();
