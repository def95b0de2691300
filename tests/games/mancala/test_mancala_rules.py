"""Each Mancala rule (Kalah, Basic and the option rules), one test apiece, named after the rule.

Positions are built by hand: ``position([...], [...])`` lists each side's pits in its owner's
sowing order (index 0 farthest from that player's store), as ``observe`` reports them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from asobiba.core.errors import IllegalAction
from asobiba.games import get_game
from asobiba.games.mancala import MancalaState

GAME = get_game("mancala")


def position(
    pits0: list[int],
    pits1: list[int],
    stores: tuple[int, int] = (0, 0),
    to_move: int = 0,
    **options: Any,
) -> MancalaState:
    """A running game with the given pits and stores, ``to_move`` to play."""
    start = GAME.new_state(options, 2, 0)
    return replace(start, board=(*pits0, stores[0], *pits1, stores[1]), player=to_move)


def play(state: MancalaState, *pits: int) -> MancalaState:
    """Apply ``{"pit": p}`` for each ``p`` in turn, always for the seat to move."""
    for pit in pits:
        (seat,) = GAME.to_move(state)
        state = GAME.apply(state, seat, {"pit": pit})
    return state


def final(state: MancalaState) -> dict[str, Any]:
    """The outcome of a state the test expects to be over."""
    outcome = GAME.outcome(state)
    assert outcome is not None, "the game is over"
    return outcome


def view(state: MancalaState) -> dict[str, Any]:
    return GAME.observe(state, None)


def board(state: MancalaState) -> tuple[list[list[int]], list[int]]:
    obs = view(state)
    return obs["pits"], obs["stores"]


# --- Kalah: sowing -------------------------------------------------------------------------------


def test_kalah_move_takes_every_stone_and_sows_one_per_pit_starting_at_the_next_pit() -> None:
    after = play(GAME.new_state({}, 2, 0), 0)
    assert board(after) == ([[0, 5, 5, 5, 5, 4], [4] * 6], [0, 0])
    assert view(after)["last"]["path"] == [[0, 1], [0, 2], [0, 3], [0, 4]]


def test_kalah_sowing_drops_one_in_own_store_then_continues_on_the_opponents_side() -> None:
    after = play(GAME.new_state({}, 2, 0), 4)
    assert board(after) == ([[4, 4, 4, 4, 0, 5], [5, 5, 4, 4, 4, 4]], [1, 0])
    assert view(after)["last"]["path"] == [[0, 5], [0, 6], [1, 0], [1, 1]]


def test_kalah_sowing_skips_the_opponents_store_for_seat_0() -> None:
    after = play(position([1, 0, 0, 0, 0, 8], [1] * 6), 5)
    assert board(after) == ([[2, 0, 0, 0, 0, 0], [2] * 6], [1, 0])
    path = view(after)["last"]["path"]
    assert [1, 6] not in path
    assert path == [[0, 6], *([1, i] for i in range(6)), [0, 0]]


def test_kalah_sowing_skips_the_opponents_store_for_seat_1() -> None:
    after = play(position([1] * 6, [1, 0, 0, 0, 0, 8], to_move=1), 5)
    assert board(after) == ([[2] * 6, [2, 0, 0, 0, 0, 0]], [0, 1])
    assert view(after)["last"]["path"] == [[1, 6], *([0, i] for i in range(6)), [1, 0]]


def test_kalah_an_empty_pit_cannot_be_chosen() -> None:
    state = position([4, 4, 0, 4, 4, 4], [4] * 6)
    assert {"pit": 2} not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="empty"):
        GAME.apply(state, 0, {"pit": 2})


def test_kalah_seeds_in_store_are_never_moved_again() -> None:
    state = position([4] * 6, [4] * 6, stores=(7, 3))
    assert GAME.legal_actions(state, 0) == [{"pit": i} for i in range(6)]
    assert board(play(state, 0))[1] == [7, 3]


# --- Kalah: extra turns --------------------------------------------------------------------------


def test_kalah_tip_1_third_pit_from_the_left_with_four_stones_ends_in_the_store() -> None:
    after = play(GAME.new_state({}, 2, 0), 2)
    assert board(after) == ([[4, 4, 0, 5, 5, 5], [4] * 6], [1, 0])
    assert GAME.to_move(after) == {0}
    assert view(after)["last"]["extra_turn"] is True


def test_kalah_last_stone_in_own_store_gives_seat_1_another_move_too() -> None:
    after = play(GAME.new_state({}, 2, 0), 0, 2)
    assert GAME.to_move(after) == {1}
    assert board(after)[1] == [0, 1]


def test_kalah_extra_turns_chain_as_long_as_the_last_stone_ends_in_the_store() -> None:
    state = position([1, 0, 0, 3, 2, 1], [1] * 6)
    for pit in (5, 4, 5, 3, 5):
        state = play(state, pit)
        assert GAME.to_move(state) == {0}
        assert view(state)["last"]["extra_turn"] is True
    assert board(state) == ([[1, 0, 0, 0, 1, 0], [1] * 6], [5, 0])


def test_kalah_last_stone_anywhere_else_passes_the_turn() -> None:
    after = play(GAME.new_state({}, 2, 0), 0)
    assert GAME.to_move(after) == {1}
    assert view(after)["last"]["extra_turn"] is False


# --- Kalah: capture ------------------------------------------------------------------------------


def test_kalah_last_stone_in_empty_own_pit_takes_it_and_the_opposite_pit_to_the_store() -> None:
    after = play(position([1, 0, 4, 4, 4, 4], [4, 4, 4, 4, 7, 4]), 0)
    assert board(after) == ([[0, 0, 4, 4, 4, 4], [4, 4, 4, 4, 0, 4]], [8, 0])
    last = view(after)["last"]
    assert (last["captured"], last["capture_from"]) == (8, [1, 4])
    assert GAME.to_move(after) == {1}


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("target", [1, 2, 3, 4, 5])
def test_kalah_capture_takes_the_pit_directly_opposite(seat: int, target: int) -> None:
    """Own pit i (in sowing order) faces the opponent's pit 5 - i."""
    mine = [0] * 6
    mine[target - 1] = 1
    mine[0 if target == 5 else 5] = 2  # keeps the mover's side from emptying
    theirs = [1] * 6
    theirs[5 - target] = 5
    sides = (mine, theirs) if seat == 0 else (theirs, mine)
    after = play(position(*sides, to_move=seat), target - 1)
    last = view(after)["last"]
    assert (last["captured"], last["capture_from"]) == (6, [1 - seat, 5 - target])
    assert board(after)[1][seat] == 6
    assert board(after)[0][1 - seat][5 - target] == 0
    assert GAME.to_move(after) == {1 - seat}


