"""Golden playthroughs: each registered engine's fixed-seed games must match their text files."""

from __future__ import annotations

import pytest

from asobiba.games import engine_names
from tests.golden.regenerate import GOLDEN_DIR, PLAYTHROUGHS, Playthrough, golden_path, render

CASES = [
    (name, playthrough)
    for name, playthroughs in PLAYTHROUGHS.items()
    for playthrough in playthroughs
]


@pytest.mark.parametrize("game_name", engine_names())
def test_every_registered_game_has_golden_playthroughs(game_name: str) -> None:
    assert PLAYTHROUGHS.get(game_name), f"add playthroughs for {game_name!r} to regenerate.py"
    for playthrough in PLAYTHROUGHS[game_name]:
        path = golden_path(game_name, playthrough)
        assert path.is_file(), f"{path} is missing: run python -m tests.golden.regenerate"


def test_every_golden_file_belongs_to_a_playthrough() -> None:
    expected = {golden_path(name, playthrough) for name, playthrough in CASES}
    assert set(GOLDEN_DIR.glob("*/*.txt")) == expected


@pytest.mark.parametrize(
    ("game_name", "playthrough"), CASES, ids=[f"{name}/{p.name}" for name, p in CASES]
)
def test_golden_playthrough_matches_line_by_line(game_name: str, playthrough: Playthrough) -> None:
    path = golden_path(game_name, playthrough)
    expected = path.read_text(encoding="utf-8").splitlines()
    actual = render(game_name, playthrough)
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), start=1):
        assert got == want, f"{path}:{number} differs; if the change is intended, regenerate"
    assert len(actual) == len(expected), f"{path}: {len(expected)} lines, now {len(actual)}"
