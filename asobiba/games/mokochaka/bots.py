"""Mokochaka's computer opponents: a human model of reaction times and slips, one class for
every level, tuned by the levels in data.toml.

When a card is flipped, each seat makes a *plan* for that flip: when it speaks (seconds after the
flip) and what it says, or that it stays silent. The time is a human reaction time: an
ex-Gaussian draw (normal ``mu``, ``sigma`` plus an exponential tail of mean ``tau``) plus a
counting cost ``hick * log2(n + 1)`` for the ``n`` animals showing (Hick's law), never under
``MIN_REACTION`` (0.15 s). The words come from :func:`judge`, spoiled by the level's slips:

- ``miss_special``: a special call holds but goes unnoticed: the flipper calls the animals as
  if it did not hold (a wrong call), anyone else stays silent;
- ``miscount``: the word is wrong: a wrong name from the animals showing, or while grabbing, a
  special word that does not hold;
- ``false_grab``: no special call holds, yet it grabs with a special word.

Every other seat stays silent when no special holds (``Timed(None)``: a pass). Once someone has
grabbed, the token is in their hand: a seat stands down from its grab when that grab's word was
right (a later grab cannot win), and the flipper from its plain call after any grab (the race
settles the turn; a flipper who has not called owes no call then).

The plan is drawn from a stream (core/rng.py) keyed by the bot's seed, which the room keeps the
same for a seat all game and secret (``rooms.bot_turns.bot_seed_for``), and labelled by the level,
the seat and the flip as the observation shows it (the flip count, the turn, the showing cards,
pile and hand sizes). A seat asked again in the same call phase (after another seat's call or
grab) therefore keeps its plan (the room makes a fresh bot per state), and answers ``after`` =
the planned time minus the time already gone since the flip (the latest time the observation
shows); nobody without the room's seed can work the plan out. Choices that nobody races
(where to flip, which piles to take, whom to give a penalty card) and their pace come from a
stream keyed by the bot's seed and labelled by the observation.

Tactics (``tactics = true``): flip onto the pile where a special call is likeliest (the card to
come drawn from the deck's face split), because a quick player wins most races for the token;
take the piles with the most cards that count (``pile_gabu``: every Gabu the observation's
events show landing on a pile still there, each card under them that no event shows at the
deck's Gabu share); give a penalty card to the player with the fewest cards (the least likely
to win). Without tactics: a random pile, random
piles, a random recipient.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from asobiba.core.bots import Timed
from asobiba.core.errors import InvalidOptions
from asobiba.core.rng import stream
from asobiba.games.mokochaka.cards import (
    ANIMALS,
    NORMAL_CALLS,
    SPECIALS,
    Card,
    animal_counts,
    judge,
    parse_card,
)
from asobiba.games.mokochaka.data import DECK, FACES, LEVEL_BY_ID, Level

MIN_REACTION = 0.15
"""No level speaks sooner than this many seconds after the flip."""

SLIPS = ("miscount", "missed_special", "false_grab")


@dataclass(frozen=True)
class Plan:
    """One seat's answer to one flip: ``action`` (None: silent) ``at`` seconds after the flip;
    ``slip`` names the error the level made (one of ``SLIPS``), None when it made none."""

    action: dict[str, Any] | None
    at: float
    slip: str | None


def make_bot(level: str, seed: int) -> MokochakaBot:
    """The bot of ``level`` (an id from data.toml)."""
    try:
        spec = LEVEL_BY_ID[level]
    except KeyError:
        raise InvalidOptions(f"unknown level {level!r}; levels: {list(LEVEL_BY_ID)}") from None
    return MokochakaBot(spec, seed)


def showing(observation: dict[str, Any]) -> list[Card]:
    """The cards showing on the piles, in pile order."""
    return [parse_card(pile["top"]) for pile in observation["piles"] if pile["top"]]


def elapsed(observation: dict[str, Any]) -> float:
    """Seconds since the flip at the latest moment the observation shows (0 outside a call)."""
    flip_at = observation.get("flip_at")
    if flip_at is None:
        return 0.0
    times = [event["at"] for event in observation["events"] if event.get("at") is not None]
    times += [said["at"] for said in observation["said"]]
    return max([0.0, *(at - flip_at for at in times)])


def animals(word: str) -> list[str]:
    """A call word's animals (every animal name is 4 letters): "pomepaka" -> pome, paka."""
    return [word[i : i + 4] for i in range(0, len(word), 4)]