def test_kalah_no_capture_when_the_opposite_pit_is_empty() -> None:
    after = play(position([1, 0, 4, 4, 4, 4], [4, 4, 4, 4, 0, 4]), 0)
    assert board(after) == ([[0, 1, 4, 4, 4, 4], [4, 4, 4, 4, 0, 4]], [0, 0])
    last = view(after)["last"]
    assert (last["captured"], last["capture_from"]) == (0, None)


def test_kalah_no_capture_when_the_last_stone_lands_in_an_empty_pit_of_the_opponent() -> None:
    after = play(position([4, 4, 4, 4, 4, 2], [0, 4, 4, 4, 4, 4]), 5)
    assert board(after) == ([[4, 4, 4, 4, 4, 0], [1, 4, 4, 4, 4, 4]], [1, 0])
    assert view(after)["last"]["captured"] == 0


def test_kalah_no_capture_when_the_own_pit_already_held_stones() -> None:
    after = play(position([1, 2, 4, 4, 4, 4], [4] * 6), 0)
    assert board(after) == ([[0, 3, 4, 4, 4, 4], [4] * 6], [0, 0])


# --- Kalah: laps (13 or more stones) -------------------------------------------------------------


def test_kalah_lap_skips_the_opponents_store_and_refills_the_emptied_starting_pit() -> None:
    after = play(position([1, 1, 15, 1, 1, 1], [1] * 6), 2)
    assert board(after) == ([[2, 2, 1, 3, 3, 2], [2] * 6], [1, 0])
    path = view(after)["last"]["path"]
    assert len(path) == 15
    assert [0, 2] in path
    assert [1, 6] not in path


def test_kalah_lap_of_13_ending_in_the_emptied_starting_pit_captures() -> None:
    after = play(position([13, 1, 1, 1, 1, 1], [1] * 6), 0)
    assert board(after) == ([[0, 2, 2, 2, 2, 2], [2, 2, 2, 2, 2, 0]], [4, 0])
    last = view(after)["last"]
    assert (last["captured"], last["capture_from"]) == (3, [1, 5])


# --- Kalah: the end ------------------------------------------------------------------------------


def test_kalah_game_ends_when_the_movers_side_empties_even_after_an_extra_turn() -> None:
    """The last stone reaches the store, but the side is empty: no extra move, game over."""
    after = play(position([0, 0, 0, 0, 0, 1], [1, 2, 3, 0, 0, 0], stores=(20, 21)), 5)
    assert GAME.to_move(after) == frozenset()
    assert GAME.legal_actions(after, 0) == GAME.legal_actions(after, 1) == []
    assert view(after)["last"]["extra_turn"] is False
    assert GAME.outcome(after) is not None


