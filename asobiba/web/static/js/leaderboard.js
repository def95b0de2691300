// One family's leaderboard (/leaderboard/{game}/{family}): GET /api/leaderboard/{game}/{family}
// → rank, player (a link to their profile), rating, games and their last rated game. The
// family's tabs are in the page itself. Page data: `board` ({game, family}). Names are data:
// they only ever become text nodes.
import { getJSON } from "./api.js";
import { h } from "./dom.js";
import { pageData, t } from "./i18n.js";
import { ratingDetail, ratingText, when } from "./ratings.js";

const { board } = pageData();
const box = document.getElementById("leaderboard");

function cell(content, { numeric = false, more = "" } = {}) {
  const classes = [numeric ? "num" : "", more].join(" ").trim();
  return h("td", { class: classes || null }, content);
}

function table(leaders) {
  const rows = leaders.map((leader) =>
    h(
      "tr",
      { "data-id": leader.id },
      cell(String(leader.rank), { numeric: true, more: "board-rank" }),
      h("th", { scope: "row", class: "board-player" }, h("a", { href: `/players/${encodeURIComponent(leader.id)}` }, leader.name)),
      cell(h("span", { class: "board-rating", title: ratingDetail(leader) }, ratingText(leader)), { numeric: true }),
      cell(String(leader.games), { numeric: true, more: "board-games" }),
      cell(when(leader.played_at), { more: "board-last" }),
    ),
  );
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      // A plain table on a phone too: five short columns read better in rows than as cards
      // (the last game's date gives way on the narrowest screens, pages.css).
      { class: "table board-table" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col", class: "num" }, t("leaderboard.col.rank")),
          h("th", { scope: "col" }, t("leaderboard.col.player")),
          h("th", { scope: "col", class: "num" }, t("leaderboard.col.rating")),
          h("th", { scope: "col", class: "num board-games" }, t("records.col.games")),
          h("th", { scope: "col", class: "board-last" }, t("leaderboard.col.last")),
        ),
      ),
      h("tbody", {}, rows),
    ),
  );
}

getJSON(`/api/leaderboard/${encodeURIComponent(board.game)}/${encodeURIComponent(board.family)}`)
  .then((answer) => {
    const leaders = answer.leaders ?? [];
    box.replaceChildren(
      leaders.length ? table(leaders) : h("div", { class: "card empty-state" }, h("p", {}, t("leaderboard.empty"))),
    );
  })
  .catch(() => {
    box.replaceChildren(h("p", { class: "notice notice--error", role: "alert" }, t("leaderboard.error")));
  });
