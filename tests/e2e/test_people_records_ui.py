"""Games with people on the records page and in the replay, in headless Chromium: the games
against the computer stay in their table and the games with people get a section of their own,
the game list names the other player and marks the game a stand-in played in, and the replay
names both seats, says which move a stand-in played and lists the table's chat. Names and chat
are set as text: a name that looks like markup shows as those very characters and adds no
element to the page.

The games are written into the site's own database for the browser's guest, as a room writes
them (``tests/server/test_people_records.py``'s ``played_game``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from asobiba.server.http.pages import strings
from tests.e2e.conftest import serve
from tests.e2e.test_records_ui import guest_of, store_at
from tests.server.test_people_records import played_game

EN = strings("en")
NAME = "<b>Ben</b>"
"""A name that would be markup if a page ever took it as HTML."""


@pytest.fixture(scope="module")
def people_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("people-records-site")
    with serve(data) as base:
        yield base, data / "e2e.sqlite3"


def test_games_with_people_are_apart_named_as_text_and_marked(
    new_page: Any, people_site: tuple[str, Path]
) -> None:
    base, database = people_site
    page = new_page(lang="en", site_url=base)
    page.goto("/")
    store = store_at(database)
    me = guest_of(page, store)
    store.ensure_player("ben")
    played_game(store, "bots", [{"player": me}, {"bot": "beginner"}], seed=1)
    seats = [{"player": me, "name": "Aki"}, {"player": "ben", "name": NAME}]
    chat = [(1, "ben", NAME, "<i>hi</i>", None), (0, me, "Aki", "hello", None)]
    played_game(store, "people", seats, seed=2, standin_seat=1, chat=chat)
    played_game(store, "mine", seats, seed=3, standin_seat=0)

    page.goto("/records/mancala")
    page.wait_for_selector("#stored-games-mancala")
    assert page.locator("#record-sets-mancala tbody tr:not(.record-set-head)").count() == 1
    people = page.locator("#record-people-mancala")
    assert EN["records.people.count"].replace("{n}", "2") in people.inner_text()
    assert people.locator("th[scope=row]").inner_text() == EN["records.people.only"]
    rows = page.locator("#stored-games-mancala tr.stored-game--people")
    assert rows.count() == 2
    # Newest first: the game a stand-in played for me is marked; the one it played for Ben is
    # not (I played all my moves in it).
    mine, row = rows.nth(0), rows.nth(1)
    assert mine.locator(".record-standin").inner_text() == EN["records.people.standin"]
    assert NAME in row.locator(".record-names").inner_text()
    assert row.locator(".record-standin").count() == 0, "the stand-in played for Ben, not me"
    assert rows.locator("b").count() == 0, "names never become markup"

    page.goto("/replay/people")
    page.wait_for_selector("#replay-chat:not([hidden])")
    names = page.locator("#replay-players .replay-player-name").all_inner_texts()
    assert names == ["Aki", NAME]
    assert page.locator("#replay-players .replay-standin-badge").count() == 1
    lines = page.locator("#replay-chat-list li")
    assert lines.count() == 2
    assert lines.first.locator(".replay-chat-name").inner_text() == NAME
    assert lines.first.locator(".replay-chat-text").inner_text() == "<i>hi</i>"
    shown = "#replay-meta, #replay-players, #replay-chat, #stage"
    assert page.locator(f":is({shown}) :is(b, i)").count() == 0, "no name or line is markup"
    # The first move the stand-in played says so under the move.
    replay = page.evaluate("async () => (await fetch('/api/rooms/people/replay')).json()")
    frame = replay["standins"][0]["frame"]
    page.locator("#scrub").fill(str(frame))
    standin = page.locator("#move-text .replay-standin")
    standin.wait_for()
    assert NAME in standin.inner_text()
    assert page.locator("#move-text b").count() == 0


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_games_with_people_alone_point_at_no_figures_above(
    new_page: Any, people_site: tuple[str, Path], lang: str
) -> None:
    """A person who has only played with people has no figures against the computer on the
    page: the note on the games with people speaks of none "above"."""
    base, database = people_site
    page = new_page(lang=lang, site_url=base)
    page.goto("/")
    store = store_at(database)
    me = guest_of(page, store)
    store.ensure_player("cai")
    seats = [{"player": me, "name": "Aki"}, {"player": "cai", "name": "Cai"}]
    played_game(store, f"alone-{lang}-{me[:8]}", seats, seed=4)

    page.goto("/records/mancala")
    page.wait_for_selector("#record-people-mancala")
    assert page.locator("#record-sets-mancala").count() == 0, "nothing against the computer"
    section = page.locator("section:has(#record-people-mancala)")
    note = section.locator("p.muted").first.inner_text()
    assert note == strings(lang)["records.people.note"]
    for above in ("above", "上の", "上に"):
        assert above not in note, note
