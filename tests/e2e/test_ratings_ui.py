"""Ratings in headless Chromium (issue 33): the records page leads to the person's profile, which
shows their rating with "?" while provisional, a history chart drawn in SVG, their recent games
with replay links and rating changes, and their records; the leaderboard lists established
players best first, names as text, each a link to their profile; both fit a phone's width.

The rated games are written into the site's own database as a room writes them (results and
rating change in the finishing transaction), for the browser's guest and for others.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert

from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.http.pages import strings
from asobiba.server.store.db import Player, PlayerRating
from asobiba.server.store.ratings import rated_game
from asobiba.server.store.records import results_for
from asobiba.server.store.store import Finish, Store
from tests.e2e.conftest import serve
from tests.e2e.test_records_ui import guest_of, store_at

EN = strings("en")
JA = strings("ja")
MANCALA = get_game("mancala")
OPTIONS = MANCALA.resolve_options({})
NAME = "<b>Cleo</b>"
"""A name that would be markup if a page ever took it as HTML."""


@pytest.fixture(scope="module")
def rated_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("ratings-site")
    with serve(data) as base:
        yield base, data / "e2e.sqlite3"


def rated(store: Store, room_id: str, seats: list[dict[str, Any]], won: bool) -> None:
    """A finished Kalah game of seat 0 against seat 1, rated as a room rates it."""
    for spec in seats:
        if "player" in spec:
            store.ensure_player(spec["player"])
    store.create_room(room_id, "mancala", OPTIONS, rule_key(OPTIONS), 1, seats)
    outcome = {"scores": [30, 18] if won else [18, 30], "winners": [0 if won else 1]}
    results = results_for(room_id, MANCALA, OPTIONS, seats, outcome)
    rating = rated_game(MANCALA, OPTIONS, seats, outcome, rated=True)
    store.append_event(room_id, 0, 0, {"pit": 0}, 0.0, finish=Finish(outcome, results, rating))


def established(store: Store, n: int, name: str, rating: float) -> str:
    """Someone else on the Kalah board: an established rating, played two days ago."""
    at = datetime.now(UTC) - timedelta(days=2)
    with store.engine.begin() as connection:
        connection.execute(
            insert(Player).values(id=f"other-{n}", public_id=f"other{n}", created_at=at, name=name)
        )
        connection.execute(
            insert(PlayerRating).values(
                player_id=f"other-{n}",
                key="mancala/kalah",
                rating=rating,
                rd=70.0,
                volatility=0.06,
                games=50,
                updated_at=at,
            )
        )
    return f"other{n}"


def test_a_profile_and_the_leaderboard(new_page: Any, rated_site: tuple[str, Path]) -> None:
    base, database = rated_site
    page = new_page(lang="en", site_url=base)
    page.goto("/")
    store = store_at(database)
    me = guest_of(page, store)
    page.evaluate(
        "async () => fetch('/api/me', {method: 'PUT', headers: {'Content-Type': "
        "'application/json'}, body: JSON.stringify({name: 'Aki'})})"
    )
    levels = ["beginner", "casual", "strong", "expert"]
    for n in range(23):  # enough games against the levels for the rating to settle
        level = levels[n % 4]
        rated(store, f"bots{n}", [{"player": me}, {"bot": level}], won=level != "expert")
    rated(store, "people", [{"player": me, "name": "Aki"}, {"player": "ben", "name": "Ben"}], True)
    cleo = established(store, 1, NAME, 1950.0)
    established(store, 2, "Dan", 1400.0)
    store.engine.dispose()

    # The records page links to the person's own profile.
    page.goto("/records/mancala")
    link = page.locator("#profile-link")
    link.wait_for(state="visible")
    assert link.inner_text() == EN["records.profile"]
    link.click()
    page.wait_for_selector(".rating-card[data-key='mancala/kalah'] svg.rating-chart-svg")
    assert page.locator("#player-name").inner_text() == "Aki"
    card = page.locator(".rating-card[data-key='mancala/kalah']")
    value = card.locator(".rating-value")
    assert not value.inner_text().endswith("?"), "24 games: no longer provisional"
    assert value.get_attribute("data-provisional") == "false"
    assert "24 games" in card.locator(".rating-detail").inner_text()
    # One point per game and the start; the first games' points are hollow (provisional).
    assert card.locator("circle.rating-chart-dot").count() == 24
    assert card.locator("circle.rating-chart-dot--provisional").count() >= 1
    label = card.locator("svg").get_attribute("aria-label")
    assert label is not None and "over 24 games" in label
    games = page.locator("table.player-games tbody tr")
    assert games.count() == 20, "the newest 20"
    newest = games.first
    assert newest.locator("a.btn").get_attribute("href") == "/replay/people"
    assert "Ben" in newest.inner_text()
    assert newest.locator(".rating-change--up").count() == 1
    records = page.locator("table.player-records tbody tr")
    assert records.count() == 1 and "Mancala" in records.first.inner_text()
    assert page.locator("#player-lead").inner_text().startswith(EN["player.you"])
    assert_fits(page)

    # The leaderboard: Cleo, then me, then Dan; names are text; each links to a profile.
    card.locator(".rating-links a").click()
    page.wait_for_selector("table.board-table")
    assert page.url.endswith("/leaderboard/mancala/kalah")
    rows = page.locator("table.board-table tbody tr")
    assert rows.count() == 3 and rows.first.get_attribute("data-id") == cleo
    names = page.locator("table.board-table .board-player a").all_inner_texts()
    assert names[0] == NAME and names[-1] == "Dan" and "Aki" in names
    assert page.locator("table.board-table b").count() == 0, "names never become markup"
    assert page.locator(".board-families a[aria-current='page']").inner_text() == "Kalah"
    assert_fits(page)
    page.locator("table.board-table .board-player a", has_text="Dan").click()
    page.wait_for_selector("#player .player-part")
    assert page.locator("#player-name").inner_text() == "Dan"
    assert page.locator(".rating-value").inner_text() == "1400"

    # On a phone, in Japanese: the profile and the board in one column, nothing wider.
    phone = new_page(lang="ja", width=375, height=812, site_url=base)
    phone.goto(f"/players/{cleo}")
    phone.wait_for_selector(".rating-card")
    assert phone.locator("#player-name").inner_text() == NAME
    assert phone.locator("h2#player-ratings").inner_text() == JA["player.ratings"]
    assert_fits(phone)
    phone.goto("/leaderboard/mancala/basic")
    phone.wait_for_selector("#leaderboard .empty-state")
    assert phone.locator("#leaderboard").inner_text() == JA["leaderboard.empty"]
    assert_fits(phone)


def assert_fits(page: Any) -> None:
    """Nothing on the page is wider than the window."""
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"the page is {overflow}px wider than the window"
