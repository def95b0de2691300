"""The expert's opening book (book.json): its moves are the search's best at the book's depth,
a solved position's exact best overrides a searched move that loses clearly more, and the
expert plays the book."""

from __future__ import annotations

import json

import pytest

from asobiba.games import get_game
from asobiba.games.mancala import book, native
from asobiba.games.mancala.board import Rules, initial_board, sow
from asobiba.games.mancala.bots import make_bot

GAME = get_game("mancala")


def entries() -> dict[str, int]:
    return dict(json.loads(book.PATH.read_text(encoding="utf-8"))["moves"])


def test_the_book_covers_both_seats_from_the_start() -> None:
    moves = entries()
    assert book.key(initial_board(Rules()), 0) in moves
    assert {key.rsplit("/", 1)[1] for key in moves} == {"0", "1"}
    assert book.depth() > 16


@pytest.mark.skipif(native.KERNEL is None, reason="the C kernel was not built")
def test_a_sample_of_the_book_is_the_search_s_best_move_at_the_book_s_depth() -> None:
    moves = entries()
    for key in sorted(moves)[::40][:2]:
        cells, player = key.split("/")
        board = [int(x) for x in cells.split(",")]
        found = native.best(Rules(), board, int(player), book.depth(), 0, 0.0)
        assert found.pit == moves[key], key


def test_the_expert_plays_the_book_and_only_for_the_default_rules() -> None:
    start = GAME.new_state({}, 2, 0)
    obs = GAME.observe(start, 0)
    expert = make_bot("expert", 1, nodes=1000, time=0.0, endgame=False)
    opening = book.move(Rules(), initial_board(Rules()), 0)
    assert expert.choose(obs, GAME.legal_actions(start, 0)) == {"pit": opening}
    assert book.move(Rules(seeds=5), [5] * 6 + [0] + [5] * 6 + [0], 0) is None


def test_a_solved_position_values_every_move_and_overrides_only_a_clearly_worse_one() -> None:
    solved = book.solved()
    assert solved, "the book has solved positions"
    overridden = 0
    for key, margins in solved.items():
        cells, player = key.split("/")
        board = [int(x) for x in cells.split(",")]
        base = int(player) * 7
        assert set(margins) == {pit for pit in range(6) if board[base + pit]}, key
        searched = entries()[key]
        chosen = book.move(Rules(), board, int(player))
        best = max(margins.values())
        if margins[searched] >= best - book.TOLERANCE:
            assert chosen == searched, key
        else:
            assert chosen is not None and margins[chosen] == best, key
            overridden += 1
    assert overridden >= 1


def test_the_expert_answers_an_opening_in_the_sixth_pit_with_the_solved_reply() -> None:
    """The depth-22 search answers with the sixth pit (loses by 12 with best play); the solver
    shows the second pit loses by only 4."""
    board = initial_board(Rules())
    sow(board, Rules(), 0, 5)
    state = GAME.apply(GAME.new_state({}, 2, 0), 0, {"pit": 5})
    expert = make_bot("expert", 1, nodes=1000, time=0.0, endgame=False)
    reply = expert.choose(GAME.observe(state, 1), GAME.legal_actions(state, 1))
    margins = book.solved()[book.key(board, 1)]
    assert entries()[book.key(board, 1)] == 5 and margins[5] < margins[1] - book.TOLERANCE
    assert reply == {"pit": 1} and margins[1] == max(margins.values())
    assert sow(board, Rules(), 1, 1)[1], "the second pit ends in the store: an extra turn"
    assert book.move(Rules(), board, 1) is not None, "the book follows its own reply"
