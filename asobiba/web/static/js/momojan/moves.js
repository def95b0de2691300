// MOMOJAN's moves in words, for the review of a finished game and the replay (review.js names a
// move through the table module: `moveName`), and the review's words in points, not stones.
import { t } from "../i18n.js";
import { cardName } from "./cards.js";

const cards = (list) => list.map(cardName).join(" ");

/** A move in words: "throw Lemon 3", "riichi, throwing Dog", "ポン Lemon 2 Lemon 3 Lemon 4". */
export function moveName(action) {
  if (action.type === "discard") {
    return t(action.riichi ? "momojan.move.riichi" : "momojan.move.discard", { card: cardName(action.card) });
  }
  if (action.cards) return t(`momojan.move.${action.type}`, { cards: cards(action.cards) });
  return t(`momojan.move.${action.type}`);
}

/** The review's sentences for a game valued in points (review.js). */
export const reviewWords = {
  lost: "review.points.lost",
  legend: "review.points.legend",
  most: "review.points.most",
  moment: "review.points.moment",
  none: "review.points.none",
  caption: "momojan.review.caption",
};