def plain_call(top: list[Card], rng: random.Random) -> str:
    """The normal call someone makes who does not see the special call that holds: the animals
    present, Pome first, then the most numerous (at most two names)."""
    present = animal_counts(top)
    order = sorted(present, key=lambda kind: (kind != "pome", -present[kind], ANIMALS.index(kind)))
    word = "".join(order[:2])
    return word if word in NORMAL_CALLS else rng.choice(NORMAL_CALLS)


def wrong_word(correct: frozenset[str], rng: random.Random) -> str:
    """A miscount: a wrong normal call sharing an animal with a right one (any wrong one if
    none does)."""
    wrong = [word for word in NORMAL_CALLS if word not in correct]
    named = {animal for word in correct for animal in animals(word)}
    near = [word for word in wrong if named & set(animals(word))]
    return rng.choice(near or wrong)


def special_chance(tops: list[Card | None], pile: int) -> float:
    """The chance a special call holds once a card from the deck's face split lands on
    ``pile`` (buried and dealt cards are unknown, so the whole deck is the best guess)."""
    hits = 0
    total = 0
    for animal in ANIMALS:
        for number, cards in enumerate(FACES[animal], start=1):
            after = list(tops)
            after[pile] = Card(animal, number)
            total += cards
            if judge([card for card in after if card is not None]) & set(SPECIALS):
                hits += cards
    return hits / total


GABU_SHARE = DECK["gabu"] / sum(DECK.values())
"""The share of Gabu in the deck: the best guess for a pile card no event shows."""


def pile_gabu(observation: dict[str, Any]) -> list[float]:
    """How many Gabu each pile holds, as far as the observation tells: a pile shows only its
    top and size, but its recent ``events`` show every card flipped onto it since it was last
    taken. Those cards count as they are; the cards under them (flipped before the events still
    kept, or laid at the start) count at ``GABU_SHARE`` each."""
    piles = observation["piles"]
    seen: list[list[str]] = [[] for _ in piles]
    for event in observation["events"]:
        if event["type"] == "take":
            for i in event["piles"]:
                seen[i] = []
        elif event["type"] == "flip":
            seen[event["pile"]].append(event["card"])
    expected = []
    for cards, pile in zip(seen, piles, strict=True):
        known = cards[-pile["size"] :] if pile["size"] else []
        if pile["top"] and (not known or known[-1] != pile["top"]):
            known = [pile["top"]]
        unknown = pile["size"] - len(known)
        expected.append(sum(card.startswith("gabu") for card in known) + unknown * GABU_SHARE)
    return expected


