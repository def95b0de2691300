"""Negamax alpha-beta search over the Mancala kernel, shared by every searching bot level.

Values are from the point of view of the player to move. Kalah's are in quarter stones
(``SCALE``), so the evaluation can weigh stones still on the board at a fraction of a stored stone
and stay an int; Basic's are in units of its race evaluation, with ``WIN`` for a won game.
A move that earns an extra turn leaves the same player to move: its child's value is taken as it
is, with the same window, instead of being negated.

The search is fast only if its inner loop is: the board is a plain list, copied per move
(``list[:]`` is one C call), sown by the kernel's ``sow``/``finish``, and the recursion is a
closure over local names rather than a method reading attributes.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from dataclasses import dataclass, replace
from operator import mul

from asobiba.games.mancala.board import Rules, finish, sow

SCALE = 4
"""Evaluation units per stone."""
LEFTOVER_WEIGHT = 1
"""Kalah with leftovers counted: a stone on your side is worth a quarter of a stored stone. It will
be yours if the game ends soon, but it can still be captured or sown across."""
WIN = 1_000_000
"""Basic's value of a won game (plus the loser's stones left, the margin)."""
INFINITY = 10 * WIN

SOLVED = 1_000
"""Transposition-table depth of a subtree searched to the end of every line: its value holds at any
depth, and it did not hit the horizon."""
_EXACT, _LOWER, _UPPER = 0, 1, 2
_CHECK_EVERY = 1024
"""Nodes between reads of the clock and the node budget."""


class _Stop(Exception):
    """The node or time budget ran out in the middle of an iteration."""


@dataclass(frozen=True, slots=True)
class Result:
    """What a search found for the player to move."""

    pit: int
    """The chosen move, 0..n-1 in the mover's sowing order."""
    value: int
    """Its value in ``SCALE`` units from the mover's side (exact only if ``exact``)."""
    depth: int
    """The deepest iteration that finished (the move may come from a deeper, partial one)."""
    exact: bool
    """True when every line was searched to the end of the game: the value is the true result."""
    nodes: int
    """Positions visited, the budget's unit."""


def evaluate(board: list[int], rules: Rules, player: int) -> int:
    """The static value of ``board`` for ``player`` (to move), in ``SCALE`` units."""
    return _evaluator(rules)(board, player)


def _evaluator(rules: Rules) -> Callable[[list[int], int], int]:
    """The evaluation for ``rules`` as a closure, so the search pays for no rule lookups.

    Kalah: the store difference decides the game, so it is the backbone. Stones on a side count a
    little for that side's owner when leftovers are swept to their owner at the end; when they are
    not, a stone on the board is worth nothing at the end and gets no weight.

    Basic: the race is won by emptying your own side, and every stone must walk to a store to
    leave it. A stone far from the store costs more than its distance: a far pit refills from the
    opponent's sowing while you empty the near ones (an engine that only counted stones lost to
    random play). So a stone ``d`` pits from the store costs ``d ** 3``, the opponent's stones
    count the other way, and a pit that sows exactly into a store, a ready extra turn, is worth
    half the farthest stone. (Compared in self-play at depth 5, 100 games each: ``d ** 3`` beat
    ``d ** 2`` 70-30 and ``d`` lost to ``d ** 2`` 28-72; the extra-turn weight barely matters.)
    """
    n = rules.pits
    if rules.basic:
        weights = [(n - i) ** 3 for i in range(n)]
        exact = [(n - i, 2 * n + 1 - i) for i in range(n)]
        extra_weight = n**3 // 2

        def basic(b: list[int], p: int) -> int:
            mine = b[:n] if p == 0 else b[n + 1 : 2 * n + 1]
            theirs = b[n + 1 : 2 * n + 1] if p == 0 else b[:n]
            ready = 0
            for s, distances in zip(mine, exact, strict=True):
                if s in distances:
                    ready += 1
            for s, distances in zip(theirs, exact, strict=True):
                if s in distances:
                    ready -= 1
            work = sum(map(mul, theirs, weights)) - sum(map(mul, mine, weights))
            return work + ready * extra_weight

        return basic
    side_weight = LEFTOVER_WEIGHT if rules.count_leftovers else 0

    def kalah(b: list[int], p: int) -> int:
        stores = b[n] - b[2 * n + 1]
        if side_weight:
            # side 0 minus side 1 with one slice: side 1 is the board less side 0 and the stores
            sides = 2 * sum(b[:n]) + b[n] + b[2 * n + 1] - sum(b)
            value = stores * SCALE + sides * side_weight
        else:
            value = stores * SCALE
        return value if p == 0 else -value

    return kalah


