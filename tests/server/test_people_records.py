"""Records and replays of games between people (issue 18): every person at the table gets a
result, those games are counted apart from games against the computer (per number of people),
a game where a stand-in played is marked in the records and on the moves it played in the
replay, and the replay names the seats and shows the table's chat.

The finished games are written straight into the store, as a room logs them, and read through
the real API, on SQLite and on the machine's PostgreSQL server. Names are data: they come back
exactly as they were given (the pages set them as text), never as markup.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from itsdangerous import TimestampSigner

from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.app import create_app
from asobiba.server.rooms.recovery import finish_if_over, replay
from asobiba.server.store.db import Result, Review
from asobiba.server.store.records import accuracy_by_rules, game_list, results_for, summarize
from asobiba.server.store.store import ChatLine, Finish, Store
from tests.server.stored_games import store_of

SECRET = "test-secret"
MANCALA = get_game("mancala")
OPTIONS = MANCALA.resolve_options({"seeds": 3})
SCRIPT_NAME = "<script>Ben"
"""A name that would be markup if a page ever took it as HTML (names are 1 to 16 characters)."""
T0 = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgresql"])
def site(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "postgres_url")
    with TestClient(create_app(url, secret_key=SECRET, bot_workers=1)) as client:
        yield client


def guest(client: TestClient) -> str:
    """The client's guest id, from its signed session cookie (any request sets one)."""
    client.get("/api/games")
    payload = TimestampSigner(SECRET).unsign(client.cookies["asobiba"])
    player: str = json.loads(base64.b64decode(payload))["player"]
    return player


def other_guest(client: TestClient) -> tuple[TestClient, str]:
    """A second browser on the same site: its own cookie, its own guest id."""
    other = TestClient(client.app)
    return other, guest(other)


def played_game(
    store: Store,
    room_id: str,
    seats: list[dict[str, Any]],
    seed: int,
    standin_seat: int | None = None,
    chat: Sequence[tuple[int | None, str, str, str | None, str | None]] = (),
    finish: bool = True,
) -> dict[str, Any]:
    """A short Mancala (3 seeds a pit) played out by beginner bots for every seat and logged as
    a room logs it; ``standin_seat``'s moves from its third on are marked as a stand-in's (the
    person went away), and the results say so. ``chat``: (seat, player, name, text, stamp)
    lines kept with the room; without ``finish`` the last move is logged but the game is not
    marked finished (as when the process died in between). Returns the outcome."""
    for spec in seats:
        if "player" in spec:
            store.ensure_player(spec["player"])
    store.create_room(room_id, "mancala", OPTIONS, rule_key(OPTIONS), seed, seats)
    for n, (seat, player, name, text, stamp) in enumerate(chat):
        store.add_chat(room_id, ChatLine(n, seat, player, name, text, stamp, 1_767_225_600.0 + n))
    state = MANCALA.new_state(OPTIONS, len(seats), seed)
    bots = [MANCALA.make_bot("beginner", seed + seat) for seat in range(len(seats))]
    moves = [0] * len(seats)
    seq = 0
    outcome = None
    while outcome is None:
        [seat] = MANCALA.to_move(state)
        action = bots[seat].choose(MANCALA.observe(state, seat), MANCALA.legal_actions(state, seat))
        state = MANCALA.apply(state, seat, action)
        standin = "casual" if seat == standin_seat and moves[seat] >= 2 else None
        moves[seat] += 1
        outcome = MANCALA.outcome(state)
        end = None
        if outcome is not None and finish:
            stood_in = () if standin_seat is None else (standin_seat,)
            results = results_for(room_id, MANCALA, OPTIONS, seats, outcome, None, stood_in)
            end = Finish(outcome, results)
        store.append_event(room_id, seq, seat, action, float(seq), finish=end, standin=standin)
        seq += 1
    if standin_seat is not None:
        assert moves[standin_seat] >= 3, "the stand-in played at least one move"
    return outcome


