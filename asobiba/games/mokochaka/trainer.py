"""Mokochaka's call trainer (``/learn/mokochaka/trainer``): cards are turned at the learner one at
a time, as on a real table (each lands on one of three piles), and the learner calls each one.

A session (``drill``) is drawn from a seed the server keeps: ``TRAINER.flips`` cards, every kind
of call (``KINDS``) equally often, in a shuffled order; each card is one that makes its kind when
it lands on its pile (drawn among every card face and pile that do). The learner has
``call_seconds`` (3 s) per card, timed by the server (``server/sockets/trainer_socket.py``), and
answers as the player who turned it: a call, or a grab with a special word.

``drill_summary`` scores the session per kind (share right, mean seconds of the right calls) and
says which computer level the learner now matches: the strongest whose own figures on the very
same cards (data.toml's human model: mean reaction ``mu + tau`` plus ``hick * log2(n + 1)`` for n
animals showing; right ``1 - miscount`` of the time, a special call also needing
``1 - miss_special``) are no better than the learner's: at most as accurate, at least as slow.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence
from typing import Any

from asobiba.core.errors import IllegalAction
from asobiba.core.game import DrillAnswer, DrillPrompt, DrillVerdict
from asobiba.core.rng import stream
from asobiba.games.mokochaka.cards import ANIMALS, CALLS, COUNTS, SPECIALS, Card, judge
from asobiba.games.mokochaka.data import FACES, LEVELS, NUMBERS, TRAINER, Level
from asobiba.games.mokochaka.words import count_text, join

KINDS: dict[str, dict[str, str]] = {
    "pair": {"ja": "動物2種類（多い順）", "en": "Two animals (most first)"},
    "pome": {"ja": "ポメが先頭", "en": "Pome first"},
    "gabu": {"ja": "ガブが食べる", "en": "Gabu eats"},
    "double": {"ja": "3枚とも同じ動物", "en": "Three of one animal"},
    "mokochaka": {"ja": "モコチャカ", "en": "Mokochaka"},
    "chakamoko": {"ja": "チャカモコ", "en": "Chakamoko"},
    "chakamokochaka": {"ja": "チャカモコチャカ", "en": "Chakamokochaka"},
}
"""The kinds of call the trainer scores apart, in the order its results list them."""

FACE_CARDS: tuple[Card, ...] = tuple(
    Card(animal, count)
    for animal in ANIMALS
    for count, cards in zip(COUNTS, FACES[animal], strict=True)
    if cards
)
"""Every card face of the deck (each once: the trainer draws faces, not a dealt deck)."""


def call_kind(top: Sequence[tuple[str, int]]) -> str:
    """The kind of call the showing cards ``top`` ask for (one of ``KINDS``)."""
    right = judge(top)
    specials = right & set(SPECIALS)
    if "chakamokochaka" in specials:
        return "chakamokochaka"
    if "chakamoko" in specials:
        return "chakamoko"
    if specials:
        return "mokochaka"
    word = min(right)
    cards = [Card(animal, count) for animal, count in top]
    if len(cards) == 3 and len({card.animal for card in cards}) == 1:
        return "double"
    if any(card.animal == "gabu" for card in cards):
        return "gabu"
    if word.startswith("pome") and len(word) > 4:
        return "pome"
    return "pair" if len(word) > 4 else "single"


def _view(n: int, piles: list[list[Card]], pile: int, card: Card) -> dict[str, Any]:
    """What the learner is shown: the table with the card just turned (an observation's shape:
    the learner is seat 0 of a table of one, in the call phase of their own flip)."""
    return {
        "game": "mokochaka",
        "options": {},
        "seats": 1,
        "seat": 0,
        "phase": "call",
        "turn": 0,
        "to_move": [0],
        "start_player": 0,
        "hands": [TRAINER.flips - n],
        "piles": [{"top": str(p[-1]), "size": len(p)} for p in piles],
        "flips": n,
        "flip_at": None,
        "call_deadline": None,
        "window_end": None,
        "deadline": None,
        "said": [],
        "choice": None,
        "events": [{"n": n, "type": "flip", "seat": 0, "pile": pile, "card": str(card), "at": 0.0}],
        "outcome": None,
    }


LEGAL: list[dict[str, Any]] = [{"call": word} for word in CALLS] + [
    {"grab": word} for word in SPECIALS
]
"""What the learner may answer, as the player who turned the card: any call, or a grab."""


@functools.cache
def _kind_of(top: tuple[Card, ...]) -> str:
    return call_kind(top)


def _fits(tops: Sequence[Card]) -> dict[str, list[tuple[Card, int]]]:
    """Every card face and pile it may land on, by the kind of call the table then asks for."""
    fits: dict[str, list[tuple[Card, int]]] = {kind: [] for kind in KINDS}
    for card in FACE_CARDS:
        for pile in range(len(tops)):
            after = [*tops[:pile], card, *tops[pile + 1 :]]
            fits[_kind_of(tuple(sorted(after)))].append((card, pile))
    return fits


PLAN_STEPS = 300
"""The most tables one search looks at (it needs a few dozen when it goes well)."""
TRIES = 3
"""Cards of one kind tried at a table before the search tries another kind there."""

Turn = tuple[Card, int]


def _plan(
    rng: random.Random, tops: list[Card], owed: list[str], budget: list[int]
) -> list[Turn] | None:
    """The cards to turn, and where, so that each asks for one kind of ``owed`` in turn (a
    depth-first search: a kind at random, then the kinds fewest cards can make, each tried with
    a few cards drawn at random);
    None when ``budget`` runs out first."""
    if not owed:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    fits = _fits(tops)
    kinds = [kind for kind in dict.fromkeys(owed) if fits[kind]]
    if not kinds:
        return None
    first = rng.choice(kinds)  # a kind at random, then should it lead nowhere, the rarest
    kinds = [first, *sorted((k for k in kinds if k != first), key=lambda k: len(fits[k]))]
    for kind in kinds:
        for card, pile in rng.sample(fits[kind], min(TRIES, len(fits[kind]))):
            rest = list(owed)
            rest.remove(kind)
            after = [*tops[:pile], card, *tops[pile + 1 :]]
            plan = _plan(rng, after, rest, budget)
            if plan is not None:
                return [(card, pile), *plan]
            if budget[0] < 0:
                return None
    return None


ATTEMPTS = 8
"""Fresh searches (each from its own stream of the seed) before the cards are drawn freely."""


def drill(seed: int) -> list[DrillPrompt]:
    """A session's cards, drawn from ``seed`` (see the module): every kind equally often, in an
    order a random search finds such that each card makes its kind when it lands (turning one
    card changes one of the three cards showing). A search that wanders too long starts afresh;
    should every one fail, the cards are drawn freely instead."""
    plan: list[Turn] | None = None
    for attempt in range(ATTEMPTS):
        rng = stream(seed, f"trainer/mokochaka/{attempt}")
        piles = [[rng.choice(FACE_CARDS)] for _ in range(NUMBERS.piles)]
        owed = [kind for kind in KINDS for _ in range(TRAINER.flips // len(KINDS))]
        owed += rng.sample(list(KINDS), TRAINER.flips - len(owed))
        plan = _plan(rng, [pile[-1] for pile in piles], owed, [PLAN_STEPS])
        if plan is not None:
            break
    if plan is None:
        plan = [(rng.choice(FACE_CARDS), rng.randrange(len(piles))) for _ in range(TRAINER.flips)]
    prompts = []
    for n, (card, pile) in enumerate(plan, 1):
        piles[pile].append(card)
        pause = TRAINER.pause_min + rng.random() * (TRAINER.pause_max - TRAINER.pause_min)
        prompts.append(
            DrillPrompt(
                view=_view(n, piles, pile, card),
                legal=list(LEGAL),
                limit=NUMBERS.call_seconds,
                pause=round(pause, 3),
            )
        )
    return prompts


def _top(prompt: DrillPrompt) -> list[tuple[str, int]]:
    return [
        (pile["top"][:-1], int(pile["top"][-1])) for pile in prompt.view["piles"] if pile["top"]
    ]


def judge_drill(prompt: DrillPrompt, action: Any, seconds: float | None) -> DrillVerdict:
    """The verdict on one answer: right when its word is a right call for the showing cards,
    said the right way (a special while grabbing, any other word as a plain call) and in time."""
    top = _top(prompt)
    right = judge(top)
    correct = [{"grab" if word in SPECIALS else "call": word} for word in sorted(right)]
    if action is not None and action not in prompt.legal:
        raise IllegalAction(f"answer with a call or a grab of the vocabulary, got {action!r}")
    count = count_text(top)
    if action is None or (seconds is not None and seconds >= prompt.limit):
        late = {"ja": f"{prompt.limit:g}秒を過ぎました。", "en": f"Over {prompt.limit:g} seconds."}
        return DrillVerdict(False, call_kind(top), correct, join(late, count))
    ok = action in correct
    said = {"ja": "正解!", "en": "Right!"} if ok else {"ja": "ちがいます。", "en": "Not quite."}
    return DrillVerdict(ok, call_kind(top), correct, join(said, count))


def drill_kinds() -> dict[str, dict[str, str]]:
    return dict(KINDS)


def _animals(prompt: DrillPrompt) -> int:
    return sum(count for _, count in _top(prompt))


def level_seconds(level: Level, animals: int) -> float:
    """A level's mean seconds from the flip to its call with ``animals`` showing."""
    return level.mu + level.tau + level.hick * math.log2(animals + 1)


