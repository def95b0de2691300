"""Hints and reviews of MOMOJAN and MICHIKAKE through the shared server code: a hint is answered
in a game against the computer and refused between people; a finished game's review values the
person's own decisions (a claim window's answers included) in points, and its figures come out
the same when worked out again from the same log."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from asobiba.core.bots import Timed
from asobiba.core.game import first_state, grade, grades_of
from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.analysis.reviews import decisions, review_move, summarize
from asobiba.server.app import create_app
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.hub import Hub
from asobiba.server.settings import SocketLimits
from asobiba.server.store.db import make_engine, migrate, session_factory
from asobiba.server.store.records import results_for
from asobiba.server.store.store import Finish, Store
from tests.server.stored_games import store_of

REVIEW_SECONDS = 0.02
"""The engine's time per decision in these reviews: a few worlds each, so a review is quick."""


def make_store(tmp_path: Path) -> Store:
    engine = make_engine(f"sqlite:///{tmp_path / 'card-assist.sqlite3'}")
    migrate(engine)
    return Store(session_factory(engine))


async def never(game: str, level: str, seed: int, obs: Any, legal: Any) -> Timed:
    """A bot seat that never answers: the tests look at the room while the person decides."""
    await asyncio.Event().wait()
    raise AssertionError("unreachable")


@pytest.mark.parametrize(("game_name", "seats"), [("momojan", 2), ("michikake", 3)])
def test_a_hint_is_answered_against_the_computer_and_refused_between_people(
    tmp_path: Path, game_name: str, seats: int
) -> None:
    async def scenario() -> None:
        hub = Hub(make_store(tmp_path), never)
        bots = [{"player": "p"}, *({"bot": "expert"} for _ in range(seats - 1))]
        room = await hub.create(game_name, {}, bots, seed=4)
        game = get_game(game_name)
        assert room.game.to_move(room.state) == {0}, "the person deals first"
        hint = await room.hint(0)
        assert hint.action in game.legal_actions(room.state, 0)
        assert hint.why["ja"] and hint.why["en"]
        assert isinstance(hint.value, float)
        assert room.hints == [1] + [0] * (seats - 1), "the hint is counted"
        people = [{"player": f"p{seat}"} for seat in range(seats)]
        table = await hub.create(game_name, {}, people, seed=4)
        with pytest.raises(RoomError) as refused:
            await table.hint(0)
        assert refused.value.code == "hints_bots_only"
        assert table.hints == [0] * seats
        await hub.close()

    asyncio.run(scenario())


def played_game(store: Store, room_id: str, game_name: str, seats: int, seed: int) -> None:
    """A finished game where seat 0 is a person (played here by the beginner bot, so it has
    slips to find) and the others computers (played by the quick casual level), logged event by
    event as a room logs it: every seat that may answer a claim window answers in turn, each at
    its own time."""
    game = get_game(game_name)
    options = game.resolve_options({"dealerships": 1} if game_name == "momojan" else {})
    specs: list[dict[str, Any]] = [{"player": "p"}, *({"bot": "expert"} for _ in range(seats - 1))]
    store.ensure_player("p")
    store.create_room(room_id, game_name, options, rule_key(options), seed, specs)
    state = first_state(game, options, seats, seed, 1)
    bots = [
        game.make_bot("beginner" if seat == 0 else "casual", seed + seat) for seat in range(seats)
    ]
    seq = 0
    while game.outcome(state) is None:
        seat = min(game.to_move(state))
        legal = game.legal_actions(state, seat)
        action = bots[seat].choose(game.observe(state, seat), legal)
        state = game.apply(state, seat, action, float(seq))
        outcome = game.outcome(state)
        finish = None
        if outcome is not None:
            finish = Finish(outcome, results_for(room_id, game, options, specs, outcome))
        store.append_event(room_id, seq, seat, action, float(seq), finish=finish)
        seq += 1


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    app = create_app(
        sqlite_url,
        secret_key="test-secret",
        bot_workers=1,
        socket_limits=SocketLimits(ping_seconds=None),
        review_seconds=REVIEW_SECONDS,
    )
    with TestClient(app) as client:
        yield client


def reviewed(client: TestClient, room_id: str) -> dict[str, Any]:
    started = client.post(f"/api/rooms/{room_id}/review")
    assert started.status_code == 202, started.text
    answer: dict[str, Any] = started.json()
    deadline = time.monotonic() + 120  # a bound on waiting, not a timing assertion
    while answer["state"] == "running":
        assert time.monotonic() < deadline, answer
        time.sleep(0.1)
        answer = client.get(f"/api/rooms/{room_id}/review").json()
    assert answer["state"] == "done", answer
    return answer


@pytest.mark.parametrize(("game_name", "seats", "seed"), [("momojan", 2, 7), ("michikake", 4, 3)])
def test_the_review_values_the_persons_decisions_in_points_and_reproduces(
    client: TestClient, game_name: str, seats: int, seed: int
) -> None:
    store = store_of(client)
    played_game(store, "cards", game_name, seats, seed)
    review = reviewed(client, "cards")
    stored = store.load_room("cards")
    assert stored is not None
    game = get_game(game_name)
    found = decisions(stored)
    assert [move["event"] for move in review["moves"]] == [d.event for d in found]
    assert {move["seat"] for move in review["moves"]} == {0}, "the person's decisions only"
    assert review["seconds"] == REVIEW_SECONDS
    grades = grades_of(game, stored.options)
    assert review["grades"] == [{"key": g.key, "most": g.most} for g in grades]
    for move, decision in zip(review["moves"], found, strict=True):
        assert move["played"] == decision.action
        assert move["loss"] == max(0.0, move["best_value"] - move["value"])
        assert move["grade"] == grade(grades, move["loss"])
        assert move["why"]["ja"] and move["why"]["en"]
    if game_name == "michikake":
        kinds = {next(iter(move["played"])) for move in review["moves"]}
        assert "pass" in kinds or "steal" in kinds, "a claim window's answer is reviewed"
    # Worked out again here, in this process, from the same log: the same figures as the
    # review workers stored.
    again = [review_move(stored.game, stored.options, d, REVIEW_SECONDS) for d in found]
    assert again == review["moves"]
    assert review["players"] == summarize(again, seats)
    you = review["players"][0]
    assert you["moves"] == len(found) and 0 <= you["accuracy"] <= 1
    assert len(you["costliest"]) <= 3
    assert all(other["moves"] == 0 for other in review["players"][1:])
