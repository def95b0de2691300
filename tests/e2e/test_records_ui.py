"""The records page in headless Chromium for the card games: each game's score column says what
it counts, the Rules cell names the rule set or, where a game offers no options, the number of
players, and averages show decimals only where they mean something.

The finished games are written into the site's own database (as a room writes them at its end)
for the guest of the browser, so the page reads them through the real API.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.http.pages import strings
from asobiba.server.store.db import make_engine, session_factory
from asobiba.server.store.records import results_for
from asobiba.server.store.store import Finish, Store
from tests.e2e.conftest import serve

OUTCOMES: dict[str, tuple[int, dict[str, Any]]] = {
    # game: (players, the engine's outcome of a game the guest at seat 0 won)
    "mokochaka": (
        3,
        {
            "scores": [20, 15, 12],
            "winners": [0],
            "cards": [20, 15, 12],
            "gabu": [0, 0, 0],
            "fastest_call": [0.5, None, None],
            "emptied": [],
        },
    ),
    "momojan": (
        2,
        {
            "scores": [103, -23],
            "winners": [0],
            "end": "rounds",
            "rounds": 5,
            "margin": 126,
            "best_win": [14, None],
            "yaku": [["riichi"], []],
        },
    ),
    "michikake": (
        3,
        {
            "scores": [1200, 900, 900],
            "winners": [0],
            "ranks": [1, 2, 2],
            "end": "dealers",
            "deals": 3,
            "best": [60, None, None],
        },
    ),
}


@pytest.fixture(scope="module")
def records_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A site of its own, and its database file (to write the guest's finished games in)."""
    data = tmp_path_factory.mktemp("records-site")
    with serve(data) as base:
        yield base, data / "e2e.sqlite3"


def store_at(database: Path) -> Store:
    return Store(session_factory(make_engine(f"sqlite:///{database}")))


def guest_of(page: Any, store: Store) -> str:
    """The browser's guest id: the player of a game it starts."""
    room: str = page.evaluate(
        """async () => (await (await fetch('/api/rooms', {method: 'POST',
             headers: {'Content-Type': 'application/json'},
             body: JSON.stringify({game: 'mancala', level: 'beginner', order: 'first'})})).json()
           ).room_id"""
    )
    brief = store.room_brief(room)
    assert brief is not None
    player: str = brief.seats[0]["player"]
    return player


def finish_games(store: Store, player: str) -> None:
    """One finished game of each card game, the guest at seat 0 against beginners."""
    for name, (players, outcome) in OUTCOMES.items():
        game = get_game(name)
        options = game.resolve_options({})
        seats = [{"player": player}] + [{"bot": "beginner"}] * (players - 1)
        room = f"{name}-{player[:8]}"
        store.create_room(room, name, options, rule_key(options), 1, seats)
        results = results_for(room, game, options, seats, outcome)
        store.append_event(room, 0, None, None, 0.0, finish=Finish(outcome, results))


def cell(page: Any, table: str, label: str) -> str:
    text: str = page.locator(f"{table} tbody td[data-label='{label}']").first.inner_text()
    return text.strip()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_card_games_records_say_what_they_count(
    new_page: Any, records_site: tuple[str, Path], lang: str
) -> None:
    base, database = records_site
    page = new_page(lang=lang, site_url=base)
    page.goto("/")
    store = store_at(database)
    finish_games(store, guest_of(page, store))
    words = strings(lang)
    page.goto("/records")
    page.wait_for_selector("#stored-games-michikake")
    for name, (players, _) in OUTCOMES.items():
        stored = f"#stored-games-{name}"
        heads = page.locator(f"{stored} thead th").all_inner_texts()
        assert words[f"records.col.score.{name}"] in heads, (name, heads)
        assert words["records.col.score.mancala"] not in heads, f"{name} counts no stones"
        rules = cell(page, stored, words["records.col.rules"])
        assert rules == words["records.players"].replace("{n}", str(players)), (name, rules)
        title = page.locator(f"#record-sets-{name} .record-set-title").first.inner_text()
        assert title.strip(), f"{name}: the rule set has a name"
    # Averages of whole numbers print whole; decimals stay where they mean something.
    cards = get_game("mokochaka").record_fields()[0].label[lang]
    assert cell(page, "#record-sets-mokochaka", cards) == "20"
    fastest = get_game("mokochaka").record_fields()[1].label[lang]
    assert cell(page, "#record-sets-mokochaka", fastest) == "0.5"
    rounds = get_game("momojan").record_fields()[1].label[lang]
    assert cell(page, "#record-sets-momojan", rounds) == "5"
    assert not re.search(r"\d\.0\b", page.locator("#records").inner_text())
    score = cell(page, "#stored-games-momojan", words["records.col.score.momojan"])
    assert score == "103 – \u221223", "a true minus sign"


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_momojans_records_fit_a_desktop_without_clipping_a_column(
    new_page: Any, records_site: tuple[str, Path], lang: str
) -> None:
    """At 1280 px every column of MOMOJAN's records (its own figures make it the widest table)
    is in sight: no table is wider than its box, so none hides its last column behind a
    scroll."""
    base, database = records_site
    page = new_page(lang=lang, site_url=base, width=1280)
    page.goto("/")
    store = store_at(database)
    finish_games(store, guest_of(page, store))
    page.goto("/records/momojan")
    page.wait_for_selector("#record-sets-momojan")
    for table in ("#record-sets-momojan", "#stored-games-momojan"):
        box = page.locator(table).evaluate(
            """table => {
                 const wrap = table.parentElement.getBoundingClientRect();
                 const last = table.querySelector('thead th:last-child').getBoundingClientRect();
                 return {wrap: wrap.right, last: last.right,
                         scroll: table.parentElement.scrollWidth,
                         width: table.parentElement.clientWidth};
               }"""
        )
        assert box["scroll"] <= box["width"], (table, box)
        assert box["last"] <= box["wrap"] + 0.5, (table, box)


def test_the_records_show_the_course_done_so_far(new_page: Any) -> None:
    """A lesson done on the course counts on the game's records page, with a way back to it."""
    from asobiba.games.mancala.lessons import LESSON_BY_ID

    page = new_page(lang="en")
    page.goto("/records/mancala")
    course = page.locator(".records-course")
    course.wait_for()
    total = int(course.get_attribute("data-total") or 0)
    assert course.get_attribute("data-done") == "0" and total > 1
    moves = [{"pit": pit - 1} for pit in LESSON_BY_ID["capture"].answer]
    verdict = page.request.post("/api/learn/mancala/capture", data={"moves": moves}).json()
    assert verdict["status"] == "right"
    page.reload()
    course.wait_for()
    assert course.get_attribute("data-done") == "1"
    assert course.inner_text().startswith(
        strings("en")["records.lessons_done"].format(done=1, total=total)
    )
    assert course.locator("a").get_attribute("href") == "/learn/mancala"
