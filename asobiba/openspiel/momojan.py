"""``asobiba_momojan``: MOMOJAN for OpenSpiel, one whole match (every round) a game.

Action ids (fixed; tests/openspiel pins them):

- 0-2 ``draw pile p``; 3 ``draw3``; 4 ``tsumo``; 5 ``ron``; 6 ``pass``;
- 7-47 ``discard c`` and 48-88 ``riichi c`` (a discard that declares riichi), ``c`` the 41 kinds
  of card in the engine's sorting order (``M1``-``M9``, ``L1``..., ``S9``, ``dog``, ``monkey``,
  ``pheasant``, ``sun``, ``moon``);
- 89-283 ``pon``/``chi``: the opponent's discard joins two hand cards to make set ``t``, and
  284-478 ``kai`` set ``t``, ``t`` indexing ``SETS``, the 195 sets of the deck sorted as text.
  A call's two hand cards are the set less the offered card, so a set names a call exactly.

The chance node picks the engine seed of the match (``sessions`` seeds from ``first_seed``).
Returns are points won or lost: final points less the 40 each player starts with (zero-sum:
the stakes in the middle go to a winner).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import combinations
from typing import Any

from asobiba.core.game import Action, Observation
from asobiba.games import get_game
from asobiba.games.momojan.cards import DECK, KINDS, format, sort_cards
from asobiba.games.momojan.data import BONUSES, NUMBERS, YAKU
from asobiba.games.momojan.hand import set_kind
from asobiba.games.momojan.sample import sample_state
from asobiba.openspiel.spec import Setup, Spec

SETS: tuple[tuple[str, ...], ...] = tuple(
    sorted({tuple(sort_cards(trio)) for trio in combinations(DECK, 3) if set_kind(trio)})
)
"""Every set the deck can make, sorted: the ``t`` of call and kai ids."""
_SET_INDEX = {trio: t for t, trio in enumerate(SETS)}
_KIND_INDEX = {card: k for k, card in enumerate(KINDS)}

DRAW, DRAW3, TSUMO, RON, PASS = 0, 3, 4, 5, 6
DISCARD = 7
RIICHI = DISCARD + len(KINDS)
CALL = RIICHI + len(KINDS)
KAI = CALL + len(SETS)
ACTIONS = KAI + len(SETS)
_PLAIN = {DRAW3: "draw3", TSUMO: "tsumo", RON: "ron", PASS: "pass"}
_PLAIN_IDS = {kind: action_id for action_id, kind in _PLAIN.items()}
PHASES = ("start", "drawn", "called", "drawn3", "over")


def _offer(state: Any, seat: int) -> str:
    offer = get_game("momojan").observe(state, seat)["offer"]
    if offer is None:
        raise ValueError("no discard of the opponent's is on offer")
    return str(offer)


class MomojanSpec(Spec):
    engine = get_game("momojan")
    short_name = "asobiba_momojan"
    long_name = "asobiba MOMOJAN"
    hidden = True
    zero_sum = True

    def num_actions(self) -> int:
        return ACTIONS

    def extra_parameters(self) -> dict[str, Any]:
        return {"first_seed": 0, "sessions": 1 << 16}

    def action_id(self, state: Any, seat: int, action: Action) -> int:
        kind = action["type"]
        if kind == "draw":
            return DRAW + int(action["pile"])
        if kind == "discard":
            base = RIICHI if action.get("riichi") else DISCARD
            return base + _KIND_INDEX[action["card"]]
        if kind == "kai":
            return KAI + _SET_INDEX[tuple(sort_cards(action["cards"]))]
        if kind in ("pon", "chi"):
            trio = tuple(sort_cards([_offer(state, seat), *action["cards"]]))
            return CALL + _SET_INDEX[trio]
        return _PLAIN_IDS[kind]

    def action(self, state: Any, seat: int, action_id: int) -> Action:
        if not 0 <= action_id < ACTIONS:
            raise ValueError(f"MOMOJAN action ids are 0..{ACTIONS - 1}, not {action_id}")
        if action_id < DRAW3:
            return {"type": "draw", "pile": action_id}
        if action_id in _PLAIN:
            return {"type": _PLAIN[action_id]}
        if action_id < CALL:
            riichi = action_id >= RIICHI
            card = KINDS[action_id - (RIICHI if riichi else DISCARD)]
            return {"type": "discard", "card": card, "riichi": riichi}
        if action_id >= KAI:
            return {"type": "kai", "cards": list(SETS[action_id - KAI])}
        trio = list(SETS[action_id - CALL])
        trio.remove(_offer(state, seat))
        kind = "chi" if set_kind(SETS[action_id - CALL]) == "run" else "pon"
        return {"type": kind, "cards": trio}

    def action_text(self, state: Any, seat: int, action_id: int) -> str:
        action = self.action(state, seat, action_id)
        kind = action["type"]
        if kind == "draw":
            return f"draw pile {action['pile']}"
        if kind == "discard":
            return f"{'riichi' if action['riichi'] else 'discard'} {action['card']}"
        if "cards" in action:
            return f"{kind} {format(action['cards'])}"
        return str(kind)

    def tensor(self, view: Observation, setup: Setup) -> list[float]:
        me = 0 if view["seat"] is None else view["seat"]
        order = (me, 1 - me)
        out: list[float] = []
        out += _counts(view["hand"] or [])
        last = view["last"] or {}
        out += _counts(last.get("drew", []))
        for seat in order:
            out += _counts(card for meld in view["open_sets"][seat] for card in meld["cards"])
        for seat in order:
            out += _counts(entry["card"] for entry in view["rivers"][seat])
        out += _counts([view["offer"]] if view["offer"] else [])
        out += _counts([view["dora_indicator"]])
        start = float(NUMBERS.start_points)
        out += [float(view["riichi"][seat]) for seat in order]
        out += [float(size) for size in view["piles"]]
        out += [float(view["dead_wall"])]
        out += [float(view["hand_sizes"][seat]) for seat in order]
        out += [view["points"][seat] / start for seat in order]
        out += [view["middle"] / start, float(view["stake"]), float(view["streak"])]
        out += [float(view["dealerships"]), float(view["round"])]
        out += [float(view["dealer"] == seat) for seat in order]
        out += [float(view["to_move"] == seat) for seat in order]
        out += [float(view["phase"] == phase) for phase in PHASES]
        return out

    def returns(self, outcome: Mapping[str, Any], setup: Setup) -> list[float]:
        return [float(points - NUMBERS.start_points) for points in outcome["scores"]]

    def utility_bounds(self, setup: Setup) -> tuple[float, float]:
        # A loser stops just below zero: at most one round's payment under it. A win pays at most
        # every yaku, a dora for every card, the biggest set bonus and ロン, doubled; a wall
        # settlement at most the open points of every card.
        win = 2 * (
            sum(y.points for y in YAKU)
            + NUMBERS.dora_points * len(DECK)
            + max(b.points for b in BONUSES)
            + NUMBERS.ron_bonus
        )
        wall = max(NUMBERS.kai_points, NUMBERS.call_points) * len(DECK)
        most = NUMBERS.start_points + max(win, wall)
        return -float(most), float(most)

    def max_game_length(self, setup: Setup) -> int:
        # Each round: every card is drawn, called, opened and discarded at most once each, then
        # one ツモ, ロン or pass ends it. A dealership lasts at most ``dealer_streak`` rounds.
        rounds = 2 * setup.option_dict["dealerships"] * NUMBERS.dealer_streak
        return rounds * (4 * len(DECK) + 1)

    def sample(self, view: Observation, rng: random.Random, mover: int) -> Any:
        return sample_state(view, rng)


def _counts(cards: Any) -> list[float]:
    """How many of each of the 41 kinds ``cards`` holds."""
    out = [0.0] * len(KINDS)
    for card in cards:
        out[_KIND_INDEX[card]] += 1.0
    return out
