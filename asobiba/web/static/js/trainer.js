// /learn/<game>/trainer: a game's trainer. The server draws the session, turns each card at the
// learner over /ws/learn/<game>/trainer, times the answer (from when the card was written to the
// socket to when the answer arrived, less the line's round trip: the page's clock is never read)
// and judges it; this page only shows what it is sent. The game's module
// (/static/js/<game>/trainer.js, `mountTrainer`) draws each card on its own table and takes the
// answer with its own prompts; this page runs the session, the verdicts and the results.
import { getJSON } from "./api.js";
import { h } from "./dom.js";
import { pageData, pick, t } from "./i18n.js";
import { socketURL } from "./room-socket.js";
import { initialSpeed } from "./speed.js";
import { toast } from "./toast.js";
import { fillBestTable, levelName as nameOf, percent, seconds } from "./trainer-best.js";

const data = pageData();
const box = document.getElementById("trainer");
const status = document.getElementById("trainer-status");
const progress = document.getElementById("trainer-progress");
const verdictLine = document.getElementById("trainer-verdict");
const start = document.getElementById("trainer-start");
const results = document.getElementById("trainer-results");
const match = document.getElementById("trainer-match");
const kindsTable = document.getElementById("trainer-kinds");
const levelsTable = document.getElementById("trainer-levels");
const bestBox = document.getElementById("trainer-best");
const bestTable = document.getElementById("trainer-best-table");

let socket = null;
let table = null;
let kinds = {};
let levels = [];
let cards = 0;
let current = 0;

function levelName(id) {
  return nameOf(levels, id);
}

function send(message) {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function setState(state, words) {
  box.dataset.state = state;
  status.textContent = words;
}

function onAnswer(action) {
  if (box.dataset.state !== "card") return;
  setState("answered", t("trainer.checking"));
  send({ type: "answer", n: current, action });
}

function receive(msg) {
  switch (msg.type) {
    case "ping":
      send({ type: "pong", id: msg.id });
      return;
    case "ready":
      kinds = msg.kinds ?? kinds;
      start.disabled = false;
      setState("ready", t("trainer.ready"));
      return;
    case "session":
      cards = msg.cards;
      current = 0;
      results.hidden = true;
      verdictLine.hidden = true;
      start.hidden = true;
      table.reset();
      setState("waiting", t("trainer.get_ready"));
      return;
    case "card":
      current = msg.n;
      box.dataset.card = String(msg.n);
      progress.hidden = false;
      progress.textContent = t("trainer.progress", { n: msg.n, total: cards });
      table.show(msg.view, msg.legal, msg.limit);
      setState("card", t("trainer.call"));
      return;
    case "judged": {
      table.judged(msg);
      verdictLine.hidden = false;
      verdictLine.dataset.right = String(msg.right);
      const time = msg.seconds === null ? "" : ` ${t("trainer.in", { time: seconds(msg.seconds) })}`;
      verdictLine.textContent = `${pick(msg.feedback)}${time}`;
      if (msg.n < cards) setState("waiting", t("trainer.next"));
      return;
    }
    case "done":
      showResults(msg.summary);
      showBest(msg.best);
      start.hidden = false;
      start.textContent = t("trainer.again");
      setState("done", t("trainer.done"));
      start.focus({ preventScroll: true });
      return;
    case "error":
      toast(msg.message, { kind: msg.code === "too_late" ? "info" : "error" });
      if (box.dataset.state === "answered") setState("card", t("trainer.call"));
      return;
    default:
  }
}

function showResults(summary) {
  results.hidden = false;
  const matched = summary.level;
  box.dataset.level = matched ?? "";
  match.textContent = matched
    ? t("trainer.match", { level: levelName(matched), accuracy: percent(summary.accuracy), time: seconds(summary.seconds) })
    : t("trainer.no_match", { accuracy: percent(summary.accuracy), time: seconds(summary.seconds) });
  const heads = [t("trainer.kind"), t("trainer.tries"), t("trainer.accuracy"), t("trainer.mean")];
  kindsTable.replaceChildren(
    h("thead", {}, h("tr", {}, ...heads.map((head) => h("th", { scope: "col" }, head)))),
    h(
      "tbody",
      {},
      ...summary.kinds.map((kind) =>
        h(
          "tr",
          { "data-kind": kind.kind },
          h("th", { scope: "row", "data-label": heads[0] }, pick(kind.name)),
          h("td", { "data-label": heads[1] }, t("trainer.right_of", { right: kind.right, tries: kind.tries })),
          h("td", { "data-label": heads[2] }, percent(kind.accuracy)),
          h("td", { "data-label": heads[3] }, seconds(kind.seconds)),
        ),
      ),
    ),
  );
  const levelHeads = [t("trainer.level"), t("trainer.accuracy"), t("trainer.mean")];
  levelsTable.replaceChildren(
    h("thead", {}, h("tr", {}, ...levelHeads.map((head) => h("th", { scope: "col" }, head)))),
    h(
      "tbody",
      {},
      h(
        "tr",
        { class: "trainer-you" },
        h("th", { scope: "row", "data-label": levelHeads[0] }, t("play.you")),
        h("td", { "data-label": levelHeads[1] }, percent(summary.accuracy)),
        h("td", { "data-label": levelHeads[2] }, seconds(summary.seconds)),
      ),
      ...summary.levels.map((level) =>
        h(
          "tr",
          { "data-level": level.id, class: level.id === matched ? "trainer-matched" : "" },
          h("th", { scope: "row", "data-label": levelHeads[0] }, pick(level.name)),
          h("td", { "data-label": levelHeads[1] }, percent(level.accuracy)),
          h("td", { "data-label": levelHeads[2] }, seconds(level.seconds)),
        ),
      ),
    ),
  );
}

function showBest(best) {
  const entries = Object.entries(best ?? {});
  bestBox.hidden = !entries.length;
  if (entries.length) fillBestTable(bestTable, best, kinds, levels);
}

function connect() {
  socket = new WebSocket(socketURL(data.ws));
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    start.disabled = true;
    setState("closed", t("trainer.closed"));
  });
}

start.addEventListener("click", () => {
  if (start.disabled) return;
  start.disabled = true;
  send({ type: "start" });
  start.disabled = false;
});

async function boot() {
  const [module, info] = await Promise.all([
    import(data.module),
    getJSON(`/api/learn/${encodeURIComponent(data.game)}/trainer`),
  ]);
  kinds = info.kinds;
  levels = info.levels;
  table = module.mountTrainer(document.getElementById("trainer-stage"), { onAnswer });
  table.setSpeed(initialSpeed());
  showBest(info.best);
  connect();
}

boot().catch(() => setState("error", t("trainer.error")));
