// MOMOJAN's cues for the coach of a newcomer's first games (../coach.js): each reads only the
// seat's own view and moves. The most telling first: a chance to win beats a chance to call.
const has = (legal, type) => legal.some((action) => action.type === type);

export const cues = [
  { id: "win", when: (_view, legal) => has(legal, "ron") || has(legal, "tsumo") },
  { id: "riichi", when: (_view, legal) => legal.some((action) => action.type === "discard" && action.riichi) },
  { id: "call", when: (_view, legal) => has(legal, "pon") || has(legal, "chi") },
  { id: "kai", when: (_view, legal) => has(legal, "kai") },
  { id: "draw3", when: (_view, legal) => has(legal, "draw3") },
  { id: "result", when: (view) => (view.results ?? []).length > 0 },
  { id: "draw", when: (_view, legal) => has(legal, "draw") },
  { id: "discard", when: (_view, legal) => has(legal, "discard") },
];
