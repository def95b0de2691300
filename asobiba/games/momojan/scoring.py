"""Scoring a described win: yaku (from data.toml), dora, the set bonus, ロン, doubling.

>>> win = Win(
...     hand=("O1", "O2", "O3", "sun", "sun"),
...     melds=(Meld("pon", ("dog", "dog", "dog")), Meld("kai", ("L4", "L5", "L6")),
...            Meld("chi", ("M7", "O8", "O9"))),
...     win_card="O1", ron=True, dora_indicator="L3", riichi=True)
>>> s = score(win)
>>> [name for name, _ in s.yaku], s.dora, s.bonus, s.ron, s.subtotal, s.total
(['riichi', 'dog', 'ittsu'], 1, ('tabi', 1), 1, 7, 14)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from asobiba.games.momojan.cards import PEACH, Card, is_dora, is_fruit, number
from asobiba.games.momojan.data import BONUSES, NUMBERS, YAKU, YAKU_BY_ID
from asobiba.games.momojan.hand import SETS_TO_WIN, Decomposition, decompositions
from asobiba.games.momojan.hand import set_kind as kind_of

MELD_KINDS = ("kai", "pon", "chi")

_ANIMALS = ("dog", "monkey", "pheasant")

CODED_YAKU = frozenset(
    {
        "riichi", "ippatsu", "dog", "monkey", "pheasant", "sun", "moon", "ittsu", "kibidango",
        "kerai", "tanyao", "toitoi", "haitei", "houtei", "chinitsu", "takaramono", "oshimai",
    }
)  # fmt: skip
"""The yaku whose condition is coded here; data.toml's table must name exactly these."""


@dataclass(frozen=True)
class Meld:
    """An open set: made by 開 from the hand, or by ポン/チー with the opponent's discard."""

    kind: str
    """``"kai"``, ``"pon"`` or ``"chi"``."""
    cards: tuple[Card, ...]
    """The three cards, sorted."""
    claimed: Card | None = None
    """The opponent's discard a ポン/チー took; None for 開."""


@dataclass(frozen=True)
class Win:
    """A described win, everything scoring needs."""

    hand: tuple[Card, ...]
    """The concealed cards at the win, the winning card included."""
    melds: tuple[Meld, ...]
    win_card: Card
    ron: bool
    """True for ロン (the opponent's discard), False for ツモ."""
    dora_indicator: Card
    riichi: bool = False
    ippatsu: bool = False
    last_card: bool = False
    """ツモ on the draw that empties the piles, or ロン on a discard made once they are empty."""


@dataclass(frozen=True)
class Score:
    """A win's score, line by line, as the win screen shows it."""

    yaku: tuple[tuple[str, int], ...]
    """``(yaku id, points)`` in the order of the yaku table."""
    dora: int
    """Dora points (one per dora card among the hand and the open sets)."""
    bonus: tuple[str, int] | None
    """The set bonus (旅/鬼ヶ島/桃太郎/日本一) and its points, or None under 4 sets."""
    ron: int
    """The ロン bonus: 1 for ロン, 0 for ツモ."""
    sets: int
    """Sets at the win, open and in hand."""
    subtotal: int
    doubled: bool
    """True when ``subtotal`` reached 7 and the total is twice it."""
    total: int
    ends_game: bool
    """True when おしまい is among the yaku: the game ends at once, won by this player."""
    split: Decomposition
    """The reading of the concealed hand that was scored."""

    def to_json(self) -> dict[str, Any]:
        return {
            "yaku": [[name, points] for name, points in self.yaku],
            "dora": self.dora,
            "bonus": list(self.bonus) if self.bonus else None,
            "ron": self.ron,
            "sets": self.sets,
            "subtotal": self.subtotal,
            "doubled": self.doubled,
            "total": self.total,
            "ends_game": self.ends_game,
            "hand_sets": [list(s) for s in self.split.sets],
            "head": list(self.split.head),
        }


