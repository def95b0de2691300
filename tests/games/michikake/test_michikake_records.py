"""What a finished MICHIKAKE session adds to a seat's records: its place (a tally, so the records
page shows how often each place was reached), its final points, and its best winning hand."""

from __future__ import annotations

import random

from asobiba.games import get_game
from asobiba.games.michikake.rules import MichikakeState

GAME = get_game("michikake")


def session(seed: int, players: int) -> MichikakeState:
    """A whole session played by the casual bots (answers as soon as they are asked)."""
    state = GAME.new_state({}, players, seed)
    bots = [GAME.make_bot("casual", seed * 10 + seat) for seat in range(players)]
    at = 0.0
    while GAME.outcome(state) is None:
        seat = min(GAME.to_move(state))
        action = bots[seat].choose(GAME.observe(state, seat), GAME.legal_actions(state, seat))
        at += 0.1
        state = GAME.apply(state, seat, action, at)
    return state


def test_record_fields_count_places_average_points_and_keep_the_best_hand() -> None:
    fields = {field.key: field for field in GAME.record_fields()}
    assert fields["places"].how == "tally"
    assert list(fields["places"].names) == ["1", "2", "3", "4", "tied"]
    assert fields["places"].names["tied"] == {"ja": "全員同点", "en": "All tied"}
    assert fields["places"].names["2"] == {"ja": "2位", "en": "2nd"}
    assert fields["points"].how == "mean" and fields["best"].how == "max"


def test_a_seat_records_its_place_points_and_best_winning_total() -> None:
    seen_winner = seen_never = False
    for seed, players in ((1, 3), (0, 4), (3, 4)):
        state = session(seed, players)
        outcome = GAME.outcome(state)
        assert outcome is not None
        results = GAME.observe(state, None)["results"]
        for seat in range(players):
            record = GAME.record(outcome, seat)
            assert record["places"] == [str(outcome["ranks"][seat])]
            assert record["points"] == outcome["scores"][seat]
            totals = [
                r["win"]["total"] for r in results if r["end"] == "win" and r["win"]["seat"] == seat
            ]
            assert record["best"] == (max(totals) if totals else None)
            seen_winner |= len(totals) >= 2
            seen_never |= not totals
    assert seen_winner and seen_never, "the sample has a seat with two wins and one with none"


def test_a_session_everyone_ends_level_has_no_places_in_the_records() -> None:
    """Nobody won a hand: all on 1000 is "all tied" (a draw in the records), never a 1st."""
    state = GAME.new_state({"short_pile": 4}, 3, 7)
    rng = random.Random(7)
    at = 0.0
    while GAME.outcome(state) is None:
        seat = min(GAME.to_move(state))
        legal = [a for a in GAME.legal_actions(state, seat) if "win" not in a and "steal" not in a]
        at += 0.1
        state = GAME.apply(state, seat, rng.choice(legal), at)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome["scores"] == [1000, 1000, 1000]
    assert [GAME.record(outcome, seat)["places"] for seat in range(3)] == [["tied"]] * 3
    assert outcome["best"] == [None, None, None]
