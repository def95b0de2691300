"""``asobiba_michikake``: MICHIKAKE for OpenSpiel, one whole session (every deal) a game.

Action ids (fixed, for 3 and 4 players alike): 0-37 ``discard c``, ``c`` the 38 kinds of card
in canonical order (``C1``-``C9``, ``W1``-``W9``, ``R1``-``R9``, ``H1``-``H9``, ``star``,
``ring``; no ``H`` card is ever legal with 3 players); 38 ``win`` (on one's own draw, or on the
discard in a claim window); 39 ``steal``; 40 ``pass``.

The claim window has no clock here. Its answers are asked one seat at a time, nearest clockwise
from the discarder first (the order in which the rules settle several wins), every seat but the
discarder, a seat whose only answer is ``pass`` too: skipping those would tell the table whose
hand cannot claim. An answer stays secret as in the engine: no other seat's observation, and so
no other seat's information state, changes until the window closes. The break between deals is
nobody's decision ("next" is every seat's one action), so the adapter deals the next deal at
once.

The chance node picks the engine seed of the session (``sessions`` seeds from ``first_seed``).
Returns are points won or lost: final points less the 1000 each starts with. Steals cost points
that leave the game, so the game is general-sum.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from asobiba.core.game import Action, Observation
from asobiba.games import get_game
from asobiba.games.michikake.cards import ALL_CARDS, deck
from asobiba.games.michikake.data import (
    BONUS_CARDS,
    MAX_STEALS,
    START_POINTS,
    STEAL_COSTS,
    YAKU,
)
from asobiba.games.michikake.sample import sample_state
from asobiba.games.michikake.scoring import dealer_total
from asobiba.openspiel.spec import Setup, Spec

WIN, STEAL, PASS = len(ALL_CARDS), len(ALL_CARDS) + 1, len(ALL_CARDS) + 2
ACTIONS = PASS + 1
_CARD_INDEX = {card: k for k, card in enumerate(ALL_CARDS)}
_ANSWER_IDS = {"win": WIN, "steal": STEAL, "pass": PASS}
_ANSWERS = {action_id: answer for answer, action_id in _ANSWER_IDS.items()}
PHASES = ("discard", "claim", "break", "over")
BONUS_IDS = {bonus: k for k, bonus in enumerate(sorted(BONUS_CARDS))}
SUITS = ("C", "W", "R", "H")


class MichikakeSpec(Spec):
    engine = get_game("michikake")
    short_name = "asobiba_michikake"
    long_name = "asobiba MICHIKAKE"
    hidden = True
    zero_sum = False

    def num_actions(self) -> int:
        return ACTIONS

    def extra_parameters(self) -> dict[str, Any]:
        return {"players": 4, "first_seed": 0, "sessions": 1 << 16}

    def seats(self, params: Mapping[str, Any]) -> int:
        players = int(params.get("players", 4))
        if players not in (3, 4):
            raise ValueError(f"MICHIKAKE is played by 3 or 4 players, not {players}")
        return players

    def mover(self, state: Any) -> int | None:
        seats = self.engine.to_move(state)
        if len(seats) <= 1:
            return next(iter(seats), None)
        view = self.engine.observe(state, None)
        discarder, players = view["window"]["discarder"], view["players"]
        return min(seats, key=lambda seat: (seat - discarder) % players)

    def settle(self, state: Any) -> Any:
        while self.engine.to_move(state) and all(
            self.engine.legal_actions(state, seat) == [{"next": True}]
            for seat in self.engine.to_move(state)
        ):
            seat = min(self.engine.to_move(state))
            state = self.engine.apply(state, seat, {"next": True})
        return state

    def action_id(self, state: Any, seat: int, action: Action) -> int:
        if "discard" in action:
            return _CARD_INDEX[action["discard"]]
        ((answer, _),) = action.items()
        return _ANSWER_IDS[answer]

    def action(self, state: Any, seat: int, action_id: int) -> Action:
        if not 0 <= action_id < ACTIONS:
            raise ValueError(f"MICHIKAKE action ids are 0..{ACTIONS - 1}, not {action_id}")
        if action_id < WIN:
            return {"discard": ALL_CARDS[action_id]}
        return {_ANSWERS[action_id]: True}

    def action_text(self, state: Any, seat: int, action_id: int) -> str:
        if action_id < WIN:
            return f"discard {ALL_CARDS[action_id]}"
        return _ANSWERS[action_id]

    def tensor(self, view: Observation, setup: Setup) -> list[float]:
        players = setup.seats
        me = 0 if view["seat"] is None else view["seat"]
        order = [(me + k) % players for k in range(players)]
        out: list[float] = []
        out += _counts(view["hand"] or [])
        out += _counts([view["drawn"]] if view["drawn"] else [])
        bonus = [0.0] * len(BONUS_IDS)
        if view["bonus"] is not None:
            bonus[BONUS_IDS[view["bonus"]]] = 1.0
        out += bonus
        for seat in order:
            out += _counts(view["shown"][seat])
            out += _counts(entry["card"] for entry in view["discards"][seat])
            out += _counts(e["card"] for e in view["discards"][seat] if e["taken_by"] is not None)
            crest = view["crests"][seat] if view["crests"] else None
            out += [float(crest == suit) for suit in SUITS]
            out += [view["points"][seat] / START_POINTS, float(view["steals"][seat])]
            out += [float(view["hand_sizes"][seat]), float(view["dealer"] == seat)]
            out += [float(view["turn"] == seat)]
        out += [float(view["pile"]), float(view["deal"]), float(view["passes"])]
        out += [float(view["steal_cost"] or 0)]
        out += [float(view["phase"] == phase) for phase in PHASES]
        window = view["window"]
        out += _counts([window["card"]] if window else [])
        out += [float(window is not None and window["discarder"] == seat) for seat in order]
        answer = window["answer"] if window else None
        out += [float(answer == key) for key in _ANSWER_IDS]
        return out

    def returns(self, outcome: Mapping[str, Any], setup: Setup) -> list[float]:
        return [float(points - START_POINTS) for points in outcome["scores"]]

    def utility_bounds(self, setup: Setup) -> tuple[float, float]:
        # In the deal that ends a session a seat loses at most its steals and one payment (the
        # whole of the biggest win, dealer's 1.5 included); every seat's points are above zero
        # before it, and no points enter the game.
        loss = _biggest_win() + sum(STEAL_COSTS)
        players = setup.seats
        return -float(START_POINTS + loss), float((players - 1) * (START_POINTS + loss))

    def max_game_length(self, setup: Setup) -> int:
        # A deal: every card discarded once, plus once more after each steal, each discard
        # answered by every other seat, and one win on a draw. Deals: at most one pass per
        # seat, and within a dealership each dealer's win takes at least the smallest payment
        # from the others, whose points (never more than all the points there are) must stay
        # above zero.
        players = setup.seats
        discards = len(deck(players)) + players * MAX_STEALS
        per_deal = discards * players + 1
        least = -(-min(y.points for y in YAKU.values()) // (players - 1))
        deals = players * (players * START_POINTS // least + 2)
        return deals * per_deal

    def sample(self, view: Observation, rng: random.Random, mover: int) -> Any:
        state = sample_state(view, rng)
        # The sample leaves every other seat's claim answer ungiven; the seats the rules ask
        # before ``mover`` have answered (unseen): a seat that can win on the card wins.
        while (first := self.mover(state)) is not None and first != mover:
            legal = self.engine.legal_actions(state, first)
            answer = {"win": True} if {"win": True} in legal else {"pass": True}
            state = self.engine.apply(state, first, answer)
        return state


def _biggest_win() -> int:
    """More than any win can pay: every hand's points and the richest bonus on all six cards,
    as a dealer."""
    most = sum(y.points for y in YAKU.values()) + 6 * max(b.each for b in BONUS_CARDS.values())
    return dealer_total(most)


def _counts(cards: Any) -> list[float]:
    """How many of each of the 38 kinds ``cards`` holds."""
    out = [0.0] * len(ALL_CARDS)
    for card in cards:
        out[_CARD_INDEX[card]] += 1.0
    return out
