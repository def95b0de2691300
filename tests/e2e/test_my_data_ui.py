"""Your data (/me/data), in headless Chromium: Aki downloads the export, deletes their data
behind the site's confirming dialog (a first "Cancel" deletes nothing), and is a new guest;
Ben's replay of the game they played together, and Ben's records, show Aki's seat as a deleted
player, in Japanese and in English. The page and its dialog break no WCAG A/AA rule (axe).

The finished games are written into the site's own database for the browsers' guests, as a
room writes them (``tests/server/test_people_records.py``'s ``played_game``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from asobiba.server.http.pages import strings
from tests.e2e.conftest import serve
from tests.e2e.test_accessibility import violations
from tests.e2e.test_records_ui import guest_of, store_at
from tests.server.test_people_records import played_game

EN, JA = strings("en"), strings("ja")


@pytest.fixture(scope="module")
def data_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("my-data-site")
    with serve(data) as base:
        yield base, data / "e2e.sqlite3"


def test_download_delete_and_the_deleted_seat_on_a_friends_replay(
    new_page: Any, data_site: tuple[str, Path]
) -> None:
    base, database = data_site
    store = store_at(database)
    try:
        aki = new_page(lang="en", site_url=base)
        aki.goto("/")
        aki_id = guest_of(aki, store)  # and a game against the computer left unfinished
        named = aki.evaluate(
            """async () => (await fetch('/api/me', {method: 'PUT',
                 headers: {'Content-Type': 'application/json'},
                 body: JSON.stringify({name: 'Aki'})})).status"""
        )
        assert named == 200
        ben = new_page(lang="ja", site_url=base)
        ben.goto("/")
        ben_id = guest_of(ben, store)
        seats = [{"player": aki_id, "name": "Aki"}, {"player": ben_id, "name": "Ben"}]
        chat = [(0, aki_id, "Aki", "hello", None), (1, ben_id, "Ben", "hi", None)]
        played_game(store, "friends", seats, seed=5, chat=chat)
        played_game(store, "alone", [{"player": aki_id}, {"bot": "beginner"}], seed=6)

        aki.goto("/records/mancala")
        aki.get_by_role("link", name=EN["records.data"]).click()
        aki.wait_for_url("**/me/data")
        assert aki.locator("#data-name").inner_text() == "Aki"
        public = aki.locator("#data-public-id").inner_text()

        with aki.expect_download() as download:
            aki.locator("#data-export").click()
        assert download.value.suggested_filename == f"asobiba-{public}.json"
        text = Path(download.value.path()).read_text(encoding="utf-8")
        exported = json.loads(text)
        assert exported["player"] == exported["player"] | {"id": public, "name": "Aki"}
        rooms = {game["room_id"] for game in exported["games"]}
        assert {"friends", "alone"} <= rooms and len(rooms) == 3
        assert [line["text"] for line in exported["chat"]] == ["hello"]
        assert aki_id not in text and ben_id not in text

        assert violations(aki) == [], "WCAG A/AA"
        # "Cancel" in the dialog deletes nothing.
        aki.locator("#data-delete").click()
        dialog = aki.locator("dialog.dialog--confirm")
        dialog.wait_for()
        # Contrast is measured once the dialog has faded in (mid-fade its button is paler).
        aki.wait_for_function(
            "() => document.getAnimations().every((a) => a.playState !== 'running')"
        )
        assert violations(aki) == [], "WCAG A/AA, the dialog open"
        assert dialog.locator(".dialog-message").inner_text() == EN["data.delete.confirm"]
        dialog.get_by_role("button", name=EN["data.delete.no"]).click()
        assert dialog.count() == 0 and store.load_room("alone") is not None

        aki.locator("#data-delete").click()
        confirm = aki.locator("dialog.dialog--confirm [data-confirm]")
        assert confirm.inner_text() == EN["data.delete.yes"]
        confirm.click()
        aki.wait_for_url("**/me/data?deleted=1")
        assert aki.locator("#data-deleted").inner_text() == EN["data.deleted"]
        assert aki.locator("#data-public-id").inner_text() != public, "a new guest"
        assert EN["data.kept.no_name"].split("(")[0] in aki.locator("#data-name").inner_text()
        assert store.load_room("alone") is None

        ben.goto("/replay/friends")
        ben.wait_for_selector("#replay-players:not([hidden])")
        names = ben.locator("#replay-players .replay-player-name").all_inner_texts()
        assert names == [JA["seat.deleted"], "Ben"]
        assert ben.locator("#replay-players .replay-player--deleted").count() == 1
        assert ben.locator("#replay-chat-list li").all_inner_texts() == [
            ben.locator("#replay-chat-list li").first.inner_text()
        ]
        assert "Ben" in ben.locator("#replay-chat-list li").first.inner_text()
        ben.goto("/records/mancala")
        ben.wait_for_selector("#stored-games-mancala tr.stored-game--people")
        row = ben.locator("#stored-games-mancala tr.stored-game--people")
        assert JA["seat.deleted"] in row.locator(".record-names").inner_text()

        stranger = new_page(lang="en", site_url=base)
        stranger.goto("/replay/friends")
        stranger.wait_for_selector("#replay-players:not([hidden])")
        names = stranger.locator("#replay-players .replay-player-name").all_inner_texts()
        assert names == [EN["seat.deleted"], "Ben"]
    finally:
        store.close()
        store.engine.dispose()
