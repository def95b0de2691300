"""Mokochaka's calls and counts in words, for the course and the call trainer: how a call word
reads in each language, and a one-line explanation of the count behind a right call.

>>> word_text("pakamoko")["ja"]
'パカモコ'
>>> count_text([("moko", 2), ("paka", 3), ("gabu", 2)])["en"]
'On top: 2 Moko, 3 Paka, 2 Gabu. Each Gabu eats a Moko: the Moko are gone. Right: “Paka”.'
"""

from __future__ import annotations

from collections.abc import Sequence

from asobiba.games.mokochaka.cards import ANIMALS, KINDS, SPECIALS, Card, animal_counts, judge

Texts = dict[str, str]

_KANA = {"moko": "モコ", "paka": "パカ", "pome": "ポメ", "gabu": "ガブ", "chaka": "チャカ"}
_SYLLABLES = ("moko", "paka", "pome", "gabu", "chaka")
REASONS: dict[str, Texts] = {
    "wrong_call": {"ja": "コールがまちがい", "en": "a wrong call"},
    "too_slow": {"ja": "3秒以内にコールしなかった", "en": "no call within 3 seconds"},
    "false_grab": {
        "ja": "特殊コールがないのにトークンを取った",
        "en": "a grab when no special call was on",
    },
    "wrong_special": {
        "ja": "特殊コールの言葉がちがった",
        "en": "a grab with the wrong special word",
    },
}
"""Why a penalty was given, as the engine's ``penalty`` events name it."""


def sp(lang: str) -> str:
    """What goes between two sentences: nothing in Japanese, a space in English."""
    return "" if lang == "ja" else " "


def join(*parts: Texts) -> Texts:
    """Sentences one after the other, in each language."""
    return {
        lang: sp(lang).join(part[lang] for part in parts if part[lang]) for lang in ("ja", "en")
    }


def word_text(word: str) -> Texts:
    """A call word as a page shows it: katakana in Japanese, capitalised romaji in English."""
    parts: list[str] = []
    rest = word
    while rest:
        syllable = next((s for s in _SYLLABLES if rest.startswith(s)), None)
        if syllable is None:
            raise ValueError(f"not a call word: {word!r}")
        parts.append(_KANA[syllable])
        rest = rest[len(syllable) :]
    return {"ja": "".join(parts), "en": word[:1].upper() + word[1:]}


def quoted(word: str) -> Texts:
    text = word_text(word)
    return {"ja": f"「{text['ja']}」", "en": f"“{text['en']}”"}


def either(words: Sequence[str]) -> Texts:
    """Words as alternatives: 「モコチャカ」か「チャカモコ」 / “Mokochaka” or “Chakamoko”."""
    said = [quoted(word) for word in sorted(words)]
    return {
        "ja": "か".join(text["ja"] for text in said),
        "en": " or ".join(text["en"] for text in said),
    }


def animal_text(animal: str, count: int) -> Texts:
    name = word_text(animal)
    return {"ja": f"{name['ja']}{count}匹", "en": f"{count} {name['en']}"}


def seat_text(seat: int, learner: int | None) -> Texts:
    """A seat as the table names it: "you", or "CPU n" (n the seat's number from 1)."""
    if seat == learner:
        return {"ja": "あなた", "en": "you"}
    return {"ja": f"CPU {seat + 1}", "en": f"CPU {seat + 1}"}


def count_text(top: Sequence[tuple[str, int]]) -> Texts:
    """The count behind the right call for the cards showing ``top``: what is on top, what Gabu
    eats, and why the right call is what it is."""
    cards = [Card(animal, count) for animal, count in top]
    totals = dict.fromkeys(ANIMALS, 0)
    for card in cards:
        totals[card.animal] += card.number
    seen = [animal_text(animal, totals[animal]) for animal in ANIMALS if totals[animal]]
    parts = [
        {
            "ja": "上に見えているのは" + "・".join(text["ja"] for text in seen) + "。",
            "en": "On top: " + ", ".join(text["en"] for text in seen) + ".",
        }
    ]
    present = animal_counts(cards)
    if totals["gabu"] and totals["moko"]:
        left = totals["moko"] - totals["gabu"]
        if left > 0:
            parts.append(
                {
                    "ja": f"ガブがモコを食べて、モコは{totals['moko']}−{totals['gabu']}={left}匹。",
                    "en": f"Each Gabu eats a Moko: {totals['moko']} − {totals['gabu']} = "
                    f"{left} Moko.",
                }
            )
        else:
            parts.append(
                {
                    "ja": "ガブがモコを食べて、モコはいなくなります。",
                    "en": "Each Gabu eats a Moko: the Moko are gone.",
                }
            )
    parts.append(_why(cards, present))
    right = judge(cards)
    parts.append(
        {
            "ja": f"正解は{either(sorted(right))['ja']}。",
            "en": f"Right: {either(sorted(right))['en']}.",
        }
    )
    return join(*parts)


def _why(cards: list[Card], present: dict[str, int]) -> Texts:
    """Which rule decides the call (empty when the count alone says it)."""
    kinds = {kind: n for kind, n in present.items() if kind in KINDS}
    right = judge(cards)
    if "chakamokochaka" in right:
        return {
            "ja": f"3種類がそろって、どれも{next(iter(kinds.values()))}匹。",
            "en": f"All three kinds are there, {next(iter(kinds.values()))} of each.",
        }
    if "chakamoko" in right:
        both = "mokochaka" in right
        return {
            "ja": "モコ・パカ・ポメの3種類がそろっています"
            + ("。しかも2種類が同じ数。" if both else "。"),
            "en": "Moko, Paka and Pome are all there" + (", and two are equal." if both else "."),
        }
    if right & set(SPECIALS):
        pair = [word_text(kind) for kind in kinds]
        n = next(iter(kinds.values()))
        return {
            "ja": f"{pair[0]['ja']}と{pair[1]['ja']}が{n}匹ずつで同じ数。",
            "en": f"{pair[0]['en']} and {pair[1]['en']} are equal, {n} each.",
        }
    word = min(right)
    if len(cards) == 3 and len({card.animal for card in cards}) == 1:
        return {
            "ja": "3枚とも同じ動物なので、名前を2回。",
            "en": "All three cards are one animal: say it twice.",
        }
    if word == "gabu":
        return {
            "ja": "ガブしか残らないので「ガブ」。",
            "en": "Only Gabu is left, so Gabu is named.",
        }
    if word.startswith("pome") and len(word) > 4:
        return {"ja": "ポメはいつも最初。", "en": "Pome always comes first."}
    if len(word) > 4:
        return {"ja": "多い方から呼びます。", "en": "The larger number comes first."}
    return {"ja": "", "en": ""}