def test_kalah_game_ends_when_the_movers_sowing_empties_their_own_side() -> None:
    after = play(position([0, 0, 0, 0, 0, 3], [1] * 6, stores=(20, 19)), 5)
    assert GAME.outcome(after) == {
        "scores": [21, 27],
        "winners": [1],
        "win_by": "more_stones",
        "margin": 6,
    }


def test_kalah_game_ends_at_once_when_a_capture_empties_the_opponents_side() -> None:
    after = play(position([1, 0, 0, 0, 0, 2], [0, 0, 0, 0, 5, 0], stores=(20, 20)), 0)
    assert GAME.to_move(after) == frozenset()
    assert view(after)["last"]["captured"] == 6
    assert final(after)["scores"] == [28, 20]


def test_kalah_leftover_stones_go_to_the_owner_of_their_side() -> None:
    after = play(position([0, 0, 0, 0, 0, 1], [1, 2, 3, 0, 0, 0], stores=(20, 21)), 5)
    assert board(after) == ([[0] * 6, [0] * 6], [21, 27])


def test_kalah_game_goes_on_while_both_sides_hold_stones() -> None:
    after = play(position([0, 0, 0, 0, 1, 1], [0, 0, 0, 0, 0, 1], stores=(20, 25)), 5)
    assert GAME.to_move(after) == {0}
    assert GAME.outcome(after) is None


def test_kalah_more_stones_wins() -> None:
    after = play(position([1, 0, 0, 0, 0, 2], [0, 0, 0, 0, 5, 0], stores=(20, 20)), 0)
    assert GAME.outcome(after) == {
        "scores": [28, 20],
        "winners": [0],
        "win_by": "more_stones",
        "margin": 8,
    }


def test_kalah_equal_stones_is_a_draw() -> None:
    after = play(position([0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 1], stores=(23, 23)), 5)
    assert GAME.outcome(after) == {"scores": [24, 24], "winners": [], "win_by": "draw", "margin": 0}


# --- Basic ---------------------------------------------------------------------------------------


def test_basic_sowing_drops_stones_into_both_stores() -> None:
    after = play(position([1, 0, 0, 0, 0, 8], [1] * 6, variant="basic"), 5)
    assert board(after) == ([[1, 0, 0, 0, 0, 0], [2] * 6], [1, 1])
    assert view(after)["last"]["path"] == [[0, 6], *([1, i] for i in range(6)), [1, 6]]


def test_basic_last_stone_in_the_opponents_store_gives_another_move() -> None:
    after = play(position([1, 0, 0, 0, 0, 8], [1] * 6, variant="basic"), 5)
    assert GAME.to_move(after) == {0}
    assert view(after)["last"]["extra_turn"] is True


def test_basic_last_stone_in_own_store_gives_another_move() -> None:
    after = play(GAME.new_state({"variant": "basic"}, 2, 0), 2)
    assert GAME.to_move(after) == {0}
    assert board(after)[1] == [1, 0]


def test_basic_extra_turns_chain_through_either_store() -> None:
    state = position([1, 0, 0, 0, 2, 8], [1] * 6, variant="basic")
    state = play(state, 5, 4, 5)
    assert GAME.to_move(state) == {0}
    assert board(state) == ([[1, 0, 0, 0, 0, 0], [2] * 6], [3, 1])


def test_basic_has_no_capture() -> None:
    after = play(position([1, 0, 4, 4, 4, 4], [4, 4, 4, 4, 7, 4], variant="basic"), 0)
    assert board(after) == ([[0, 1, 4, 4, 4, 4], [4, 4, 4, 4, 7, 4]], [0, 0])
    assert view(after)["last"]["captured"] == 0


def test_basic_lap_of_14_passes_both_stores_and_refills_the_starting_pit() -> None:
    after = play(position([14, 1, 1, 1, 1, 1], [1] * 6, variant="basic"), 0)
    assert board(after) == ([[1, 2, 2, 2, 2, 2], [2] * 6], [1, 1])
    assert GAME.to_move(after) == {1}


def test_basic_first_to_empty_their_own_side_wins_whatever_the_stores_hold() -> None:
    after = play(position([0, 0, 0, 0, 0, 1], [4] * 6, stores=(0, 23), variant="basic"), 5)
    assert GAME.outcome(after) == {
        "scores": [1, 23],
        "winners": [0],
        "win_by": "emptied_side",
        "left": [0, 24],
        "margin": 24,
    }


def test_basic_seat_1_wins_by_emptying_its_side_and_stones_stay_on_the_board() -> None:
    state = position([1] * 6, [0, 0, 0, 0, 0, 2], stores=(20, 20), to_move=1, variant="basic")
    after = play(state, 5)
    assert view(after)["last"]["path"] == [[1, 6], [0, 0]]
    assert board(after) == ([[2, 1, 1, 1, 1, 1], [0] * 6], [20, 21])
    assert final(after)["winners"] == [1]
    assert final(after)["left"] == [7, 0]