def test_every_person_at_a_table_of_people_gets_a_result() -> None:
    seats = [{"player": "a", "name": "Aki"}, {"player": "b", "name": "Ben"}]
    outcome = {"scores": [20, 16], "winners": [0], "margin": 4}
    won, lost = results_for("r", MANCALA, {}, seats, outcome, standins={1})
    assert (won.player_id, won.result, won.margin) == ("a", "win", 4)
    assert (lost.player_id, lost.result, lost.margin) == ("b", "loss", -4)
    assert (won.standin, lost.standin) == (False, True), "only the seat stood in for is marked"
    for result in (won, lost):
        assert result.people == 2
        assert result.level == "", "no seat was a bot"
        assert result.players == 2
    # A game against bots is as before: one person, the bots' level, no stand-in.
    [alone] = results_for("r", MANCALA, {}, [{"player": "a"}, {"bot": "casual"}], outcome)
    assert (alone.people, alone.standin, alone.level) == (1, False, "casual")


def test_two_people_and_a_bot_name_the_bots_level() -> None:
    game = get_game("mokochaka")
    seats = [{"player": "a", "name": "Aki"}, {"bot": "expert"}, {"player": "b", "name": "Ben"}]
    outcome = {
        "scores": [20, 15, 12],
        "winners": [0],
        "cards": [20, 15, 12],
        "gabu": [0, 0, 0],
        "fastest_call": [0.5, None, None],
        "emptied": [],
    }
    results = results_for("r", game, {}, seats, outcome)
    assert [(r.player_id, r.seat, r.people, r.level) for r in results] == [
        ("a", 0, 2, "expert"),
        ("b", 2, 2, "expert"),
    ]
    assert [r.result for r in results] == ["win", "loss"]


def result(n: int, outcome: str, people: int | None = 1, **fields: Any) -> Result:
    margin = {"win": 4, "loss": -4, "draw": 0}[outcome]
    values: dict[str, Any] = {
        "id": n,
        "room_id": f"r{n}",
        "player_id": "p",
        "game": "mancala",
        "rule_key": "seeds=4,variant=kalah",
        "options": {"variant": "kalah", "seeds": 4},
        "level": "" if people and people > 1 else "casual",
        "seat": 0,
        "players": 2,
        "stats": {},
        "result": outcome,
        "score": 24 + margin // 2,
        "opponent_score": 24 - margin // 2,
        "margin": margin,
        "hints": 0,
        "people": people,
        "standin": False,
        "finished_at": T0 + timedelta(minutes=n),
    }
    values.update(fields)
    return Result(**values)


def test_rows_of_games_with_people_come_after_every_row_against_bots() -> None:
    rows = summarize(
        [
            result(1, "win", people=2),
            result(2, "loss", people=3, players=3),
            result(3, "win", hints=1),
            result(4, "loss"),
            result(5, "win", people=2),
            result(6, "draw", people=None),  # stored before results had ``people``
        ],
        ["beginner", "casual"],
    )
    assert [(r["people"], r["hinted"], r["level"], r["games"], r["wins"]) for r in rows] == [
        (1, False, "casual", 2, 0),
        (1, True, "casual", 1, 1),
        (2, False, "", 2, 2),
        (3, False, "", 1, 0),
    ]
    assert rows[2]["streak"] == {"kind": "win", "length": 2}
    assert rows[0]["best_margin"] is None, "a win with people is no best margin against bots"


def test_the_game_list_names_the_seats_and_marks_stand_ins() -> None:
    seats = {
        "r1": [{"player": "p", "name": "Aki"}, {"player": "q", "name": SCRIPT_NAME}],
        "r2": [{"player": "p"}, {"bot": "casual"}],
    }
    listed = game_list(
        [result(1, "win", people=2, standin=True), result(2, "loss"), result(3, "win")],
        seats=seats,
    )
    assert [(g["room_id"], g["people"], g["standin"]) for g in listed] == [
        ("r3", 1, False),
        ("r2", 1, False),
        ("r1", 2, True),
    ]
    assert listed[2]["names"] == ["Aki", SCRIPT_NAME], "as given: the page sets it as text"
    assert listed[1]["names"] == [None, None], "no name for a bot, none for an older seat"
    assert listed[0]["names"] == [None, None], "a room not looked up names nobody"


