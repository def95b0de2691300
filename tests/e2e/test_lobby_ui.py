"""The lobby (/tables) in headless Chromium: a public table set by one guest appears on another
guest's lobby without a reload, its Join link leads to the table, and when the game starts (the
last open seat taken) the table moves from the waiting list to the games being played on a
third guest's lobby, live. The code box leads to a table by its code, in any case, and says so
when no table has it. At a phone's width the lobby fits and its links are thumb-sized.

The lobby runs on a site of its own: another test's public tables would not be in its lists.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from asobiba.server.http.pages import strings
from tests.e2e.conftest import serve

EN = strings("en")
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def lobby_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The lobby's own site; a game pauses 1 s after its last person left (10 s by default),
    so a game nobody is at leaves the games being played soon."""
    pause = {"ASOBIBA_LIMIT_PAUSE_SECONDS": "1"}
    with serve(tmp_path_factory.mktemp("lobby-site"), pause) as base:
        yield base


def name_guest(page: Any, name: str) -> None:
    """Choose the guest's name (``PUT /api/me``) with the page's own cookie."""
    status = page.evaluate(
        """async (name) => (await fetch('/api/me', {method: 'PUT',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({name})})).status""",
        name,
    )
    assert status == 200


def set_table(
    page: Any, game: str = "mancala", seats: int = 2, public: bool = True
) -> dict[str, Any]:
    """A table of the page's guest and ``seats - 1`` seats open for people (``POST /api/rooms``
    from the page, so the guest's cookie makes it their table)."""
    answer: dict[str, Any] = page.evaluate(
        """async ([game, seats, open]) => {
            const response = await fetch('/api/rooms', {method: 'POST',
                headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({game, options: {}, public: open,
                    seats: [{kind: 'me'}, ...Array(seats - 1).fill({kind: 'open'})]})});
            return {status: response.status, body: await response.json()};
        }""",
        [game, seats, public],
    )
    assert answer["status"] == 201, answer
    room: dict[str, Any] = answer["body"]
    return room


def open_lobby(new_page: Any, site: str, **size: Any) -> Any:
    page = new_page(lang="en", site_url=site, **size)
    page.goto("/tables")
    page.wait_for_selector("#lobby-status[data-status=live]")
    return page


def row(page: Any, kind: str, room_id: str) -> Any:
    return page.locator(f'#{kind} li[data-room-id="{room_id}"]')


def test_a_table_appears_live_is_joined_and_moves_to_the_games_being_played(
    new_page: Any, lobby_site: str
) -> None:
    viewer = open_lobby(new_page, lobby_site)
    watcher = open_lobby(new_page, lobby_site)
    for page in (viewer, watcher):
        assert page.locator("#waiting-empty").is_visible()
        assert page.locator("#playing-empty").is_visible()
        page.evaluate("() => { window.stillTheSamePage = true; }")

    host = new_page(lang="en", site_url=lobby_site)
    host.goto("/")
    name_guest(host, "Hanako <b>")
    hidden = set_table(host, public=False)
    room = set_table(host)
    room_id = room["room_id"]

    # The viewer's lobby lists it without a reload: game, rules, free seats, the host's name
    # (as text: the name's "<b>" is shown, not made markup).
    waiting = row(viewer, "waiting", room_id)
    waiting.wait_for()
    assert viewer.evaluate("() => window.stillTheSamePage") is True
    assert viewer.locator("#waiting-empty").is_hidden()
    assert waiting.locator(".lobby-game").text_content() == EN["game.mancala.name"]
    assert "Kalah" in waiting.locator(".lobby-rules").text_content()
    assert waiting.locator(".lobby-seats").text_content() == "1 of 2 seats free"
    assert waiting.locator(".lobby-host").text_content() == "Host: Hanako <b>"
    assert waiting.locator("b").count() == 0
    assert viewer.locator("#waiting-count").text_content() == "1"
    assert row(viewer, "waiting", hidden["room_id"]).count() == 0, "a private table is not listed"
    link = waiting.get_by_role("link", name="Join Hanako <b>'s Mancala table")
    assert link.get_attribute("href") == f"/games/mancala/{room_id}"
    row(watcher, "waiting", room_id).wait_for()

    # Join: the link leads to the table, where the viewer takes the open seat.
    name_guest(viewer, "Taro")
    link.click()
    viewer.wait_for_url(f"**/games/mancala/{room_id}")
    if viewer.locator("#join").count():
        viewer.locator("#join").click()
    else:
        status = viewer.evaluate(
            """async (id) => (await fetch(`/api/rooms/${id}/join`, {method: 'POST',
                headers: {'Content-Type': 'application/json'}, body: '{}'})).status""",
            room_id,
        )
        assert status == 200

    # The last open seat taken starts the game: the watcher's lobby moves it, live.
    playing = row(watcher, "playing", room_id)
    playing.wait_for()
    row(watcher, "waiting", room_id).wait_for(state="detached")
    assert watcher.evaluate("() => window.stillTheSamePage") is True
    assert watcher.locator("#waiting-empty").is_visible()
    assert watcher.locator("#playing-count").text_content() == "1"
    assert playing.locator(".lobby-seats").text_content() == "2 players"
    assert playing.locator(".lobby-names").text_content() == "At the table: Hanako <b>, Taro"
    watch = playing.get_by_role("link", name="Watch Hanako <b>'s Mancala game")
    assert watch.get_attribute("href") == f"/games/mancala/{room_id}"


