"""MOMOJAN's cards, wins and moves in words, for the course (lessons.py): what a lesson's page
says about the table, in Japanese and English, from the engine's own results.

>>> card_text("L3")["ja"], card_text("M9")["en"], card_text("moon")["en"]
('レモン3', 'peach 9', 'moon')
>>> cards_text(["dog", "O1"])["en"]
'dog, orange 1'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from asobiba.games.momojan.cards import NAMES, Card, is_fruit, number
from asobiba.games.momojan.data import BONUSES, YAKU_BY_ID
from asobiba.games.momojan.scoring import Score
from asobiba.games.momojan.state import RoundResult

Texts = dict[str, str]

_BONUS_BY_ID = {bonus.id: bonus for bonus in BONUSES}
_CALLS: dict[str, Texts] = {
    "kai": {"ja": "開", "en": "Kai"},
    "pon": {"ja": "ポン", "en": "Pon"},
    "chi": {"ja": "チー", "en": "Chi"},
}


def sp(lang: str) -> str:
    """What goes between two sentences: nothing in Japanese, a space in English."""
    return "" if lang == "ja" else " "


def join(*parts: Texts) -> Texts:
    """Sentences one after the other, in each language."""
    return {
        lang: sp(lang).join(part[lang] for part in parts if part[lang]) for lang in ("ja", "en")
    }


def card_text(card: Card) -> Texts:
    """A card as a page names it: レモン3 / lemon 3, 犬 / dog."""
    if is_fruit(card):
        name = NAMES[card[0]]
        return {"ja": f"{name['ja']}{number(card)}", "en": f"{name['en']} {number(card)}"}
    return dict(NAMES[card])


def cards_text(cards: Sequence[Card]) -> Texts:
    """Several cards, in the order given."""
    named = [card_text(card) for card in cards]
    return {
        "ja": "・".join(text["ja"] for text in named),
        "en": ", ".join(text["en"] for text in named),
    }


def seat_text(seat: int, learner: int) -> Texts:
    """A seat as the lesson's table names it: "you", or "CPU n" (n the seat's number from 1)."""
    if seat == learner:
        return {"ja": "あなた", "en": "you"}
    return {"ja": f"CPU {seat + 1}", "en": f"CPU {seat + 1}"}


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def move_text(seat: int, action: dict[str, Any], learner: int) -> Texts:
    """One move as everyone at the table saw it (never a card drawn from a pile)."""
    who = seat_text(seat, learner)
    kind = action["type"]
    if kind == "draw":
        pile = action["pile"] + 1
        return {
            "ja": f"{who['ja']}が山{pile}から1枚引きました。",
            "en": f"{capital(who['en'])} drew from pile {pile}.",
        }
    if kind == "draw3":
        return {"ja": f"{who['ja']}が3枚引きました。", "en": f"{capital(who['en'])} drew three."}
    if kind == "discard":
        card = card_text(action["card"])
        if action.get("riichi"):
            return {
                "ja": f"{who['ja']}が{card['ja']}を横にして捨て、リーチ!",
                "en": f"{capital(who['en'])} laid {card['en']} sideways: riichi!",
            }
        return {
            "ja": f"{who['ja']}が{card['ja']}を捨てました。",
            "en": f"{capital(who['en'])} discarded {card['en']}.",
        }
    if kind in _CALLS:
        call = _CALLS[kind]
        cards = cards_text(action["cards"])
        return {
            "ja": f"{who['ja']}が{call['ja']}（{cards['ja']}）。",
            "en": f"{capital(who['en'])}: {call['en']} ({cards['en']}).",
        }
    if kind == "pass":
        return {
            "ja": f"{who['ja']}が流局を選びました。",
            "en": f"{capital(who['en'])} ended the round.",
        }
    word = {"tsumo": {"ja": "ツモ", "en": "Tsumo"}, "ron": {"ja": "ロン", "en": "Ron"}}[kind]
    return {"ja": f"{who['ja']}が{word['ja']}!", "en": f"{capital(who['en'])}: {word['en']}!"}


def _points(n: int) -> Texts:
    return {"ja": f"{n}点", "en": f"{n} point" + ("" if n == 1 else "s")}


def score_text(score: Score) -> Texts:
    """A win's score line by line: its yaku, dora, set bonus, the Ron bonus, then the total and
    whether it was doubled."""
    parts: list[Texts] = []
    for yaku_id, points in score.yaku:
        yaku = YAKU_BY_ID[yaku_id]
        parts.append({"ja": f"{yaku.ja} {points}点", "en": f"{yaku.en} {points}"})
    if score.dora:
        parts.append(
            {
                "ja": f"ドラ{score.dora}枚 {score.dora}点",
                "en": f"dora {score.dora} ({score.dora} card"
                + ("" if score.dora == 1 else "s")
                + ")",
            }
        )
    if score.bonus:
        bonus = _BONUS_BY_ID[score.bonus[0]]
        parts.append(
            {
                "ja": f"{bonus.ja}（{score.sets}セット） {score.bonus[1]}点",
                "en": f"{bonus.ja} {bonus.en} ({score.sets} sets) {score.bonus[1]}",
            }
        )
    if score.ron:
        parts.append({"ja": f"ロン {score.ron}点", "en": f"Ron bonus {score.ron}"})
    listed = {"ja": "＋".join(p["ja"] for p in parts), "en": " + ".join(p["en"] for p in parts)}
    total = _points(score.subtotal)
    if score.doubled:
        end = {
            "ja": f"＝{total['ja']}。7点以上なので倍の{score.total}点。",
            "en": f" = {score.subtotal}: 7 or more, so doubled to {score.total}.",
        }
    else:
        end = {
            "ja": f"＝{total['ja']}（7点未満なので倍にはなりません）。",
            "en": f" = {total['en']} (under 7, not doubled).",
        }
    return {lang: listed[lang] + end[lang] for lang in ("ja", "en")}


def result_text(result: RoundResult, learner: int) -> Texts:
    """How a round ended and what it paid, from the learner's side."""
    if result.end == "exhausted":
        return wall_text(result, learner)
    assert result.winner is not None and result.score is not None
    who = seat_text(result.winner, learner)
    how = {"tsumo": {"ja": "ツモ", "en": "Tsumo"}, "ron": {"ja": "ロン", "en": "Ron"}}[result.end]
    said = {
        "ja": f"{who['ja']}の{how['ja']}。{score_text(result.score)['ja']}",
        "en": f"{capital(who['en'])} won by {how['en']}: {score_text(result.score)['en']}",
    }
    if result.middle:
        said = join(
            said,
            {
                "ja": f"場の{result.middle}点も{who['ja']}のものです。",
                "en": f"{capital(who['en'])} also "
                + ("take" if result.winner == learner else "takes")
                + f" the middle: {_points(result.middle)['en']}.",
            },
        )
    return said