def test_accuracy_against_the_computer_leaves_out_games_with_people_and_stand_ins() -> None:
    def review(accuracy: float) -> Review:
        return Review(room_id="r", seconds=1.0, moves=[], players=[{"accuracy": accuracy}])

    reviewed = [
        (result(1, "win"), review(0.5)),
        (result(2, "win", people=2), review(1.0)),
        (result(3, "win", standin=True), review(1.0)),
    ]
    [entry] = accuracy_by_rules(reviewed)
    assert (entry["games"], entry["accuracy"]) == (1, 0.5)


def test_people_games_are_counted_apart_named_and_marked(site: TestClient) -> None:
    store = store_of(site)
    aki = guest(site)
    ben_client, ben = other_guest(site)
    played_game(store, "bots1", [{"player": aki}, {"bot": "beginner"}], seed=1)
    people = [{"player": aki, "name": "Aki"}, {"player": ben, "name": SCRIPT_NAME}]
    outcome = played_game(store, "people1", people, seed=2, standin_seat=1)
    played_game(store, "people2", list(reversed(people)), seed=3)

    records = site.get("/api/records/mancala").json()
    assert [(r["people"], r["level"], r["seat"], r["games"]) for r in records["rows"]] == [
        (1, "beginner", 0, 1),
        (2, "", 0, 1),
        (2, "", 1, 1),
    ]
    listed = {game["room_id"]: game for game in records["games"]}
    assert set(listed) == {"bots1", "people1", "people2"}
    assert (listed["bots1"]["people"], listed["bots1"]["standin"]) == (1, False)
    assert listed["bots1"]["names"] == [None, None]
    assert listed["people1"]["people"] == 2
    assert listed["people1"]["names"] == ["Aki", SCRIPT_NAME]
    assert listed["people2"]["names"] == [SCRIPT_NAME, "Aki"]
    assert (listed["people2"]["standin"], listed["people2"]["seat"]) == (False, 1)
    expected = "draw" if not outcome["winners"] else "win" if 0 in outcome["winners"] else "loss"
    assert listed["people1"]["result"] == expected

    # The other person has the same games from their side, and no game against bots.
    theirs = ben_client.get("/api/records/mancala").json()
    assert {(r["people"], r["seat"]) for r in theirs["rows"]} == {(2, 0), (2, 1)}
    mine = {g["room_id"]: g for g in theirs["games"]}
    assert set(mine) == {"people1", "people2"}
    assert mine["people1"]["seat"] == 1 and mine["people1"]["standin"] is True
    assert listed["people1"]["standin"] is False, "the stand-in played for Ben, not for Aki"
    assert mine["people1"]["margin"] == -listed["people1"]["margin"]


def test_the_stand_in_mark_is_on_the_seat_it_played_for_only(site: TestClient) -> None:
    """The results written from the log (as start-up finishes a game whose end was logged but
    not written) mark the seat the stand-in played for, from the log's per-event marks: the
    host, who played every move of theirs, gets no mark."""
    store = store_of(site)
    aki = guest(site)
    ben_client, ben = other_guest(site)
    seats = [{"player": aki, "name": "Aki"}, {"player": ben, "name": "Ben"}]
    played_game(store, "people1", seats, seed=2, standin_seat=1, finish=False)
    stored = store.load_room("people1")
    assert stored is not None and stored.stood_in == {1}
    assert finish_if_over(store, MANCALA, stored, replay(MANCALA, stored))

    [mine] = site.get("/api/records/mancala").json()["games"]
    [theirs] = ben_client.get("/api/records/mancala").json()["games"]
    assert (mine["seat"], mine["standin"]) == (0, False)
    assert (theirs["seat"], theirs["standin"]) == (1, True)


