"""A person who is at a table but lets their turn clock run out (docs/ARCHITECTURE.md, "Presence,
stand-ins and turn clocks"): each timeout shows, ``AWAY_AFTER`` in a row mark them idle for
everyone, the stand-in then plays on without the clock, and a move or ``back`` of theirs hands
the seat back. Through the app, on SQLite and PostgreSQL, with a real restart.

The clock is the shortest a table may have (5 s a move, no reserve): each timeout costs 5 s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from asobiba.server.rooms.turn_clock import AWAY_AFTER
from asobiba.server.store.store import StoredRoom
from tests.server.tables import Guest, host_table, serving, until

ME, OPEN = {"kind": "me"}, {"kind": "open"}
CLOCK = {"move": 5, "reserve": 0}
STANDIN = "beginner"
Players = list[dict[str, Any]]


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("ASOBIBA_STANDIN_SECONDS", "0.3")
    found: str = request.getfixturevalue(f"{request.param}_url")
    return found


def mancala_table(client: TestClient) -> tuple[Guest, Guest, str]:
    """Aki hosts a Mancala table with the clock, Bea takes the other seat: it starts."""
    host, friend = Guest(client, "Aki"), Guest(client, "Bea")
    table = host_table(host, "mancala", [ME, OPEN], clock=CLOCK, standin=STANDIN)
    assert friend.post(f"/api/rooms/{table['room_id']}/join", json={}).status_code == 200
    return host, friend, table["room_id"]


def play(
    friend_ws: WebSocketTestSession,
    host_ws: WebSocketTestSession,
    stop: Callable[[Players, int], bool],
    host_moves: Callable[[Players], bool] = lambda players: False,
    last: dict[str, Any] | None = None,
) -> list[Players]:
    """Read Bea's socket (she is sent every move and every ``players``) until ``stop(players,
    moved)`` holds (``moved``: how many of Aki's moves she has seen meanwhile); return every
    ``players`` she was sent. Bea moves at once on each turn of hers; Aki moves on a turn of his
    when ``host_moves`` says so, else idles. ``last`` carries the latest observation from one
    call to the next: the event that gave Aki his turn may have been read by the call before
    (a stand-in's move that earns an extra turn comes just before the ``players`` it stops at)."""
    seen: list[Players] = []
    last = {} if last is None else last
    players: Players = last.get("players", [])
    obs: dict[str, Any] | None = last.get("obs")
    moved = 0
    acted = None
    for _ in range(2000):
        # Aki's turn is looked at before reading on: it may be his turn already.
        turn = obs is not None and obs["to_move"] == 0 and obs["ply"] != acted
        if turn and players and host_moves(players):
            assert obs is not None
            pit = next(k for k, stones in enumerate(obs["pits"][0]) if stones)
            host_ws.send_json({"type": "act", "action": {"pit": pit}})
            acted = obs["ply"]
        message = friend_ws.receive_json()
        assert message["type"] != "error", message
        if message["type"] in ("sync", "players"):
            players = last["players"] = message["players"]
            seen.append(players)
            if stop(players, moved):
                return seen
        if message["type"] in ("sync", "event"):
            before, obs = obs, message["obs"]
            last["obs"] = obs
            assert obs is not None and obs["outcome"] is None, "the game ended first"
            moved += before is not None and before["to_move"] == 0 and obs["ply"] > before["ply"]
            if message["legal"]:
                friend_ws.send_json({"type": "act", "action": message["legal"][0]})
    raise AssertionError(f"not reached; last players: {players}")


def timeouts(players: Players) -> int:
    """Aki's timeouts in a row, as the players' entries say."""
    count: int = players[0]["clock"]["timeouts"]
    return count


def aki_marks(stored: StoredRoom) -> list[str | None]:
    """The stand-in mark of each of Aki's moves in the log (None: his own)."""
    return [
        level
        for (seat, _, _), level in zip(stored.events, stored.standins, strict=True)
        if seat == 0
    ]


def idle(players: Players, moved: int = 0) -> bool:
    return bool(players[0]["away"] == "idle")


def test_a_person_idle_at_the_table_is_shown_to_all_and_takes_the_seat_back(url: str) -> None:
    """Aki never moves: his first timeout shows (the stand-in plays that move), the second in a
    row marks him idle for everyone, and the stand-in then plays all his moves with his clock
    stopped; his ``back`` hands the seat back."""
    with serving(url) as client:
        host, friend, room = mancala_table(client)
        with host.socket(room) as ws, friend.socket(room) as friend_ws:
            seen = play(friend_ws, ws, idle)
            aki = [players[0] for players in seen]
            assert any(p["standin"] == STANDIN and p["away"] is None for p in aki), (
                "the stand-in is shown playing the one move whose time ran out"
            )
            assert any(timeouts([p]) == 1 and p["standin"] is None for p in aki)
            assert not any(p["away"] for p in aki[:-1]), "never idle before the second timeout"
            assert aki[-1]["connected"] and aki[-1]["standin"] == STANDIN
            assert timeouts(seen[-1]) == AWAY_AFTER == 2

            # The stand-in plays on: his clock never runs while he is idle.
            def two_moves_on(players: Players, moved: int) -> bool:
                assert idle(players) and players[0]["clock"]["deadline_in"] is None, players
                assert timeouts(players) == AWAY_AFTER, players
                return moved >= 2

            play(friend_ws, ws, two_moves_on)

            # His own page says it too; "back" hands the seat back.
            ws.send_json({"type": "back"})
            seen = play(friend_ws, ws, lambda players, _: not idle(players))
            assert timeouts(seen[-1]) == 0 and seen[-1][0]["standin"] is None
            stored = client.app.state.hub.store.load_room(room)  # type: ignore[attr-defined]
    marked = aki_marks(stored)
    assert len(marked) >= AWAY_AFTER + 2 and set(marked) == {STANDIN}, marked


def test_a_move_in_time_ends_the_run_of_timeouts(url: str) -> None:
    """A timeout, then a move of Aki's own, then a timeout: one in a row, never idle."""
    with serving(url) as client:
        host, friend, room = mancala_table(client)
        with host.socket(room) as ws, friend.socket(room) as friend_ws:
            last: dict[str, Any] = {}
            play(friend_ws, ws, lambda players, _: timeouts(players) == 1, last=last)
            play(friend_ws, ws, lambda players, _: timeouts(players) == 0, lambda _: True, last)
            seen = play(friend_ws, ws, lambda players, _: timeouts(players) != 0, last=last)
            assert timeouts(seen[-1]) == 1 and seen[-1][0]["away"] is None


def test_a_restart_keeps_the_mark_and_a_move_of_theirs_takes_the_seat_back(url: str) -> None:
    """The run of timeouts is rebuilt from the log's stand-in marks: after a restart Aki is
    still idle; a move of his own (sent while the stand-in plays for him) is his seat back."""
    with serving(url) as client:
        host, friend, room = mancala_table(client)
        with host.socket(room) as ws, friend.socket(room) as friend_ws:
            play(friend_ws, ws, idle)
    with serving(url) as client:
        host.client = friend.client = client
        with host.socket(room) as ws, friend.socket(room) as friend_ws:
            sync = ws.receive_json()
            assert sync["type"] == "sync" and idle(sync["players"])
            assert timeouts(sync["players"]) == AWAY_AFTER
            seen = play(friend_ws, ws, lambda players, _: not idle(players), lambda _: True)
            assert timeouts(seen[-1]) == 0
            stored = client.app.state.hub.store.load_room(room)  # type: ignore[attr-defined]
    assert aki_marks(stored)[-1] is None, "his own move took the seat back"


def test_back_from_a_spectator_or_malformed_is_refused_and_changes_nothing(
    client: TestClient,
) -> None:
    """``back`` is for a seated person; from a spectator it is ``not_seated``, with more keys it
    is ``bad_message``; from a person who is not idle it changes nothing."""
    host, _, room = mancala_table(client)
    watcher = Guest(client, "Cy")
    with host.socket(room) as ws, watcher.socket(room) as spectator:
        until(ws, lambda m: m["type"] == "sync")
        spectator.send_json({"type": "back"})
        error, _ = until(spectator, lambda m: m["type"] == "error")
        assert error["code"] == "not_seated"
        ws.send_json({"type": "back", "seat": 1})
        error, _ = until(ws, lambda m: m["type"] == "error")
        assert error["code"] == "bad_message"
        ws.send_json({"type": "back"})
        ws.send_json({"type": "sync"})
        sync, seen = until(ws, lambda m: m["type"] == "sync")
        assert all(m["type"] != "error" for m in seen)
        assert not idle(sync["players"]) and timeouts(sync["players"]) == 0