def _final_value(rules: Rules) -> Callable[[list[int], int], int]:
    """The value of a finished board for ``player``, the one who just moved."""
    n = rules.pits
    if rules.basic:

        def basic(b: list[int], p: int) -> int:
            mine = sum(b[:n] if p == 0 else b[n + 1 : 2 * n + 1])
            theirs = sum(b[n + 1 : 2 * n + 1] if p == 0 else b[:n])
            return WIN + theirs if mine == 0 else -WIN - mine

        return basic

    def kalah(b: list[int], p: int) -> int:
        diff = b[n] - b[2 * n + 1]
        return (diff if p == 0 else -diff) * SCALE

    return kalah


def _orderer(rules: Rules) -> Callable[[list[int], int, int], list[int]]:
    """Legal pits, most promising first: the table's best move, extra turns, captures, the rest.

    Extra-turn pits go from the one nearest the store outward, so playing one first does not
    spoil the others (sowing pit ``i`` only touches the pits to its right). A move whose last
    stone lands alone in an empty pit of yours opposite stones is a capture.
    """
    n = rules.pits
    cycle = 2 * n + 2 if rules.basic else 2 * n + 1
    stores = (n, 2 * n + 1) if rules.basic else (n,)
    can_capture = rules.capture != "none"
    pits = range(n - 1, -1, -1)

    def order(b: list[int], p: int, first: int) -> list[int]:
        base = p * (n + 1)
        side = b[base : base + n]
        extra: list[int] = []
        captures: list[int] = []
        rest: list[int] = []
        for i in pits:
            s = side[i]
            if not s or i == first:
                continue
            land = i + s
            if land >= cycle:
                land %= cycle
            if land in stores:
                extra.append(i)
            elif (
                can_capture and land < n and not side[land] and s < cycle and b[2 * n - base - land]
            ):
                captures.append(i)
            else:
                rest.append(i)
        if first >= 0:
            extra.insert(0, first)
        return extra + captures + rest

    return order


@dataclass(slots=True)
class _Budget:
    """When a search must stop: a node count, a clock, or both."""

    nodes: int
    time: float
    clock: Callable[[], float] | None
    deadline: float = 0.0

    def start(self) -> None:
        if self.time:
            self.deadline = self.clock() + self.time  # type: ignore[misc]

    def check(self, nodes: int) -> None:
        if self.nodes and nodes >= self.nodes:
            raise _Stop
        if self.time and self.clock() >= self.deadline:  # type: ignore[misc]
            raise _Stop