def test_the_replay_names_the_seats_shows_the_chat_and_the_stand_ins_moves(
    site: TestClient,
) -> None:
    store = store_of(site)
    aki = guest(site)
    _, ben = other_guest(site)
    seats = [{"player": aki, "name": "Aki"}, {"player": ben, "name": SCRIPT_NAME}]
    chat = [
        (0, aki, "Aki", "good luck!", None),
        (1, ben, SCRIPT_NAME, "<b>thanks</b>", None),
        (None, "watcher", "Cleo", None, "gg"),
    ]
    played_game(store, "people1", seats, seed=2, standin_seat=1, chat=chat)

    replay = site.get("/api/rooms/people1/replay").json()
    assert replay["seat"] == 0
    assert replay["level"] is None, "no seat was a bot"
    assert replay["seats"] == [
        {"kind": "human", "name": "Aki"},
        {"kind": "human", "name": SCRIPT_NAME},
    ]
    assert replay["chat"] == [
        {"n": 0, "seat": 0, "name": "Aki", "at": 1_767_225_600.0, "text": "good luck!"},
        {"n": 1, "seat": 1, "name": SCRIPT_NAME, "at": 1_767_225_601.0, "text": "<b>thanks</b>"},
        {"n": 2, "seat": None, "name": "Cleo", "at": 1_767_225_602.0, "stamp": "gg"},
    ]
    assert aki not in str(replay["chat"]) and "watcher" not in str(replay), "no guest ids"

    # Each stand-in mark sits on the frame showing the position after the move it played.
    stored = store.load_room("people1")
    assert stored is not None
    played = [n for n, level in enumerate(stored.standins) if level is not None]
    assert played and all(stored.events[n][0] == 1 for n in played)
    frames = replay["frame_events"]
    assert replay["standins"] == [
        {"frame": frames.index(n + 1), "seat": 1, "level": "casual"} for n in played
    ]
    # The full view steps alike, so the marks stand on the same frames.
    full = site.get("/api/rooms/people1/replay?reveal=true").json()
    assert full["standins"] == replay["standins"]

    # A spectator sees the same names and chat; the page carries no name in its markup.
    watcher = TestClient(site.app)
    seen = watcher.get("/api/rooms/people1/replay").json()
    assert seen["seat"] is None and seen["seats"] == replay["seats"]
    assert seen["chat"] == replay["chat"]
    page = watcher.get("/replay/people1").text
    assert SCRIPT_NAME not in page and "Ben" not in page


def test_a_replay_against_bots_has_no_names_chat_or_stand_ins(site: TestClient) -> None:
    store = store_of(site)
    aki = guest(site)
    played_game(store, "bots1", [{"player": aki}, {"bot": "beginner"}], seed=1)
    replay = site.get("/api/rooms/bots1/replay").json()
    assert replay["seats"] == [
        {"kind": "human", "name": None},
        {"kind": "bot", "name": None, "level": "beginner"},
    ]
    assert (replay["chat"], replay["standins"], replay["level"]) == ([], [], "beginner")


def test_a_game_every_seat_ties_is_a_draw_for_everyone() -> None:
    """Four people end a MICHIKAKE session on 1000 each: nobody won, so nobody gets a win nor a
    1st place; a tie at the top between some seats only stays a shared win."""
    game = get_game("michikake")
    seats = [{"player": p, "name": p} for p in "abcd"]
    level = {
        "scores": [1000] * 4,
        "winners": [0, 1, 2, 3],
        "ranks": [1, 1, 1, 1],
        "end": "deals",
        "deals": 4,
        "best": [None] * 4,
    }
    results = results_for("r", game, {}, seats, level)
    assert [(r.result, r.margin) for r in results] == [("draw", 0)] * 4
    assert [r.stats["places"] for r in results] == [["tied"]] * 4
    rows = summarize(results, [], game.record_fields())
    assert [(row["wins"], row["draws"]) for row in rows] == [(0, 1)] * 4
    assert rows[0]["stats"]["places"] == [["tied", 1]]

    shared = level | {"scores": [1200, 1200, 900, 700], "winners": [0, 1], "ranks": [1, 1, 3, 4]}
    results = results_for("r", game, {}, seats, shared)
    assert [r.result for r in results] == ["win", "win", "loss", "loss"]
    assert [r.stats["places"] for r in results] == [["1"], ["1"], ["3"], ["4"]]


def test_a_mokochaka_game_every_seat_ties_is_a_draw() -> None:
    """Mokochaka lists every seat tied at the top among its winners: all of them is a draw."""
    game = get_game("mokochaka")
    seats = [{"player": "a"}, {"player": "b"}, {"bot": "casual"}]
    outcome = {
        "scores": [5, 5, 5],
        "winners": [0, 1, 2],
        "cards": [5, 5, 5],
        "gabu": [0, 0, 0],
        "fastest_call": [None, None, None],
        "emptied": [],
    }
    assert [r.result for r in results_for("r", game, {}, seats, outcome)] == ["draw", "draw"]
