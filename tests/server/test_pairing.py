"""Play someone now through the app on one process (memory pools): seeks, the pairing socket,
the table made for the people paired, computers after the wait, bad input refused with nothing
queued (docs/ARCHITECTURE.md, "Play someone now"), on SQLite and PostgreSQL. Two processes on
PostgreSQL and Redis: tests/server/test_pairing_cluster.py."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from asobiba.games import get_game
from asobiba.server.app import create_app
from asobiba.server.pairing.ratings import level_near
from asobiba.server.settings import SocketLimits
from asobiba.server.social.pairing import PoolRules, Schedule, load_schedule
from tests.server.tables import Guest, until

OFFER_SECONDS = 1.0


def short_offer() -> Schedule:
    """The designed schedule with the computers offered after a second (tests wait on it)."""
    designed = load_schedule()
    return Schedule(
        designed.steps,
        OFFER_SECONDS,
        designed.offer_reason,
        designed.clock_move,
        designed.clock_reserve,
    )


@pytest.fixture(params=["sqlite", "postgres"])
def app_client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    url = request.getfixturevalue(f"{request.param}_url")
    quiet = SocketLimits(ping_seconds=None)
    app = create_app(
        url,
        secret_key="test-secret",
        bot_workers=1,
        socket_limits=quiet,
        bot_pace=0,
        pairing_schedule=short_offer(),
    )
    with TestClient(app) as client:
        yield client


def seek(guest: Guest, game: str = "mancala", **body: Any) -> dict[str, Any]:
    response = guest.post("/api/pairing", json={"game": game, "options": {}, **body})
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


@contextlib.contextmanager
def watching(guest: Guest, ws_path: str) -> Iterator[WebSocketTestSession]:
    guest._wear()
    with guest.client.websocket_connect(ws_path) as ws:
        yield ws


def paired(ws: WebSocketTestSession) -> dict[str, Any]:
    message, _ = until(ws, lambda m: m["type"] in {"paired", "ended"})
    assert message["type"] == "paired", message
    return message


def play_to_the_end(
    sockets: dict[int, WebSocketTestSession], views: dict[int, dict[str, Any]]
) -> dict[str, Any]:
    """From each seat's latest view, each seat plays its first legal move whenever it may,
    until the game ends; the outcome."""
    while views[0]["obs"]["outcome"] is None:
        seat = next(seat for seat, view in views.items() if view["legal"])
        sockets[seat].send_json({"type": "act", "action": views[seat]["legal"][0]})
        for k, ws in sockets.items():
            views[k], _ = until(ws, lambda m: m["type"] == "event")
    outcome: dict[str, Any] = views[0]["obs"]["outcome"]
    return outcome


def test_two_guests_are_paired_at_one_table_and_play_it_to_the_end(app_client: TestClient) -> None:
    aki, bea = Guest(app_client, "Aki"), Guest(app_client, "Bea")
    mine = seek(aki)
    kalah = "capture=standard,count_leftovers=true,pits=6,seeds=4,variant=kalah"
    assert mine["pool"] == f"mancala/2/{kalah}"
    assert mine["rating"] == 1500, "nobody is rated yet: Glicko-2's start"
    rules = PoolRules("mancala", get_game("mancala").resolve_options({}), 2)
    assert mine["bots"] == level_near(get_game("mancala"), rules, 1500)
    assert mine["schedule"]["offer_seconds"] == OFFER_SECONDS
    with watching(aki, mine["ws"]) as aki_ws:
        first = aki_ws.receive_json()
        assert first["type"] == "seeking" and first["pool"] == mine["pool"]
        assert (first["rules"]["game"], first["rules"]["players"]) == ("mancala", 2)
        theirs = seek(bea)
        assert theirs["pool"] == mine["pool"]
        with watching(bea, theirs["ws"]) as bea_ws:
            for_aki, for_bea = paired(aki_ws), paired(bea_ws)
    room = for_aki["room_id"]
    assert for_bea["room_id"] == room and for_aki["url"] == f"/games/mancala/{room}"
    assert {for_aki["seat"], for_bea["seat"]} == {0, 1}
    assert for_aki["people"] == 2 and for_aki["bots"] is None
    assert app_client.get("/api/pairing").json() == {"seeking": None}
    with aki.socket(room) as a, bea.socket(room) as b:
        sockets = {for_aki["seat"]: a, for_bea["seat"]: b}
        views = {seat: until(ws, lambda m: m["type"] == "sync")[0] for seat, ws in sockets.items()}
        sync = views[for_aki["seat"]]
        assert sync["table"]["status"] == "playing" and sync["table"]["public"] is False
        assert sync["table"]["host"] is None, "nobody hosts a table the site made"
        assert sync["table"]["paired"] is True
        assert sync["table"]["clock"] == {"move": 30.0, "reserve": 120.0}
        names = [player["name"] for player in sync["players"]]
        assert names[for_aki["seat"]] == "Aki" and names[for_bea["seat"]] == "Bea"
        outcome = play_to_the_end(sockets, views)
    assert outcome["winners"]
    records = aki.get("/api/records/mancala").json()
    assert [row["people"] for row in records["rows"]] == [2]
    # A table the site paired is rated: both people's ratings moved, and the next seek is
    # paired by the new rating.
    after = {}
    for person in (aki, bea):
        public = person.get("/api/me").json()["id"]
        rated = person.get(f"/api/players/{public}").json()["ratings"]["mancala/kalah"]
        assert rated["games"] == 1 and rated["rating"] != 1500
        after[person] = rated["rating"]
    assert (after[aki] > 1500) == (for_aki["seat"] in outcome["winners"])
    assert seek(aki)["rating"] == round(after[aki])
    assert aki.delete("/api/pairing").json() == {"cancelled": True}


def test_after_the_wait_a_person_starts_with_computers_of_about_their_rating(
    app_client: TestClient,
) -> None:
    aki = Guest(app_client, "Aki")
    mine = seek(aki)
    with watching(aki, mine["ws"]) as ws:
        assert ws.receive_json()["type"] == "seeking"
        ws.send_json({"type": "bots"})
        refused, _ = until(ws, lambda m: m["type"] == "error")
        assert refused["code"] == "too_soon", "only once the wait is over"
        offer, _ = until(ws, lambda m: m["type"] == "offer")
        assert offer["bots"] == mine["bots"]
        ws.send_json({"type": "bots"})
        table = paired(ws)
    assert table["people"] == 1 and table["bots"] == mine["bots"]
    with aki.socket(table["room_id"]) as room:
        sync, _ = until(room, lambda m: m["type"] == "sync")
    assert sync["seat"] == table["seat"] and sync["table"]["status"] == "playing"
    kinds = [(player["kind"], player.get("level")) for player in sync["players"]]
    assert sorted(kinds, key=str) == sorted([("human", None), ("bot", mine["bots"])], key=str)
    assert sync["table"]["clock"] is None, "alone with computers, nobody waits on anybody"
    assert app_client.get("/api/pairing").json() == {"seeking": None}


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "chess"}, 404, "unknown_game"),
        ({"game": "mancala", "options": {"seeds": 9}}, 400, "invalid_options"),
        ({"game": "mancala", "options": {"colour": "red"}}, 400, "invalid_options"),
        ({"game": "mancala", "options": {"pits": 4}}, 400, "invalid_options"),
        ({"game": "mancala", "players": 3}, 400, "invalid_players"),
        ({"game": "mokochaka", "players": "3"}, 400, "bad_request"),
        ({"game": "mokochaka", "players": 7}, 400, "invalid_players"),
        ({"game": "mancala", "rating": 2000}, 400, "rating_refused"),
        ({"game": "mancala", "level": "expert"}, 400, "bad_request"),
    ],
)
def test_a_bad_seek_is_refused_and_nothing_is_queued(
    app_client: TestClient, body: dict[str, Any], status: int, code: str
) -> None:
    aki = Guest(app_client)
    response = aki.post("/api/pairing", json=body)
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code
    assert aki.get("/api/pairing").json() == {"seeking": None}
    with watching(aki, "/ws/pairing?pool=mancala") as ws:
        assert ws.receive_json() == {"type": "ended", "reason": "not_seeking"}


def test_two_tabs_are_one_seeker_and_both_go_to_the_table(app_client: TestClient) -> None:
    aki, bea = Guest(app_client, "Aki"), Guest(app_client, "Bea")
    first = seek(aki)
    with watching(aki, first["ws"]) as tab1:
        before = tab1.receive_json()
        second = seek(aki)  # the second tab
        assert second["pool"] == first["pool"]
        with watching(aki, second["ws"]) as tab2:
            again = tab2.receive_json()
            assert again["waited"] >= before["waited"], "the same seek: its wait kept"
            waiting = aki.get("/api/pairing").json()["seeking"]
            assert waiting["pool"] == first["pool"]
            theirs = seek(bea)
            with watching(bea, theirs["ws"]) as bea_ws:
                tables = [paired(tab1), paired(tab2), paired(bea_ws)]
    assert len({table["room_id"] for table in tables}) == 1
    assert tables[0]["seat"] == tables[1]["seat"] != tables[2]["seat"]
    assert tables[0]["people"] == 2


def test_cancelling_in_one_tab_ends_every_tab(app_client: TestClient) -> None:
    aki = Guest(app_client)
    mine = seek(aki)
    with watching(aki, mine["ws"]) as tab1, watching(aki, mine["ws"]) as tab2:
        tab1.receive_json()
        tab2.receive_json()
        tab1.send_json({"type": "cancel"})
        for tab in (tab1, tab2):
            ended, _ = until(tab, lambda m: m["type"] == "ended")
            assert ended["reason"] == "cancelled"
    assert aki.get("/api/pairing").json() == {"seeking": None}
    assert aki.delete("/api/pairing").json() == {"cancelled": False}


def test_a_seek_elsewhere_ends_the_first_tabs(app_client: TestClient) -> None:
    aki = Guest(app_client)
    kalah = seek(aki)
    with watching(aki, kalah["ws"]) as tab:
        tab.receive_json()
        basic = seek(aki, options={"variant": "basic"})
        assert basic["pool"] != kalah["pool"]
        ended, _ = until(tab, lambda m: m["type"] == "ended")
        assert ended["reason"] == "elsewhere"
    assert aki.get("/api/pairing").json()["seeking"]["pool"] == basic["pool"]


def test_closing_the_page_leaves_the_pool(app_client: TestClient) -> None:
    aki = Guest(app_client)
    mine = seek(aki)
    with watching(aki, mine["ws"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "dance"})
        assert until(ws, lambda m: m["type"] == "error")[0]["code"] == "bad_message"
    deadline = time.monotonic() + 10
    while aki.get("/api/pairing").json()["seeking"] is not None:
        assert time.monotonic() < deadline, "the seek outlived its page"
        time.sleep(0.05)


def test_three_people_gather_a_table_of_three(app_client: TestClient) -> None:
    guests = [Guest(app_client, name) for name in ("Aki", "Bea", "Cho", "Dai")]
    seeks = [seek(guest, "mokochaka", players=3) for guest in guests[:3]]
    fourth = seek(guests[3], "mokochaka", players=4)
    assert len({s["pool"] for s in seeks}) == 1 and fourth["pool"] != seeks[0]["pool"]
    with contextlib.ExitStack() as stack:
        sockets = [
            stack.enter_context(watching(guest, s["ws"]))
            for guest, s in zip(guests, [*seeks, fourth], strict=True)
        ]
        tables = [paired(ws) for ws in sockets[:3]]
        sockets[3].send_json({"type": "cancel"})
        assert until(sockets[3], lambda m: m["type"] in {"paired", "ended"})[0] == {
            "type": "ended",
            "reason": "cancelled",
        }, "four seats: not seated with the three"
    assert len({table["room_id"] for table in tables}) == 1
    assert sorted(table["seat"] for table in tables) == [0, 1, 2]
    assert all(table["people"] == 3 and table["bots"] is None for table in tables)
