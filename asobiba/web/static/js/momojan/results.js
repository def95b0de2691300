// The end of a round and of the game, in words and cards, from the observation's `results`
// (docs/ARCHITECTURE.md, "MOMOJAN specifics"): a win broken down line by line (yaku, dora, set
// bonus, ロン, doubling, payment, the middle), the exhausted wall's settlement, the game's rounds.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { cardSVG } from "./cards.js";
import { meldView } from "./table.js";

const KAI_POINTS = 2;
const CALL_POINTS = 1;

function cards(list, cls = "") {
  return h(
    "span",
    { class: `mj-cards ${cls}`.trim() },
    list.map((card) => cardSVG(card, { cls: "mj-card--small" })),
  );
}

function line(label, value, cls = "") {
  return h("tr", { class: cls }, h("th", { scope: "row" }, label), h("td", {}, value));
}

/** The winner's hand as scored: the sets in hand, the head, then the open sets. */
function winningHand(result) {
  const score = result.score;
  const winner = result.winner;
  const groups = [];
  for (const set of score.hand_sets ?? []) {
    groups.push(h("span", { class: "mj-group" }, cards(set)));
  }
  if (score.head?.length) {
    groups.push(
      h(
        "span",
        { class: "mj-group mj-group--head" },
        cards(score.head),
        h("span", { class: "mj-group-label" }, t("momojan.head")),
      ),
    );
  }
  const open = (result.open_sets?.[winner] ?? []).map((set) => meldView(set));
  return h("div", { class: "mj-reveal" }, ...groups, ...open);
}

/**
 * A finished round: {title, body (a node)}. `name(seat)` names a seat; `winCard` is the card that
 * completed the hand (from `last`, when it is this round's), shown with the hand.
 */
export function roundView(result, { name, over = false }) {
  if (result.end === "exhausted") return wallView(result, { name, over });
  const score = result.score;
  const winner = result.winner;
  const loser = 1 - winner;
  const how = t(`momojan.end.${result.end}`);
  const title = t("momojan.round.win_title", { name: name(winner), how });
  const rows = [];
  for (const [id, points] of score.yaku) {
    rows.push(line(t(`momojan.yaku.${id}`), t("momojan.points", { n: points }), "is-yaku"));
  }
  if (score.dora) {
    rows.push(line(t("momojan.line.dora", { n: score.dora }), t("momojan.points", { n: score.dora })));
  }
  if (score.bonus) {
    const [id, points] = score.bonus;
    rows.push(
      line(
        t("momojan.line.bonus", { name: t(`momojan.bonus.${id}`), n: score.sets }),
        t("momojan.points", { n: points }),
      ),
    );
  }
  if (score.ron) rows.push(line(t("momojan.line.ron"), t("momojan.points", { n: score.ron })));
  rows.push(line(t("momojan.line.subtotal"), t("momojan.points", { n: score.subtotal }), "is-sum"));
  if (score.doubled) {
    rows.push(
      line(
        t("momojan.line.doubled"),
        t("momojan.line.doubled_value", { a: score.subtotal, n: score.total }),
        "is-double",
      ),
    );
  }
  rows.push(line(t("momojan.line.total"), t("momojan.points", { n: score.total }), "is-total"));
  const settle = [
    t("momojan.pay.win", { loser: name(loser), winner: name(winner), n: result.paid }),
  ];
  if (result.middle) settle.push(t("momojan.pay.middle", { winner: name(winner), n: result.middle }));
  if (score.ends_game) settle.push(t("momojan.pay.oshimai"));
  else if (!over) {
    settle.push(
      winner === result.dealer ? t("momojan.next.repeat", { name: name(winner) }) : t("momojan.next.pass"),
    );
  }
  return {
    title,
    kind: "win",
    body: h(
      "div",
      { class: "mj-round-result", "data-end": result.end },
      h("p", { class: "mj-round-sub" }, t("momojan.round.of", { n: result.round })),
      winningHand(result),
      h(
        "table",
        { class: "mj-breakdown", "aria-label": t("momojan.breakdown") },
        h("tbody", {}, ...rows),
      ),
      h("ul", { class: "mj-settle" }, settle.map((text) => h("li", {}, text))),
      pointsLine(result.points, name),
    ),
  };
}

