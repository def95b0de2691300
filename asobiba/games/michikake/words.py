"""MICHIKAKE's cards, seats and wins in words, for the course (lessons.py): what the engine did
between two of the learner's moves, and a win broken down as the rulebook's scoring steps go.

>>> card_text("W7")["en"], card_text("star")["ja"]
('Water 7', '星')
>>> win_text({"seat": 0, "from": 1, "yaku": [{"id": "triplets", "points": 80}],
...           "bonus": {"id": "new_moon", "points": 0}, "points": 80, "dealer": False,
...           "self_draw": False, "total": 80, "each": 80, "payers": 1, "gain": 80})["en"]
'You won on CPU 2’s discard: Triplets 80 = 80. CPU 2 pays all 80.'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from asobiba.games.michikake.data import BONUS_CARDS, YAKU

Texts = dict[str, str]

SUIT_NAMES: dict[str, Texts] = {
    "C": {"ja": "三日月", "en": "Crescent"},
    "W": {"ja": "水位", "en": "Water"},
    "R": {"ja": "左から右", "en": "Sweep"},
    "H": {"ja": "六角", "en": "Hexagon"},
}
"""The suits as the table names them (web/i18n ``michikake.suit.*``)."""
SPECIAL_NAMES: dict[str, Texts] = {
    "star": {"ja": "星", "en": "Star"},
    "ring": {"ja": "環", "en": "Ring"},
}


def sp(lang: str) -> str:
    """What goes between two sentences: nothing in Japanese, a space in English."""
    return "" if lang == "ja" else " "


def join(*parts: Texts) -> Texts:
    """Sentences one after the other, in each language (empty ones left out)."""
    return {
        lang: sp(lang).join(part[lang] for part in parts if part.get(lang)) for lang in ("ja", "en")
    }


def card_text(card: str) -> Texts:
    """A card as the table names it: 「水位7」, "Water 7", 「星」, "Star"."""
    if card in SPECIAL_NAMES:
        return dict(SPECIAL_NAMES[card])
    suit = SUIT_NAMES[card[0]]
    return {"ja": f"{suit['ja']}{card[1:]}", "en": f"{suit['en']} {card[1:]}"}


def cards_text(cards: Iterable[str]) -> Texts:
    """Cards in a row: 「水位4・水位5・水位6」, "Water 4, Water 5, Water 6"."""
    named = [card_text(card) for card in cards]
    return {"ja": "・".join(n["ja"] for n in named), "en": ", ".join(n["en"] for n in named)}


def seat_text(seat: int, learner: int | None) -> Texts:
    """A seat as the table names it: "you" for the learner, else "CPU n" (its number from 1)."""
    if seat == learner:
        return {"ja": "あなた", "en": "you"}
    return {"ja": f"CPU {seat + 1}", "en": f"CPU {seat + 1}"}


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _whose(seat: int, learner: int | None) -> Texts:
    """「CPU 2の」 / "CPU 2’s", 「あなたの」 / "your"."""
    if seat == learner:
        return {"ja": "あなたの", "en": "your"}
    name = seat_text(seat, learner)
    return {"ja": f"{name['ja']}の", "en": f"{name['en']}’s"}


def win_text(win: Mapping[str, Any], learner: int | None = 0) -> Texts:
    """A win (a ``win`` event) broken down: who won how, the hands and the bonus card, the
    dealer's × 1.5, and who pays what."""
    who = seat_text(win["seat"], learner)
    if win["from"] is None:
        how = {
            "ja": f"{who['ja']}が自引きで上がり",
            "en": f"{_capital(who['en'])} won on {'your' if win['seat'] == learner else 'their'}"
            " own draw",
        }
    else:
        whose = _whose(win["from"], learner)
        how = {
            "ja": f"{who['ja']}が{whose['ja']}捨て札で上がり",
            "en": f"{_capital(who['en'])} won on {whose['en']} discard",
        }
    hands = [
        {
            "ja": f"{YAKU[y['id']].name_ja}{y['points']}",
            "en": f"{YAKU[y['id']].name_en} {y['points']}",
        }
        for y in win["yaku"]
    ]
    top = YAKU[win["yaku"][0]["id"]].kind == "top"
    sums = {
        "ja": "＋".join(h["ja"] for h in hands) + ("（天位はこの点だけ）" if top else ""),
        "en": " + ".join(h["en"] for h in hands) + (" (a top hand scores alone)" if top else ""),
    }
    bonus = win.get("bonus")
    if bonus and bonus["points"]:
        card = BONUS_CARDS[bonus["id"]]
        sums["ja"] += f"＋加点カード「{card.name_ja}」{bonus['points']}"
        sums["en"] += f" + bonus card {card.name_en} {bonus['points']}"
    sums["ja"] += f"＝{win['points']}"
    sums["en"] += f" = {win['points']}"
    if win["dealer"]:
        sums["ja"] += f"。親なので×1.5（切り上げ）で{win['total']}"
        sums["en"] += f"; the dealer’s × 1.5, rounded up, makes {win['total']}"
    if win["from"] is None:
        pay = {
            "ja": f"{win['total']}÷{win['payers']}を切り上げて、ほかの{win['payers']}人が"
            f"{win['each']}ずつ払い、{who['ja']}は+{win['gain']}。",
            "en": f"{win['total']} ÷ {win['payers']}, rounded up: the other {win['payers']} pay "
            f"{win['each']} each, +{win['gain']} in all.",
        }
    else:
        payer = seat_text(win["from"], learner)
        pay = {
            "ja": f"{payer['ja']}が{win['total']}を全額払います。",
            "en": f"{_capital(payer['en'])} {'pay' if win['from'] == learner else 'pays'} all "
            f"{win['total']}.",
        }
    return join({"ja": f"{how['ja']}：{sums['ja']}。", "en": f"{how['en']}: {sums['en']}."}, pay)


