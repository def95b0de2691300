"""The MOMOJAN observation: its documented shape (docs/ARCHITECTURE.md), what each viewer sees,
and the public record of the last event that lets the server drop the raw action."""

from __future__ import annotations

import json

from tests.games.momojan.momojan_positions import (
    GAME,
    call,
    discard,
    draw,
    kai,
    melds,
    play,
    position,
)

KEYS = {
    "game", "options", "seat", "round", "dealer", "streak", "dealerships", "stake", "points",
    "middle", "dora_indicator", "dead_wall", "piles", "hand", "hand_sizes", "open_sets",
    "rivers", "riichi", "to_move", "phase", "offer", "last", "results", "outcome",
}  # fmt: skip


def test_observation_has_the_documented_keys_and_is_json_safe() -> None:
    state = GAME.new_state({}, 2, 5)
    for viewer in (0, 1, None):
        obs = GAME.observe(state, viewer)
        assert set(obs) == KEYS
        assert json.loads(json.dumps(obs)) == obs
        assert obs["seat"] == viewer


def test_a_seat_sees_its_own_hand_sorted_and_only_the_size_of_the_other() -> None:
    state = GAME.new_state({}, 2, 5)
    assert GAME.observe(state, 0)["hand"] == list(state.hands[0])
    assert GAME.observe(state, 1)["hand"] == list(state.hands[1])
    assert GAME.observe(state, None)["hand"] is None
    assert GAME.observe(state, None)["hand_sizes"] == [7, 7]


def test_last_event_records_kai_pon_and_a_riichi_discard_publicly() -> None:
    state = play(position("L1 L2 L3 O5 O6 dog moon", "L5 S5 S7 S8 S9 sun sun"), draw(0))
    state = play(state, kai("L1 L2 L3"))
    assert GAME.observe(state, 1)["last"] == {
        "round": 1, "seat": 0, "type": "kai", "cards": ["L1", "L2", "L3"],
    }  # fmt: skip
    state = play(state, discard("O5"))
    assert GAME.observe(state, None)["last"] == {
        "round": 1, "seat": 0, "type": "discard", "card": "O5", "riichi": False,
    }  # fmt: skip
    assert GAME.observe(state, None)["offer"] == "O5"
    state = play(state, draw(1))
    assert GAME.observe(state, 0)["last"] == {"round": 1, "seat": 1, "type": "draw", "pile": 1}


def test_last_event_of_a_call_names_the_claimed_card() -> None:
    state = position("L1 L2 L3 O5 O6 dog moon", "O5 S5 S7 S8 S9 sun sun", turn=1, offer="L5")
    after = play(state, call("pon", "O5 S5"))
    assert GAME.observe(after, 0)["last"] == {
        "round": 1, "seat": 1, "type": "pon", "cards": ["L5", "O5", "S5"], "claimed": "L5",
    }  # fmt: skip
    assert GAME.observe(after, 0)["open_sets"][1] == [
        {"kind": "pon", "cards": ["L5", "O5", "S5"], "claimed": "L5"}
    ]
    assert GAME.observe(after, 0)["rivers"][0][-1]["called"] is True


def test_a_round_end_is_in_last_and_results_and_the_next_deal_follows() -> None:
    state = position(
        "moon moon L3 L4",
        "S5 S6 S7 S8",
        melds0=melds("kai: S1 S2 S3", "pon: dog dog dog"),
        riichi=(True, False),
        offer="L5",
    )
    won = play(state, {"type": "ron"})
    obs = GAME.observe(won, 1)
    assert obs["last"] == {"round": 1, "seat": 0, "type": "ron", "card": "L5"}
    assert obs["round"] == 2 and obs["phase"] == "start" and obs["hand_sizes"] == [7, 7]
    (result,) = obs["results"]
    assert result["end"] == "ron" and result["winner"] == 0
    assert result["hands"] == [["L3", "L4", "L5", "moon", "moon"], None]
    assert result["score"]["total"] == result["paid"]


def test_the_wall_settlement_reveals_both_hands() -> None:
    state = position("L1 L2 L3 O5 O6 dog moon", "O1 S5 S7 S8", turn=1, offer="L5", piles=("",) * 3)
    after = play(state, {"type": "pass"})
    (result,) = GAME.observe(after, None)["results"]
    assert result["end"] == "exhausted" and result["tenpai"] == [False, False]
    assert result["hands"] == [list(state.hands[0]), list(state.hands[1])]
    assert GAME.observe(after, None)["last"] == {"round": 1, "seat": 1, "type": "pass"}


def test_designed_values_cover_every_yaku_bonus_and_rule_with_both_languages() -> None:
    rows = GAME.designed_values()
    assert len(rows) >= 17 + 4 + 10
    for row in rows:
        assert row.source in ("rulebook", "designed")
        for part in (row.name, row.value, row.reason):
            assert set(part) == {"ja", "en"} and all(part.values())
