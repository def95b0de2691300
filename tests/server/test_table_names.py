"""Names at a table (issue 31, points 11 and 13): one name per seat, checked by the server.

A second "Aki" to sit down is "Aki 2" on every page; a spectator chats under the name they
chose, numbered where someone at the table has it; nobody may call themselves "CPU 2", the
name of a computer's seat.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from asobiba.server.social.names import (
    MAX_NAME,
    InvalidName,
    clean_name,
    cpu_name,
    same_name,
    unique_name,
)
from tests.server.tables import Guest, host_table, serving, until

ME, OPEN = {"kind": "me"}, {"kind": "open"}


@pytest.fixture
def app_client(sqlite_url: str) -> Iterator[TestClient]:
    with serving(sqlite_url) as client:
        yield client


def test_a_computers_seat_is_cpu_and_its_number_from_one() -> None:
    assert [cpu_name(seat) for seat in range(4)] == ["CPU 1", "CPU 2", "CPU 3", "CPU 4"]


@pytest.mark.parametrize("name", ["CPU 2", "cpu2", "Cpu  12", "ＣＰＵ２", "CPU ２"])
def test_nobody_may_take_a_computers_name(name: str) -> None:
    with pytest.raises(InvalidName, match="computers"):
        clean_name(name)


@pytest.mark.parametrize("name", ["CPU", "CPU fan", "2 CPU", "CPUs 2", "Aki 2"])
def test_names_that_only_look_near_a_computers_are_kept(name: str) -> None:
    assert clean_name(name) == name


def test_a_taken_name_gets_the_first_free_number() -> None:
    assert unique_name("Aki", []) == "Aki"
    assert unique_name("Aki", ["Ben"]) == "Aki"
    assert unique_name("Aki", ["Aki"]) == "Aki 2"
    assert unique_name("aki", ["Aki", "Aki 2"]) == "aki 3"
    assert unique_name("Ａｋｉ", ["Aki"]) == "Ａｋｉ 2"  # the same name to the eye
    assert unique_name("Aki", ["Aki", "Aki 3"]) == "Aki 2"
    long = "x" * MAX_NAME
    numbered = unique_name(long, [long])
    assert numbered == "x" * (MAX_NAME - 2) + " 2" and clean_name(numbered) == numbered
    assert same_name("Aki", "AKI") and not same_name("Aki", "Aki 2")


def test_two_people_named_aki_at_one_table_are_aki_and_aki_2_everywhere(
    app_client: TestClient,
) -> None:
    host, friend, third = Guest(app_client, "Aki"), Guest(app_client, "Aki"), Guest(app_client)
    assert third.put("/api/me", json={"name": "aki"}).status_code == 200
    bot = {"kind": "bot", "level": "beginner"}
    table = host_table(host, "michikake", [ME, OPEN, OPEN, bot], public=True)
    room = table["room_id"]
    assert friend.post(f"/api/rooms/{room}/join", json={}).json() == {"seat": 1}
    # Joining again changes nothing: the seat is held under the name it was taken with.
    assert friend.post(f"/api/rooms/{room}/join", json={}).json() == {"seat": 1}
    lobby = app_client.get("/api/tables").json()["waiting"]
    assert [entry["names"] for entry in lobby if entry["room_id"] == room] == [["Aki", "Aki 2"]]
    assert third.post(f"/api/rooms/{room}/join", json={}).json() == {"seat": 2}
    with friend.socket(room) as ws:
        sync, _ = until(ws, lambda m: m["type"] == "sync" and m["table"]["status"] == "playing")
        assert [p["name"] for p in sync["players"]] == ["Aki", "Aki 2", "aki 3", None]
        assert sync["players"][3]["kind"] == "bot"
        ws.send_json({"type": "chat", "text": "which Aki am I?"})
        line, _ = until(ws, lambda m: m["type"] == "chat")
        assert line["entry"]["name"] == "Aki 2" and line["entry"]["seat"] == 1
    # The guest's own name is unchanged: at another table they are "Aki" again.
    assert friend.get("/api/me").json()["name"] == "Aki"


def test_a_spectator_chats_under_the_name_they_chose_never_a_seated_persons(
    app_client: TestClient,
) -> None:
    host, friend = Guest(app_client, "Aki"), Guest(app_client, "Ben")
    watcher = Guest(app_client)
    me = watcher.get("/api/me").json()
    assert me["name"] is None and me["default"].startswith("Guest ")
    table = host_table(host, "mancala", [ME, OPEN], spectator_chat=True)
    room = table["room_id"]
    friend.post(f"/api/rooms/{room}/join", json={})
    with watcher.socket(room) as watching:
        until(watching, lambda m: m["type"] == "sync")
        watching.send_json({"type": "chat", "text": "hello"})
        line, _ = until(watching, lambda m: m["type"] == "chat")
        assert line["entry"]["name"] == me["default"] and line["entry"]["seat"] is None
        # The spectator names themselves as players do (PUT /api/me, the same checks) ...
        bad = watcher.put("/api/me", json={"name": "\u3164"})
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_name"
        assert watcher.put("/api/me", json={"name": "Mio"}).json() == {"name": "Mio"}
        watching.send_json({"type": "chat", "text": "I am Mio"})
        line, _ = until(watching, lambda m: m["type"] == "chat")
        assert line["entry"]["name"] == "Mio"
        # ... and a seated person's name is numbered, as a second "Aki" at a seat is.
        assert watcher.put("/api/me", json={"name": "ben"}).status_code == 200
        watching.send_json({"type": "chat", "text": "and now?"})
        line, _ = until(watching, lambda m: m["type"] == "chat")
        assert line["entry"]["name"] == "ben 2"


def test_a_second_spectator_with_a_name_in_use_in_the_chat_is_numbered(
    app_client: TestClient,
) -> None:
    """Three lines in all: a spectator's address may send 3 at once (``GuestLimits``)."""
    host, friend = Guest(app_client, "Aki"), Guest(app_client, "Ben")
    watcher, other = Guest(app_client, "Mio"), Guest(app_client, "mio")
    table = host_table(host, "mancala", [ME, OPEN], spectator_chat=True)
    room = table["room_id"]
    friend.post(f"/api/rooms/{room}/join", json={})
    with watcher.socket(room) as watching, other.socket(room) as second:
        until(watching, lambda m: m["type"] == "sync")
        until(second, lambda m: m["type"] == "sync")
        watching.send_json({"type": "chat", "text": "first"})
        line, _ = until(second, lambda m: m["type"] == "chat")
        assert line["entry"]["name"] == "Mio"
        second.send_json({"type": "chat", "text": "me too"})
        line, _ = until(watching, lambda m: m["type"] == "chat" and m["entry"]["n"] == 2)
        assert line["entry"]["name"] == "mio 2"
        watching.send_json({"type": "chat", "text": "still me"})
        line, _ = until(second, lambda m: m["type"] == "chat" and m["entry"]["n"] == 3)
        assert line["entry"]["name"] == "Mio"
