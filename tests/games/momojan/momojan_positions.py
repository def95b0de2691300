"""Hand-built MOMOJAN positions for the rule tests.

``position(...)`` takes hands, open sets, piles and rivers in the card notation and returns a
running state with ``turn`` to act in ``phase``. Piles are written bottom to top: the last card
of a pile's text is the next one drawn from it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from asobiba.games import get_game
from asobiba.games.momojan import Meld, MomojanState, parse
from asobiba.games.momojan.cards import sort_cards
from asobiba.games.momojan.rules import Discard, Momojan

GAME = get_game("momojan")
assert isinstance(GAME, Momojan)


def melds(*specs: str) -> tuple[Meld, ...]:
    """Open sets from ``"kai: L1 L2 L3"``, ``"pon: dog dog dog"``, ``"chi: M7 O8 O9"``."""
    out = []
    for spec in specs:
        kind, cards = spec.split(":")
        trio = tuple(sort_cards(parse(cards)))
        out.append(Meld(kind.strip(), trio, None if kind.strip() == "kai" else trio[0]))
    return tuple(out)


def river(text: str, riichi_at: int | None = None) -> tuple[Discard, ...]:
    return tuple(Discard(c, i == riichi_at) for i, c in enumerate(parse(text)))


def position(
    hand0: str,
    hand1: str,
    *,
    melds0: tuple[Meld, ...] = (),
    melds1: tuple[Meld, ...] = (),
    piles: tuple[str, str, str] = ("L1 L2 L3 L4", "O1 O2 O3 O4", "S1 S2 S3 S4"),
    dora: str = "dog",
    turn: int = 0,
    phase: str = "start",
    offer: str | None = None,
    rivers: tuple[tuple[Discard, ...], tuple[Discard, ...]] = ((), ()),
    riichi: tuple[bool, bool] = (False, False),
    drawn: str = "",
    **fields: Any,
) -> MomojanState:
    start = GAME.new_state({}, 2, 0)
    if offer is not None and not rivers[1 - turn]:
        rivers = (rivers[0], (Discard(offer),)) if turn == 0 else ((Discard(offer),), rivers[1])
    return replace(
        start,
        hands=(tuple(sort_cards(parse(hand0))), tuple(sort_cards(parse(hand1)))),
        melds=(melds0, melds1),
        piles=tuple(tuple(parse(p)) for p in piles),
        dead=(dora, "moon", "moon", "moon"),
        turn=turn,
        phase=phase,
        offer=offer,
        rivers=rivers,
        riichi=riichi,
        drawn=tuple(parse(drawn)),
        **fields,
    )


def play(state: MomojanState, *actions: dict[str, Any]) -> MomojanState:
    """Apply each action for the seat to move."""
    for action in actions:
        (seat,) = GAME.to_move(state)
        state = GAME.apply(state, seat, action)
    return state


def legal_types(state: MomojanState) -> set[str]:
    (seat,) = GAME.to_move(state)
    return {a["type"] for a in GAME.legal_actions(state, seat)}


def legal(state: MomojanState) -> list[dict[str, Any]]:
    (seat,) = GAME.to_move(state)
    return GAME.legal_actions(state, seat)


def draw(pile: int) -> dict[str, Any]:
    return {"type": "draw", "pile": pile}


def discard(card: str, riichi: bool = False) -> dict[str, Any]:
    return {"type": "discard", "card": card, "riichi": riichi}


def kai(text: str) -> dict[str, Any]:
    return {"type": "kai", "cards": sort_cards(parse(text))}


def call(kind: str, text: str) -> dict[str, Any]:
    return {"type": kind, "cards": sort_cards(parse(text))}


READY_ON_L5 = "moon moon L3 L4"
"""A hand of 4 ready on L5 (L2 too): the moon pair and L3 L4."""


def dealer_ron(**fields: object) -> MomojanState:
    """The dealer (seat 0) wins by ロン in riichi on the child's L5: dog, riichi, ron."""
    state = position(
        READY_ON_L5,
        "S5 S6 S7 S8",
        melds0=melds("kai: S1 S2 S3", "pon: dog dog dog"),
        offer="L5",
        riichi=(True, False),
        dora="monkey",
    )
    return play(replace(state, **fields), {"type": "ron"})  # type: ignore[arg-type]
