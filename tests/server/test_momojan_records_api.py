"""MOMOJAN's records through the API (the site: "records per strength: games, wins, points,
biggest win, yaku seen"): stored games against the beginner, summed per row as the game
declares (points mean, biggest win max, yaku counted)."""

from __future__ import annotations

from collections import Counter

from fastapi.testclient import TestClient

from asobiba.games import get_game
from tests.server.stored_games import store_of, stored_game


def test_the_records_show_points_the_biggest_win_and_the_yaku_seen(client: TestClient) -> None:
    room = client.post(
        "/api/rooms", json={"game": "momojan", "level": "beginner", "order": "first"}
    ).json()
    store = store_of(client)
    live = store.load_room(room["room_id"])
    assert live is not None
    # The person's seat is played by the casual bot here, which wins some rounds.
    finals = [stored_game(store, f"g{seed}", live.seats, seed, "casual") for seed in (1, 2, 3, 4)]
    # What the rounds show in public: seat 0's wins, their yaku and what each took.
    wins = [r for final in finals for r in final.results if r.winner == 0 and r.end != "exhausted"]
    assert wins, "these deals give the person's seat at least one win"
    seen = Counter(yaku for r in wins if r.score for yaku, _ in r.score.yaku)

    records = client.get("/api/records/momojan").json()
    fields = {field["key"]: field for field in records["fields"]}
    assert fields["best_win"]["how"] == "max" and fields["yaku"]["how"] == "tally"
    assert fields["yaku"]["names"]["riichi"] == {"ja": "リーチ", "en": "Riichi"}
    [row] = records["rows"]
    assert row["games"] == 4 and row["level"] == "beginner" and row["seat"] == 0
    assert row["wins"] == sum(final.winner == 0 for final in finals)
    stats = row["stats"]
    outcomes = [get_game("momojan").outcome(final) for final in finals]
    scores = [outcome["scores"][0] for outcome in outcomes if outcome]
    assert stats["points"] == round(sum(scores) / 4), "the mean, shown whole"
    assert stats["best_win"] == max(r.paid + r.middle for r in wins)
    order = list(fields["yaku"]["names"])
    assert stats["yaku"] == sorted(
        ([yaku, times] for yaku, times in seen.items()), key=lambda pair: order.index(pair[0])
    )
    listed = {game["room_id"]: game["stats"] for game in records["games"]}
    assert set(listed) == {"g1", "g2", "g3", "g4"}
