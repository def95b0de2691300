"""Tables between people, end to end through the app: set, joined, started, left, watched
(docs/ARCHITECTURE.md, "Tables between people"), on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from asobiba.server.app import create_app
from asobiba.server.settings import SocketLimits
from tests.server.tables import Guest, host_table, until

ME, OPEN = {"kind": "me"}, {"kind": "open"}


@pytest.fixture(params=["sqlite", "postgres"])
def app_client(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[TestClient]:
    monkeypatch.setenv("ASOBIBA_STANDIN_SECONDS", "0.3")
    url = request.getfixturevalue(f"{request.param}_url")
    quiet = SocketLimits(ping_seconds=None)
    app = create_app(url, secret_key="test-secret", bot_workers=1, socket_limits=quiet)
    with TestClient(app) as client:
        yield client


def is_sync(status: str) -> Any:
    return lambda m: m["type"] == "sync" and m["table"]["status"] == status


def test_a_table_waits_for_its_people_and_starts_when_the_last_seat_is_taken(
    app_client: TestClient,
) -> None:
    host, friend, late = Guest(app_client, "Aki"), Guest(app_client), Guest(app_client)
    table = host_table(host, "mancala", [ME, OPEN], public=True)
    assert table["seat"] == 0 and len(table["code"]) == 6
    room = table["room_id"]
    with host.socket(room) as ws:
        sync, _ = until(ws, is_sync("waiting"))
        assert sync["obs"] is None and sync["legal"] == []
        assert sync["table"]["code"] == table["code"] and sync["table"]["host"] == 0
        assert [p["kind"] for p in sync["players"]] == ["human", "open"]
        assert sync["players"][0]["name"] == "Aki"
        lobby = app_client.get("/api/tables").json()
        assert [t["room_id"] for t in lobby["waiting"]] == [room]
        assert lobby["waiting"][0] | {"created_at": None} == {
            "room_id": room,
            "game": "mancala",
            "url": f"/games/mancala/{room}",
            "status": "waiting",
            "options": lobby["waiting"][0]["options"],
            "seats": 2,
            "free": 1,
            "host": "Aki",
            "names": ["Aki"],
            "created_at": None,
        }

        joined = friend.post(f"/api/rooms/{room}/join", json={"name": "  Bea  "})
        assert joined.status_code == 200 and joined.json() == {"seat": 1}
        started, _ = until(ws, is_sync("playing"))
        assert started["obs"] is not None and started["legal"]
        assert [p["name"] for p in started["players"]] == ["Aki", "Bea"]
        assert friend.post(f"/api/rooms/{room}/join", json={}).json() == {"seat": 1}
        refused = late.post(f"/api/rooms/{room}/join", json={})
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "started"
        lobby = app_client.get("/api/tables").json()
        assert lobby["waiting"] == [] and [t["room_id"] for t in lobby["playing"]] == [room]

        with friend.socket(room) as friend_ws:
            mine, _ = until(friend_ws, lambda m: m["type"] == "sync")
            assert mine["seat"] == 1 and mine["table"]["you"]["seat"] == 1
            ws.send_json({"type": "act", "action": started["legal"][0]})
            until(friend_ws, lambda m: m["type"] == "event")


def test_the_code_leads_to_the_table(app_client: TestClient) -> None:
    host = Guest(app_client, "Aki")
    table = host_table(host, "michikake", [ME, OPEN, OPEN])
    found = app_client.get(f"/api/tables/{table['code'].lower()}")
    assert found.status_code == 200
    assert found.json()["url"] == f"/games/michikake/{table['room_id']}"
    assert host.post(f"/api/rooms/{table['room_id']}/leave").status_code == 200  # closed
    assert app_client.get(f"/api/tables/{table['code']}").status_code == 404
    assert app_client.get("/api/tables/ZZZZZZ").status_code == 404
    assert app_client.get("/api/tables").json()["waiting"] == []  # by link only: not listed


def test_the_host_removes_seats_and_starts_with_bots(app_client: TestClient) -> None:
    host, friend = Guest(app_client, "Aki"), Guest(app_client, "Bea")
    table = host_table(host, "michikake", [ME, OPEN, OPEN, OPEN])
    room = table["room_id"]
    assert friend.delete(f"/api/rooms/{room}/seats/3").status_code == 403
    assert host.delete(f"/api/rooms/{room}/seats/0").json()["error"]["code"] == "seat_taken"
    assert host.delete(f"/api/rooms/{room}/seats/3").json() == {"seats": 3}
    few = host.delete(f"/api/rooms/{room}/seats/2")
    assert few.status_code == 409 and few.json()["error"]["code"] == "too_few_seats"
    assert friend.post(f"/api/rooms/{room}/join", json={}).json() == {"seat": 1}
    assert friend.post(f"/api/rooms/{room}/start", json={"fill": "beginner"}).status_code == 403
    bad = host.post(f"/api/rooms/{room}/start", json={"fill": "godlike"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_level"
    assert host.post(f"/api/rooms/{room}/start", json={"fill": "beginner"}).status_code == 200
    with host.socket(room) as ws:
        sync, _ = until(ws, lambda m: m["type"] == "sync")
        assert sync["table"]["status"] == "playing"
        assert [p["kind"] for p in sync["players"]] == ["human", "human", "bot"]
        assert sync["obs"] is not None


def test_a_person_may_leave_before_the_start_and_the_host_closes_the_table(
    app_client: TestClient,
) -> None:
    host, friend = Guest(app_client, "Aki"), Guest(app_client, "Bea")
    table = host_table(host, "mokochaka", [ME, OPEN, OPEN], public=True)
    room = table["room_id"]
    assert friend.post(f"/api/rooms/{room}/join", json={}).json() == {"seat": 1}
    assert friend.post(f"/api/rooms/{room}/leave").status_code == 200
    with host.socket(room) as ws:
        sync, _ = until(ws, lambda m: m["type"] == "sync")
        assert [p["kind"] for p in sync["players"]] == ["human", "open", "open"]
        assert host.post(f"/api/rooms/{room}/leave").status_code == 200
        closed, _ = until(ws, is_sync("over"))
        assert closed["legal"] == []
    assert app_client.get("/api/tables").json()["waiting"] == []
    again = friend.post(f"/api/rooms/{room}/join", json={})
    assert again.status_code == 409 and again.json()["error"]["code"] == "game_over"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"seats": [ME, ME]}, "invalid_seats"),
        ({"seats": [OPEN, OPEN]}, "invalid_seats"),
        ({"seats": [ME]}, "invalid_seats"),
        ({"seats": [ME, {"kind": "bot", "level": "godlike"}]}, "invalid_level"),
        ({"seats": [ME, {"kind": "bot"}]}, "invalid_level"),
        ({"seats": [ME, {"kind": "open", "level": "x"}]}, "invalid_seats"),
        ({"seats": [{"kind": "me", "level": "expert"}, OPEN]}, "invalid_seats"),
        ({"seats": [ME, OPEN], "standin": "godlike"}, "invalid_level"),
        ({"seats": [ME, OPEN], "clock": {"move": 1, "reserve": 0}}, "invalid_clock"),
        ({"seats": [ME, OPEN], "clock": {"move": 30}}, "invalid_clock"),
        ({"seats": [ME, OPEN], "level": "beginner"}, "bad_request"),
        ({"level": "beginner", "public": True}, "bad_request"),
        ({"seats": [ME, {"kind": "friend"}]}, "bad_request"),
        ({"seats": [ME, OPEN], "public": "yes"}, "bad_request"),
    ],
)
def test_a_bad_table_is_refused_and_nothing_is_made(
    app_client: TestClient, body: dict[str, Any], code: str
) -> None:
    host = Guest(app_client, "Aki")
    response = host.post("/api/rooms", json={"game": "mancala", **body})
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == code
    assert host.get("/api/rooms?game=mancala").json()["rooms"] == []


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("  Aki   Sato ", "Aki Sato"),
        ("<b>桃</b>", "<b>桃</b>"),
        ("é", "é"),
        ("Nguyê\u0303n", "Nguyễn"),  # NFC composes what it can; two marks may stack
        ("x\u0301\u0302\u0303", "x\u0301\u0302\u0303"),  # three marks: still a name
        ("🍑", "🍑"),
        ("\u3164Aki", "\u3164Aki"),  # a blank-looking character beside letters: visible
    ],
)
def test_names_are_trimmed_and_kept_as_typed(app_client: TestClient, name: str, shown: str) -> None:
    guest = Guest(app_client)
    assert guest.put("/api/me", json={"name": name}).json() == {"name": shown}
    assert guest.get("/api/me").json()["name"] == shown


@pytest.mark.parametrize(
    "name",
    [
        "",
        "   ",
        "a" * 17,
        "Aki\nSato",
        "A\u202eB",
        "x\u200by",
        # Issue 30, point 8: names with no visible letter, and marks piled on one character.
        "\u3164",
        "\uffa0\uffa0",
        "\u2800 \u2800",
        "\u115f\u1160",
        "\u0301\u0301",
        "x\u0301\u0302\u0303\u0304",
        "Z" + "\u0336\u0337\u0338\u0335" * 3,
    ],
)
def test_a_name_that_cannot_be_shown_is_refused(app_client: TestClient, name: str) -> None:
    guest = Guest(app_client, "Aki")
    response = guest.put("/api/me", json={"name": name})
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_name"
    assert guest.get("/api/me").json()["name"] == "Aki"


def test_me_tells_each_guest_a_public_id_of_their_own(app_client: TestClient) -> None:
    aki, ben = Guest(app_client), Guest(app_client)
    first = aki.get("/api/me").json()["id"]
    assert aki.get("/api/me").json()["id"] == first, "the same id on every visit"
    assert ben.get("/api/me").json()["id"] != first
    assert len(first) == 12 and first not in (aki.cookie or "")


def test_a_guest_without_a_name_joins_as_a_guest_number(app_client: TestClient) -> None:
    host, friend = Guest(app_client), Guest(app_client)
    table = host_table(host, "mancala", [ME, OPEN])
    friend.post(f"/api/rooms/{table['room_id']}/join", json={})
    with host.socket(table["room_id"]) as ws:
        sync, _ = until(ws, lambda m: m["type"] == "sync")
    names = [p["name"] for p in sync["players"]]
    assert all(name.startswith("Guest ") and len(name) == 10 for name in names)
    assert names[0] != names[1]


def test_a_stand_in_plays_for_a_person_away_and_hands_the_seat_back(
    app_client: TestClient,
) -> None:
    """ASOBIBA_STANDIN_SECONDS is 0.3 here: the friend's socket closes, a beginner plays their
    moves, everyone is told; their socket back, the seat is theirs again."""
    host, friend = Guest(app_client, "Aki"), Guest(app_client, "Bea")
    table = host_table(host, "mancala", [ME, OPEN], standin="beginner")
    room = table["room_id"]
    friend.post(f"/api/rooms/{room}/join", json={})
    with host.socket(room) as ws:
        with friend.socket(room) as friend_ws:
            until(friend_ws, lambda m: m["type"] == "sync")
            _, seen = until(ws, lambda m: m["type"] == "players" and m["players"][1]["connected"])
        # From the moment the socket drops, everyone sees the friend away and the countdown to
        # the stand-in (issue 31, point 9), before the stand-in plays.
        gone, dropped = until(
            ws, lambda m: m["type"] == "players" and not m["players"][1]["connected"]
        )
        assert gone["players"][1]["standin"] is None
        assert 0 < gone["players"][1]["standin_in"] <= 0.3
        away, more = until(
            ws, lambda m: m["type"] == "players" and m["players"][1]["standin"] == "beginner"
        )
        assert away["players"][1]["connected"] is False
        assert away["players"][1]["standin_in"] is None
        views = [m for m in seen + dropped + more if m["type"] in ("sync", "event")]
        legal = views[-1]["legal"]
        for _ in range(3):  # the host moves; the stand-in answers for the friend each time
            ws.send_json({"type": "act", "action": legal[0]})
            mine, _ = until(ws, lambda m: m["type"] == "event" and bool(m["legal"]))
            legal = mine["legal"]
        with friend.socket(room) as friend_ws:
            back, _ = until(friend_ws, lambda m: m["type"] == "sync")
            assert back["seat"] == 1
            handed, _ = until(
                ws, lambda m: m["type"] == "players" and m["players"][1]["standin"] is None
            )
            assert handed["players"][1]["connected"] is True
    stored = app_client.app.state.hub.store.load_room(room)  # type: ignore[attr-defined]
    played = [
        level
        for (seat, _, _), level in zip(stored.events, stored.standins, strict=True)
        if seat == 1
    ]
    assert played and set(played) == {"beginner"}, "the stand-in's moves are marked"
    assert all(
        level is None
        for (seat, _, _), level in zip(stored.events, stored.standins, strict=True)
        if seat == 0
    )


def test_when_a_persons_clock_runs_out_the_stand_in_plays_that_move(
    app_client: TestClient,
) -> None:
    """Five seconds a move and no reserve: the person who does not move loses the move to the
    stand-in, everyone is shown that the stand-in plays it, and the person keeps the seat
    (connected, not away; one timeout in a row)."""
    host, friend = Guest(app_client, "Aki"), Guest(app_client, "Bea")
    clock = {"move": 5, "reserve": 0}
    table = host_table(host, "mancala", [ME, OPEN], clock=clock)
    room = table["room_id"]
    friend.post(f"/api/rooms/{room}/join", json={})
    with host.socket(room) as ws, friend.socket(room) as friend_ws:
        sync, _ = until(ws, lambda m: m["type"] == "sync" and m["table"]["status"] == "playing")
        assert sync["table"]["clock"] == clock
        ticking, _ = until(
            ws, lambda m: m["type"] == "players" and m["players"][0]["clock"]["deadline_in"]
        )
        assert 0 < ticking["players"][0]["clock"]["deadline_in"] <= 5
        assert ticking["players"][0]["clock"]["reserve"] == 0
        # The host never moves: after 5 s the stand-in moves for them, and it is Bea's turn.
        turn, seen = until(friend_ws, lambda m: m["type"] == "event" and bool(m["legal"]))
        assert turn["obs"]["to_move"] == 1
        shown = [m["players"][0] for m in seen if m["type"] == "players"]
        assert any(p["standin"] == sync["table"]["standin"] for p in shown), "shown to Bea"
        assert all(p.get("away") is None for p in shown)
        players, _ = until(
            ws, lambda m: m["type"] == "players" and m["players"][0]["clock"]["timeouts"]
        )
        host = players["players"][0]
        assert host["connected"] and host["standin"] is None and host["away"] is None
        assert host["clock"]["timeouts"] == 1
    stored = app_client.app.state.hub.store.load_room(room)  # type: ignore[attr-defined]
    assert stored.events[0][0] == 0 and stored.standins[0] is not None
    assert stored.events[0][2] - stored.settings["started_at"] >= 5


def test_chat_is_kept_escaped_by_nobody_limited_and_closed_to_spectators(
    app_client: TestClient,
) -> None:
    host, friend, stranger = (
        Guest(app_client, "Aki"),
        Guest(app_client, "<i>Bea"),
        Guest(app_client),
    )
    table = host_table(host, "michikake", [ME, OPEN, {"kind": "bot", "level": "beginner"}])
    room = table["room_id"]
    friend.post(f"/api/rooms/{room}/join", json={})
    with host.socket(room) as ws, stranger.socket(room) as watching:
        until(ws, lambda m: m["type"] == "sync")
        watch_sync, _ = until(watching, lambda m: m["type"] == "sync")
        assert watch_sync["table"]["you"]["may_chat"] is False
        with friend.socket(room) as friend_ws:
            until(friend_ws, lambda m: m["type"] == "sync")
            friend_ws.send_json({"type": "chat", "text": "  <script>alert(1)</script>\n hi "})
            line, _ = until(watching, lambda m: m["type"] == "chat")
            assert line["entry"]["text"] == "<script>alert(1)</script> hi"
            assert line["entry"]["name"] == "<i>Bea" and line["entry"]["seat"] == 1
            assert set(line["entry"]) == {"n", "seat", "name", "text", "at"}
            friend_ws.send_json({"type": "chat", "stamp": "gg"})
            stamp, _ = until(ws, lambda m: m["type"] == "chat" and "stamp" in m["entry"])
            assert stamp["entry"]["stamp"] == "gg" and stamp["entry"]["n"] == 2
            refusals: list[tuple[dict[str, Any], str]] = [
                ({"text": "x" * 201}, "chat_too_long"),
                ({"text": " \n "}, "chat_empty"),
                ({"stamp": "card:K"}, "bad_message"),
                ({"text": 5}, "bad_message"),
            ]
            for bad, code in refusals:
                friend_ws.send_json({"type": "chat", **bad})
                error, _ = until(friend_ws, lambda m: m["type"] == "error")
                assert error["code"] == code
            codes = []
            for _ in range(6):
                friend_ws.send_json({"type": "chat", "text": "again"})
                answer, _ = until(friend_ws, lambda m: m["type"] in ("chat", "error"))
                codes.append(answer.get("code"))
            assert "chat_rate_limited" in codes, "five at once, then one per 2 s"
        watching.send_json({"type": "chat", "text": "may I?"})
        refused, _ = until(watching, lambda m: m["type"] == "error")
        assert refused["code"] == "chat_closed"
    stored = app_client.app.state.hub.store.load_room(room)  # type: ignore[attr-defined]
    assert [line.text for line in stored.chat][:2] == ["<script>alert(1)</script> hi", None]
    assert all(line.text != "may I?" for line in stored.chat)
