"""The server's log lines (``asobiba/server/logs.py``), read from a real ``asobiba serve`` that
played a MOMOJAN game: JSON lines when its output is not a terminal, every line about the room
naming the room, its game and the process, and no line holding the guest's cookie, the room's
seed, a card or the guest's full address."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import time
from pathlib import Path
from typing import Any

from asobiba.server.logs import chosen_format
from tests.server.servers import Guest, ServerProcess, next_message

ADDRESS = "2001:db8:1:2:3:4:5:6"
"""The guest's address, as a proxy on this machine passes it on (``X-Forwarded-For``)."""
ADDRESS_KEY = "2001:db8:1:2::/64"
"""The same, as the per-address limits count it (``limits.address_key``)."""
SEND_EVERY = 0.12
"""Seconds between two actions sent: under the socket's limit (``SocketLimits.per_second``)."""


def json_lines(server: ServerProcess) -> list[dict[str, Any]]:
    """Every line the server wrote, each parsed (a line that is not JSON fails the test)."""
    lines = [line for line in server.log().splitlines() if line.strip()]
    parsed = []
    for line in lines:
        try:
            parsed.append(json.loads(line))
        except ValueError:
            raise AssertionError(f"not a JSON line: {line!r}") from None
    return parsed


def play_momojan(guest: Guest) -> tuple[str, set[str]]:
    """A MOMOJAN game against the beginner through the API and the room socket, played to its
    end with the first legal action: the room's id and every card the guest held or named."""
    status, room = guest.request(
        "POST", "/api/rooms", {"game": "momojan", "level": "beginner", "order": "first"}
    )
    assert status == 201, room
    cards: set[str] = set()
    sent = 0.0
    with guest.socket(room["ws"]) as ws:
        while True:
            message = next_message(ws, 60)
            assert message["type"] != "error", message
            if message["type"] not in {"sync", "event"}:
                continue
            cards.update(message["obs"]["hand"] or [])
            if message["obs"]["outcome"] is not None:
                break
            if message["legal"]:
                action = message["legal"][0]
                cards.update(value for value in action.values() if isinstance(value, str))
                # Within the socket's limit of 10 messages a second (a person sends fewer).
                time.sleep(max(0.0, sent + SEND_EVERY - time.monotonic()))
                ws.send(json.dumps({"type": "act", "action": action}))
                sent = time.monotonic()
    cards -= {"draw", "discard", "pass", "win", "riichi", "pon", "chi", "open", "tsumo", "ron"}
    return room["room_id"], {card for card in cards if len(card) >= 2}


def test_json_lines_name_the_room_and_hold_no_cookie_seed_card_or_address(
    tmp_path: Path,
) -> None:
    server = ServerProcess(
        tmp_path,
        f"sqlite:///{tmp_path / 'live.sqlite3'}",
        # The default format (not a terminal), and the most said: at DEBUG the room's tasks
        # write a line for each bot move (and the libraries below would write every frame).
        {"ASOBIBA_LOG_FORMAT": "", "ASOBIBA_LOG_LEVEL": "DEBUG", "ASOBIBA_BOT_PACE": "0"},
    )
    server.start()
    try:
        guest = Guest(server.base, {"X-Forwarded-For": ADDRESS})
        room_id, cards = play_momojan(guest)
        status, _ = guest.request("GET", f"/api/rooms/{room_id}/replay")
        assert status == 200
    finally:
        server.stop()
    lines = json_lines(server)
    text = server.log()

    # Every line about the room names it, its game and the process, whoever wrote it: the
    # request lines, the socket's, the room's writer and its bots.
    about = [line for line in lines if room_id in json.dumps(line)]
    assert len(about) >= 3, text
    for line in about:
        assert line.get("room_id") == room_id, line
        assert line.get("game") == "momojan", line
        assert line.get("pid") == server.pid, line
    events = {line["event"] for line in about}
    assert "room made: 2 seats, with bots" in events
    assert "game over after" in " ".join(events), "the room's writer's line"
    assert "bot beginner at seat 1 acted" in " ".join(events), "lines of the bots' tasks"
    assert all(line.get("pid") == server.pid for line in lines)
    # INFO lines show (the reaper's, the start-up's), not only warnings.
    assert any(line["level"] == "info" and line["logger"].startswith("asobiba") for line in lines)

    # Nothing secret: the guest's cookie, the room's seed, a card, the full address.
    [cookie] = [c.value or "" for c in guest.cookies if c.name == "asobiba"]
    with sqlite3.connect(tmp_path / "live.sqlite3") as db:
        [(seed,)] = db.execute("SELECT seed FROM rooms WHERE id = ?", (room_id,)).fetchall()
    assert len(cookie) > 20 and len(seed) > 20
    assert cookie not in text
    assert seed not in text and format(int(seed), "x") not in text
    assert cards, "the guest held cards"
    for card in cards:
        assert not re.search(rf"(?<![\w/.-]){re.escape(card)}(?![\w/.-])", text), card
    assert ADDRESS not in text
    assert ADDRESS_KEY in text, "the guest's requests are logged, by the address's /64"


def test_text_on_a_terminal_json_elsewhere_unless_told() -> None:
    leader, follower = os.openpty()
    try:
        with open(follower, "w", closefd=False) as terminal, open(os.devnull, "w") as file:
            before = os.environ.pop("ASOBIBA_LOG_FORMAT", None)
            try:
                assert chosen_format(terminal) == "text"
                assert chosen_format(file) == "json"
                os.environ["ASOBIBA_LOG_FORMAT"] = "json"
                assert chosen_format(terminal) == "json"
                os.environ["ASOBIBA_LOG_FORMAT"] = "text"
                assert chosen_format(file) == "text"
            finally:
                os.environ.pop("ASOBIBA_LOG_FORMAT", None)
                if before is not None:
                    os.environ["ASOBIBA_LOG_FORMAT"] = before
    finally:
        os.close(leader)
        os.close(follower)


def test_the_log_level_is_a_setting(tmp_path: Path) -> None:
    """INFO by default (a room made, the reaper's rounds, the start-up's rebuild show: before,
    only warnings did under ``asobiba serve``); WARNING hides them."""
    for level, shown in (("", True), ("WARNING", False)):
        data = tmp_path / (level or "default")
        data.mkdir()
        server = ServerProcess(
            data,
            f"sqlite:///{data / 'live.sqlite3'}",
            {"ASOBIBA_LOG_FORMAT": "json", "ASOBIBA_LOG_LEVEL": level},
        )
        server.start()
        try:
            Guest(server.base).new_room()  # its line is written before the answer
        finally:
            server.stop()
        made = [line for line in json_lines(server) if line["event"].startswith("room made")]
        assert len(made) == (1 if shown else 0), server.log()
