// A player's profile (/players/{id}): GET /api/players/{id} → the name, a card per rating
// (game and family, the rating with "?" while provisional, its RD and games, its leaderboard and
// a chart of its history from GET /api/players/{id}/ratings/{game}/{family}), the newest games
// anyone may see with links to their replays and each one's rating change, and the records per
// game. Page data: `id`, `games` (every game's families, options and levels). Names are data:
// they only ever become text nodes (h() children), never markup.
import { getJSON } from "./api.js";
import { h } from "./dom.js";
import { pageData, t } from "./i18n.js";
import { familyName, historyChart, keyName, ratingDetail, ratingText, when } from "./ratings.js";
import { levelName } from "./rules-name.js";
import { seatLabel } from "./seat-names.js";

const data = pageData();
const box = document.getElementById("player");
const games = data.games ?? [];
const info = (game) => games.find((entry) => entry.game === game);
const base = `/api/players/${encodeURIComponent(data.id)}`;

function section(id, title, ...content) {
  return h("section", { class: "player-part", "aria-labelledby": id }, h("h2", { id }, title), content);
}

/** One rating: its figures, a link to its leaderboard and, once loaded, its chart. */
function ratingCard(key, rating) {
  const [game, family] = key.split("/");
  const chart = h("figure", { class: "rating-chart", "data-key": key });
  const card = h(
    "article",
    { class: "card rating-card", "data-key": key },
    h("h3", { class: "rating-card-title" }, t(`game.${game}.name`), h("span", { class: "rating-card-family" }, familyName(game, family, info(game)?.families))),
    h(
      "p",
      { class: "rating-figure" },
      h("span", { class: "rating-value", "data-provisional": String(rating.provisional) }, ratingText(rating)),
      h("span", { class: "rating-detail" }, ratingDetail(rating)),
    ),
    rating.provisional ? h("p", { class: "rating-note" }, t("rating.provisional")) : null,
    chart,
    h(
      "p",
      { class: "rating-links" },
      h("a", { href: `/leaderboard/${encodeURIComponent(game)}/${encodeURIComponent(family)}` }, t("rating.leaderboard")),
    ),
  );
  getJSON(`${base}/ratings/${encodeURIComponent(game)}/${encodeURIComponent(family)}`)
    .then((answer) => {
      const drawn = historyChart(answer.history ?? [], chart.clientWidth || 640);
      if (drawn) chart.replaceChildren(drawn);
    })
    .catch(() => chart.replaceChildren(h("p", { class: "muted" }, t("player.chart_error"))));
  return card;
}

function ratingsPart(ratings) {
  // In the site's game order, each game's families in theirs.
  const order = games.flatMap((entry) => entry.families.map((family) => `${entry.game}/${family}`));
  const keys = Object.keys(ratings).sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return section(
    "player-ratings",
    t("player.ratings"),
    keys.length
      ? h("div", { class: "rating-cards" }, keys.map((key) => ratingCard(key, ratings[key])))
      : h("p", { class: "muted" }, t("player.no_ratings")),
  );
}

/** Who else sat at the table: the people's names and the computers as "CPU n (level)". */
function others(game) {
  const levels = info(game.game)?.levels ?? [];
  const players = (game.kinds ?? []).map((kind, seat) => ({ kind: kind ?? "bot", name: game.names?.[seat] ?? null }));
  const names = [];
  for (let seat = 0; seat < game.players; seat += 1) {
    const level = game.levels?.[seat];
    if (seat !== game.seat) names.push(seatLabel(seat, players, null, level ? levelName(level, levels) : ""));
  }
  return names.join(t("records.people.names_sep"));
}

function change(rating) {
  if (!rating) return h("span", { class: "muted" }, t("player.unrated"));
  const delta = Math.round(rating.after) - Math.round(rating.before);
  const sign = delta > 0 ? "+" : delta < 0 ? "−" : "±";
  return h(
    "span",
    { class: `rating-change rating-change--${delta > 0 ? "up" : delta < 0 ? "down" : "same"}` },
    `${Math.round(rating.after)} (${sign}${Math.abs(delta)})`,
  );
}

function cell(key, content, { numeric = false, wide = false } = {}) {
  const classes = [numeric ? "num" : "", wide ? "cell--wide" : ""].join(" ").trim();
  return h("td", { class: classes || null, "data-label": t(key) }, content ?? "—");
}

function header(...keys) {
  return h("thead", {}, h("tr", {}, keys.map(([key, numeric]) => h("th", { scope: "col", class: numeric ? "num" : null }, t(key)))));
}

function gamesPart(list) {
  if (!list.length) return section("player-games", t("player.games"), h("p", { class: "muted" }, t("player.no_games")));
  const rows = list.map((game) =>
    h(
      "tr",
      {},
      cell("records.col.date", when(game.finished_at)),
      cell("player.col.game", keyName(game.key, games)),
      cell("player.col.with", others(game)),
      cell("records.col.result", h("span", { class: `badge badge--${game.result}` }, t(`result.short.${game.result}`))),
      cell("player.col.rating", change(game.rating), { numeric: true }),
      cell("records.replay", h("a", { class: "btn btn--small", href: game.url }, t("records.replay"))),
    ),
  );
  return section(
    "player-games",
    t("player.games"),
    h(
      "div",
      { class: "table-wrap" },
      h(
        "table",
        { class: "table table--stack player-games" },
        header(["records.col.date"], ["player.col.game"], ["player.col.with"], ["records.col.result"], ["player.col.rating", true], ["records.replay"]),
        h("tbody", {}, rows),
      ),
    ),
  );
}

function recordsPart(records) {
  const rows = games
    .filter((entry) => records[entry.game])
    .map((entry) => {
      const r = records[entry.game];
      const total = r.win + r.draw + r.loss;
      return h(
        "tr",
        {},
        h("th", { scope: "row", "data-label": t("player.col.game") }, t(`game.${entry.game}.name`)),
        cell("records.col.games", total, { numeric: true }),
        cell("records.col.wins", r.win, { numeric: true }),
        cell("records.col.draws", r.draw, { numeric: true }),
        cell("records.col.losses", r.loss, { numeric: true }),
      );
    });
  return section(
    "player-records",
    t("player.records"),
    rows.length
      ? h(
          "div",
          { class: "table-wrap" },
          h(
            "table",
            { class: "table table--stack player-records" },
            header(["player.col.game"], ["records.col.games", true], ["records.col.wins", true], ["records.col.draws", true], ["records.col.losses", true]),
            h("tbody", {}, rows),
          ),
        )
      : h("p", { class: "muted" }, t("player.no_games")),
  );
}

Promise.all([getJSON(base), getJSON("/api/me").catch(() => null)])
  .then(([player, me]) => {
    document.getElementById("player-name").textContent = player.name;
    document.title = `${player.name} — ${document.title.split(" — ").slice(1).join(" — ")}`;
    if (me?.id === data.id) {
      const lead = document.getElementById("player-lead");
      lead.replaceChildren(t("player.you"), " ", h("a", { href: "/records" }, t("nav.records")));
    }
    box.replaceChildren(ratingsPart(player.ratings ?? {}), gamesPart(player.games ?? []), recordsPart(player.records ?? {}));
  })
  .catch(() => {
    box.replaceChildren(h("p", { class: "notice notice--error", role: "alert" }, t("player.error")));
  });
