"""Names at a table through the real UI, as friends play (issue 31, points 11 and 13): several
browser contexts are several guests.

- Two people who both call themselves "Aki" sit at one MOMOJAN table: the second is "Aki 2" on
  every page (chips, the game's table, the chat), and a spectator's label names both players.
- A spectator names themselves (the same dialog and checks as a seat's name) and chats under it.
- A computer's seat has one name, "CPU 3", for the host, the friend and a spectator alike, in
  both languages: on the game's table, on the players strip (its level beside it) and, once a
  game like it is over, on the records page and in its replay.

The server runs with ``ASOBIBA_BOT_PACE=0``; nothing waits on a fixed sleep.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from asobiba.core.bots import decide
from asobiba.core.game import first_state
from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.store.records import results_for
from asobiba.server.store.store import Finish, Store
from tests.e2e.conftest import serve
from tests.e2e.test_records_ui import store_at
from tests.e2e.test_tables_ui import chip_names, join, set_table

PHONE = {"width": 375, "height": 812, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def names_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("names")
    with serve(data, {"ASOBIBA_BOT_PACE": "0"}) as base:
        yield base, data / "e2e.sqlite3"


def texts(page: Any, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, "nodes => nodes.map((n) => n.textContent)")


def test_two_people_named_aki_are_aki_and_aki_2_and_a_spectator_sees_both_names(
    new_page: Any, names_site: tuple[str, Path]
) -> None:
    base, _ = names_site
    host = new_page(lang="en", site_url=base)
    url = set_table(host, "momojan", name="Aki", seats=["me", "open"])
    friend = new_page(lang="ja", site_url=base)
    join(friend, url, "Aki")
    watcher = new_page(lang="en", site_url=base)
    watcher.goto(url + "?speed=instant")
    for page in (host, friend):
        page.wait_for_selector(".mj-hand--mine .mj-hand-card")
    watcher.wait_for_selector("#play:not([data-table]) .mj-pile")
    assert chip_names(host) == ["You", "Aki 2"]
    assert chip_names(friend) == ["Aki", "あなた"]
    assert chip_names(watcher) == ["Aki", "Aki 2"]
    # The game's own table names the second Aki "Aki 2" too.
    host.wait_for_function("() => document.getElementById('board').textContent.includes('Aki 2')")
    # Each player's label names the other; a spectator's names both players.
    assert host.locator("#rule-chip").inner_text().endswith("vs Aki 2")
    assert friend.locator("#rule-chip").inner_text().endswith("相手: Aki")
    assert watcher.locator("#rule-chip").inner_text() == "Rulebook game · Aki vs Aki 2"
    # The chat tells them apart the same way.
    friend.fill("#chat-input", "which Aki?")
    friend.press("#chat-input", "Enter")
    line = host.locator("#chat-list li .chat-name")
    line.wait_for()
    assert line.inner_text() == "Aki 2"
    host.screenshot(path="/tmp/names-aki-host.png")
    watcher.set_viewport_size({"width": 375, "height": 812})
    watcher.screenshot(path="/tmp/names-aki-watcher-phone.png", full_page=True)


def test_a_spectator_names_themselves_and_chats_under_that_name(
    new_page: Any, names_site: tuple[str, Path]
) -> None:
    base, _ = names_site
    host = new_page(lang="en", site_url=base)
    url = set_table(host, "mancala", name="Aki", seats=["me", "open"])
    friend = new_page(lang="en", site_url=base)
    join(friend, url, "Ben")
    watcher = new_page(lang="ja", site_url=base, **PHONE)
    watcher.goto(url + "?speed=instant")
    for page in (host, friend, watcher):
        page.wait_for_selector("#play:not([data-table]) .mancala-board")
    assert watcher.locator("#chat-me").is_hidden(), "a spectator who may not chat has no name"
    host.wait_for_selector("#chat-spectators:not([hidden])")
    host.check("#chat-spectators-on")
    watcher.wait_for_selector("#chat-me:not([hidden])[data-name^='Guest ']")
    guest = watcher.locator("#chat-me").get_attribute("data-name")
    assert guest is not None and guest.startswith("Guest ")
    assert guest in watcher.locator("#chat-me-name").inner_text()
    # The same dialog as a seat's name (the server checks it the same way: test_table_names).
    watcher.click("#chat-me-change")
    watcher.fill("dialog[open] #prompt-input", "Mio")
    watcher.click("dialog[open] [data-confirm]")
    watcher.wait_for_selector("#chat-me[data-name='Mio']")
    assert watcher.locator("#chat-me-name").inner_text() == "チャットでの名前：Mio"
    watcher.fill("#chat-input", "こんにちは")
    watcher.press("#chat-input", "Enter")
    for page in (host, friend, watcher):
        line = page.locator("#chat-list li").last
        line.locator(".chat-name").wait_for()
        page.wait_for_function(
            "() => [...document.querySelectorAll('#chat-list .chat-name')]"
            ".some((n) => n.textContent === 'Mio')"
        )
        assert line.locator(".chat-text").inner_text() == "こんにちは"
    # The name a seated person has is numbered for a spectator.
    watcher.click("#chat-me-change")
    watcher.fill("dialog[open] #prompt-input", "Ben")
    watcher.click("dialog[open] [data-confirm]")
    watcher.wait_for_selector("#chat-me[data-name='Ben']")
    watcher.fill("#chat-input", "again")
    watcher.press("#chat-input", "Enter")
    host.wait_for_function(
        "() => [...document.querySelectorAll('#chat-list .chat-name')]"
        ".some((n) => n.textContent === 'Ben 2')"
    )
    watcher.screenshot(path="/tmp/names-spectator-phone.png", full_page=True)


def finished_game(store: Store, room_id: str, game_name: str, seats: list[dict[str, Any]]) -> None:
    """A game of ``game_name`` at ``seats`` played to its end by beginner bots and logged as a
    room logs it (actions, and the game's timed events with no seat), its results written with
    the last event: what the records page lists."""
    game = get_game(game_name)
    options = game.resolve_options({})
    seed = 7
    people = sum("player" in spec for spec in seats)
    store.create_room(room_id, game_name, options, rule_key(options), seed, seats)
    bots = [game.make_bot("beginner", seed + seat) for seat in range(len(seats))]
    state = first_state(game, options, len(seats), seed, people)
    at, seq = 0.0, 0
    while True:
        movers = sorted(game.to_move(state))
        due = game.deadline(state)
        plans = []
        for turn, seat in enumerate(movers):
            legal = game.legal_actions(state, seat)
            decision = decide(bots[seat], game.observe(state, seat), legal)
            if decision.action is not None:
                plans.append((at + decision.after, turn, seat, decision.action))
        if due is not None and (not plans or due <= min(plans)[0]):
            at = max(at, due)
            seat_action: tuple[int | None, dict[str, Any] | None] = (None, None)
            state = game.advance(state, at)
        else:
            when, _, seat, action = min(plans, key=lambda plan: plan[:2])
            at = max(at, when)
            seat_action = (seat, action)
            state = game.apply(state, seat, action, at)
        outcome = game.outcome(state)
        finish = None
        if outcome is not None:
            finish = Finish(outcome, results_for(room_id, game, options, seats, outcome))
        store.append_event(room_id, seq, *seat_action, at, finish=finish)
        seq += 1
        if outcome is not None:
            return


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_computers_seat_is_cpu_3_on_the_table_the_chip_and_the_records(
    new_page: Any, names_site: tuple[str, Path], lang: str
) -> None:
    base, database = names_site
    host = new_page(lang=lang, site_url=base)
    url = set_table(host, "michikake", name="Aki", seats=["me", "open", "bot:beginner"])
    seat_row = host.locator("#waiting-seats [data-seat='2'] .waiting-seat-name").inner_text()
    assert seat_row.startswith("CPU 3")
    friend = new_page(lang="en" if lang == "ja" else "ja", site_url=base)
    join(friend, url, "Ben")
    watcher = new_page(lang=lang, site_url=base, **PHONE)
    watcher.goto(url + "?speed=instant")
    for page in (host, friend):
        page.wait_for_selector(".mk-hand .mk-hand-card")
    watcher.wait_for_selector("#play:not([data-table]) .mk-seat")
    you = {"en": "You", "ja": "あなた"}
    assert chip_names(host) == [you[lang], "Ben", "CPU 3"]
    assert chip_names(friend) == ["Aki", you["en" if lang == "ja" else "ja"], "CPU 3"]
    assert chip_names(watcher) == ["Aki", "Ben", "CPU 3"]
    level = {"en": "Beginner", "ja": "はじめて"}
    for page in (host, friend, watcher):
        assert "CPU 3" in texts(page, ".mk-name")
        bot_chip = page.locator("#players .player-chip[data-seat='2']")
        assert bot_chip.locator(".player-chip-level").inner_text() in level.values()
    # Whose turn it is and what happened are said with the same name.
    host.screenshot(path=f"/tmp/names-cpu-host-{lang}.png")
    watcher.screenshot(path=f"/tmp/names-cpu-watcher-phone-{lang}.png", full_page=True)

    # Once a game at these seats is over, the records page names the computer the same way.
    store = store_at(database)
    brief = store.room_brief(url.rsplit("/", 1)[1])
    assert brief is not None
    finished_game(store, f"cpu-names-{lang}", "michikake", brief.seats)
    host.goto("/records/michikake")
    names = host.locator("#stored-games-michikake tr.stored-game--people .record-names").first
    names.wait_for()
    shown = names.inner_text()
    assert "Ben" in shown
    assert f"CPU 3 ({level[lang]})" in shown or f"CPU 3（{level[lang]}）" in shown, shown
    host.screenshot(path=f"/tmp/names-records-{lang}.png", full_page=True)
    # And so does its replay.
    host.goto(f"/replay/cpu-names-{lang}?speed=instant")
    host.wait_for_selector("#replay-players:not([hidden])")
    players = host.locator("#replay-players .replay-player-name").all_inner_texts()
    assert players[:2] == ["Aki", "Ben"] and players[2] in {
        f"CPU 3 ({level[lang]})",
        f"CPU 3（{level[lang]}）",
    }, players
    assert "CPU 3" in texts(host, ".mk-name")
