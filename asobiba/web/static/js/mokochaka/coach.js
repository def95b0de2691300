// Mokochaka's cues for the coach of a newcomer's first games (../coach.js): each reads only the
// seat's own view and moves. A grab is open to everyone after every flip, so the grab cue waits
// for a card someone else turned (the flipper is told to call first).
const has = (legal, key) => legal.some((action) => key in action);

export const cues = [
  { id: "flip", when: (_view, legal) => has(legal, "flip") },
  { id: "call", when: (_view, legal) => has(legal, "call") },
  { id: "grab", when: (_view, legal) => has(legal, "grab") && !has(legal, "call") },
  { id: "take", when: (_view, legal) => has(legal, "take") },
  { id: "give", when: (_view, legal) => has(legal, "give") },
];
