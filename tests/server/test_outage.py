"""A server outage costs nobody: a real ``asobiba serve`` is killed (SIGKILL) or stopped (SIGTERM,
a restart) while a person's wait is open, stays down longer than the whole wait, and comes back.
The wait resumes with at least what it had left, and nothing was played for anyone meanwhile."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

from asobiba.core.bots import decide
from asobiba.games import get_game
from asobiba.games.mokochaka.cards import SPECIALS, judge, parse_card
from asobiba.server.rooms.bot_turns import bot_seed_for
from tests.michikake_deals import claimable_first_discard
from tests.server.servers import Guest, ServerProcess, next_message


def next_view(ws: ClientConnection, timeout: float = 30.0) -> dict[str, Any]:
    """The next message but a ping (answered on the way); an error fails the test."""
    message = next_message(ws, timeout)
    if message["type"] == "error":
        raise AssertionError(message)
    return message


def resync(ws: ClientConnection) -> dict[str, Any]:
    ws.send(json.dumps({"type": "sync"}))
    while True:
        message = next_view(ws)
        if message["type"] == "sync":
            return message


def quiet_first_flip() -> int:
    """A seed for two seats where the person (seat 0) flips first, the card calls for no grab,
    and the expert bot does not grab by mistake: the call window then waits on the person."""
    game = get_game("mokochaka")
    for seed in range(1, 10_000):
        state = game.new_state({}, 2, seed)
        if game.observe(state, 0)["start_player"] != 0:
            continue
        state = game.apply(state, 0, {"flip": 0}, at=0.0)
        top = [parse_card(pile["top"]) for pile in game.observe(state, 1)["piles"] if pile]
        if judge(top) & set(SPECIALS):
            continue
        bot = game.make_bot("expert", bot_seed_for(seed, 1))
        if decide(bot, game.observe(state, 1), game.legal_actions(state, 1)).action is None:
            return seed
    raise AssertionError("no quiet first flip in 10,000 seeds")


def outage(
    server: ServerProcess,
    guest: Guest,
    room: dict[str, Any],
    before: dict[str, Any],
    wait: float,
    sigterm: bool = False,
) -> None:
    """Kill the server (or stop it by SIGTERM) with the wait ``before`` open (``wait`` seconds
    long in all), stay down longer than the whole wait, come back: the wait resumes with what it
    had left, nothing was played, and it then runs out. A stop stores where the clock stood as
    it stops (a kill leaves the last event's time), so it may have used what ran between
    ``before`` and the stop, never more."""
    asked = time.monotonic()
    if sigterm:
        assert server.stop_by(signal.SIGTERM) == 0
    else:
        server.kill()
    spent = time.monotonic() - asked if sigterm else 0.0
    time.sleep(wait + 1.0)
    server.start()
    with guest.socket(room["ws"]) as ws:
        again = next_view(ws)
        resumed = time.monotonic()
        assert again["type"] == "sync"
        assert again["obs"] == before["obs"], "nothing was played for anyone"
        assert again["legal"] == before["legal"]
        assert again["deadline_in"] >= before["deadline_in"] - spent - 0.05, (
            f"had {before['deadline_in']} s left {resumed - asked:.1f} s ago, "
            f"got back {again['deadline_in']}"
        )
        settled = next_view(ws, timeout=again["deadline_in"] + 15)
        assert settled["obs"] != again["obs"]
        # The clock starts as the person joins, before the handshake's answer and the sync
        # reach them: a freshly started server takes a moment over its first socket.
        assert time.monotonic() - resumed >= again["deadline_in"] - 0.5, "the whole wait ran"


@pytest.fixture
def live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("ASOBIBA_DEV_SEEDS", "1")
    server = ServerProcess(tmp_path, f"sqlite:///{tmp_path / 'live.sqlite3'}")
    server.start()
    yield server
    server.stop()


@pytest.mark.parametrize("sigterm", [False, True], ids=["killed", "stopped"])
def test_a_mokochaka_call_window_survives_a_killed_or_stopped_server(
    live: ServerProcess, sigterm: bool
) -> None:
    guest = Guest(live.base)
    body = {"game": "mokochaka", "level": "expert", "players": 2, "seed": quiet_first_flip()}
    status, room = guest.request("POST", "/api/rooms", body)
    assert status == 201, room
    with guest.socket(room["ws"]) as ws:
        first = next_view(ws)
        assert first["obs"]["phase"] == "flip" and {"flip": 0} in first["legal"]
        ws.send(json.dumps({"type": "act", "action": {"flip": 0}}))
        assert next_view(ws)["obs"]["phase"] == "call"
        before = resync(ws)
    assert before["obs"]["phase"] == "call" and 0 < before["deadline_in"] <= 3.0
    window = before["obs"]["call_deadline"] - before["obs"]["flip_at"]
    outage(live, guest, room, before, window, sigterm)


def test_a_michikake_claim_window_survives_a_killed_server(live: ServerProcess) -> None:
    guest = Guest(live.base)
    # A person who cannot claim is never asked (issue 31): a deal whose first discard they can.
    seed = claimable_first_discard("beginner")
    body = {"game": "michikake", "level": "beginner", "players": 3, "order": "second", "seed": seed}
    status, room = guest.request("POST", "/api/rooms", body)
    assert status == 201, room
    with guest.socket(room["ws"]) as ws:
        view = next_view(ws)
        while not (view["obs"]["phase"] == "claim" and {"pass": True} in view["legal"]):
            if view["legal"] and view["obs"]["phase"] == "discard":
                ws.send(json.dumps({"type": "act", "action": view["legal"][0]}))
            view = next_view(ws)
        before = resync(ws)
    window = before["obs"]["window"]
    assert window["discarder"] != before["seat"] and 0 < before["deadline_in"] <= window["seconds"]
    outage(live, guest, room, before, window["seconds"])
