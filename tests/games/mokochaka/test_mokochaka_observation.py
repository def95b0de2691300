"""What a Mokochaka observation holds: the documented shape, public facts only, enough for a UI to
show the last event without ever seeing a raw action."""

from __future__ import annotations

import json

from asobiba.games.mokochaka.data import NUMBERS
from tests.games.mokochaka.mokochaka_helpers import GAME, call, flip, grab, playout, table

PLAIN = table(["moko3 pome1 paka2", "paka1 moko2", "gabu2 pome3"], ["paka2", "moko1", "gabu1"])
MOKOCHAKA = table(["moko4 pome1", "paka1 moko2", "gabu2 pome3"], ["paka3", "gabu1", "pome1"])

KEYS = {
    "game", "options", "seats", "seat", "phase", "turn", "to_move", "start_player", "hands",
    "piles", "flips", "flip_at", "call_deadline", "window_end", "deadline", "said", "choice",
    "events", "outcome",
}  # fmt: skip


def test_observation_has_the_documented_keys_and_is_json_safe() -> None:
    for state in (GAME.new_state({}, 4, 9), flip(PLAIN, 0)):
        for viewer in (0, 1, None):
            view = GAME.observe(state, viewer)
            assert set(view) == KEYS
            assert json.loads(json.dumps(view, allow_nan=False)) == view
            assert view["seat"] == viewer


def test_observation_shows_hand_sizes_never_hand_cards_not_even_ones_own() -> None:
    view = GAME.observe(PLAIN, 0)
    assert view["hands"] == [3, 2, 2]
    text = json.dumps(view)
    for secret in ("pome1", 'paka2"', "moko2", "gabu2", "pome3"):
        assert secret not in text.replace('"top": "paka2"', "")


def test_observation_shows_only_each_piles_top_and_size() -> None:
    state = table(["moko3", "paka1", "pome1"], ["paka2 pome4 gabu3", "moko1", ""])
    view = GAME.observe(state, None)
    assert view["piles"] == [
        {"top": "gabu3", "size": 3}, {"top": "moko1", "size": 1}, {"top": None, "size": 0}
    ]  # fmt: skip
    assert "pome4" not in json.dumps(view)


def test_observation_never_carries_the_seed() -> None:
    a, b = GAME.new_state({}, 3, 1), GAME.new_state({}, 3, 2)
    first = GAME.observe(a, None)
    second = GAME.observe(b, None)
    assert set(first) == set(second)
    assert "seed" not in json.dumps(first)


def test_observation_gives_the_call_timing_a_ui_needs() -> None:
    view = GAME.observe(flip(PLAIN, 0, at=100.0), 1)
    assert (view["phase"], view["turn"], view["to_move"]) == ("call", 0, [0, 1, 2])
    assert (view["flip_at"], view["call_deadline"], view["deadline"]) == (100.0, 103.0, 103.0)
    assert view["window_end"] is None and view["said"] == []


def test_observation_tells_who_said_what_in_the_open_race() -> None:
    raced = grab(flip(MOKOCHAKA, 1), 2, "chakamoko", 0.4)
    view = GAME.observe(call(raced, "mokopaka", 0.5), None)
    assert view["said"] == [
        {"seat": 2, "word": "chakamoko", "at": 0.4, "grab": True},
        {"seat": 0, "word": "mokopaka", "at": 0.5, "grab": False},
    ]
    assert view["window_end"] == view["deadline"]


def test_observation_events_tell_the_whole_settled_turn_for_speech_bubbles() -> None:
    settled = GAME.advance(grab(flip(MOKOCHAKA, 2), 1, "chakamoko", 0.3), 1.0)
    kinds = [(e["n"], e["type"]) for e in GAME.observe(settled, None)["events"]]
    assert kinds == [(1, "start"), (2, "flip"), (3, "grab"), (4, "judgement"), (5, "penalty")]
    judgement = GAME.observe(settled, None)["events"][3]
    assert judgement["top"] == ["paka3", "gabu1", "moko4"]
    assert judgement["correct"] == ["mokochaka"]
    view = GAME.observe(settled, 1)
    assert view["choice"] == {"kind": "give", "seat": 1, "count": 1, "reason": "wrong_special"}


def test_observation_keeps_only_the_recent_events_numbered_without_gaps() -> None:
    for state in playout(4, 5).states:
        events = GAME.observe(state, None)["events"]
        assert 1 <= len(events) <= NUMBERS.events_kept
        assert [e["n"] for e in events] == list(
            range(state.serial - len(events) + 1, state.serial + 1)
        )


def test_observation_at_the_end_carries_the_outcome() -> None:
    over = call(flip(table(["moko3", "paka1", "pome1"], ["paka2", "moko1", "gabu1"]), 0), "moko", 1)
    view = GAME.observe(over, 2)
    assert view["phase"] == "over" and view["to_move"] == [] and view["deadline"] is None
    assert view["outcome"] == GAME.outcome(over)
    assert view["outcome"]["fastest_call"] == [1.0, None, None]
