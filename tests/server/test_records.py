"""The records summary: per rule set × strength × seat order, with streaks and best margins."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient

from asobiba.core.game import RecordField, RecordValue
from asobiba.server.store.db import Result
from asobiba.server.store.records import game_list, summarize

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def result(
    n: int,
    outcome: str,
    margin: int,
    level: str = "casual",
    seat: int = 0,
    players: int = 2,
    stats: dict[str, RecordValue] | None = None,
    hints: int = 0,
) -> Result:
    return Result(
        id=n,
        room_id=f"r{n}",
        player_id="p",
        game="mancala",
        rule_key="seeds=4,variant=kalah",
        options={"variant": "kalah", "seeds": 4},
        level=level,
        seat=seat,
        players=players,
        stats=stats or {},
        result=outcome,
        score=24 + margin // 2,
        opponent_score=24 - margin // 2,
        margin=margin,
        hints=hints,
        finished_at=T0 + timedelta(minutes=n),
    )


def test_counts_win_rate_best_margin_and_current_streak() -> None:
    results = [
        result(1, "win", 10),
        result(2, "loss", -4),
        result(3, "win", 2),
        result(4, "win", 6),
    ]
    [row] = summarize(results, ["beginner", "casual"])
    assert (row["games"], row["wins"], row["draws"], row["losses"]) == (4, 3, 0, 1)
    assert row["win_rate"] == 0.75
    assert row["best_margin"] == 10
    assert row["streak"] == {"kind": "win", "length": 2}


def test_rows_are_split_by_strength_and_seat_order_weakest_first() -> None:
    results = [
        result(1, "draw", 0, level="casual", seat=1),
        result(2, "loss", -3, level="beginner", seat=0),
        result(3, "win", 3, level="casual", seat=0),
    ]
    rows = summarize(results, ["beginner", "casual"])
    assert [(r["level"], r["seat"]) for r in rows] == [
        ("beginner", 0),
        ("casual", 0),
        ("casual", 1),
    ]
    assert rows[0]["best_margin"] is None
    assert rows[2]["streak"] == {"kind": "draw", "length": 1}


def test_game_list_is_newest_first() -> None:
    listed = game_list([result(1, "win", 2), result(2, "loss", -2)])
    assert [g["room_id"] for g in listed] == ["r2", "r1"]
    assert listed[0]["result"] == "loss"


def test_stored_times_come_back_in_utc_on_sqlite(
    client: TestClient, start: Callable[..., dict[str, Any]]
) -> None:
    room = start(client, options={"seeds": 3})
    with client.websocket_connect(room["ws"]) as ws:
        message = ws.receive_json()
        while message["obs"]["outcome"] is None:
            if message["legal"]:
                ws.send_json({"type": "act", "action": message["legal"][0]})
            message = ws.receive_json()
    [listed] = client.get("/api/records/mancala").json()["games"]
    assert datetime.fromisoformat(listed["finished_at"]).utcoffset() == timedelta(0)


def test_games_with_different_numbers_of_players_are_counted_apart() -> None:
    results = [result(1, "win", 4, players=3), result(2, "loss", -2, players=4)]
    results.append(result(3, "win", 6, players=3))
    rows = summarize(results, ["casual"])
    assert [(r["players"], r["games"], r["wins"]) for r in rows] == [(3, 2, 2), (4, 1, 0)]
    assert [g["players"] for g in game_list(results)] == [3, 4, 3]


def test_a_games_own_figures_are_combined_as_it_declares() -> None:
    fields = [
        RecordField("cards", {"ja": "手札", "en": "Cards"}, "mean", 1),
        RecordField("fastest", {"ja": "最速", "en": "Fastest"}, "min", 2),
        RecordField("best", {"ja": "最高", "en": "Best"}, "max"),
    ]
    results = [
        result(1, "win", 4, stats={"cards": 7, "fastest": 0.91, "best": 3}),
        result(2, "loss", -2, stats={"cards": 2, "fastest": None, "best": 8}),
        result(3, "win", 6, stats={"cards": 4, "fastest": 0.64, "best": 5}),
    ]
    [row] = summarize(results, ["casual"], fields)
    assert row["stats"] == {"cards": 4.3, "fastest": 0.64, "best": 8}
    [empty] = summarize([result(4, "loss", -1)], ["casual"], fields)
    assert empty["stats"] == {"cards": None, "fastest": None, "best": None}


def test_a_tally_counts_each_label_over_the_rows_games_in_the_fields_order() -> None:
    names = {"1": {"ja": "1位", "en": "1st"}, "2": {"ja": "2位", "en": "2nd"}}
    fields = [RecordField("place", {"ja": "順位", "en": "Places"}, "tally", names=names)]
    results = [
        result(1, "loss", -1, stats={"place": ["2"]}),
        result(2, "win", 3, stats={"place": ["1"]}),
        result(3, "loss", -2, stats={"place": ["2", "9"]}),
        result(4, "loss", -2, stats={"place": None}),
    ]
    [row] = summarize(results, ["casual"], fields)
    assert row["stats"] == {"place": [["1", 1], ["2", 2], ["9", 1]]}
    [empty] = summarize([result(5, "loss", -1)], ["casual"], fields)
    assert empty["stats"] == {"place": None}


def test_games_with_hints_are_rows_of_their_own_after_the_unassisted_ones() -> None:
    rows = summarize(
        [result(1, "win", 10, hints=2), result(2, "loss", -4), result(3, "win", 6, hints=1)],
        ["casual"],
    )
    assert [(row["hinted"], row["games"], row["wins"], row["losses"]) for row in rows] == [
        (False, 1, 0, 1),
        (True, 2, 2, 0),
    ]
    assert rows[0]["best_margin"] is None, "a hinted win is not the unassisted best margin"
    assert [game["hints"] for game in game_list([result(1, "win", 10, hints=2)])] == [2]