class Search:
    """One position's search: iterative deepening over a transposition table, within a budget.

    ``nodes`` (0: none) is the deterministic budget: a bot that stops on a node count plays the
    same move on every machine. ``time`` (0: none) is the safety net for a slow or busy machine:
    the clock, read every ``_CHECK_EVERY`` nodes, stops the search even if nodes remain.
    """

    def __init__(
        self,
        rules: Rules,
        *,
        nodes: int = 0,
        time: float = 0.0,
        clock: Callable[[], float] | None = None,
    ) -> None:
        if time and clock is None:
            raise ValueError("a time budget needs a clock")
        self.rules = rules
        self._budget = _Budget(nodes, time, clock)
        self._order = _orderer(rules)
        self._tables: tuple[dict[bytes, tuple[int, int, int, int]], ...] = ({}, {})
        self._negamax, self._counters = self._build()

    @property
    def nodes(self) -> int:
        """Positions visited so far, the budget's unit."""
        return self._counters()[0]

    def _build(
        self,
    ) -> tuple[Callable[[list[int], int, int, int, int], int], Callable[[], tuple[int, int]]]:
        """The recursive search as a closure: its counters are cells, not attributes, and the
        rules, tables and helpers are local names (the search's speed is CPython's name lookup).
        """
        rules = self.rules
        n = rules.pits
        tables = self._tables
        order = self._order
        evaluate = _evaluator(rules)
        final = _final_value(rules)
        check = self._budget.check
        pits = range(n - 1, -1, -1)
        nodes = 0
        horizon = 0  # lines cut by the depth limit, or by a table entry that was: 0 is exact
        next_check = _CHECK_EVERY

        def negamax(b: list[int], p: int, depth: int, alpha: int, beta: int) -> int:
            nonlocal nodes, horizon, next_check
            nodes += 1
            if nodes >= next_check:
                next_check = nodes + _CHECK_EVERY
                check(nodes)
            if depth <= 0:
                horizon += 1
                return evaluate(b, p)
            base = p * (n + 1)
            if depth == 1:
                # One move above the horizon the children are evaluations: no table (cheaper to
                # redo than to store) and no ordering beyond nearest-the-store first.
                best = -INFINITY
                for pit in pits:
                    if not b[base + pit]:
                        continue
                    c = b[:]
                    _, extra, captured = sow(c, rules, p, pit)
                    if (captured or not any(c[base : base + n])) and finish(c, rules):
                        value = final(c, p)
                    else:
                        nodes += 1
                        horizon += 1
                        value = evaluate(c, p) if extra else -evaluate(c, 1 - p)
                    if value > best:
                        best = value
                        if value >= beta:
                            break
                return best
            table = tables[p]
            key = bytes(b)  # a cell holds at most 72 stones (6 a pit, 12 pits): one byte each
            entry = table.get(key)
            first = -1
            if entry is not None:
                e_depth, e_flag, e_value, first = entry
                if e_depth >= depth:
                    if e_flag == _EXACT:
                        hit = True
                    elif e_flag == _LOWER:
                        hit = e_value >= beta
                    else:
                        hit = e_value <= alpha
                    if hit:
                        if e_depth != SOLVED:
                            horizon += 1
                        return e_value
            horizon_before = horizon
            alpha0 = alpha
            best = -INFINITY
            best_pit = -1
            for pit in order(b, p, first):
                c = b[:]
                _, extra, captured = sow(c, rules, p, pit)
                # Only the mover's side can run empty, or the opponent's through a capture: the
                # kernel's full check runs when one of those may have happened.
                if (captured or not any(c[base : base + n])) and finish(c, rules):
                    value = final(c, p)
                elif best_pit < 0:
                    if extra:
                        value = negamax(c, p, depth - 1, alpha, beta)
                    else:
                        value = -negamax(c, 1 - p, depth - 1, -beta, -alpha)
                elif extra:
                    # Principal variation search: after the first move, only prove that the
                    # others are no better (a null window), and search again if one is.
                    value = negamax(c, p, depth - 1, alpha, alpha + 1)
                    if alpha < value < beta:
                        value = negamax(c, p, depth - 1, alpha, beta)
                else:
                    value = -negamax(c, 1 - p, depth - 1, -alpha - 1, -alpha)
                    if alpha < value < beta:
                        value = -negamax(c, 1 - p, depth - 1, -beta, -alpha)
                if value > best:
                    best = value
                    best_pit = pit
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            flag = _LOWER if best >= beta else _UPPER if best <= alpha0 else _EXACT
            solved = horizon == horizon_before
            table[key] = (SOLVED if solved else depth, flag, best, best_pit)
            return best

        def counters() -> tuple[int, int]:
            return nodes, horizon

        return negamax, counters

    def best(self, board: list[int], player: int, depth: int) -> Result:
        """Deepen one move at a time up to ``depth`` (or the budget, or an exact result).

        A budget that runs out mid-iteration still improves the answer: the iteration searches the
        previous best move first, so any move that finished with a higher value beats it.

        Python's cyclic garbage collector is paused meanwhile: the table holds hundreds of
        thousands of tuples, none in a cycle, and rescanning them halves the search's speed.
        The table is emptied at the end, so call ``best`` once per search.
        """
        collect = gc.isenabled()
        gc.disable()
        try:
            return self._deepen(board, player, depth)
        finally:
            # The recursive closure is a reference cycle, so without this the table would
            # linger until the cycle collector ran: free its memory with the move made.
            for table in self._tables:
                table.clear()
            if collect:
                gc.enable()

    def _deepen(self, board: list[int], player: int, depth: int) -> Result:
        self._budget.start()
        rules = self.rules
        final = _final_value(rules)
        negamax = self._negamax
        counters = self._counters
        moves = self._order(board, player, -1)
        result = Result(moves[0], 0, 0, False, 0)
        for d in range(1, depth + 1):
            horizon = counters()[1]
            best = -INFINITY
            best_pit = -1
            try:
                for pit in moves:
                    c = board[:]
                    extra = sow(c, rules, player, pit)[1]
                    if finish(c, rules):
                        value = final(c, player)
                    elif extra:
                        value = negamax(c, player, d - 1, best, INFINITY)
                    else:
                        value = -negamax(c, 1 - player, d - 1, -INFINITY, -best)
                    if value > best:
                        best = value
                        best_pit = pit
            except _Stop:
                if best_pit >= 0:
                    result = Result(best_pit, best, result.depth, False, self.nodes)
                else:
                    result = replace(result, nodes=self.nodes)
                break
            exact = counters()[1] == horizon
            result = Result(best_pit, best, d, exact, self.nodes)
            if exact:
                break
            moves.remove(best_pit)
            moves.insert(0, best_pit)
        return result

    def values(self, board: list[int], player: int, depth: int) -> dict[int, int]:
        """Every legal move's value searched ``depth`` moves deep with a full window.

        Alpha-beta only bounds the moves that are not best; the levels that pick among moves by
        their values (to make human mistakes) need each one exactly, at a shallow depth.
        """
        return {pit: value for pit, (value, _) in self.graded(board, player, depth).items()}

    def analyse(self, board: list[int], player: int, depth: int) -> dict[int, tuple[int, bool]]:
        """Every legal move's ``(value, exact)`` from the deepest full-window iteration that
        finished within the budget, up to ``depth`` or until every value is exact.

        Slower than ``best`` (no move is merely bounded), for the review and the hints, which
        must say how much each move loses. Call it once per search, as ``best``.
        """
        collect = gc.isenabled()
        gc.disable()
        graded: dict[int, tuple[int, bool]] = {}
        try:
            self._budget.start()
            for d in range(1, depth + 1):
                try:
                    graded = self.graded(board, player, d)
                except _Stop:
                    break
                if all(exact for _, exact in graded.values()):
                    break
        finally:
            for table in self._tables:
                table.clear()
            if collect:
                gc.enable()
        # not even one move deep within the budget: that depth is instant without one
        return graded or Search(self.rules).graded(board, player, 1)

    def graded(self, board: list[int], player: int, depth: int) -> dict[int, tuple[int, bool]]:
        """``values`` with, per move, whether its value is exact (searched to the end of every
        line)."""
        rules = self.rules
        final = _final_value(rules)
        counters = self._counters
        out: dict[int, tuple[int, bool]] = {}
        for pit in self._order(board, player, -1):
            c = board[:]
            extra = sow(c, rules, player, pit)[1]
            horizon = counters()[1]
            if finish(c, rules):
                value = final(c, player)
            elif extra:
                value = self._negamax(c, player, depth - 1, -INFINITY, INFINITY)
            else:
                value = -self._negamax(c, 1 - player, depth - 1, -INFINITY, INFINITY)
            out[pit] = (value, counters()[1] == horizon)
        return out