function pointsLine(points, name) {
  return h(
    "p",
    { class: "mj-points-after" },
    t("momojan.points_after", {
      a: name(0),
      x: points[0],
      b: name(1),
      y: points[1],
    }),
  );
}

function wallView(result, { name, over }) {
  const seats = [0, 1].map((seat) => {
    const tenpai = result.tenpai?.[seat];
    const sets = result.open_sets?.[seat] ?? [];
    const value = result.open_points?.[seat] ?? 0;
    return h(
      "div",
      { class: "mj-wall-seat", "data-seat": seat, "data-tenpai": String(Boolean(tenpai)) },
      h(
        "p",
        { class: "mj-wall-head" },
        h("strong", {}, name(seat)),
        " ",
        h(
          "span",
          { class: `badge ${tenpai ? "badge--win" : "badge--draw"}` },
          t(tenpai ? "momojan.tenpai" : "momojan.noten"),
        ),
        " ",
        h("span", {}, t("momojan.wall.open_points", { n: value })),
      ),
      h(
        "div",
        { class: "mj-reveal" },
        result.hands?.[seat] ? h("span", { class: "mj-group" }, cards(result.hands[seat])) : null,
        sets.map((set) =>
          meldView(set, { points: tenpai ? (set.kind === "kai" ? KAI_POINTS : CALL_POINTS) : 0 }),
        ),
      ),
    );
  });
  const settle = [];
  if (result.winner === null || result.winner === undefined) {
    settle.push(t("momojan.wall.nobody"));
  } else {
    const diff = Math.abs((result.open_points?.[0] ?? 0) - (result.open_points?.[1] ?? 0));
    settle.push(
      t("momojan.wall.pays", {
        winner: name(result.winner),
        loser: name(1 - result.winner),
        d: diff,
        n: result.paid,
      }),
    );
    if (result.middle) {
      settle.push(t("momojan.pay.middle", { winner: name(result.winner), n: result.middle }));
    }
  }
  if (!over) settle.push(t("momojan.next.pass"));
  return {
    title: t("momojan.round.wall_title"),
    kind: "wall",
    body: h(
      "div",
      { class: "mj-round-result", "data-end": "exhausted" },
      h("p", { class: "mj-round-sub" }, t("momojan.round.of", { n: result.round })),
      h("p", { class: "muted" }, t("momojan.wall.rule")),
      ...seats,
      h("ul", { class: "mj-settle" }, settle.map((text) => h("li", {}, text))),
      pointsLine(result.points, name),
    ),
  };
}

/**
 * The game's rounds as a table narrow enough for a phone: the round with its dealer, how it
 * ended and who took what, both players' points after it.
 */
export function roundsTable(results, { name }) {
  return h(
    "div",
    { class: "table-wrap mj-rounds-wrap" },
    h(
      "table",
      { class: "table mj-rounds" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, t("momojan.rounds.round")),
          h("th", { scope: "col" }, t("momojan.rounds.end")),
          h("th", { scope: "col", class: "num" }, t("momojan.rounds.points", { a: name(0), b: name(1) })),
        ),
      ),
      h(
        "tbody",
        {},
        results.map((r) => {
          let end = t(`momojan.end.${r.end}`);
          if (r.winner !== null && r.winner !== undefined) {
            end = t("momojan.rounds.took", { end, name: name(r.winner), n: r.paid + r.middle });
          }
          return h(
            "tr",
            {},
            h(
              "td",
              {},
              h("strong", {}, String(r.round)),
              h("span", { class: "mj-rounds-dealer" }, t("momojan.dealer_is", { name: name(r.dealer) })),
            ),
            h("td", {}, end),
            h("td", { class: "num" }, `${r.points[0]} – ${r.points[1]}`),
          );
        }),
      ),
    ),
  );
}
