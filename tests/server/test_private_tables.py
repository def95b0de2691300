"""A private table's code cannot be guessed at speed, and once the table is over it is its
people's: its replay, full view, review, page, socket and code answer only them and whoever holds
a share link one of them passed on (docs/OPERATIONS.md, "What it promises")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from httpx2 import Response
from starlette.websockets import WebSocketDisconnect

from asobiba.server.app import create_app
from asobiba.server.settings import SocketLimits
from tests.server.cluster import Site, close_code, next_view
from tests.server.servers import Guest as LiveGuest
from tests.server.servers import next_message
from tests.server.tables import Guest, host_table, until
from tests.server.test_cluster import lease_owner, play, process_id
from tests.server.test_cluster import site as site  # a fixture this module uses

QUIET = SocketLimits(ping_seconds=None)
ME, BOT = {"kind": "me"}, {"kind": "bot", "level": "beginner"}


def app_with(url: str, **limits: Any) -> TestClient:
    app = create_app(url, secret_key="test-secret", bot_workers=1, socket_limits=QUIET, **limits)
    return TestClient(app)


@pytest.fixture(params=["sqlite", "postgres"])
def app_client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    with app_with(request.getfixturevalue(f"{request.param}_url")) as client:
        yield client


def finished_table(host: Guest, public: bool = False) -> dict[str, Any]:
    """A table of the host and a bot (it starts at once), a chat line, played to its end."""
    table = host_table(host, "mancala", [ME, BOT], options={"seeds": 3}, public=public)
    play_out(host, table["room_id"], chat="only for us")
    return table


def play_out(player: Guest, room: str, chat: str | None = None) -> None:
    """Play the first legal move whenever it is the player's turn, until the game is over."""
    with player.socket(room) as ws:
        message, _ = until(ws, lambda m: m["type"] == "sync")
        if chat is not None:
            ws.send_json({"type": "chat", "text": chat})
        while message.get("obs", {}).get("outcome") is None:
            if message["type"] in {"sync", "event"} and message["legal"]:
                ws.send_json({"type": "act", "action": message["legal"][0]})
            message = ws.receive_json()


def anonymous(client: TestClient, url: str) -> Response:
    """A request without any cookie (the app gives it a fresh guest, who sat nowhere)."""
    client.cookies.clear()
    return client.get(url, follow_redirects=False)


def everything(room: str, code: str, share: str = "") -> dict[str, str]:
    """Every address that shows a finished table (``share``: a query to add where it counts)."""
    return {
        "replay": f"/api/rooms/{room}/replay{share and '?' + share}",
        "reveal": f"/api/rooms/{room}/replay?reveal=true{share and '&' + share}",
        "review": f"/api/rooms/{room}/review{share and '?' + share}",
        "replay page": f"/replay/{room}{share and '?' + share}",
        "room page": f"/games/mancala/{room}",
        "code": f"/api/tables/{code}",
        "code page": f"/t/{code}",
    }


def test_a_finished_private_table_is_its_peoples_and_share_link_holders(
    app_client: TestClient,
) -> None:
    host = Guest(app_client, "Aki")
    table = finished_table(host)
    room, code = table["room_id"], table["code"]

    for what, url in everything(room, code).items():
        answer = anonymous(app_client, url)
        assert answer.status_code == 404, (what, answer.status_code)
        assert "only for us" not in answer.text and "Aki" not in answer.text
    assert anonymous(app_client, f"/api/tables/{code}").json()["error"]["code"] == "unknown_table"
    with pytest.raises(WebSocketDisconnect) as closed, Guest(app_client).socket(room) as ws:
        assert ws.receive_json()["code"] == "unknown_room"
        ws.receive_json()
    assert closed.value.code == 4404

    mine = {
        what: host.get(url, follow_redirects=False) for what, url in everything(room, code).items()
    }
    assert {what: r.status_code for what, r in mine.items()} == {
        "replay": 200,
        "reveal": 200,
        "review": 200,
        "replay page": 200,
        "room page": 200,
        "code": 200,
        "code page": 303,
    }
    replay = mine["replay"].json()
    assert replay["seat"] == 0 and replay["seats"][0]["name"] == "Aki"
    assert [line["text"] for line in replay["chat"]] == ["only for us"]
    link = replay["share"]
    assert link.startswith(f"/replay/{room}?share=")
    with host.socket(room) as ws:
        assert until(ws, lambda m: m["type"] == "sync")[0]["seat"] == 0

    share = link.split("?", 1)[1]
    for what in ("replay", "reveal", "review", "replay page"):
        assert anonymous(app_client, everything(room, code, share)[what]).status_code == 200, what
    shared = anonymous(app_client, everything(room, code, share)["replay"]).json()
    assert shared["chat"] == replay["chat"] and shared["seat"] is None
    assert shared["share"] is None, "only its people hand out the link"
    token = share.split("=", 1)[1]
    page = anonymous(app_client, link).text
    assert f'"share": "{token}"' in page, "the page's script asks the API with the same token"
    tampered = token[:-1] + ("A" if token[-1] != "A" else "B")
    for bad in (tampered, token.lower(), "", "é" * 24, table["code"]):
        for what in ("replay", "reveal", "review", "replay page"):
            url = everything(room, code, f"share={bad}")[what]
            assert anonymous(app_client, url).status_code == 404, (what, bad)


