"""Reviews of finished games (``analysis/reviews.py``, ``/api/rooms/{id}/review``): every move
valued by the engine in the review workers, checked against the exact solver on a board small
enough to solve; stored once and reused; clear errors that change nothing."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from asobiba.core.game import GRADE_KEYS, grade, grades_of
from asobiba.games import get_game
from asobiba.server.analysis.reviews import ReviewBusy, Reviewer, decisions, summarize
from asobiba.server.app import create_app
from asobiba.server.rooms.recovery import states
from asobiba.server.settings import SocketLimits
from asobiba.server.store.db import make_engine, migrate, session_factory
from asobiba.server.store.store import Finish, Store
from tests.games.mancala.test_analysis import solved_margin
from tests.server.servers import alive, grandchildren
from tests.server.stored_games import store_of, stored_game

SMALL = {"pits": 3, "seeds": 3}
"""Kalah(3, 3): the engine solves every position of it in a blink, and so does the test's
plain negamax."""


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    quiet = SocketLimits(ping_seconds=None)
    app = create_app(
        sqlite_url,
        secret_key="test-secret",
        bot_workers=1,
        socket_limits=quiet,
        review_seconds=0.05,
    )
    with TestClient(app) as client:
        yield client


def me(client: TestClient) -> str:
    """The test client's guest id (its seat in a room it starts)."""
    room = client.post(
        "/api/rooms", json={"game": "mancala", "level": "beginner", "order": "first"}
    ).json()
    stored = store_of(client).load_room(room["room_id"])
    assert stored is not None
    person: str = stored.seats[0]["player"]
    return person


def small_game(client: TestClient, room_id: str, seed: int) -> None:
    """A finished Kalah(3, 3) the client played as seat 0 against the beginner (both seats
    played by beginner bots, so it has slips to find)."""
    seats = [{"player": me(client)}, {"bot": "beginner"}]
    stored_game(store_of(client), room_id, seats, seed, "beginner", "mancala", SMALL)


def finished_review(client: TestClient, room_id: str) -> dict[str, Any]:
    """Start the review of a game never reviewed before and poll it until it is stored. While
    it runs, each answer carries the moves valued so far: the review's first part, classed."""
    started = client.post(f"/api/rooms/{room_id}/review")
    assert started.status_code == 202, started.text
    answer: dict[str, Any] = started.json()
    assert answer["state"] == "running" and answer["total"] > 0
    running = []
    deadline = time.monotonic() + 60  # a bound on waiting, not a timing assertion
    while answer["state"] == "running":
        assert 0 <= len(answer["moves"]) <= answer["done"] <= answer["total"]
        assert [g["key"] for g in answer["grades"]] == list(GRADE_KEYS)
        running.append(answer)
        assert time.monotonic() < deadline, answer
        time.sleep(0.05)
        answer = client.get(f"/api/rooms/{room_id}/review").json()
    assert answer["state"] == "done", answer
    for partial in running:
        assert partial["moves"] == answer["moves"][: len(partial["moves"])]
        seats = len(partial["players"])
        assert partial["players"] == summarize(partial["moves"], seats)
    return answer


@pytest.mark.parametrize("seed", [3, 8])
def test_every_decision_is_valued_as_the_exact_solver_values_it(
    client: TestClient, seed: int
) -> None:
    small_game(client, "small", seed)
    assert client.get("/api/rooms/small/review").json()["state"] == "none"
    review = finished_review(client, "small")
    stored = store_of(client).load_room("small")
    assert stored is not None
    game = get_game("mancala")
    grades = grades_of(game, stored.options)
    assert [g["key"] for g in review["grades"]] == [g.key for g in grades]
    positions = list(states(game, stored))
    # The person's moves (seat 0; the bot's are the engine's own) where they had a choice.
    chosen = [
        k + 1
        for k, (seat, _, _) in enumerate(stored.events)
        if seat == 0 and len(game.legal_actions(positions[k], 0)) > 1
    ]
    assert [move["event"] for move in review["moves"]] == chosen
    assert review["done"] == review["total"] == len(chosen) > 0
    for move in review["moves"]:
        k = move["event"] - 1
        seat, action, _ = stored.events[k]
        assert seat is not None and action is not None, "every Mancala event is a move"
        before = positions[k]
        assert (move["seat"], move["played"]) == (seat, action)
        solved = {
            a["pit"]: solved_margin(before, seat, a) for a in game.legal_actions(before, seat)
        }
        assert move["exact"]
        assert move["value"] == solved[action["pit"]]
        assert move["best_value"] == max(solved.values())
        assert solved[move["best"]["pit"]] == max(solved.values())
        assert move["loss"] == max(solved.values()) - solved[action["pit"]]
        assert move["grade"] == grade(grades, move["loss"])
        if move["loss"] == 0:
            assert move["best"] == action, "a move as good as the best is the best shown"
        assert move["why"]["ja"] and move["why"]["en"]
    person, bot = review["players"]
    assert bot["moves"] == 0 and bot["accuracy"] is None
    assert person["moves"] == len(chosen) == sum(person["grades"].values())
    assert person["accuracy"] == round(person["grades"]["best"] / len(chosen), 4)
    costly = sorted(review["moves"], key=lambda m: (-m["loss"], m["event"]))
    assert person["costliest"] == [m["event"] for m in costly if m["loss"] > 0][:3]


