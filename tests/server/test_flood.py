"""One socket flooding a real server (``asobiba serve``, default limits) cannot starve the others:
it is rate limited and closed, another guest plays a whole game meanwhile, the HTTP API answers
and the server's memory stays flat."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from websockets.exceptions import ConnectionClosed

from asobiba.server.protocol import CLOSE_RATE_LIMITED
from tests.server.servers import Guest, ServerProcess, play_to_the_end

FLOOD_CONNECTIONS = 15
SYNCS_PER_CONNECTION = 5000


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def flood(guest: Guest, ws_path: str, closes: list[tuple[int | None, list[str]]]) -> None:
    """Connect, send syncs as fast as possible without reading, then see how it ended."""
    for _ in range(FLOOD_CONNECTIONS):
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


def test_a_flooding_socket_is_closed_while_another_guest_plays_on(server: ServerProcess) -> None:
    flooder = Guest(server.base)
    flooded = flooder.new_room()  # a seated cookie: every sync carries legal moves
    player = Guest(server.base)
    warm = player.new_room()
    with player.socket(warm["ws"]) as ws:
        play_to_the_end(ws)
    before = rss_bytes(server.pid)

    closes: list[tuple[int | None, list[str]]] = []
    thread = threading.Thread(target=flood, args=(flooder, flooded["ws"], closes), daemon=True)
    thread.start()
    answered = 0
    room = player.new_room()
    with player.socket(room["ws"]) as ws:
        final = play_to_the_end(ws, timeout=120)
    while thread.is_alive():
        status, _ = player.request("GET", "/api/games")
        answered += status == 200
        time.sleep(0.05)
    thread.join()
    after = rss_bytes(server.pid)

    assert final["outcome"] is not None, "the other guest's game went on to its end"
    assert answered > 0, "the HTTP API answered during the flood"
    assert len(closes) == FLOOD_CONNECTIONS
    for code, seen in closes:
        assert code == CLOSE_RATE_LIMITED
        assert seen[-1] == "rate_limited"
    status, replay = player.request("GET", f"/api/rooms/{room['room_id']}/replay")
    assert status == 200 and replay["outcome"] == final["outcome"]
    growth = after - before
    assert growth < 40 * 1024 * 1024, f"the server grew by {growth / 2**20:.0f} MiB"