def _yaku(win: Win, split: Decomposition) -> list[str]:
    """The ids of the yaku this reading of the win holds, in table order."""
    sets = [m.cards for m in win.melds] + list(split.sets)
    cards = [c for s in sets for c in s] + list(split.head)
    kinds = [kind_of(s) for s in sets]
    pictures = {s[0] for s, k in zip(sets, kinds, strict=True) if k == "picture"}
    runs = [s for s, k in zip(sets, kinds, strict=True) if k == "run"]
    fruits = {c[0] for c in cards if is_fruit(c)} - {PEACH}
    kerai = all(animal in pictures for animal in _ANIMALS)
    held = {
        "riichi": win.riichi,
        "ippatsu": win.riichi and win.ippatsu,
        "dog": "dog" in pictures,
        "monkey": "monkey" in pictures,
        "pheasant": "pheasant" in pictures,
        "sun": "sun" in pictures,
        "moon": "moon" in pictures,
        "ittsu": _ittsu(runs),
        # Only the head is left in the hand and the ロン makes it: a set the ロン completes is
        # not called (example 1), nor is a ツモ (rules kibidango_ron_set, kibidango_tsumo).
        "kibidango": not split.sets and win.ron,
        "kerai": kerai,
        "tanyao": all(is_fruit(c) and 2 <= number(c) <= 8 for c in cards),
        "toitoi": not runs,
        "haitei": win.last_card and not win.ron,
        "houtei": win.last_card and win.ron,
        "chinitsu": all(is_fruit(c) for c in cards) and len(fruits) <= 1,
        "takaramono": not any(is_fruit(c) for c in cards),
        "oshimai": kerai and "sun" in cards and "moon" in cards,
    }
    assert set(held) == CODED_YAKU
    return [y.id for y in YAKU if held[y.id]]


def _ittsu(runs: list[tuple[Card, ...]]) -> bool:
    """Runs starting at 1, 4 and 7, of any fruits (data.toml, rule "ittsu_fruits")."""
    return {1, 4, 7} <= {min(number(c) for c in run) for run in runs}


def _score_split(win: Win, split: Decomposition) -> Score | None:
    yaku = _yaku(win, split)
    if not yaku:
        return None
    lines = tuple((name, YAKU_BY_ID[name].points) for name in yaku)
    cards = [c for m in win.melds for c in m.cards] + list(win.hand)
    dora = NUMBERS.dora_points * sum(is_dora(c, win.dora_indicator) for c in cards)
    sets = len(win.melds) + len(split.sets)
    bonus = None
    for entry in BONUSES:
        if sets >= entry.sets:
            bonus = (entry.id, entry.points)
    ron = NUMBERS.ron_bonus if win.ron else 0
    subtotal = sum(points for _, points in lines) + dora + (bonus[1] if bonus else 0) + ron
    doubled = subtotal >= NUMBERS.double_at
    return Score(
        yaku=lines,
        dora=dora,
        bonus=bonus,
        ron=ron,
        sets=sets,
        subtotal=subtotal,
        doubled=doubled,
        total=subtotal * 2 if doubled else subtotal,
        ends_game="oshimai" in yaku,
        split=split,
    )


def score(win: Win) -> Score | None:
    """The win's best score, or None when it is no win (no shape, too few sets, or no yaku).

    When the hand splits several ways the highest total counts.
    """
    for meld in win.melds:
        if meld.kind not in MELD_KINDS or len(meld.cards) != 3 or kind_of(meld.cards) is None:
            raise ValueError(f"not an open set: {meld}")
    if win.win_card not in win.hand:
        raise ValueError(f"the winning card {win.win_card} is not in the hand")
    splits = decompositions(win.hand)
    if not splits or len(win.melds) + len(splits[0].sets) < SETS_TO_WIN:
        return None
    best: Score | None = None
    for split in splits:
        scored = _score_split(win, split)
        if scored is not None and (best is None or scored.total > best.total):
            best = scored
    return best