def wall_text(result: RoundResult, learner: int) -> Texts:
    """A dry round's settlement: who was ready, the open-set points, who took what."""
    assert result.tenpai is not None and result.open_points is not None
    seats = []
    for seat in (learner, 1 - learner):
        who = seat_text(seat, learner)
        ready = result.tenpai[seat]
        points = result.open_points[seat]
        verb = "were" if seat == learner else "was"
        seats.append(
            {
                "ja": f"{who['ja']}は"
                + (f"テンパイで公開点{points}点" if ready else "ノーテンで0点"),
                "en": f"{capital(who['en'])} {verb} "
                + (f"ready: open-set points {points}" if ready else "not ready: 0"),
            }
        )
    said = {
        "ja": "、".join(s["ja"] for s in seats) + "。",
        "en": "; ".join(s["en"] for s in seats) + ".",
    }
    if result.winner is None:
        return join(
            said,
            {
                "ja": "差がないので、だれも点をもらわず、場の点棒はそのまま残ります。",
                "en": "No difference: nobody takes anything and the middle stays.",
            },
        )
    who = seat_text(result.winner, learner)
    diff = abs(result.open_points[0] - result.open_points[1])
    took = {
        "ja": f"差{diff}点の半分（切り上げ）で、{who['ja']}が{result.paid}点もらいます。",
        "en": f"Half the difference of {diff}, rounded up: {who['en']} "
        + ("take" if result.winner == learner else "takes")
        + f" {_points(result.paid)['en']}.",
    }
    parts = [said, took]
    if result.middle:
        parts.append(
            {
                "ja": f"場の{result.middle}点もいっしょにもらいます。",
                "en": f"The middle goes with it: {_points(result.middle)['en']}.",
            }
        )
    return join(*parts)


def final_text(points: Sequence[int], winners: Sequence[int], learner: int) -> Texts:
    """The game's end: both players' points and who won."""
    mine, theirs = points[learner], points[1 - learner]
    other = seat_text(1 - learner, learner)
    won = learner in winners
    return {
        "ja": f"ゲーム終了。あなた{mine}点、{other['ja']} {theirs}点で、"
        + ("あなたの勝ちです。" if won else f"{other['ja']}の勝ちです。"),
        "en": f"Game over: you {mine}, {other['en']} {theirs}. "
        + ("You win." if won else f"{other['en']} wins."),
    }
