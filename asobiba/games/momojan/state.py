"""MOMOJAN's state and what it holds: the phases, a river's discards, the last event, a finished
round's result and the whole state of a game. rules.py (the engine) and lessons.py (the course,
which builds positions of its own) share them; neither imports the other."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from asobiba.games.momojan.cards import Card
from asobiba.games.momojan.scoring import Meld, Score

START, DRAWN, CALLED, DRAWN3, OVER = "start", "drawn", "called", "drawn3", "over"
"""Phases of the seat to move: before its draw or call; after one draw; after 開/ポン/チー;
after drawing three; the game is over."""


def meld_json(meld: Meld) -> dict[str, Any]:
    """An open set as observations and results show it."""
    return {"kind": meld.kind, "cards": list(meld.cards), "claimed": meld.claimed}


@dataclass(frozen=True, slots=True)
class Discard:
    """One card in a river."""

    card: Card
    riichi: bool = False
    """Laid sideways: the discard that declared riichi."""
    called: bool = False
    """Taken by the opponent's ポン/チー (it still counts for its owner's furiten)."""


@dataclass(frozen=True, slots=True)
class Event:
    """The last thing that happened, as everyone saw it; ``secret`` only ``seat`` sees."""

    round: int
    """The round it happened in (a round-ending event stays ``last`` into the next deal)."""
    seat: int
    type: str
    pile: int | None = None
    piles: tuple[int, ...] = ()
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    riichi: bool = False
    secret: tuple[Card, ...] = ()
    """The cards ``seat`` drew (a draw of one or of three)."""

    def to_json(self, viewer: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {"round": self.round, "seat": self.seat, "type": self.type}
        if self.type == "draw":
            out["pile"] = self.pile
        elif self.type == "draw3":
            out["piles"] = list(self.piles)
        elif self.type in ("pon", "chi", "kai"):
            out["cards"] = list(self.cards)
            if self.card is not None:
                out["claimed"] = self.card
        elif self.type in ("discard", "ron"):
            out["card"] = self.card
            if self.type == "discard":
                out["riichi"] = self.riichi
        if self.secret and viewer == self.seat:
            out["drew"] = list(self.secret)
        return out


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a finished round ended and what it paid; all of it is public once it ends."""

    number: int
    dealer: int
    stake: int
    end: str
    """``"tsumo"``, ``"ron"`` or ``"exhausted"``."""
    winner: int | None
    """Who won the round (or took the wall settlement); None when nobody took anything."""
    score: Score | None
    hands: tuple[tuple[Card, ...] | None, tuple[Card, ...] | None]
    """Revealed hands: the winner's (the winning card included), or both at the wall."""
    melds: tuple[tuple[Meld, ...], tuple[Meld, ...]]
    tenpai: tuple[bool, bool] | None
    open_points: tuple[int, int] | None
    paid: int
    """Points the loser paid the winner."""
    middle: int
    """Points the winner took from the middle."""
    points: tuple[int, int]
    """Both players' points after the settlement."""

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "dealer": self.dealer,
            "stake": self.stake,
            "end": self.end,
            "winner": self.winner,
            "score": self.score.to_json() if self.score else None,
            "hands": [None if h is None else list(h) for h in self.hands],
            "open_sets": [[meld_json(m) for m in ms] for ms in self.melds],
            "tenpai": list(self.tenpai) if self.tenpai else None,
            "open_points": list(self.open_points) if self.open_points else None,
            "paid": self.paid,
            "middle": self.middle,
            "points": list(self.points),
        }


@dataclass(frozen=True, slots=True)
class MomojanState:
    """The whole truth of a game, hidden cards and seed included; only ``observe`` reads it
    for a seat."""

    options: tuple[tuple[str, Any], ...]
    seed: int
    points: tuple[int, int]
    middle: int
    """Points in the middle of the table (the child's stakes not yet collected)."""
    dealer: int
    streak: int
    """The dealer's wins in a row in this dealership (the stake adds one per win)."""
    terms: int
    """Dealerships started so far (the first is 1)."""
    round_no: int
    stake: int
    """What the child put in the middle this round."""
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    melds: tuple[tuple[Meld, ...], tuple[Meld, ...]]
    rivers: tuple[tuple[Discard, ...], tuple[Discard, ...]]
    riichi: tuple[bool, bool]
    ippatsu: tuple[bool, bool]
    piles: tuple[tuple[Card, ...], ...]
    """Three face-down piles; the last card of each is its top."""
    dead: tuple[Card, ...]
    """The 4 cards aside: ``dead[0]`` is the face-up dora indicator."""
    turn: int
    phase: str
    drawn: tuple[Card, ...]
    """The cards the seat to move has just drawn (one, or three)."""
    offer: Card | None
    """The opponent's discard that the seat to move may call or win on now."""
    last: Event | None
    results: tuple[RoundResult, ...]
    end: str | None = None
    """Why the game ended: ``"dealerships"``, ``"dealer_streak"``, ``"oshimai"``,
    ``"below_zero"`` or ``"no_stake"``."""
    winner: int | None = None
