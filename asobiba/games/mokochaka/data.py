"""Loads data.toml: Mokochaka's deck, numbers, bot levels and designed-values table."""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from asobiba.core.game import DesignedValue
from asobiba.core.ratings import Ladder, ladders_from
from asobiba.games.mokochaka.cards import ANIMALS, COUNTS


@dataclass(frozen=True)
class Numbers:
    """The numbers the engine plays by; data.toml explains each one."""

    min_seats: int
    max_seats: int
    piles: int
    call_seconds: float
    grab_window: float
    flip_seconds: float
    choice_seconds: float
    take_piles: int
    """Piles the token winner takes with 2 players."""
    take_piles_many: int
    """... with 3 or more players."""
    penalty_cards: int
    """Cards a penalized player gives with 2 players."""
    penalty_cards_many: int
    """... with 3 or more players."""
    events_kept: int

    def take(self, seats: int) -> int:
        return self.take_piles if seats == 2 else self.take_piles_many

    def penalty(self, seats: int) -> int:
        return self.penalty_cards if seats == 2 else self.penalty_cards_many


TYPICAL_ANIMALS = 7
"""About how many animals three showing cards hold (the faces average 2.25 a card)."""


@dataclass(frozen=True)
class Level:
    """A computer opponent's human model (data.toml explains each field)."""

    id: str
    name_ja: str
    name_en: str
    mu: float
    """Seconds: the normal part of the reaction time (its mean)."""
    sigma: float
    """Seconds: the normal part's standard deviation."""
    tau: float
    """Seconds: the mean of the exponential tail added to it."""
    hick: float
    """Seconds per doubling of the animals to count: ``hick * log2(n + 1)`` for n animals."""
    miscount: float
    """Chance per flip that the word said is wrong."""
    miss_special: float
    """Chance per flip that a special call that holds goes unnoticed."""
    false_grab: float
    """Chance per flip of grabbing when no special call holds."""
    tactics: bool
    """Chooses the flip, the piles and the penalty recipient with care (else simply)."""
    source: str
    reason_ja: str
    reason_en: str

    def mean_reaction(self, animals: int = TYPICAL_ANIMALS) -> float:
        """Mean seconds from the flip to this level's call with ``animals`` to count."""
        return self.mu + self.tau + self.hick * math.log2(animals + 1)


def _load() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


_DATA = _load()

DECK: dict[str, int] = {animal: int(_DATA["deck"][animal]) for animal in ANIMALS}
"""Cards of each animal."""
FACES: dict[str, tuple[int, ...]] = {
    animal: tuple(int(n) for n in _DATA["faces"][animal]) for animal in ANIMALS
}
"""Cards of each animal showing 1, 2, 3 and 4 animals."""
NUMBERS = Numbers(**_DATA["numbers"])


@dataclass(frozen=True)
class Trainer:
    """The call trainer's numbers (data.toml ``[trainer]``)."""

    flips: int
    """Cards turned in one session."""
    pause_min: float
    """Fewest seconds between a verdict and the next card."""
    pause_max: float
    """Most seconds between a verdict and the next card."""


TRAINER = Trainer(**_DATA["trainer"])
LEVELS: list[Level] = [Level(**entry) for entry in _DATA["levels"]]
LEVEL_BY_ID: dict[str, Level] = {level.id: level for level in LEVELS}
LADDERS: dict[str, Ladder] = ladders_from(
    _DATA["ladders"], [level.id for level in LEVELS], "mokochaka"
)
"""Each rule family's arena ladder of the bot levels (data.toml ``[[ladders]]``): the fixed
ratings games against the computer are rated against (``core.ratings.anchors``)."""

for _animal in ANIMALS:
    if len(FACES[_animal]) != len(COUNTS) or sum(FACES[_animal]) != DECK[_animal]:
        raise ValueError(
            f"data.toml: faces of {_animal} do not add up to its {DECK[_animal]} cards"
        )


def _fields() -> dict[str, str]:
    """What a table row may name in braces: every number, deck size and face split."""
    fields = {key: f"{value:g}" for key, value in vars(NUMBERS).items()}
    fields |= {f"trainer_{key}": f"{value:g}" for key, value in vars(TRAINER).items()}
    fields |= {f"deck_{animal}": str(n) for animal, n in DECK.items()}
    fields |= {f"faces_{animal}": "/".join(map(str, FACES[animal])) for animal in ANIMALS}
    return fields


def designed_values() -> list[DesignedValue]:
    """The rule page's table, with every number filled in from this file."""
    fields = _fields()
    rows = []
    for row in _DATA["table"]:
        if row["source"] not in ("rulebook", "designed"):
            raise ValueError(f"data.toml: row {row['id']!r} has source {row['source']!r}")
        rows.append(
            DesignedValue(
                name={"ja": row["name_ja"], "en": row["name_en"]},
                value={lang: row[f"value_{lang}"].format(**fields) for lang in ("ja", "en")},
                source=row["source"],
                reason={lang: row[f"reason_{lang}"].format(**fields) for lang in ("ja", "en")},
            )
        )
    for level in LEVELS:
        rows.append(
            DesignedValue(
                name={"ja": f"強さ：{level.name_ja}", "en": f"Strength: {level.name_en}"},
                value=level_in_words(level),
                source=level.source,
                reason={"ja": level.reason_ja, "en": level.reason_en},
            )
        )
    return rows


def level_in_words(level: Level) -> dict[str, str]:
    """A level's human model from this file, said in both languages for the rule page."""
    mean = level.mean_reaction()
    words = {
        "ja": f"コールまで平均{mean:.1f}秒（動物{TYPICAL_ANIMALS}匹のとき）、"
        f"言いまちがい{level.miscount:.0%}、特殊コールの見逃し{level.miss_special:.0%}、"
        f"お手つき{level.false_grab:.1%}",
        "en": f"calls {mean:.1f} s after the flip on average ({TYPICAL_ANIMALS} animals showing); "
        f"wrong words {level.miscount:.0%}, missed special calls {level.miss_special:.0%}, "
        f"false grabs {level.false_grab:.1%}",
    }
    if level.tactics:
        words["ja"] += "。取る山と渡す相手を考えて選ぶ"
        words["en"] += "; chooses piles and penalty recipients with care"
    return words


TABLE_IDS: list[str] = [row["id"] for row in _DATA["table"]]
"""The table rows' ids, in page order (tests look rows up by them)."""