def test_a_game_both_friends_left_leaves_the_games_being_played_until_one_is_back(
    new_page: Any, lobby_site: str
) -> None:
    """Issue 31, point 10: two friends at a table both close their pages; a third guest's lobby
    sees the game leave the games being played, live, and come back when one of them
    returns."""
    watcher = open_lobby(new_page, lobby_site)
    aki = new_page(lang="en", site_url=lobby_site)
    aki.goto("/")
    name_guest(aki, "Aki")
    room = set_table(aki)
    room_id, url = room["room_id"], f"/games/mancala/{room['room_id']}"
    bea = new_page(lang="en", site_url=lobby_site)
    bea.goto("/")
    name_guest(bea, "Bea")
    status = bea.evaluate(
        """async (id) => (await fetch(`/api/rooms/${id}/join`, {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: '{}'})).status""",
        room_id,
    )
    assert status == 200
    for page in (aki, bea):
        page.goto(url)
    playing = row(watcher, "playing", room_id)
    playing.wait_for()
    assert playing.locator(".lobby-names").text_content() == "At the table: Aki, Bea"

    context = bea.context
    aki.close()
    bea.close()
    playing.wait_for(state="detached")
    assert row(watcher, "waiting", room_id).count() == 0

    back = context.new_page()
    back.goto(url)
    playing.wait_for()
    back.close()


