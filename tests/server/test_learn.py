"""Lessons over HTTP: the engine's verdict, progress per guest, clear errors for bad input."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from asobiba.games.mancala.lessons import LESSON_BY_ID


def answer(client: TestClient, lesson: str, *pits: int) -> Any:
    moves = [{"pit": pit - 1} for pit in pits]
    return client.post(f"/api/learn/mancala/{lesson}", json={"moves": moves})


def done(client: TestClient) -> set[str]:
    listed = client.get("/api/learn/mancala").json()["lessons"]
    return {lesson["id"] for lesson in listed if lesson["done"]}


def test_the_lessons_list_positions_and_nothing_is_done_at_first(client: TestClient) -> None:
    body = client.get("/api/learn/mancala").json()
    assert body["game"] == "mancala"
    first = body["lessons"][0]
    assert first["id"] == "sowing"
    assert first["view"]["pits"][0] == [0, 2, 0, 2, 0, 2]
    assert {"pit": 5} in first["legal"]
    assert not any(lesson["done"] for lesson in body["lessons"])


def test_a_right_answer_is_remembered_for_that_guest_only(client: TestClient) -> None:
    wrong = answer(client, "capture", LESSON_BY_ID["capture"].wrong)
    assert wrong.status_code == 200
    assert wrong.json()["status"] == "wrong"
    assert done(client) == set()
    right = answer(client, "capture", *LESSON_BY_ID["capture"].answer)
    assert right.json()["status"] == "right"
    assert right.json()["feedback"]["en"]
    assert done(client) == {"capture"}
    assert answer(client, "capture", *LESSON_BY_ID["capture"].answer).json()["status"] == "right"
    assert done(client) == {"capture"}
    with TestClient(client.app) as other:
        assert done(other) == set(), "another guest's progress is their own"
        chain = LESSON_BY_ID["chain"].answer
        assert answer(other, "chain", *chain[:2]).json()["status"] == "continue"
        assert done(other) == set(), "a lesson half done is not done"
        assert answer(other, "chain", *chain).json()["status"] == "right"
        assert done(other) == {"chain"}
    assert done(client) == {"capture"}


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("/api/learn/mancala/no-such-lesson", {"moves": [{"pit": 1}]}, 404, "unknown_lesson"),
        ("/api/learn/mokochaka/sowing", {"moves": [{"pit": 1}]}, 404, "unknown_lesson"),
        ("/api/learn/chess/sowing", {"moves": [{"pit": 1}]}, 404, "no_lessons"),
        ("/api/learn/mancala/sowing", {"moves": [{"pit": 0}]}, 400, "illegal_action"),
        ("/api/learn/mancala/sowing", {"moves": [{"pit": 9}]}, 400, "illegal_action"),
        ("/api/learn/mancala/sowing", {"moves": []}, 400, "bad_request"),
        ("/api/learn/mancala/sowing", {"moves": "5"}, 400, "bad_request"),
        ("/api/learn/mancala/sowing", {"moves": [{"pit": 5}], "seat": 1}, 400, "bad_request"),
        ("/api/learn/mancala/sowing", {"moves": [{"pit": 5}] * 33}, 400, "bad_request"),
    ],
)
def test_bad_input_gets_a_clear_error_and_changes_nothing(
    client: TestClient, path: str, body: Any, status: int, code: str
) -> None:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code
    assert response.json()["error"]["message"]
    assert done(client) == set()


def test_a_body_that_is_not_json_is_refused(client: TestClient) -> None:
    response = client.post(
        "/api/learn/mancala/sowing", content=b"{moves", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_request"


def test_the_learn_page_exists_only_for_a_game_with_lessons(client: TestClient) -> None:
    page = client.get("/learn/mancala")
    assert page.status_code == 200
    assert 'id="lessons"' in page.text
    assert client.get("/learn/nothing").status_code == 404


def mokochaka_done(client: TestClient) -> set[str]:
    listed = client.get("/api/learn/mokochaka").json()["lessons"]
    return {lesson["id"] for lesson in listed if lesson["done"]}


def test_the_mokochaka_course_is_judged_on_the_server_and_remembered(client: TestClient) -> None:
    from asobiba.games.mokochaka.lessons import LESSON_BY_ID as MOKOCHAKA

    body = client.get("/api/learn/mokochaka").json()
    first = body["lessons"][0]
    assert first["covers"][0] == {"id": "about", "title": first["covers"][0]["title"]}
    demo = next(lesson["demo"] for lesson in body["lessons"] if lesson["demo"])
    assert demo["frames"][0]["view"]["game"] == "mokochaka" and demo["title"]["en"]
    data = MOKOCHAKA["the-end"]
    wrong = client.post("/api/learn/mokochaka/the-end", json={"moves": list(data.wrong)})
    assert wrong.json()["status"] == "wrong" and mokochaka_done(client) == set()
    half = client.post("/api/learn/mokochaka/the-end", json={"moves": list(data.answer[:1])})
    assert half.json()["status"] == "continue" and {"take": [0, 2]} in half.json()["legal"]
    right = client.post("/api/learn/mokochaka/the-end", json={"moves": list(data.answer)})
    assert right.json()["status"] == "right"
    assert mokochaka_done(client) == {"the-end"}
    assert done(client) == set(), "each game's progress is its own"


@pytest.mark.parametrize(
    ("lesson", "moves", "code"),
    [
        ("calling", [{"wait": True}], "illegal_action"),  # the flipper cannot let it go by
        ("calling", [{"flip": 0}], "illegal_action"),
        ("calling", [{"call": "moko"}, {"call": "moko"}], "illegal_action"),
        ("calling", [{"grab": "moko"}], "illegal_action"),
        ("hands-off", [{"wait": 1}], "illegal_action"),
        ("calling", [{"call": "mokopaka", "at": 0.1}], "illegal_action"),
    ],
)
def test_a_mokochaka_move_that_is_not_legal_gets_a_clear_400(
    client: TestClient, lesson: str, moves: list[Any], code: str
) -> None:
    response = client.post(f"/api/learn/mokochaka/{lesson}", json={"moves": moves})
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == code
    assert mokochaka_done(client) == set()


def test_the_records_say_how_much_of_the_course_is_done(client: TestClient) -> None:
    total = len(client.get("/api/learn/mancala").json()["lessons"])
    before = client.get("/api/records/mancala").json()["learning"]
    assert before == {"lessons": {"done": 0, "total": total}}, "Mancala has no trainer"
    answer(client, "capture", *LESSON_BY_ID["capture"].answer)
    answer(client, "capture", *LESSON_BY_ID["capture"].answer)
    answer(client, "chain", LESSON_BY_ID["chain"].wrong)
    after = client.get("/api/records/mancala").json()["learning"]
    assert after == {"lessons": {"done": 1, "total": total}}


def momojan_done(client: TestClient) -> set[str]:
    listed = client.get("/api/learn/momojan").json()["lessons"]
    return {lesson["id"] for lesson in listed if lesson["done"]}


def test_the_momojan_course_is_replayed_on_the_server_and_remembered(client: TestClient) -> None:
    from asobiba.games.momojan.lessons import LESSON_BY_ID as MOMOJAN

    body = client.get("/api/learn/momojan").json()
    first = body["lessons"][0]
    assert first["view"]["game"] == "momojan" and first["view"]["hand"]
    assert "hands" not in first["view"], "only the learner's own cards"
    demo = next(lesson["demo"] for lesson in body["lessons"] if lesson["demo"])
    assert demo["frames"][0]["view"]["game"] == "momojan" and demo["title"]["ja"]
    data = MOMOJAN["tsumo"]
    wrong = client.post("/api/learn/momojan/tsumo", json={"moves": list(data.wrong)})
    assert wrong.json()["status"] == "wrong" and momojan_done(client) == set()
    half = client.post("/api/learn/momojan/tsumo", json={"moves": list(data.answer[:2])})
    assert half.json()["status"] == "continue" and {"type": "tsumo"} in half.json()["legal"]
    right = client.post("/api/learn/momojan/tsumo", json={"moves": list(data.answer)})
    assert right.json()["status"] == "right"
    assert momojan_done(client) == {"tsumo"}


def michikake_done(client: TestClient) -> set[str]:
    listed = client.get("/api/learn/michikake").json()["lessons"]
    return {lesson["id"] for lesson in listed if lesson["done"]}


def test_the_michikake_course_is_judged_on_the_server_and_remembered(client: TestClient) -> None:
    from asobiba.games.michikake.lessons import LESSON_BY_ID as MICHIKAKE

    body = client.get("/api/learn/michikake").json()
    first = body["lessons"][0]
    assert first["covers"][0]["id"] == "about" and first["view"]["hand"]
    assert "hands" not in first["view"] and "bonuses" not in first["view"]
    demo = next(lesson["demo"] for lesson in body["lessons"] if lesson["demo"])
    assert demo["frames"][0]["view"]["game"] == "michikake" and demo["title"]["en"]
    data = MICHIKAKE["runs"]
    wrong = client.post("/api/learn/michikake/runs", json={"moves": list(data.wrong)})
    assert wrong.json()["status"] == "wrong" and michikake_done(client) == set()
    half = client.post("/api/learn/michikake/runs", json={"moves": list(data.answer[:1])})
    assert half.json()["status"] == "continue" and half.json()["legal"] == [{"win": True}]
    right = client.post("/api/learn/michikake/runs", json={"moves": list(data.answer)})
    assert right.json()["status"] == "right"
    assert michikake_done(client) == {"runs"}


@pytest.mark.parametrize(
    "moves",
    [
        [{"type": "tsumo"}],  # the card drawn does not win
        [{"type": "discard", "card": "dog"}],  # in riichi only the card drawn goes
        [{"type": "discard", "card": "moon", "riichi": "yes"}],
        [{"type": "discard", "card": "moon"}, {"type": "draw", "pile": 7}],
    ],
)
def test_a_momojan_move_that_is_not_legal_gets_a_clear_400(
    client: TestClient, moves: list[Any]
) -> None:
    response = client.post("/api/learn/momojan/tsumo", json={"moves": moves})
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == "illegal_action"
    assert momojan_done(client) == set()


@pytest.mark.parametrize(
    "moves",
    [
        [{"discard": "C9"}],  # a card the learner does not hold
        [{"win": True}],  # six cards that are not two sets
        [{"discard": "R9"}, {"discard": "W8"}],  # the lesson was decided by the first
        [{"discard": "R9", "at": 0.1}],  # nothing but the move itself
    ],
)
def test_a_michikake_move_that_is_not_legal_gets_a_clear_400(
    client: TestClient, moves: list[Any]
) -> None:
    response = client.post("/api/learn/michikake/first-turn", json={"moves": moves})
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == "illegal_action"
    assert michikake_done(client) == set()
