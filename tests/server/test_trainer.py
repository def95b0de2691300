"""The call trainer through the real app: the server seeds each session, turns the cards, times
and judges every answer (nothing the browser says about time is read), keeps each guest's best
figures on both back ends, and answers bad input with a clear error that changes nothing."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from asobiba.games.mokochaka import judge, parse_card
from asobiba.games.mokochaka.cards import SPECIALS
from asobiba.games.mokochaka.data import TRAINER
from asobiba.games.mokochaka.trainer import KINDS
from asobiba.server.app import create_app
from asobiba.server.settings import GuestLimits, SocketLimits
from asobiba.server.store.db import Player, make_engine, migrate, session_factory
from asobiba.server.store.store import Store
from tests.server.stored_games import store_of, stored_game
from tests.server.tables import Guest

WS = "/ws/learn/mokochaka/trainer"


@contextlib.contextmanager
def trainer_app(url: str, **limits: Any) -> Iterator[TestClient]:
    """The app with no pause before a card and no pings (these tests read every message)."""
    app = create_app(
        url,
        secret_key="test-secret",
        bot_workers=1,
        socket_limits=SocketLimits(ping_seconds=None),
        guest_limits=GuestLimits(**limits),
        trainer_pause=0,
    )
    with TestClient(app) as client:
        yield client


@pytest.fixture
def trainer(sqlite_url: str) -> Iterator[TestClient]:
    with trainer_app(sqlite_url) as client:
        yield client


def right(card: dict[str, Any]) -> dict[str, str]:
    """The right answer to a card, worked out from what the card shows."""
    tops = [parse_card(pile["top"]) for pile in card["view"]["piles"] if pile["top"]]
    word = min(judge(tops))
    return {"grab" if word in SPECIALS else "call": word}


def receive(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    message = ws.receive_json()
    assert message["type"] == kind, message
    return message


def ready(ws: WebSocketTestSession) -> dict[str, Any]:
    message = receive(ws, "ready")
    assert message["kinds"] == KINDS
    return message


def play_session(ws: WebSocketTestSession, wrong: int = 0) -> dict[str, Any]:
    """Start a session and answer every card (the first ``wrong`` with a wrong call)."""
    ws.send_json({"type": "start"})
    assert receive(ws, "session")["cards"] == TRAINER.flips
    for n in range(1, TRAINER.flips + 1):
        card = receive(ws, "card")
        assert card["n"] == n and card["limit"] == 3.0
        action = (
            right(card)
            if n > wrong
            else {"call": "moko" if right(card) != {"call": "moko"} else "paka"}
        )
        ws.send_json({"type": "answer", "n": n, "action": action})
        judged = receive(ws, "judged")
        assert judged["n"] == n and judged["said"] == action
        assert judged["right"] is (n > wrong)
        assert right(card) in judged["correct"]
        assert 0 <= judged["seconds"] < 3, "timed by the server: a quick answer"
        assert judged["feedback"]["ja"] and judged["feedback"]["en"]
        assert judged["kind"] in KINDS
    return receive(ws, "done")


def test_the_trainer_page_and_api_exist_for_a_game_with_a_trainer_only(trainer: TestClient) -> None:
    page = trainer.get("/learn/mokochaka/trainer")
    assert page.status_code == 200 and 'id="trainer"' in page.text
    assert "/static/js/mokochaka/trainer.js" in page.text
    assert "/learn/mokochaka/trainer" in trainer.get("/learn/mokochaka").text
    body = trainer.get("/api/learn/mokochaka/trainer").json()
    assert body["kinds"] == KINDS and body["best"] == {}
    assert [level["id"] for level in body["levels"]] == ["beginner", "casual", "strong", "expert"]
    for game in ("mancala", "chess"):
        assert trainer.get(f"/learn/{game}/trainer").status_code == 404
        answer = trainer.get(f"/api/learn/{game}/trainer")
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "no_trainer"


def test_a_socket_to_a_game_without_a_trainer_is_told_so_and_closed(trainer: TestClient) -> None:
    with trainer.websocket_connect("/ws/learn/mancala/trainer") as ws:
        assert receive(ws, "error")["code"] == "no_trainer"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_a_session_is_timed_and_judged_by_the_server_and_kept_for_the_guest(
    trainer: TestClient,
) -> None:
    with trainer.websocket_connect(WS) as ws:
        ready(ws)
        anonymous = play_session(ws)
    assert anonymous["summary"]["right"] == TRAINER.flips
    assert anonymous["best"] == {}, "a socket without a guest's cookie keeps nothing"
    trainer.get("/learn/mokochaka/trainer")  # the page makes the visitor a guest
    with trainer.websocket_connect(WS) as ws:
        ready(ws)
        done = play_session(ws, wrong=1)
    summary = done["summary"]
    assert summary["tries"] == TRAINER.flips and summary["right"] == TRAINER.flips - 1
    assert sum(kind["tries"] for kind in summary["kinds"]) == TRAINER.flips
    assert done["best"]["all"]["sessions"] == 1
    assert done["best"]["all"]["accuracy"] == summary["accuracy"]
    best = trainer.get("/api/learn/mokochaka/trainer").json()["best"]
    assert best == done["best"]
    assert set(best) == {"all", *KINDS}
    with TestClient(trainer.app) as other:
        assert other.get("/api/learn/mokochaka/trainer").json()["best"] == {}
        assert other.get("/api/records/mokochaka").json()["learning"]["trainer"]["best"] == {}
    learning = trainer.get("/api/records/mokochaka").json()["learning"]
    assert learning["trainer"]["best"] == best, "the records page shows the same best figures"
    assert set(learning["trainer"]["kinds"]) == set(KINDS)
    assert learning["lessons"]["done"] == 0 < learning["lessons"]["total"]


def test_the_time_counted_is_the_servers_from_card_to_answer(trainer: TestClient) -> None:
    """A learner who waits before answering is timed with the wait; a time the browser sends
    is no part of an answer."""
    with trainer.websocket_connect(WS) as ws:
        ready(ws)
        ws.send_json({"type": "start"})
        receive(ws, "session")
        card = receive(ws, "card")
        ws.send_json({"type": "answer", "n": 1, "action": right(card), "seconds": 0.01})
        assert receive(ws, "error")["code"] == "bad_message"
        time.sleep(0.3)
        ws.send_json({"type": "answer", "n": 1, "action": right(card)})
        judged = receive(ws, "judged")
        assert judged["right"] and judged["seconds"] >= 0.29


def test_an_unanswered_card_is_judged_late_and_a_later_answer_is_too_late(
    trainer: TestClient,
) -> None:
    with trainer.websocket_connect(WS) as ws:
        ready(ws)
        ws.send_json({"type": "start"})
        receive(ws, "session")
        card = receive(ws, "card")
        judged = receive(ws, "judged")  # nobody answered: the server's timer judged it
        assert judged == {**judged, "n": 1, "right": False, "said": None, "seconds": None}
        assert "3 seconds" in judged["feedback"]["en"]
        ws.send_json({"type": "answer", "n": 1, "action": right(card)})
        messages = [ws.receive_json(), ws.receive_json()]
        assert {"type": "card", "n": 2}.items() <= next(
            m for m in messages if m["type"] == "card"
        ).items()
        assert next(m for m in messages if m["type"] == "error")["code"] == "too_late"


def test_bad_frames_get_clear_errors_and_change_nothing(trainer: TestClient) -> None:
    with trainer.websocket_connect(WS) as ws:
        ready(ws)
        ws.send_json({"type": "answer", "n": 1, "action": {"call": "moko"}})
        assert receive(ws, "error")["code"] == "no_card"
        for frame, code in [
            ("{moko", "bad_json"),
            ("[1, 2]", "bad_message"),
            ('{"type": "start", "seed": 1}', "bad_message"),
            ('{"type": "answer", "n": "1", "action": {}}', "bad_message"),
            ('{"type": "answer", "n": 1, "action": "moko"}', "bad_message"),
            ('{"type": "pong", "id": 1.0}', "bad_message"),
            ('{"type": "hint"}', "bad_message"),
            ("x" * 5000, "too_large"),
        ]:
            ws.send_text(frame)
            error = receive(ws, "error")
            assert error["code"] == code, frame
            assert error["message"]
        ws.send_bytes(b"\x00")
        assert receive(ws, "error")["code"] == "bad_message"
        ws.send_json({"type": "start"})
        receive(ws, "session")
        card = receive(ws, "card")
        ws.send_json({"type": "answer", "n": 2, "action": right(card)})
        assert receive(ws, "error")["code"] == "no_card"
        ws.send_json({"type": "start"})
        assert receive(ws, "error")["code"] == "busy"
        for action in ({"grab": "moko"}, {"call": "mokopome"}, {"take": [0]}):
            ws.send_json({"type": "answer", "n": 1, "action": action})
            assert receive(ws, "error")["code"] == "illegal_action"
        ws.send_json({"type": "answer", "n": 1, "action": right(card)})
        assert receive(ws, "judged")["right"], "the card stayed open for a real answer"
    assert trainer.get("/api/learn/mokochaka/trainer").json()["best"] == {}


def test_one_address_holds_few_trainer_sockets(sqlite_url: str) -> None:
    with trainer_app(sqlite_url, trainer_sockets_per_address=1) as client:
        with client.websocket_connect(WS) as first:
            ready(first)
            with client.websocket_connect(WS) as second:
                assert receive(second, "error")["code"] == "too_many_sockets"
                with pytest.raises(WebSocketDisconnect) as closed:
                    second.receive_json()
                assert closed.value.code == 4409
        with client.websocket_connect(WS) as again:
            ready(again)


def test_a_flood_of_frames_is_refused_and_closed(sqlite_url: str) -> None:
    app = create_app(
        sqlite_url,
        secret_key="test-secret",
        bot_workers=1,
        socket_limits=SocketLimits(ping_seconds=None, burst=3, per_second=0.1),
        trainer_pause=0,
    )
    with TestClient(app) as client, client.websocket_connect(WS) as ws:
        ready(ws)
        for _ in range(4):
            ws.send_text("{}")
        codes = [ws.receive_json()["code"] for _ in range(4)]
        assert codes == ["bad_message"] * 3 + ["rate_limited"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4429


@pytest.mark.parametrize("backend", ["sqlite_url", "postgres_url"])
def test_the_best_figures_keep_the_best_of_every_session(
    backend: str, request: pytest.FixtureRequest
) -> None:
    engine = make_engine(request.getfixturevalue(backend))
    try:
        migrate(engine)
        store = Store(session_factory(engine))
        levels = ["beginner", "casual", "strong", "expert"]

        def figures(accuracy: float, seconds: float | None, level: str | None) -> dict[str, Any]:
            kind = {
                "kind": "pair",
                "tries": 2,
                "right": 2,
                "accuracy": accuracy,
                "seconds": seconds,
            }
            return {
                "tries": 14,
                "accuracy": accuracy,
                "seconds": seconds,
                "level": level,
                "kinds": [kind],
            }

        store.record_drill("guest-1", "mokochaka", figures(0.8, 1.2, "casual"), levels)
        store.record_drill("guest-1", "mokochaka", figures(0.9, 1.5, "beginner"), levels)
        store.record_drill("guest-1", "mokochaka", figures(0.5, None, None), levels)
        best = store.drill_bests("guest-1", "mokochaka")
        assert best["all"] == {"sessions": 3, "accuracy": 0.9, "seconds": 1.2, "level": "casual"}
        assert best["pair"] == {"sessions": 3, "accuracy": 0.9, "seconds": 1.2, "level": None}
        assert store.drill_bests("guest-2", "mokochaka") == {}
        assert store.drill_bests("guest-1", "mancala") == {}
        store.close()
    finally:
        engine.dispose()


def test_the_play_page_offers_the_course_until_the_guest_has_played(trainer: TestClient) -> None:
    guest = Guest(trainer)
    for game in ("mokochaka", "mancala"):
        page = guest.get(f"/games/{game}").text
        assert 'id="learn-offer"' in page and f'href="/learn/{game}" id="learn-offer-go"' in page
    assert 'id="learn-offer"' not in guest.get("/games/momojan").text, "no course to offer"
    store = store_of(trainer)
    with store.sessions() as session:
        [person] = session.scalars(select(Player.id)).all()
    seats = [{"player": person}, {"bot": "beginner"}]
    stored_game(store, "r1", seats, seed=3, game_name="mancala", options={})
    assert store.has_results(person, "mancala")
    assert 'id="learn-offer"' not in guest.get("/games/mancala").text
    assert '"played": true' in guest.get("/games/mancala").text, "the coach starts off"
    assert '"played": false' in guest.get("/games/mokochaka").text
    assert 'id="learn-offer"' in guest.get("/games/mokochaka").text, "another game: still new"


def test_the_server_pings_a_line_it_cannot_time_otherwise_and_reads_the_pongs(
    sqlite_url: str,
) -> None:
    """Starlette's test client has no TCP estimate: the server's own pings time the line, and
    a pong is answered with nothing."""
    app = create_app(
        sqlite_url,
        secret_key="test-secret",
        bot_workers=1,
        socket_limits=SocketLimits(ping_seconds=0.05),
        trainer_pause=0,
    )
    with TestClient(app) as client, client.websocket_connect(WS) as ws:
        pings = 0
        while pings < 3:
            message = ws.receive_json()
            if message["type"] == "ping":
                pings += 1
                ws.send_json({"type": "pong", "id": message["id"]})
        ws.send_json({"type": "start"})
        card = None
        while True:
            message = ws.receive_json()
            if message["type"] == "ping":
                ws.send_json({"type": "pong", "id": message["id"]})
            elif message["type"] == "card" and card is None:
                card = message
                ws.send_json({"type": "answer", "n": 1, "action": right(card)})
            elif message["type"] == "judged":
                assert message["right"] and message["seconds"] >= 0
                break
            else:
                assert message["type"] in ("ready", "session"), message
