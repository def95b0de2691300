// MICHIKAKE's cues for the coach of a newcomer's first games (../coach.js): each reads only the
// seat's own view and moves (a claim window reaches a seat only when it can claim).
const has = (legal, key) => legal.some((action) => key in action);

export const cues = [
  { id: "win_discard", when: (_view, legal) => has(legal, "win") && has(legal, "pass") },
  { id: "win_draw", when: (_view, legal) => has(legal, "win") },
  { id: "steal", when: (_view, legal) => has(legal, "steal") },
  { id: "next", when: (_view, legal) => has(legal, "next") },
  { id: "discard", when: (_view, legal) => has(legal, "discard") },
  { id: "crest", when: (view) => view.bonus != null },
];
