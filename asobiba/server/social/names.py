"""Guests' display names: what a person is called at a table, in chat and in replays.

A name is data, never markup: it is stored as typed (normalised) and every page sets it as text.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable

MAX_NAME = 16
"""Characters a name may have (after trimming): enough for a nickname, short on a phone."""
MAX_USERNAME = 24
"""Characters an account's username may have (``clean_username``)."""
MAX_FOLDED = 96
"""Characters a username's folded form may have (NFKC spells some characters out: one
ligature can become 18 letters), the width of ``accounts.folded``."""
MAX_MARKS = 3
"""Combining marks a name may stack on one character: enough for any script's accents and
vowel signs (Vietnamese stacks two), too few to pile marks over the lines around a name."""
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Characters that draw nothing though Unicode calls them letters or symbols (the Hangul
fillers, the blank Braille pattern): a name made of them would look empty."""


CPU_NAME = re.compile(r"cpu\s*\d+")
"""What a computer's seat is called (``cpu_name``), matched on the NFKC, casefolded name: no
person may take it ("ＣＰＵ２" and "cpu 2" included), so "CPU 2" is always a computer."""


class InvalidName(ValueError):
    """A name that cannot be shown: empty, too long, or holding control characters."""


def clean_name(raw: object, most: int = MAX_NAME) -> str:
    """The name as shown: NFC, trimmed, inner runs of spaces made one, at most ``most``
    characters. Raises ``InvalidName``.

    >>> clean_name("  Aki   Sato ")
    'Aki Sato'
    """
    if not isinstance(raw, str):
        raise InvalidName("a name is a string")
    text = unicodedata.normalize("NFC", raw)
    # Control and format characters (newlines, bidi overrides, zero-width joiners) could make a
    # name look like another's or break a line; a name never needs them.
    if any(unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"} for ch in text):
        raise InvalidName("a name may not hold control or invisible characters")
    name = " ".join(text.split())
    if not any(_visible(ch) for ch in name):
        raise InvalidName("a name needs at least one visible letter, digit or sign")
    if _most_marks_in_a_row(name) > MAX_MARKS:
        raise InvalidName(f"a name may stack at most {MAX_MARKS} marks on one character")
    if len(name) > most:
        raise InvalidName(f"a name has at most {most} characters")
    if CPU_NAME.fullmatch(unicodedata.normalize("NFKC", name).casefold()):
        raise InvalidName("names like 'CPU 2' are the computers' seats'")
    return name


def clean_username(raw: object) -> str:
    """An account's name as typed at sign-in and shown on its pages: a display name's rules
    (``clean_name``), up to ``MAX_USERNAME`` characters, with no space at all (one name to
    type, never "Aki Sato" against "AkiSato"), and a folded form (``fold_name``) no longer
    than ``MAX_FOLDED``. Raises ``InvalidName``.

    >>> clean_username(" Aki ")
    'Aki'
    """
    name = clean_name(raw, MAX_USERNAME)
    if " " in name:
        raise InvalidName("a username has no spaces")
    if len(fold_name(name)) > MAX_FOLDED:
        raise InvalidName("this username is too long once its characters are spelled out")
    return name


def cpu_name(seat: int) -> str:
    """A computer's seat's one name, the same for every viewer, page and language: "CPU" and
    the seat's number from 1 (the pages' ``seat.cpu``; levels are shown beside it, not in it).

    >>> cpu_name(1)
    'CPU 2'
    """
    return f"CPU {seat + 1}"


def same_name(a: str, b: str) -> bool:
    """Whether two names would look alike at a table: equal once NFKC-folded and casefolded
    ("Aki", "aki" and "Ａｋｉ" are one name)."""
    return fold_name(a) == fold_name(b)


def unique_name(name: str, taken: Iterable[str]) -> str:
    """``name``, or with the first free number from 2 ("Aki 2", "Aki 3", ...) when someone at
    the table already has it (``same_name``); cut to fit ``MAX_NAME`` with its number.

    >>> unique_name("Aki", ["Aki", "Ben"])
    'Aki 2'
    >>> unique_name("aki", ["Aki", "Aki 2"])
    'aki 3'
    """
    folded = {fold_name(other) for other in taken}
    if fold_name(name) not in folded:
        return name
    n = 2
    while True:
        suffix = f" {n}"
        candidate = name[: MAX_NAME - len(suffix)].rstrip() + suffix
        if fold_name(candidate) not in folded:
            return candidate
        n += 1


def fold_name(name: str) -> str:
    """What makes two names one: NFKC (full-width and compatibility forms as their plain
    letters), then case folded. Accounts' usernames are unique in this form.

    >>> fold_name("ＡＫＩ") == fold_name("aki")
    True
    """
    return unicodedata.normalize("NFKC", name).casefold()


def default_name(player_id: str) -> str:
    """What a guest who never chose a name is called: the same for them at every table, and
    says nothing of their id."""
    digits = int(hashlib.sha256(player_id.encode()).hexdigest(), 16) % 10000
    return f"Guest {digits:04d}"


def _visible(ch: str) -> bool:
    """Whether ``ch`` draws something of its own: a letter, digit, punctuation or symbol that
    is not blank-looking (spaces and combining marks draw nothing alone)."""
    return unicodedata.category(ch)[0] in "LNPS" and ch not in BLANK_LOOKING


def _most_marks_in_a_row(name: str) -> int:
    most = run = 0
    for ch in name:
        run = run + 1 if unicodedata.category(ch) in {"Mn", "Me"} else 0
        most = max(most, run)
    return most