def test_basic_game_goes_on_while_the_mover_still_has_stones() -> None:
    after = play(position([0, 0, 0, 0, 1, 1], [4] * 6, variant="basic"), 5)
    assert GAME.outcome(after) is None
    assert GAME.to_move(after) == {0}


# --- Option rules --------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["kalah", "basic"])
@pytest.mark.parametrize("seeds", [3, 4, 5, 6])
def test_seeds_option_puts_that_many_stones_in_every_pit(variant: str, seeds: int) -> None:
    state = GAME.new_state({"variant": variant, "seeds": seeds}, 2, 0)
    assert board(state) == ([[seeds] * 6, [seeds] * 6], [0, 0])


@pytest.mark.parametrize("pit", range(6))
def test_kalah_tip_2_a_pit_holding_its_distance_to_the_store_in_stones_moves_again(
    pit: int,
) -> None:
    """The rightmost pit needs 1 stone, the one left of it 2, and so on."""
    after = play(position([6, 5, 4, 3, 2, 1], [4] * 6), pit)
    assert GAME.to_move(after) == {0}
    assert board(after)[1] == [1, 0]


def test_capture_none_leaves_the_last_stone_in_the_empty_own_pit() -> None:
    after = play(position([1, 0, 4, 4, 4, 4], [4, 4, 4, 4, 7, 4], capture="none"), 0)
    assert board(after) == ([[0, 1, 4, 4, 4, 4], [4, 4, 4, 4, 7, 4]], [0, 0])
    assert view(after)["last"]["captured"] == 0


def test_capture_empty_stores_the_lone_last_stone_when_the_opposite_pit_is_empty() -> None:
    after = play(position([1, 0, 4, 4, 4, 4], [4, 4, 4, 4, 0, 4], capture="empty"), 0)
    assert board(after) == ([[0, 0, 4, 4, 4, 4], [4, 4, 4, 4, 0, 4]], [1, 0])
    last = view(after)["last"]
    assert (last["captured"], last["capture_from"]) == (1, None)
    assert GAME.to_move(after) == {1}


def test_capture_empty_still_takes_the_opposite_stones_when_there_are_some() -> None:
    after = play(position([1, 0, 4, 4, 4, 4], [4, 4, 4, 4, 7, 4], capture="empty"), 0)
    assert board(after) == ([[0, 0, 4, 4, 4, 4], [4, 4, 4, 4, 0, 4]], [8, 0])


def test_capture_empty_does_nothing_on_the_opponents_side() -> None:
    after = play(position([4, 4, 4, 4, 4, 2], [0, 4, 4, 4, 4, 4], capture="empty"), 5)
    assert board(after) == ([[4, 4, 4, 4, 4, 0], [1, 4, 4, 4, 4, 4]], [1, 0])


def test_capture_empty_that_empties_the_movers_side_ends_the_game() -> None:
    state = position([1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 3], stores=(22, 22), capture="empty")
    after = play(state, 0)
    assert final(after)["scores"] == [23, 25]


@pytest.mark.parametrize(
    ("count_leftovers", "pits1", "stores", "winners"),
    [(True, [0] * 6, [21, 27], [1]), (False, [1, 2, 3, 0, 0, 0], [21, 21], [])],
)
def test_count_leftovers_false_leaves_the_stones_on_the_board_to_nobody(
    count_leftovers: bool, pits1: list[int], stores: list[int], winners: list[int]
) -> None:
    state = position(
        [0, 0, 0, 0, 0, 1], [1, 2, 3, 0, 0, 0], stores=(20, 21), count_leftovers=count_leftovers
    )
    after = play(state, 5)
    assert board(after) == ([[0] * 6, pits1], stores)
    assert final(after)["scores"] == stores
    assert final(after)["winners"] == winners


@pytest.mark.parametrize(("count_leftovers", "winners"), [(True, [1]), (False, [0])])
def test_count_leftovers_decides_who_wins_when_leftovers_would_tip_the_balance(
    count_leftovers: bool, winners: list[int]
) -> None:
    state = position(
        [0, 0, 0, 0, 0, 1], [9, 9, 0, 0, 0, 0], stores=(15, 14), count_leftovers=count_leftovers
    )
    assert final(play(state, 5))["winners"] == winners


def test_pits_option_builds_a_smaller_board_with_the_store_at_position_n() -> None:
    """``pits`` is an engine option (not offered on the site) for solving small boards."""
    state = GAME.new_state({"pits": 3, "seeds": 3}, 2, 0)
    assert board(state) == ([[3, 3, 3], [3, 3, 3]], [0, 0])
    after = play(state, 0)
    assert view(after)["last"]["path"] == [[0, 1], [0, 2], [0, 3]]
    assert GAME.to_move(after) == {0}
