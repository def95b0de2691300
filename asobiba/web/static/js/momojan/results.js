// The end of a round and of the game, in words and cards, from the observation's `results`
// (docs/ARCHITECTURE.md, "MOMOJAN specifics"): a win broken down line by line (yaku, dora, set
// bonus, ロン, doubling, payment, the middle), the exhausted wall's settlement, the game's rounds.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { cardSVG, pointsText } from "./cards.js";
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
 * Who pays whom, in words: sentences about the viewer (`viewer`, null for a spectator) are
 * written to "you" (`<key>.you_win` / `<key>.you_lose`), others name both seats.
 */
function payment(key, { winner, viewer, name, ...values }) {
  const loser = 1 - winner;
  if (winner === viewer) return t(`${key}.you_win`, { loser: name(loser), ...values });
  if (loser === viewer) return t(`${key}.you_lose`, { winner: name(winner), ...values });
  return t(key, { loser: name(loser), winner: name(winner), ...values });
}

function middleTaken(winner, viewer, name, n) {
  return winner === viewer
    ? t("momojan.pay.middle.you", { n })
    : t("momojan.pay.middle", { winner: name(winner), n });
}

/**
 * A finished round: {title, body (a node)}. `name(seat)` names a seat; `viewer` is the seat
 * reading it (null for a spectator), to whom its sentences speak as "you".
 */
export function roundView(result, { name, viewer = null, over = false }) {
  if (result.end === "exhausted") return wallView(result, { name, viewer, over });
  const score = result.score;
  const winner = result.winner;
  const how = t(`momojan.end.${result.end}`);
  const title = t("momojan.round.win_title", { name: name(winner), how });
  const rows = [];
  for (const [id, points] of score.yaku) {
    // The yaku's name and, in a phrase, why this hand has it ("Dog: a set of dogs").
    const label = [
      h("span", { class: "mj-line-name" }, t(`momojan.yaku.${id}`)),
      h("span", { class: "visually-hidden" }, ": "),
      h("span", { class: "mj-line-why" }, t(`momojan.yaku.${id}.why`)),
    ];
    rows.push(line(label, t("momojan.points", { n: points }), "is-yaku"));
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
  const settle = [payment("momojan.pay.win", { winner, viewer, name, n: result.paid })];
  if (result.middle) settle.push(middleTaken(winner, viewer, name, result.middle));
  if (score.ends_game) settle.push(t("momojan.pay.oshimai"));
  else if (!over) {
    let next = t("momojan.next.pass");
    if (winner === result.dealer) {
      next = winner === viewer ? t("momojan.next.repeat.you") : t("momojan.next.repeat", { name: name(winner) });
    }
    settle.push(next);
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
      x: pointsText(points[0]),
      b: name(1),
      y: pointsText(points[1]),
    }),
  );
}

function wallView(result, { name, viewer, over }) {
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
    settle.push(payment("momojan.wall.pays", { winner: result.winner, viewer, name, d: diff, n: result.paid }));
    if (result.middle) settle.push(middleTaken(result.winner, viewer, name, result.middle));
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
 * What the game's winner took from the middle once the last round was settled (stakes no round
 * had collected): the final score less the last round's points. 0 when nothing was left.
 */
export function middleLeft(outcome, results) {
  const winner = outcome.winners?.[0];
  const last = results[results.length - 1];
  if (winner === undefined || !last) return 0;
  return outcome.scores[winner] - last.points[winner];
}

/**
 * The points both players were tied on when the game ended after its last dealership, else
 * null. The rules give a tie to the first dealer (the first round's dealer), which the end
 * screen must say: otherwise equal points look like a win from nowhere.
 */
export function tiedAt(outcome, results) {
  const last = results[results.length - 1];
  if (outcome.end !== "dealerships" || !last || last.points[0] !== last.points[1]) return null;
  return last.points[0];
}

/** Why the game was won, in words: how it ended, and on a tie the rule that decided it. */
export function endReason(outcome, results, { name, viewer }) {
  const winner = outcome.winners?.[0];
  const loser = 1 - winner;
  const why = t(`momojan.final.${outcome.end}`, {
    winner: name(winner),
    loser: name(loser),
    n: outcome.rounds,
  });
  const tied = tiedAt(outcome, results);
  if (tied === null) return why;
  // The winner is the first dealer: the rules' tie-break, said to "you" when it was the viewer.
  const tie = t(winner === viewer ? "momojan.final.tie.you" : "momojan.final.tie", {
    n: pointsText(tied),
    winner: name(winner),
  });
  return `${why} ${tie}`;
}

/**
 * The game's rounds as a table narrow enough for a phone: the round with its dealer, how it
 * ended and who took what, both players' points after it; with `outcome`, a last row for what
 * was left in the middle, which the winner takes at the end (the final score).
 */
export function roundsTable(results, { name, outcome = null }) {
  const left = outcome ? middleLeft(outcome, results) : 0;
  const points = (pair) => `${pointsText(pair[0])} – ${pointsText(pair[1])}`;
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
            h("td", { class: "num" }, points(r.points)),
          );
        }),
        left
          ? h(
              "tr",
              { class: "mj-rounds-middle" },
              h("td", {}, t("momojan.rounds.end_of_game")),
              h("td", {}, t("momojan.rounds.middle", { name: name(outcome.winners[0]), n: left })),
              h("td", { class: "num" }, points(outcome.scores)),
            )
          : null,
      ),
    ),
  );
}