class MokochakaBot:
    """A computer opponent of one level; sees only its seat's observation and legal actions."""

    def __init__(self, level: Level, seed: int) -> None:
        self.level = level
        self.seed = seed

    # --- the human model -----------------------------------------------------------------

    def reaction(self, rng: random.Random, count: int) -> float:
        """Seconds from the flip to speaking with ``count`` animals showing."""
        level = self.level
        seconds = rng.gauss(level.mu, level.sigma)
        if level.tau > 0:
            seconds += rng.expovariate(1 / level.tau)
        seconds += level.hick * math.log2(count + 1)
        return max(MIN_REACTION, seconds)

    def pace(self, rng: random.Random) -> float:
        """Seconds to flip or to choose piles or a recipient (no counting involved)."""
        return self.reaction(rng, 0)

    def plan(self, observation: dict[str, Any]) -> Plan:
        """What this seat says about the current flip, and when (see the module's docstring)."""
        seat = observation["seat"]
        top = showing(observation)
        key = ":".join(
            str(part)
            for part in (
                self.level.id,
                seat,
                observation["flips"],
                observation["turn"],
                observation["start_player"],
                [pile["top"] for pile in observation["piles"]],
                [pile["size"] for pile in observation["piles"]],
                observation["hands"],
            )
        )
        rng = stream(self.seed, f"bot/mokochaka/plan/{key}")
        at = self.reaction(rng, sum(card.number for card in top))
        missed, miscounted, false_grab = rng.random(), rng.random(), rng.random()
        flipper = seat == observation["turn"]
        correct = judge(top)
        specials = sorted(correct & set(SPECIALS))
        if specials:
            if missed < self.level.miss_special:
                action = {"call": plain_call(top, rng)} if flipper else None
                return Plan(action, at, "missed_special")
            if miscounted < self.level.miscount:
                wrong = [word for word in SPECIALS if word not in specials]
                return Plan({"grab": rng.choice(wrong)}, at, "miscount")
            return Plan({"grab": rng.choice(specials)}, at, None)
        if false_grab < self.level.false_grab:
            return Plan({"grab": rng.choice(SPECIALS)}, at, "false_grab")
        if not flipper:
            return Plan(None, at, None)
        if miscounted < self.level.miscount:
            return Plan({"call": wrong_word(correct, rng)}, at, "miscount")
        return Plan({"call": min(correct)}, at, None)

    # --- the bot protocol ----------------------------------------------------------------

    def decide(self, observation: dict[str, Any], legal: list[dict[str, Any]]) -> Timed:
        """The action and how many seconds from now (the moment of ``observation``) to act."""
        if not legal:
            return Timed(None)
        phase = observation["phase"]
        if phase == "call":
            plan = self.plan(observation)
            if plan.action is None or plan.action not in legal or self._too_late(observation, plan):
                return Timed(None)
            return Timed(plan.action, max(0.0, plan.at - elapsed(observation)))
        rng = stream(
            self.seed,
            f"bot/mokochaka/{phase}/{observation['flips']}/{observation['seat']}/"
            f"{len(observation['events'])}/{observation['events'][-1:]}",
        )
        if phase == "flip":
            action = self._flip(observation, legal, rng)
        elif phase == "take":
            action = self._take(observation, legal, rng)
        else:
            action = self._give(observation, legal, rng)
        return Timed(action, self.pace(rng))

    def choose(self, observation: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        """The action ``decide`` would take. Where it would stay silent (a seat with nothing to
        grab), the protocol still wants an action: the first legal one."""
        action = self.decide(observation, legal).action
        return action if action is not None else legal[0]

    def _too_late(self, observation: dict[str, Any], plan: Plan) -> bool:
        """Someone has grabbed already: the token is in their hand. A grab stands down when
        that grab's word is right (a later grab cannot win it); the flipper's plain call too,
        after any grab (the race settles the turn, and a silent flipper owes no call then)."""
        assert plan.action is not None
        grabs = [said["word"] for said in observation["said"] if said["grab"]]
        if not grabs:
            return False
        if "call" in plan.action:
            return True
        correct = judge(showing(observation))
        return any(word in correct for word in grabs)

    # --- choices nobody races --------------------------------------------------------------

    def _flip(
        self, observation: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random
    ) -> dict[str, Any]:
        if not self.level.tactics or len(legal) == 1:
            return rng.choice(legal)
        tops = [parse_card(p["top"]) if p["top"] else None for p in observation["piles"]]
        chances = {a["flip"]: special_chance(tops, a["flip"]) for a in legal}
        best = max(chances.values())
        return rng.choice([a for a in legal if chances[a["flip"]] == best])

    def _take(
        self, observation: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random
    ) -> dict[str, Any]:
        if not self.level.tactics:
            return rng.choice(legal)
        piles = observation["piles"]
        gabu = pile_gabu(observation)

        def worth(action: dict[str, Any]) -> tuple[float, int]:
            """The cards that will count (Gabu never do), then the most cards."""
            size = sum(piles[i]["size"] for i in action["take"])
            return size - sum(gabu[i] for i in action["take"]), size

        return max(legal, key=worth)

    def _give(
        self, observation: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random
    ) -> dict[str, Any]:
        if not self.level.tactics:
            return rng.choice(legal)
        seat, seats, hands = observation["seat"], observation["seats"], observation["hands"]
        return min(legal, key=lambda a: (hands[a["give"]], (a["give"] - seat) % seats))