def level_accuracy(level: Level, kind: str) -> float:
    """How often a level's call of this kind is right."""
    right = 1 - level.miscount
    return right * (1 - level.miss_special) if kind in SPECIALS else right


def _figures(answers: Sequence[DrillAnswer]) -> dict[str, Any]:
    right = [answer for answer in answers if answer.verdict.right]
    times = [answer.seconds for answer in right if answer.seconds is not None]
    return {
        "tries": len(answers),
        "right": len(right),
        "accuracy": round(len(right) / len(answers), 4) if answers else None,
        "seconds": round(sum(times) / len(times), 3) if times else None,
    }


def _level_figures(level: Level, answers: Sequence[DrillAnswer]) -> dict[str, Any]:
    """A level's own figures on the same cards: its accuracy over them all, its mean time over
    the cards the learner got right (the times compared are of the same cards)."""
    right = [answer for answer in answers if answer.verdict.right]
    return {
        "accuracy": round(
            sum(level_accuracy(level, a.verdict.kind) for a in answers) / len(answers), 4
        )
        if answers
        else None,
        "seconds": round(
            sum(level_seconds(level, _animals(a.prompt)) for a in right) / len(right), 3
        )
        if right
        else None,
    }


def matched_level(answers: Sequence[DrillAnswer]) -> str | None:
    """The strongest level the learner matches on these answers (see the module), or None."""
    mine = _figures(answers)
    if mine["seconds"] is None:
        return None
    matched = None
    for level in LEVELS:  # weakest first
        theirs = _level_figures(level, answers)
        if mine["accuracy"] >= theirs["accuracy"] and mine["seconds"] <= theirs["seconds"]:
            matched = level.id
    return matched


def drill_summary(answers: list[DrillAnswer]) -> dict[str, Any]:
    """The session's figures: per kind and in all, each level's on the same cards, and the
    level the learner matches (``level``, None when none yet)."""
    kinds = [
        {"kind": kind, "name": names, **_figures([a for a in answers if a.verdict.kind == kind])}
        for kind, names in KINDS.items()
        if any(a.verdict.kind == kind for a in answers)
    ]
    return {
        **_figures(answers),
        "kinds": kinds,
        "levels": [
            {
                "id": level.id,
                "name": {"ja": level.name_ja, "en": level.name_en},
                **_level_figures(level, answers),
            }
            for level in LEVELS
        ],
        "level": matched_level(answers),
    }
