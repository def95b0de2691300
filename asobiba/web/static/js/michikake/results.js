// MICHIKAKE's deal and session results, from the observation's `results` and `outcome`: a win
// broken down line by line (base hand, added hands or the top hand alone, the bonus card, the
// dealer's ×1.5, and who pays what), the exhausted pile, the session's ranking and its deals.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { cardSVG } from "./cards.js";
import { bonusName, said } from "./table.js";

function row(label, value, cls = "") {
  return h("tr", { class: cls }, h("th", { scope: "row" }, label), h("td", {}, value));
}

/** A deal's screen: `{kind: "win" | "exhausted", title, body}`. */
export function dealView(result, { name, players }) {
  if (result.end !== "win") {
    return {
      kind: "exhausted",
      title: t("michikake.exhausted.title"),
      body: h("p", { class: "mk-exhausted" }, said("michikake.exhausted.body", name, { seat: nextDealer(result, players) })),
    };
  }
  const win = result.win;
  const title =
    win.from === null
      ? said("michikake.win.title_draw", name, { seat: win.seat })
      : said("michikake.win.title_discard", name, { seat: win.seat, from: win.from });
  const hand = h(
    "div",
    { class: "mk-win-hand", "aria-label": t("michikake.win.hand") },
    win.split.map((set) => h("span", { class: "mk-win-set" }, set.map((card) => cardSVG(card)))),
  );
  const rows = [];
  win.yaku.forEach((yaku, i) => {
    const label = t(`michikake.yaku.${yaku.id}`);
    const note = win.top ? t("michikake.win.top") : i === 0 ? t("michikake.win.base") : t("michikake.win.added");
    rows.push(row(t("michikake.win.line", { name: label, note }), i > 0 && !win.top ? `+${yaku.points}` : String(yaku.points), "mk-yaku"));
  });
  rows.push(
    row(
      t("michikake.win.bonus", { name: bonusName(win.bonus.id) }),
      `+${win.bonus.points}`,
      "mk-bonus-row",
    ),
  );
  rows.push(row(t("michikake.win.points"), String(win.points)));
  if (win.dealer) rows.push(row(t("michikake.win.dealer"), `×1.5 → ${win.total}`, "mk-dealer-row"));
  const pay =
    win.from === null
      ? t("michikake.win.pay_each", { total: win.total, n: win.payers, each: win.each })
      : said("michikake.win.pay_all", name, { seat: win.from, total: win.total });
  rows.push(row(t("michikake.win.payment"), pay, "mk-pay-row"));
  const paid = h(
    "ul",
    { class: "mk-paid" },
    win.paid.map((amount, seat) =>
      seat === win.seat
        ? h("li", { "data-seat": String(seat), class: "is-winner" }, t("michikake.win.gain", { name: name(seat), n: win.gain }))
        : amount
          ? h("li", { "data-seat": String(seat), "data-paid": String(amount) }, t("michikake.win.paid", { name: name(seat), n: amount }))
          : null,
    ),
  );
  return {
    kind: "win",
    title,
    body: h("div", {}, hand, h("table", { class: "table mk-breakdown" }, h("tbody", {}, ...rows)), paid),
  };
}

function nextDealer(result, players) {
  return (result.dealer + 1) % players;
}

/** The session's final ranking: place, seat, points (ties share a place). */
export function rankingTable(outcome, { name }) {
  const seats = outcome.scores.map((_, seat) => seat).sort((a, b) => outcome.ranks[a] - outcome.ranks[b] || a - b);
  return h(
    "table",
    { class: "table mk-ranking" },
    h(
      "thead",
      {},
      h("tr", {}, h("th", { scope: "col" }, t("michikake.rank")), h("th", { scope: "col" }, t("michikake.player")), h("th", { scope: "col" }, t("michikake.final_points"))),
    ),
    h(
      "tbody",
      {},
      seats.map((seat) =>
        h(
          "tr",
          { "data-seat": String(seat), "data-rank": String(outcome.ranks[seat]) },
          h("td", {}, t("michikake.rank_n", { n: outcome.ranks[seat] })),
          h("th", { scope: "row" }, name(seat)),
          h("td", {}, String(outcome.scores[seat])),
        ),
      ),
    ),
  );
}

/** The session's deals, one line each: who won on whose discard and for how much, or the
 * exhausted pile. */
export function dealsList(results, { name }) {
  return h(
    "ol",
    { class: "mk-deals" },
    results.map((result) =>
      h(
        "li",
        { "data-end": result.end },
        result.end === "win"
          ? result.win.from === null
            ? said("michikake.deal_line.draw", name, { seat: result.win.seat, total: result.win.total })
            : said("michikake.deal_line.discard", name, { seat: result.win.seat, from: result.win.from, total: result.win.total })
          : t("michikake.deal_line.exhausted"),
      ),
    ),
  );
}