def test_the_code_box_leads_to_a_table_by_its_code(
    new_page: Any, browser: Any, lobby_site: str
) -> None:
    host = new_page(lang="en", site_url=lobby_site)
    host.goto("/")
    room = set_table(host, public=False)
    # Not a new_page: the box asks GET /api/tables/{code}, whose 404 for an unknown code the
    # browser logs as a console error; uncaught errors are still checked.
    context = browser.new_context(base_url=lobby_site, locale="en-US")
    context.add_cookies([{"name": "lang", "value": "en", "url": lobby_site}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto("/tables")
        page.wait_for_selector("#lobby-status[data-status=live]")
        code_box(page, room)
    finally:
        context.close()
    assert not errors, errors


def code_box(page: Any, room: dict[str, Any]) -> None:
    code = page.locator("#code")
    assert code.get_attribute("maxlength") == "8"
    assert code.get_attribute("autocapitalize") == "characters"

    code.fill("ab")
    page.locator("#code-go").click()
    assert page.locator("#code-error").text_content() == EN["lobby.code.invalid"]
    code.fill("zz99zz")
    assert page.locator("#code-error").is_hidden(), "typing again clears the message"
    assert code.input_value() == "ZZ99ZZ", "the code is shown in capitals as typed"
    page.locator("#code-go").click()
    page.locator("#code-error").filter(has_text="ZZ99ZZ").wait_for()
    assert page.locator("#code-error").text_content() == "No table has the code ZZ99ZZ."

    code.fill(room["code"].lower())
    page.locator("#code-go").click()
    page.wait_for_url(f"**/games/mancala/{room['room_id']}")


def test_the_lobby_at_a_phones_width(new_page: Any, lobby_site: str) -> None:
    host = new_page(lang="ja", site_url=lobby_site)
    host.goto("/")
    name_guest(host, "とても長い名前のホストさん")
    room = set_table(host, game="michikake", seats=3)
    page = new_page(lang="ja", site_url=lobby_site, **PHONE)
    page.goto("/tables")
    waiting = row(page, "waiting", room["room_id"])
    waiting.wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    ja = strings("ja")
    assert waiting.locator(".lobby-seats").text_content() == "空き 2席／3席"
    link = waiting.locator("a.lobby-go")
    assert link.text_content() == ja["lobby.join"]
    box = link.bounding_box()
    assert box is not None and box["height"] >= 44, box
    row_box = waiting.bounding_box()
    assert row_box is not None and box["width"] >= row_box["width"] * 0.8, "the link spans the row"
    for selector in ("#code", "#code-go", "#set-table"):
        element = page.locator(selector).bounding_box()
        assert element is not None and element["x"] >= 0
        assert element["x"] + element["width"] <= PHONE["width"], selector
    assert re.fullmatch(r"\d+", page.locator("#waiting-count").text_content() or "")
    # The menu names the lobby, and with four links the header keeps to two rows, in English
    # too (the language switch sits beside the brand).
    for lang in ("ja", "en"):
        page = new_page(lang=lang, site_url=lobby_site, **PHONE)
        page.goto("/tables")
        nav = page.locator(".site-nav a[href='/tables']")
        assert nav.get_attribute("aria-current") == "page"
        assert nav.text_content() == strings(lang)["nav.tables"]
        header = page.locator(".site-header").bounding_box()
        assert header is not None and header["height"] < 110, (lang, header)  # 3 rows: 130
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_lobby_reconnects_and_polls_while_its_socket_cannot_serve(
    new_page: Any, lobby_site: str
) -> None:
    # One page whose first socket drops before a word: it reconnects and is live again.
    dropped = new_page(lang="en", site_url=lobby_site)
    tries: list[int] = []

    def drop_once(ws: Any) -> None:
        tries.append(len(tries))
        if len(tries) == 1:
            ws.close(code=1011)
        else:
            ws.connect_to_server()

    dropped.route_web_socket("**/ws/lobby", drop_once)
    dropped.goto("/tables")
    dropped.wait_for_selector("#lobby-status[data-status=live]")
    assert len(tries) == 2

    # Another whose socket the server refuses: it asks GET /api/tables every 10 s instead.
    refused = new_page(lang="en", site_url=lobby_site)
    refused.route_web_socket("**/ws/lobby", lambda ws: ws.close(code=1008))
    refused.goto("/tables")
    refused.wait_for_selector("#lobby-status[data-status=polling]")
    assert refused.locator("#lobby-status").text_content() == EN["lobby.status.polling"]
    host = new_page(lang="en", site_url=lobby_site)
    host.goto("/")
    room = set_table(host, game="momojan")
    row(refused, "waiting", room["room_id"]).wait_for(timeout=25_000)  # the next poll
    row(dropped, "waiting", room["room_id"]).wait_for()


def lobby_line(n: int, status: str = "waiting") -> dict[str, Any]:
    return {
        "room_id": f"{n:016x}",
        "game": "mancala",
        "url": f"/games/mancala/{n:016x}",
        "status": status,
        "options": {"variant": "kalah", "seeds": 4},
        "seats": 2,
        "free": 1 if status == "waiting" else 0,
        "host": f"Host {n}",
        "names": [f"Host {n}"] if status == "waiting" else [f"Host {n}", "Guest"],
        "created_at": f"2026-12-01T10:{n // 60 % 60:02d}:{n % 60:02d}+00:00",
    }


def test_a_busy_lobby_shows_at_most_100_a_list_and_keeps_its_rows(
    new_page: Any, lobby_site: str
) -> None:
    """Lists from a stand-in socket: 150 waiting tables show as 100 rows; the next list keeps
    the rows of the tables still there (the same elements, moved or rewritten in place)."""
    import json

    page = new_page(lang="en", site_url=lobby_site)
    sockets: list[Any] = []
    first = {"waiting": [lobby_line(n) for n in range(150)], "playing": []}
    page.route("**/api/tables", lambda route: route.fulfill(json=first))

    def stand_in(ws: Any) -> None:
        sockets.append(ws)
        ws.send(json.dumps({"type": "lobby", **first}))

    page.route_web_socket("**/ws/lobby", stand_in)
    page.goto("/tables")
    page.wait_for_selector("#lobby-status[data-status=live]")
    assert page.locator("#waiting li").count() == 100
    assert page.locator("#waiting-more").text_content() == "Showing the newest 100."
    assert page.locator("#playing-empty").is_visible()
    page.evaluate(
        """() => document.querySelectorAll('#waiting li').forEach((li) => { li.kept = true; })"""
    )

    # Table 0 is gone, table 1 started, table 2 lost a free seat, a new table 999 came first.
    second_waiting = [lobby_line(999)] + [lobby_line(n) for n in range(2, 150)]
    second_waiting[1] = {**second_waiting[1], "free": 0, "host": "Renamed"}
    second = {"waiting": second_waiting, "playing": [lobby_line(1, "playing")]}
    sockets[0].send(json.dumps({"type": "lobby", **second}))
    row(page, "playing", f"{1:016x}").wait_for()
    ids = page.eval_on_selector_all("#waiting li", "(rows) => rows.map((li) => li.dataset.roomId)")
    assert ids == [f"{n:016x}" for n in [999, *range(2, 101)]]
    kept = page.eval_on_selector_all("#waiting li", "(rows) => rows.map((li) => !!li.kept)")
    # 999 is new, and so is 100's row: the first list showed 0 to 99.
    assert kept == [False] + [True] * 98 + [False], "each row still listed is the same element"
    changed = row(page, "waiting", f"{2:016x}")
    assert changed.locator(".lobby-seats").text_content() == "0 of 2 seats free"
    assert changed.locator(".lobby-host").text_content() == "Host: Renamed"
    assert row(page, "waiting", f"{0:016x}").count() == 0
    assert page.locator("#playing-count").text_content() == "1"
    assert page.locator("#playing-empty").is_hidden()
