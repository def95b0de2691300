"""Every turn-based game's bot levels have a designed pace (data.toml ``[[pace]]``): the room
shows a bot's move after a delay drawn from it, never when the bot's computation finishes, so
its timing cannot tell its cards. The floor lies above the level's slowest decision: these tests
time nothing, they hold the floor against the figure each data.toml records from its benchmark
(``slowest``) and against the level's own clock where it has one."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from types import ModuleType

import pytest

from asobiba.core.bots import Pace
from asobiba.core.game import pace_of
from asobiba.games import get_game
from asobiba.games.mancala import data as mancala_data
from asobiba.games.michikake import data as michikake_data
from asobiba.games.mokochaka.bots import MIN_REACTION
from asobiba.games.momojan import data as momojan_data

DATA: dict[str, ModuleType] = {
    "mancala": mancala_data,
    "momojan": momojan_data,
    "michikake": michikake_data,
}
"""The turn-based games, whose bots the room paces."""

MARGIN = 2.0
"""A floor is at least this many times the level's slowest measured decision: room for a busy
server, where the same decision takes longer."""
CLOCK_MARGIN = 0.3
"""Seconds a floor lies above a level's clock (the clock stops the search however busy the
machine; this covers what the clock does not: the worker's round trip, its last step)."""

LEVELS = [(game, level) for game, module in DATA.items() for level in module.LEVEL_BY_ID]


def _clock(game: str, level: str) -> float:
    """The level's own time budget in seconds (0: none): Mancala's and MICHIKAKE's ``time``."""
    return float(getattr(DATA[game].LEVEL_BY_ID[level], "time", 0.0))


def _pace(game: str, level: str) -> Pace:
    pace = pace_of(get_game(game), level)
    assert pace is not None, f"{game} {level} has no pace"
    return pace


@pytest.mark.parametrize(("game", "level"), LEVELS)
def test_every_level_of_a_turn_game_has_a_designed_pace_with_its_reason(
    game: str, level: str
) -> None:
    designed = DATA[game].PACES[level]
    assert _pace(game, level) == designed.pace
    assert designed.source == "designed"
    assert set(designed.reason) == {"ja", "en"}
    for text in designed.reason.values():
        assert text.strip() and "\n" not in text


@pytest.mark.parametrize(("game", "level"), LEVELS)
def test_the_floor_lies_well_above_the_levels_slowest_decision(game: str, level: str) -> None:
    pace = _pace(game, level)
    slowest = DATA[game].PACES[level].slowest
    clock = _clock(game, level)
    assert slowest > 0, "data.toml records the measured slowest decision"
    assert pace.floor > slowest
    if clock:
        # The clock bounds the decision: Mancala's expert stops at 0.9 s, measured 0.911 s.
        assert pace.floor >= clock + CLOCK_MARGIN, (game, level, pace.floor, clock)
        assert slowest <= clock + 0.05, "a clocked level's slowest decision is its clock"
    else:
        assert pace.floor >= MARGIN * slowest, (game, level, pace.floor, slowest)


def test_mancalas_expert_never_moves_before_its_clock_has_run_out() -> None:
    assert _pace("mancala", "expert").floor > mancala_data.LEVEL_BY_ID["expert"].time == 0.9


@pytest.mark.parametrize(("game", "level"), LEVELS)
def test_a_pace_feels_human(game: str, level: str) -> None:
    """About a second: never a snap reply, never a long wait."""
    pace = _pace(game, level)
    assert pace.floor >= 0.5 and 0.8 <= pace.median <= 2.0 and pace.ceiling <= 3.0


@pytest.mark.parametrize("game", sorted(DATA))
def test_a_stronger_level_is_never_quicker(game: str) -> None:
    paces = [_pace(game, level) for level in get_game(game).levels]
    for weaker, stronger in pairwise(paces):
        assert weaker.floor <= stronger.floor and weaker.median <= stronger.median


@pytest.mark.parametrize("level", list(michikake_data.LEVEL_BY_ID))
def test_michikake_claim_answers_fit_well_inside_the_claim_window(level: str) -> None:
    """Every claim answer (pass, steal or win) is paced like a discard, so the longest pace
    must leave most of the 5-second window: at most half of it."""
    assert _pace("michikake", level).ceiling <= michikake_data.CLAIM_SECONDS / 2


@pytest.mark.parametrize("level", get_game("mokochaka").levels)
def test_mokochaka_has_no_pace_its_bots_time_themselves(level: str) -> None:
    """Its real-time bots return a human reaction time, never under MIN_REACTION (0.15 s); a
    decision takes at most a few milliseconds (4.4 ms measured over 2-6 players), far below."""
    assert pace_of(get_game("mokochaka"), level) is None
    assert MIN_REACTION == 0.15


# --- the rule page --------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(DATA))
def test_the_rule_pages_table_shows_every_levels_pace_in_both_languages(game: str) -> None:
    engine = get_game(game)
    rows = {row.name["en"]: row for row in engine.designed_values()}
    for level, names in engine.level_names().items():
        designed = DATA[game].PACES[level]
        row = rows[f"Time to move: {names['en']}"]
        assert row.name["ja"] == f"動くまでの時間：{names['ja']}"
        assert row.source == designed.source and row.reason == designed.reason
        for lang in ("ja", "en"):
            for seconds in (designed.pace.floor, designed.pace.median, designed.pace.ceiling):
                assert f"{seconds:.1f}" in row.value[lang], (game, level, lang, seconds)


@pytest.mark.parametrize("game", sorted(DATA))
def test_the_pace_rows_follow_the_level_rows(game: str) -> None:
    names = [row.name["en"] for row in get_game(game).designed_values()]
    strengths = [i for i, name in enumerate(names) if name.startswith("Strength: ")]
    paces = [i for i, name in enumerate(names) if name.startswith("Time to move: ")]
    assert len(paces) == len(strengths) == len(get_game(game).levels)
    assert paces[0] == strengths[-1] + 1


@pytest.mark.parametrize(
    ("game", "lang", "words"),
    [
        ("mancala", "ja", "毎回ちがう長さの、1秒ほどの間"),
        ("mancala", "en", "pauses for a random moment"),
        ("momojan", "ja", "コンピューターが出す速さ"),
        ("momojan", "en", "How fast the computer plays"),
        ("michikake", "ja", "コンピューターの速さ"),
        ("michikake", "en", "How fast the computer plays"),
    ],
)
def test_the_written_rule_page_says_the_computer_pauses(game: str, lang: str, words: str) -> None:
    page = Path(__file__).resolve().parents[2] / "asobiba" / "games" / game / f"rules.{lang}.md"
    assert words in page.read_text(encoding="utf-8")
