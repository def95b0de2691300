"""Scoring a winning hand: hands (yaku) over the best split, the bonus card, the dealer, payments.

>>> hand_points(["W4", "W4", "W4", "W6", "W6", "W6"], crest="C")  # triplets 80 + pure pair 180
260
>>> payments(260, dealer=False, self_draw=True, players=4)
{'total': 260, 'each': 87, 'payers': 3, 'gain': 261}
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from asobiba.games.michikake.cards import (
    SPECIALS,
    SUITS,
    Card,
    Set3,
    check_cards,
    set_kind,
    sort_cards,
    splits,
    stage_of,
    suit_of,
)
from asobiba.games.michikake.data import BONUS_CARDS, YAKU


def _check_crest(crest: str) -> None:
    if crest not in SUITS:
        raise ValueError(f"a crest is one of {list(SUITS)}, got {crest!r}")


def _suited(cards: Iterable[Card]) -> bool:
    return all(card not in SPECIALS for card in cards)


def _stages(cards: Iterable[Card]) -> list[int]:
    return [int(card[1]) for card in cards]


def split_yaku(split: tuple[Set3, Set3], crest: str) -> list[str]:
    """The hands one split scores, as yaku ids: one top hand alone, or a base hand and every
    added hand that applies."""
    a, b = split
    six = [*a, *b]
    kinds = (set_kind(a), set_kind(b))
    one_suit = _suited(six) and len({card[0] for card in six}) == 1
    stages = sorted(_stages(six)) if _suited(six) else []
    top: list[str] = []
    if stages == [1] * 6:
        top.append("six_ones")
    if stages == [9] * 6:
        top.append("six_nines")
    if one_suit and stages in ([1, 1, 1, 7, 8, 9], [1, 2, 3, 9, 9, 9]) and "run" in kinds:
        top.append("edge_run")
    if one_suit and six[0][0] == crest and stages == [1, 1, 1, 9, 9, 9]:
        top.append("crest_edges")
    if sort_cards(six) == ("star",) * 3 + ("ring",) * 3:
        top.append("stars_rings")
    if top:
        return [max(top, key=lambda y: YAKU[y].points)]
    if kinds == ("run", "run"):
        found = ["runs"]
    elif kinds == ("triplet", "triplet"):
        found = ["triplets"]
    else:
        found = ["mixed"]
    if stages and min(stages) >= 7:
        found.append("high")
    if stages and max(stages) <= 3:
        found.append("low")
    if one_suit and six[0][0] == crest:
        found.append("crest")
    if one_suit and kinds == ("run", "run"):
        if stages == list(range(stages[0], stages[0] + 6)):
            found.append("straight")
        if stages == [1, 2, 3, 7, 8, 9]:
            found.append("ends")
    if one_suit and kinds == ("triplet", "triplet"):
        found.append("pure")
    return found


def best_split(six: Iterable[Card], crest: str) -> tuple[tuple[Set3, Set3], list[str]] | None:
    """The split that scores most (the first in canonical order on a tie) and its yaku ids; None
    when the six are not two sets."""
    _check_crest(crest)
    best: tuple[tuple[Set3, Set3], list[str]] | None = None
    best_points = -1
    for split in splits(six):
        yaku = split_yaku(split, crest)
        points = sum(YAKU[y].points for y in yaku)
        if points > best_points:
            best, best_points = (split, yaku), points
    return best


def hand_points(six: list[str], crest: str) -> int | None:
    """Base plus added hands, or a top hand alone, over the best split; before the bonus card and
    the dealer. None when the six cards are not two sets."""
    found = best_split(six, crest)
    return None if found is None else sum(YAKU[y].points for y in found[1])


def bonus_points(bonus: str, six: Iterable[Card], crest: str) -> int:
    """What bonus card ``bonus`` adds to a win with these six cards (stars, rings never count)."""
    _check_crest(crest)
    try:
        card = BONUS_CARDS[bonus]
    except KeyError:
        raise ValueError(f"unknown bonus card {bonus!r}; known: {sorted(BONUS_CARDS)}") from None
    count = 0
    for c in check_cards(six, 6):
        suit, stage = suit_of(c), stage_of(c)
        if suit is None or stage is None:
            continue
        if card.stages and stage not in card.stages:
            continue
        if card.suits and suit not in card.suits:
            continue
        if card.off_crest and suit == crest:
            continue
        count += 1
    return count * card.each


def dealer_total(points: int) -> int:
    """The dealer's total: ``points`` × 1.5, rounded up."""
    return (points * 3 + 1) // 2


def payments(points: int, dealer: bool, self_draw: bool, players: int) -> dict[str, int]:
    """Who pays what for a win worth ``points`` (hand points plus bonus card).

    ``total``: after the dealer's × 1.5 (rounded up); ``each``: what one payer pays (on your own
    draw, total ÷ (players − 1) rounded up; on a discard, the whole total); ``payers``: how many
    pay; ``gain``: what the winner receives (``each × payers``).
    """
    if type(points) is not int or points < 0:
        raise ValueError(f"points must be a non-negative int, got {points!r}")
    if players not in (3, 4):
        raise ValueError(f"MICHIKAKE is played by 3 or 4 players, not {players!r}")
    total = dealer_total(points) if dealer else points
    if self_draw:
        payers = players - 1
        each = -(-total // payers)
    else:
        payers = 1
        each = total
    return {"total": total, "each": each, "payers": payers, "gain": each * payers}


def win_breakdown(
    six: Iterable[Card],
    crest: str,
    bonus: str | None,
    dealer: bool,
    self_draw: bool,
    players: int,
) -> dict[str, Any]:
    """The full breakdown of a described win, JSON-safe, as the win screen shows it.

    ``split`` (the two sets scored), ``yaku`` (``[{"id", "points"}]``: the base hand and the
    added hands, or the top hand alone), ``top`` (whether it is a top hand), ``hand_points``,
    ``bonus`` (``{"id", "points"}`` or None), ``points`` (hand + bonus), ``dealer``,
    ``self_draw``, ``total``, ``each``, ``payers``, ``gain``. ValueError when the six are not
    two sets.
    """
    cards = check_cards(six, 6)
    found = best_split(cards, crest)
    if found is None:
        raise ValueError(f"not a winning hand: {sort_cards(cards)} do not form two sets")
    split, yaku = found
    hand = sum(YAKU[y].points for y in yaku)
    extra = 0 if bonus is None else bonus_points(bonus, cards, crest)
    pay = payments(hand + extra, dealer, self_draw, players)
    return {
        "split": [list(split[0]), list(split[1])],
        "yaku": [{"id": y, "points": YAKU[y].points} for y in yaku],
        "top": YAKU[yaku[0]].kind == "top",
        "hand_points": hand,
        "bonus": None if bonus is None else {"id": bonus, "points": extra},
        "points": hand + extra,
        "dealer": dealer,
        "self_draw": self_draw,
        **pay,
    }
