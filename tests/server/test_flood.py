"""One socket flooding a real server (``asobiba serve``, default limits) cannot starve the others:
it is rate limited and closed, another guest plays a whole game meanwhile, the HTTP API answers
and the server's memory stays flat."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from websockets.exceptions import ConnectionClosed

from asobiba.server.sockets.messages import CLOSE_RATE_LIMITED
from tests.server.servers import Guest, ServerProcess, play_to_the_end

MAX_FLOOD_CONNECTIONS = 200
SYNCS_PER_CONNECTION = 5000

Closes = list[tuple[int | None, list[str]]]


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def flood(guest: Guest, ws_path: str, stop: threading.Event, closes: Closes) -> None:
    """Until ``stop`` (at most ``MAX_FLOOD_CONNECTIONS`` times): connect, send syncs as fast as
    possible without reading, then read what came back and how the socket was closed."""
    while not stop.is_set() and len(closes) < MAX_FLOOD_CONNECTIONS:
        with guest.socket(ws_path, compression=None) as ws:
            try:
                for _ in range(SYNCS_PER_CONNECTION):
                    ws.send('{"type": "sync"}')
            except ConnectionClosed:
                pass
            seen: list[str] = []
            try:
                while True:
                    message = json.loads(ws.recv(timeout=20))
                    seen.append(message.get("code", message["type"]))
            except ConnectionClosed as closed:
                closes.append((closed.rcvd.code if closed.rcvd else None, seen))


def ask_the_api(guest: Guest, stop: threading.Event, answers: list[int]) -> None:
    """Until ``stop``, and at least once: the games list, as a page would load it."""
    while True:
        status, _ = guest.request("GET", "/api/games")
        answers.append(status)
        if stop.wait(0.05):
            return


def test_a_flooding_socket_is_closed_while_another_guest_plays_on(server: ServerProcess) -> None:
    flooder = Guest(server.base)
    flooded = flooder.new_room()  # a seated cookie: every sync carries legal moves
    player = Guest(server.base)
    warm = player.new_room()
    with player.socket(warm["ws"]) as ws:
        play_to_the_end(ws)
    before = rss_bytes(server.pid)

    stop = threading.Event()
    closes: Closes = []
    answers: list[int] = []
    threads = [
        threading.Thread(target=flood, args=(flooder, flooded["ws"], stop, closes), daemon=True),
        threading.Thread(target=ask_the_api, args=(Guest(server.base), stop, answers), daemon=True),
    ]
    for thread in threads:
        thread.start()
    room = player.new_room()
    try:
        with player.socket(room["ws"]) as ws:
            final = play_to_the_end(ws, timeout=120)
        flooded_during_the_game = len(closes)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    after = rss_bytes(server.pid)

    assert final["outcome"] is not None, "the other guest's game went on to its end"
    assert flooded_during_the_game > 0, "the flood overlapped the game"
    assert answers and set(answers) == {200}, "the HTTP API answered during the flood"
    for code, seen in closes:
        assert code == CLOSE_RATE_LIMITED
        assert seen[-1] == "rate_limited"
    status, replay = player.request("GET", f"/api/rooms/{room['room_id']}/replay")
    assert status == 200 and replay["outcome"] == final["outcome"]
    growth = after - before
    assert growth < 40 * 1024 * 1024, f"the server grew by {growth / 2**20:.0f} MiB"