def test_a_stored_review_is_answered_at_once_and_never_computed_again(
    client: TestClient,
) -> None:
    small_game(client, "once", 5)
    first = finished_review(client, "once")
    store = store_of(client)
    kept = store.load_review("once")
    assert kept is not None
    again = client.post("/api/rooms/once/review")
    assert again.status_code == 200, "answered from the store, no job started"
    assert again.json() == first == client.get("/api/rooms/once/review").json()
    app: Any = client.app
    assert app.state.reviewer.job("once") is None
    assert store.load_review("once").created_at == kept.created_at  # type: ignore[union-attr]


def test_the_records_show_the_average_accuracy_over_reviewed_games_per_rule_set(
    client: TestClient,
) -> None:
    records = client.get("/api/records/mancala").json()
    assert records["accuracy"] == []
    small_game(client, "a", 3)
    small_game(client, "b", 8)
    small_game(client, "unreviewed", 5)
    accuracies = [finished_review(client, room)["players"][0]["accuracy"] for room in "ab"]
    [row] = client.get("/api/records/mancala").json()["accuracy"]
    assert row["games"] == 2, "the unreviewed game does not count"
    assert row["accuracy"] == round(sum(accuracies) / 2, 4)
    assert row["options"]["pits"] == 3 and "pits=3" in row["rule_key"]


def test_bad_requests_get_clear_errors_and_change_nothing(client: TestClient) -> None:
    for method in ("get", "post"):
        missing = getattr(client, method)("/api/rooms/nope/review")
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "unknown_game"
    live = client.post(
        "/api/rooms", json={"game": "mancala", "level": "beginner", "order": "first"}
    ).json()
    unfinished = client.post(f"/api/rooms/{live['room_id']}/review")
    assert unfinished.status_code == 404, "an unfinished game is not reviewed"
    store = store_of(client)
    live_room = store.load_room(live["room_id"])
    assert live_room is not None
    # Mokochaka: its engine values no move.
    store.create_room("cards", "mokochaka", {}, "", 11, live_room.seats)
    store.finish_room("cards", Finish({"scores": [0, 0], "winners": []}, []))
    refused = client.post("/api/rooms/cards/review")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "no_review"
    assert "cannot be reviewed" in refused.json()["error"]["message"]
    replay = client.get("/api/rooms/cards/replay").json()
    assert replay["can_review"] is False
    app: Any = client.app
    for room in (live["room_id"], "cards", "nope"):
        assert store.load_review(room) is None and app.state.reviewer.job(room) is None


def test_a_replay_says_it_can_be_reviewed_and_counts_events_per_frame(client: TestClient) -> None:
    small_game(client, "r", 3)
    replay = client.get("/api/rooms/r/replay").json()
    assert replay["can_review"] is True
    stored = store_of(client).load_room("r")
    assert stored is not None
    # Every Mancala move changes what a seat sees: one frame per event after the start.
    assert replay["frame_events"] == list(range(len(stored.events) + 1))


@pytest.fixture
def store(tmp_path: Path) -> Store:
    engine = make_engine(f"sqlite:///{tmp_path / 'reviews.sqlite3'}")
    migrate(engine)
    return Store(session_factory(engine))


def test_one_job_per_game_and_a_bounded_number_of_jobs(store: Store) -> None:
    seats = [{"player": "p"}, {"bot": "beginner"}]
    store.ensure_player("p")
    for room in ("x", "y"):
        stored_game(store, room, seats, 4, "beginner", "mancala", SMALL)

    async def run() -> None:
        reviewer = Reviewer(store, seconds=0.02, most_running=1)
        try:
            x = store.load_room("x")
            y = store.load_room("y")
            assert x is not None and y is not None
            job = reviewer.start(x)
            assert reviewer.start(x) is job, "a second request joins the running job"
            with pytest.raises(ReviewBusy):
                reviewer.start(y)
            assert reviewer.job("y") is None and store.load_review("y") is None
            deadline = time.monotonic() + 60  # a bound on waiting, not a timing assertion
            while reviewer.job("x") is not None:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.05)
            assert job.done == job.total == len(decisions(x)) > 0
            assert store.load_review("x") is not None
            reviewer.start(y)  # the pool is free again
        finally:
            await reviewer.close()

    asyncio.run(run())