def event_text(event: Mapping[str, Any], learner: int | None = 0) -> Texts | None:
    """One public event (``observe``'s ``last`` shape) in a sentence; None for one not told
    (another seat's draw: the table shows it)."""
    kind = event["type"]
    if kind == "discard":
        who = seat_text(event["seat"], learner)
        card = card_text(event["card"])
        return {
            "ja": f"{who['ja']}が{card['ja']}を捨てました。",
            "en": f"{_capital(who['en'])} discarded {card['en']}.",
        }
    if kind == "draw" and event.get("card"):
        card = card_text(event["card"])
        return {"ja": f"あなたは{card['ja']}を引きました。", "en": f"You drew {card['en']}."}
    if kind == "steal":
        who = seat_text(event["seat"], learner)
        whose = _whose(event["from"], learner)
        card = card_text(event["card"])
        return {
            "ja": f"{who['ja']}が{whose['ja']}{card['ja']}を奪取しました（−{event['cost']}）。",
            "en": f"{_capital(who['en'])} stole {whose['en']} {card['en']} (−{event['cost']}).",
        }
    if kind == "win":
        return win_text(event, learner)
    if kind == "exhausted":
        return {"ja": "山が尽きました。点は動きません。", "en": "The pile ran out: no points move."}
    if kind == "end":
        return standing_text(event["points"], learner)
    return None


def story(events: Sequence[Mapping[str, Any]], learner: int | None = 0) -> Texts:
    """What the table did, event by event (the learner's own discards left out: they made
    them)."""
    told = [
        text
        for event in events
        if not (event["type"] == "discard" and event["seat"] == learner)
        for text in [event_text(event, learner)]
        if text is not None
    ]
    return join(*told) if told else {"ja": "", "en": ""}


def standing_text(points: Sequence[int], learner: int | None = 0) -> Texts:
    """The session's end: everyone's points and the places (ties share a place)."""
    listed = [
        {"ja": f"{seat_text(s, learner)['ja']} {n}点", "en": f"{seat_text(s, learner)['en']} {n}"}
        for s, n in enumerate(points)
    ]
    place = 1 + sum(other > points[learner] for other in points) if learner is not None else 0
    shared = learner is not None and sum(n == points[learner] for n in points) > 1
    said = {
        "ja": "セッション終了。" + "、".join(x["ja"] for x in listed) + "。",
        "en": "The session is over: " + ", ".join(x["en"] for x in listed) + ".",
    }
    if learner is None:
        return said
    ordinal = {1: "first", 2: "second", 3: "third", 4: "fourth"}[place]
    return join(
        said,
        {
            "ja": f"あなたは{'同点の' if shared else ''}{place}位です。",
            "en": f"You finish {'level ' if shared else ''}{ordinal}.",
        },
    )