def test_a_stranger_on_another_process_finds_no_finished_private_table(site: Site) -> None:
    """The socket's rule holds where the room is owned by another process (the switchboard)."""
    owner, other = site.start(2)
    host = LiveGuest(owner.base)
    body = {"game": "mancala", "options": {"seeds": 3}, "seats": [ME, BOT]}
    status, table = host.request("POST", "/api/rooms", body)
    assert status == 201, table
    with host.socket(table["ws"]) as ws:
        assert play(ws)["obs"]["outcome"] is not None  # the room stays on its owner meanwhile
        assert lease_owner(site, table["room_id"]) == process_id(owner)
        with LiveGuest(other.base).socket(table["ws"]) as stranger:
            refused = next_message(stranger)
            assert (refused["type"], refused["code"]) == ("error", "unknown_room"), refused
            assert close_code(stranger) == 4404
        with host.socket(table["ws"], base=other.base) as mine:
            assert next_view(mine)["seat"] == 0, "its player is served there"


def test_a_share_link_opens_only_its_own_table(app_client: TestClient) -> None:
    host = Guest(app_client, "Aki")
    first, second = finished_table(host), finished_table(host)
    link = host.get(f"/api/rooms/{first['room_id']}/replay").json()["share"]
    share = link.split("?", 1)[1]
    assert (
        anonymous(app_client, f"/api/rooms/{second['room_id']}/replay?{share}").status_code == 404
    )


def test_a_public_table_and_a_game_against_bots_stay_anyones(app_client: TestClient) -> None:
    host = Guest(app_client, "Aki")
    table = finished_table(host, public=True)
    for what, url in everything(table["room_id"], table["code"]).items():
        assert anonymous(app_client, url).status_code in {200, 303}, what
    assert host.get(f"/api/rooms/{table['room_id']}/replay").json()["share"] is None
    body = {"game": "mancala", "level": "beginner", "options": {"seeds": 3}}
    against_bots = host.post("/api/rooms", json=body).json()["room_id"]
    play_out(host, against_bots)
    assert anonymous(app_client, f"/api/rooms/{against_bots}/replay").status_code == 200
    assert anonymous(app_client, f"/replay/{against_bots}").status_code == 200


def limited(url: str, monkeypatch: pytest.MonkeyPatch, **limits: float) -> TestClient:
    """An app whose look-up limits come from the environment, as a site sets them."""
    for name, value in limits.items():
        monkeypatch.setenv(f"ASOBIBA_LIMIT_{name.upper()}", str(value))
    return app_with(url)


def test_a_guest_guessing_codes_is_refused_with_retry_after(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    limits = {"lookups_burst": 3, "lookups_per_minute": 0.5, "lookups_address_burst": 10}
    with limited(sqlite_url, monkeypatch, **limits) as client:
        host, guesser = Guest(client, "Aki"), Guest(client)
        table = host_table(host, "mancala", [ME, {"kind": "open"}])
        found = f"/api/tables/{table['code']}"
        guesses = ["/api/tables/AAAAAA", found, "/t/BBBBBB"]  # a hit counts as a miss does
        assert [guesser.get(url).status_code for url in guesses] == [404, 200, 404]
        refused = guesser.get("/api/tables/CCCCCC")
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "too_many_lookups"
        assert int(refused.headers["retry-after"]) >= 1
        assert guesser.get(found).status_code == 429
        page = guesser.get(f"/t/{table['code']}", follow_redirects=False)
        assert page.status_code == 429 and int(page.headers["retry-after"]) >= 1
        assert page.headers["content-type"].startswith("text/plain")
        assert host.get(found).status_code == 200, "another guest at the address still may"


def test_fresh_cookies_do_not_escape_the_address_look_up_limit(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    limits = {"lookups_burst": 3, "lookups_address_burst": 5, "lookups_address_per_minute": 0.5}
    with limited(sqlite_url, monkeypatch, **limits) as client:
        codes = []
        for url in ["/api/tables/AAAAAA", "/t/BBBBBB"] * 4:
            client.cookies.clear()  # a new guest every time, from the same address
            codes.append(client.get(url).status_code)
        assert codes == [404] * 5 + [429] * 3
        client.cookies.clear()
        # The code box without scripts (/t?code=) sends the visitor on to /t/{code}.
        assert client.get("/t?code=CCCCCC").status_code == 429
