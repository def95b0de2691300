"""A person idle at a table with a turn clock, through the real UI (docs/ARCHITECTURE.md,
"Presence, stand-ins and turn clocks"): two guests at a Mancala table with 5 s a move and no
reserve; Aki never moves, so his time runs out twice in a row; Bea's page then shows him idle
with the stand-in playing, Aki's page offers "Take my seat back", and pressing it hands the seat
back on both pages.

The table is set through the API (the set-up form offers no clock this short); everything else
is the pages. Nothing waits on a fixed sleep: each step waits for what it checks.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import serve
from tests.e2e.test_tables_ui import join

LEGAL = "button.mb-hit--pit[data-legal]"
AKI = "#players .player-chip[data-seat='0']"
BEA = "#players .player-chip[data-seat='1']"
CLOCK = {"move": 5, "reserve": 0}


@pytest.fixture(scope="module")
def idle_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("idle"), {"ASOBIBA_BOT_PACE": "0"}) as base:
        yield base


def clocked_table(page: Any, name: str, clock: dict[str, int] = CLOCK) -> str:
    """Aki's Mancala table (his seat and an open one) with a turn clock (default the short
    one): its address."""
    page.goto("/games/mancala?speed=instant")
    script = """async ([name, clock]) => {
        const json = { "Content-Type": "application/json" };
        await fetch("/api/me", { method: "PUT", headers: json, body: JSON.stringify({ name }) });
        const body = { game: "mancala", options: {}, seats: [{ kind: "me" }, { kind: "open" }],
                       clock, standin: "beginner" };
        const answer = await fetch("/api/rooms", { method: "POST", headers: json,
                                                   body: JSON.stringify(body) });
        return (await answer.json()).room_id;
    }"""
    room = page.evaluate(script, [name, clock])
    url = f"{page.url.split('/games/')[0]}/games/mancala/{room}"
    page.goto(url + "?speed=instant")
    page.wait_for_selector("#waiting-room:not([hidden])")
    return url


def test_the_others_see_an_idle_person_and_the_person_takes_the_seat_back(
    new_page: Any, idle_site: str
) -> None:
    aki = new_page(lang="en", site_url=idle_site)
    url = clocked_table(aki, "Aki")
    bea = new_page(lang="ja", site_url=idle_site)
    join(bea, url, "Bea")
    for page in (aki, bea):
        page.wait_for_selector("#play:not([data-table]) .mancala-board")
        page.wait_for_selector("#players:not([hidden])")
    # Aki never moves; Bea moves whenever it is her turn, until her page shows him idle.
    one_timeout = False
    deadline = time.monotonic() + 90
    while not bea.locator(f"{AKI}[data-away='idle']").count():
        assert time.monotonic() < deadline, "Aki was never shown idle"
        one_timeout = one_timeout or bool(bea.locator(f"{AKI} .player-chip-timeouts").count())
        if bea.locator(LEGAL).count():
            try:
                bea.click(LEGAL, timeout=2_000)
            except PlaywrightTimeout:
                continue  # the board moved on meanwhile
        time.sleep(0.1)
    assert one_timeout, "Bea saw his first timeout before he was marked idle"
    assert "応答なし" in bea.locator(AKI).inner_text()
    assert bea.locator(f"{AKI}[data-standin='beginner']").count()
    bea.wait_for_selector(".toast:has-text('Akiさんの応答がありません')")
    # Aki's own page says so and offers the seat back; pressing it hands the seat back.
    aki.wait_for_selector(".toast:has-text('Your time ran out twice in a row')")
    back = aki.locator("#players .player-chip--you .player-chip-back")
    assert back.inner_text() == "Take my seat back"
    back.click()
    bea.wait_for_selector(f"{AKI}:not([data-away])")
    bea.wait_for_selector(".toast:has-text('Akiさんがもどりました')")
    aki.wait_for_selector("#players .player-chip--you:not([data-away])")
    assert not aki.locator("#players .player-chip-back").count()


CHIP_CLOCK = """(chip) => [chip.querySelector('.player-chip-left').textContent,
  chip.querySelector('.player-chip-reserve').lastChild.textContent.replace('+', '')]"""


def test_a_turn_clock_shows_the_moves_time_and_the_reserve_once_each(
    new_page: Any, idle_site: str
) -> None:
    """Issue 31, point 8: 30 s a move and 2 minutes of reserve read "0:30 +2:00" at the start
    (the countdown is the move's own time, the reserve apart), never "2:29 +2:00"."""
    aki = new_page(lang="en", site_url=idle_site)
    url = clocked_table(aki, "Aki", {"move": 30, "reserve": 120})
    bea = new_page(lang="ja", site_url=idle_site)
    join(bea, url, "Bea")
    for page in (aki, bea):
        page.wait_for_selector(f"{AKI} .player-chip-clock[data-running='true']")
        left, reserve = page.eval_on_selector(AKI, CHIP_CLOCK)
        assert left in {f"0:{s}" for s in range(20, 31)}, left
        assert reserve == "2:00", reserve


def test_an_absent_person_shows_away_with_the_countdown_to_the_stand_in(
    new_page: Any, idle_site: str
) -> None:
    """Issue 31, point 9: from the moment Bea's page closes, Aki's page says she is away and
    counts down to the stand-in (Mancala's 30 s grace), before the stand-in plays; her page back,
    the mark goes."""
    aki = new_page(lang="en", site_url=idle_site)
    url = clocked_table(aki, "Aki", {"move": 600, "reserve": 0})
    bea = new_page(lang="ja", site_url=idle_site)
    join(bea, url, "Bea")
    aki.wait_for_selector(f"{BEA}[data-here='true']")
    bea.close()
    away = aki.locator(f"{BEA} .player-chip-away")
    away.wait_for()
    first = away.inner_text()
    assert re.fullmatch(r"away — stand-in in 0:[0-3]\d", first), first
    aki.wait_for_function(
        "([sel, first]) => document.querySelector(sel).textContent !== first",
        arg=[f"{BEA} .player-chip-away", first],
    )  # it counts down
    assert not aki.locator(f"{BEA}[data-standin]").count(), "the stand-in does not play yet"
    back = bea.context.new_page()
    back.goto(url + "?speed=instant")
    aki.wait_for_selector(f"{BEA}[data-here='true']")
    assert not aki.locator(f"{BEA} .player-chip-away").count()
