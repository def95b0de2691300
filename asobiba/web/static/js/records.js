// The records page: GET /api/records/{game} → one table per rule set (strength × first/second)
// and the list of stored games with links to their replays.
import { getJSON } from "./api.js";
import { h } from "./dom.js";
import { LANG, pageData, t } from "./i18n.js";
import { levelName, ruleName } from "./rules-name.js";

const data = pageData();
const box = document.getElementById("records");
const levelOrder = new Map((data.levels ?? []).map((level, index) => [level.id, index]));

function seatName(seat) {
  return t(seat === 0 ? "seat.first" : "seat.second");
}

function percent(rate) {
  if (rate === null || rate === undefined) return "—";
  return new Intl.NumberFormat(LANG, { style: "percent", maximumFractionDigits: 0 }).format(rate);
}

function when(value) {
  if (value === null || value === undefined) return "";
  // The server sends ISO 8601 with a UTC offset.
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return new Intl.DateTimeFormat(LANG, { dateStyle: "medium", timeStyle: "short" }).format(date);
}

function streak(value) {
  if (!value || !value.length) return "—";
  return t(`records.streak.${value.kind}`, { n: value.length });
}

function resultBadge(result) {
  return h("span", { class: `badge badge--${result}` }, t(`result.short.${result}`));
}

/** A table cell that names its column (data-label), for the stacked layout on narrow screens. */
function cell(key, content, { numeric = false, head = false, wide = false } = {}) {
  const classes = [numeric ? "num" : "", wide ? "cell--wide" : ""].join(" ").trim();
  const attrs = { class: classes || null, "data-label": t(key) };
  if (head) attrs.scope = "row";
  return h(head ? "th" : "td", attrs, content ?? "—");
}

function header(...keys) {
  return h(
    "thead",
    {},
    h(
      "tr",
      {},
      keys.map(([key, numeric]) =>
        h("th", { scope: "col", class: numeric ? "num" : null }, t(key)),
      ),
    ),
  );
}

function ruleSetTable(rows) {
  rows.sort(
    (a, b) => (levelOrder.get(a.level) ?? 99) - (levelOrder.get(b.level) ?? 99) || a.seat - b.seat,
  );
  const body = h(
    "tbody",
    {},
    rows.map((row) =>
      h(
        "tr",
        {},
        cell("records.col.level", levelName(row.level, data.levels), { head: true }),
        cell("records.col.seat", seatName(row.seat)),
        cell("records.col.games", row.games, { numeric: true }),
        cell("records.col.wins", row.wins, { numeric: true }),
        cell("records.col.draws", row.draws, { numeric: true }),
        cell("records.col.losses", row.losses, { numeric: true }),
        cell(
          "records.col.win_rate",
          h(
            "span",
            { class: "win-rate" },
            percent(row.win_rate),
            h(
              "span",
              { class: "win-rate-bar", "aria-hidden": "true" },
              h("span", { style: `width:${Math.round((row.win_rate ?? 0) * 100)}%` }),
            ),
          ),
          { numeric: true },
        ),
        cell("records.col.best_margin", row.best_margin, { numeric: true }),
        cell("records.col.streak", streak(row.streak)),
      ),
    ),
  );
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      { class: "table table--stack" },
      header(
        ["records.col.level"],
        ["records.col.seat"],
        ["records.col.games", true],
        ["records.col.wins", true],
        ["records.col.draws", true],
        ["records.col.losses", true],
        ["records.col.win_rate", true],
        ["records.col.best_margin", true],
        ["records.col.streak"],
      ),
      body,
    ),
  );
}

/**
 * The stored game's figure, yours first. ``scores`` is already [yours, the opponent's] (not by
 * seat). In Basic the stores decide nothing; the stones left in the pits do, and the winner has
 * none left, so the signed margin gives both sides.
 */
function scoreText(game) {
  if (game.options?.variant === "basic" && typeof game.margin === "number") {
    const [mine, theirs] = game.margin > 0 ? [0, game.margin] : [-game.margin, 0];
    return t("records.left", { you: mine, them: theirs });
  }
  const [mine, theirs] = game.scores ?? [];
  return mine === undefined ? "—" : `${mine} – ${theirs}`;
}

function gamesTable(games) {
  const rows = games.map((game) =>
    h(
      "tr",
      {},
      cell("records.col.date", when(game.finished_at), { wide: true }),
      cell("records.col.rules", ruleName(game.options ?? {}, data.options), { wide: true }),
      cell("records.col.level", levelName(game.level, data.levels)),
      cell("records.col.seat", seatName(game.seat)),
      cell("records.col.result", resultBadge(game.result)),
      cell("records.col.score", scoreText(game), { numeric: true }),
      cell(
        "records.replay",
        h(
          "a",
          { class: "btn btn--small", href: `/replay/${encodeURIComponent(game.room_id)}` },
          t("records.replay"),
        ),
      ),
    ),
  );
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      { class: "table table--stack", id: "stored-games" },
      header(
        ["records.col.date"],
        ["records.col.rules"],
        ["records.col.level"],
        ["records.col.seat"],
        ["records.col.result"],
        ["records.col.score", true],
        ["records.replay"],
      ),
      h("tbody", {}, rows),
    ),
  );
}

function render(payload) {
  const rows = payload.rows ?? [];
  const games = payload.games ?? [];
  if (!rows.length && !games.length) {
    box.replaceChildren(
      h(
        "div",
        { class: "card empty-state" },
        h("p", {}, t("records.empty")),
        h(
          "p",
          { class: "btn-row" },
          h("a", { class: "btn btn--primary", href: `/games/${data.game}` }, t("home.play")),
        ),
      ),
    );
    return;
  }
  const groups = new Map();
  for (const row of rows) {
    if (!groups.has(row.rule_key)) groups.set(row.rule_key, []);
    groups.get(row.rule_key).push(row);
  }
  const sets = [...groups.values()].map((group) =>
    h(
      "section",
      { class: "record-set" },
      h("h3", { class: "record-set-title" }, ruleName(group[0].options ?? {}, data.options)),
      ruleSetTable(group),
    ),
  );
  box.replaceChildren(
    h(
      "section",
      { "aria-labelledby": "sets-heading" },
      h("h2", { id: "sets-heading" }, t("nav.records")),
      sets,
    ),
    h(
      "section",
      { "aria-labelledby": "games-heading" },
      h("h2", { id: "games-heading" }, t("records.games")),
      games.length ? gamesTable(games) : h("p", { class: "muted" }, t("records.no_games")),
    ),
  );
}

getJSON(`/api/records/${encodeURIComponent(data.game)}`)
  .then(render)
  .catch(() => {
    box.replaceChildren(
      h("p", { class: "notice notice--error", role: "alert" }, t("records.error")),
    );
  });