def test_a_running_review_shows_the_moves_valued_so_far_from_the_start(store: Store) -> None:
    """The job's ``moves`` grow as positions are valued, each time the stored review's first
    moves, so a page can draw them while the rest is valued."""
    store.ensure_player("p")
    stored_game(store, "x", [{"player": "p"}, {"bot": "beginner"}], 4, "beginner", "mancala", SMALL)

    async def run() -> list[list[dict[str, Any]]]:
        reviewer = Reviewer(store, seconds=0.02)
        try:
            x = store.load_room("x")
            assert x is not None
            job = reviewer.start(x)
            seen: list[list[dict[str, Any]]] = [list(job.moves)]
            deadline = time.monotonic() + 60  # a bound on waiting, not a timing assertion
            while reviewer.job("x") is not None:
                assert time.monotonic() < deadline
                if job.moves != seen[-1]:
                    seen.append(list(job.moves))
                    answer = job.to_json()
                    assert answer["state"] == "running" and answer["moves"] == job.moves
                    assert answer["players"] == summarize(job.moves, 2)
                await asyncio.sleep(0)  # every turn of the loop, so no step goes unseen
            return seen
        finally:
            await reviewer.close()

    seen = asyncio.run(run())
    review = store.load_review("x")
    assert review is not None
    assert [len(moves) for moves in seen] == list(range(len(review.moves) + 1)), "one by one"
    for moves in seen:
        assert moves == review.moves[: len(moves)]


def test_a_basic_game_is_classed_by_basics_own_thresholds(client: TestClient) -> None:
    seats = [{"player": me(client)}, {"bot": "beginner"}]
    basic = {"variant": "basic", "pits": 3, "seeds": 3}
    stored_game(store_of(client), "race", seats, 2, "beginner", "mancala", basic)
    review = finished_review(client, "race")
    grades = grades_of(get_game("mancala"), basic)
    assert review["grades"] == [{"key": g.key, "most": g.most} for g in grades]
    assert review["grades"][1]["most"] == 0.5, "Basic's steps, not Kalah's"
    for move in review["moves"]:
        assert move["loss"] == max(0.0, move["best_value"] - move["value"])
        assert move["grade"] == grade(grades, move["loss"])


def test_two_jobs_at_once_take_turns_in_the_pool(store: Store) -> None:
    store.ensure_player("p")
    for room in ("x", "y"):
        stored_game(
            store, room, [{"player": "p"}, {"bot": "beginner"}], 6, "beginner", "mancala", SMALL
        )

    async def run() -> None:
        reviewer = Reviewer(store, seconds=0.02, workers=1, most_running=2)
        try:
            x, y = store.load_room("x"), store.load_room("y")
            assert x is not None and y is not None and len(x.events) == len(y.events)
            reviewer.start(x)
            second = reviewer.start(y)
            deadline = time.monotonic() + 60  # a bound on waiting, not a timing assertion
            while reviewer.job("x") is not None:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.01)
            # One position of each job in the pool at a time: the second job has been valued
            # alongside the first, not after it.
            assert second.done >= second.total // 2
            while reviewer.job("y") is not None:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.01)
        finally:
            await reviewer.close()

    asyncio.run(run())


def test_closing_the_reviewer_waits_for_the_position_being_valued(store: Store) -> None:
    """The site's stop closes the reviewer while a position is being valued: ``close`` returns
    once its worker has ended, so nothing of the pool is left running at exit (a stop by
    SIGTERM would otherwise leave the pool's semaphores to the resource tracker, which calls
    them leaked)."""
    store.ensure_player("p")
    stored_game(store, "x", [{"player": "p"}, {"bot": "beginner"}], 4, "beginner", "mancala", {})

    async def run() -> set[int]:
        reviewer = Reviewer(store, seconds=2.0)  # a full board: each position takes its time
        before = grandchildren(os.getpid())
        x = store.load_room("x")
        assert x is not None
        reviewer.start(x)
        deadline = time.monotonic() + 60  # a bound on waiting, not a timing assertion
        while not (workers := grandchildren(os.getpid()) - before):
            assert time.monotonic() < deadline, "the review worker never started"
            await asyncio.sleep(0.05)
        await reviewer.close()
        return workers

    workers = asyncio.run(run())
    assert not [pid for pid in workers if alive(pid)], "a review worker outlived close"
