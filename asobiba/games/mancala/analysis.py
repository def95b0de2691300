"""Every legal move of a Mancala position valued in stones, and why the best one is good: what
reviews, hints and lessons read.

A value is the final margin the mover can expect after the move with best play by both sides
(the mover's store minus the opponent's at the end), exact when the search reached the end of
every line.

Basic is a race, not a count: an exact value is the margin of the race (won: the stones the
loser still holds; lost: minus the stones you still hold), and a value short of the end is the
race evaluation in units of the farthest stone's work (search.py), a rough guide only.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from asobiba.core.game import Analysis, MoveValue
from asobiba.games.mancala import endgame, native
from asobiba.games.mancala.board import Rules, finish, sow
from asobiba.games.mancala.search import SCALE, WIN, Search

MAX_DEPTH = 64


def analyse(rules: Rules, board: list[int], player: int, seconds: float) -> Analysis:
    """Value every legal move of ``player`` on ``board`` within about ``seconds``.

    With the C kernel (Kalah): the exact solver first, with half the time; if it cannot finish,
    the deepening search with the rest, whose lines end at the endgame table where the rules have
    one (so a value there is exact once the search reached it on every line). Without the kernel
    (Basic, or no C compiler): the pure-Python search with all the time.
    """
    if native.available(rules):
        tabled = endgame.ensure(rules)
        started = time.perf_counter()
        solved = native.solve(rules, board, player, seconds=seconds / 2, endgame=tabled)
        if solved is not None:
            return _analysis(player, ((pit, float(value), True) for pit, value in solved.items()))
        left = max(seconds - (time.perf_counter() - started), seconds / 4)
        graded = native.analyse(rules, board, player, MAX_DEPTH, 0, left, endgame=tabled)
    else:
        search = Search(rules, time=seconds, clock=time.perf_counter)
        graded = search.analyse(board, player, MAX_DEPTH)
    return _analysis(
        player, ((pit, _stones(rules, value), exact) for pit, (value, exact) in graded.items())
    )


def _analysis(player: int, valued: Iterable[tuple[int, float, bool]]) -> Analysis:
    moves = [MoveValue({"pit": pit}, value, exact) for pit, value, exact in valued]
    moves.sort(key=lambda move: -move.value)
    return Analysis(player, tuple(moves))


def explain(rules: Rules, board: list[int], player: int, pit: int) -> dict[str, str]:
    """Why ``pit`` is worth playing, in one line: an extra turn, a capture, a capture it
    defends against, or (none of those) the margin it keeps."""
    after = board[:]
    _, extra, captured = sow(after, rules, player, pit)
    finish(after, rules)
    if extra:
        return {
            "ja": "最後の石が自分のストアに入り、もう1回打てます。",
            "en": "The last stone lands in your store: you move again.",
        }
    if captured > 1:
        return {
            "ja": f"向かいの穴の石を横取りして{captured}個をストアに入れます。",
            "en": f"It captures: {captured} stones go to your store.",
        }
    threat_before = biggest_capture(rules, board, 1 - player)
    threat_after = biggest_capture(rules, after, 1 - player)
    if threat_before > threat_after:
        return {
            "ja": f"相手の横取り（{threat_before}個）を防ぎます。",
            "en": f"It stops your opponent's capture of {threat_before} stones.",
        }
    return {
        "ja": "この後の展開でいちばん差を広げられる手です。",
        "en": "It keeps the best final margin of every move here.",
    }


def biggest_capture(rules: Rules, board: list[int], player: int) -> int:
    """The most stones ``player`` could capture with one move now (0: none)."""
    n = rules.pits
    base = player * (n + 1)
    best = 0
    for pit in range(n):
        if board[base + pit]:
            after = board[:]
            captured = sow(after, rules, player, pit)[2]
            best = max(best, captured if captured > 1 else 0)
    return best


def _stones(rules: Rules, value: int) -> float:
    if not rules.basic:
        return value / SCALE
    if abs(value) >= WIN:
        return float(value - WIN if value > 0 else value + WIN)
    return value / rules.pits**3
