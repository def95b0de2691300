"""Mancala bots: legal, deterministic, strong where they should be and human where they should be.

The expert is tested with a small node budget (``nodes=``) and no clock, so the tests are fast and
do not depend on the machine's speed; the level's own budget is measured in bench/.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from asobiba.core.bots import RandomBot
from asobiba.core.errors import InvalidOptions
from asobiba.games import get_game
from asobiba.games.mancala.board import Rules, finish, sow
from asobiba.games.mancala.bots import NoviceBot, make_bot, position
from asobiba.games.mancala.data import LEVEL_BY_ID, LEVELS
from asobiba.games.mancala.search import SCALE, Search, _final_value, evaluate

GAME = get_game("mancala")
FAST_EXPERT_NODES = 1500


def bot(level: str, seed: int) -> Any:
    """A level's bot; the expert on a small node budget, no clock and no endgame table."""
    if LEVEL_BY_ID[level].time:
        return make_bot(level, seed, nodes=FAST_EXPERT_NODES, time=0.0, endgame=False)
    return make_bot(level, seed)


def option_sets() -> list[dict[str, Any]]:
    kalah = [
        {"variant": "kalah", "seeds": s, "capture": c, "count_leftovers": lo, "pits": p}
        for s, c, lo, p in itertools.product(
            (3, 4, 5, 6), ("standard", "empty", "none"), (True, False), (3, 4, 5, 6)
        )
    ]
    basic = [
        {"variant": "basic", "seeds": s, "pits": p}
        for s, p in itertools.product((3, 4, 5, 6), (3, 4, 5, 6))
    ]
    return kalah + basic


def random_states(options: dict[str, Any], count: int, seed: int) -> list[Any]:
    """Positions along one random game (not the start, not over), spread over its length."""
    rng = random.Random(seed)
    state = GAME.new_state(options, 2, seed)
    seen = []
    while GAME.outcome(state) is None:
        seen.append(state)
        (seat,) = GAME.to_move(state)
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return [seen[len(seen) * (k + 1) // (count + 1)] for k in range(count)]


def observation(
    pits: list[list[int]], stores: list[int], to_move: int = 0, **options: Any
) -> dict[str, Any]:
    return {
        "game": "mancala",
        "options": GAME.resolve_options({"pits": len(pits[0]), **options}),
        "pits": pits,
        "stores": stores,
        "to_move": to_move,
        "ply": 20,
        "seat": to_move,
    }


def legal_of(obs: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"pit": i} for i, s in enumerate(obs["pits"][obs["to_move"]]) if s]


@pytest.mark.parametrize("options", option_sets(), ids=lambda o: ",".join(map(str, o.values())))
def test_every_level_plays_a_legal_action_under_every_option_set(
    options: dict[str, Any],
) -> None:
    for k, state in enumerate(random_states(options, 2, seed=len(str(options)))):
        (seat,) = GAME.to_move(state)
        legal = GAME.legal_actions(state, seat)
        for level in GAME.levels:
            choice = bot(level, k).choose(GAME.observe(state, seat), legal)
            assert choice in legal, (level, options, choice, legal)


def test_levels_are_listed_weakest_first_with_both_names() -> None:
    assert GAME.levels == ["beginner", "casual", "strong", "expert"]
    assert len(LEVELS) >= 4
    for level in LEVELS:
        assert level.name_ja and level.name_en
        assert level.source in ("designed", "rulebook") and level.reason


def test_unknown_level_is_a_clear_error() -> None:
    with pytest.raises(InvalidOptions, match="unknown mancala bot level 'grandmaster'"):
        make_bot("grandmaster", 1)
    with pytest.raises(InvalidOptions, match="beginner"):
        GAME.make_bot("grandmaster", 1)


def play_game(levels: tuple[str, str], seeds: tuple[int, int], options: dict[str, Any]) -> list:
    bots = [bot(levels[0], seeds[0]), bot(levels[1], seeds[1])]
    state = GAME.new_state(options, 2, 0)
    moves = []
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_move(state)
        action = bots[seat].choose(GAME.observe(state, seat), GAME.legal_actions(state, seat))
        moves.append((seat, action["pit"]))
        state = GAME.apply(state, seat, action)
    return moves


@pytest.mark.parametrize("level", ["beginner", "casual", "strong", "expert"])
def test_a_bot_is_deterministic_for_its_seed(level: str) -> None:
    for options in ({}, {"variant": "basic"}):
        first = play_game((level, "beginner"), (7, 8), options)
        assert play_game((level, "beginner"), (7, 8), options) == first


def test_a_move_depends_on_the_seed_and_the_position_only() -> None:
    """A bot rebuilt mid-game (a restarted server) chooses as the one that played all along."""
    state = random_states({}, 1, seed=3)[0]
    (seat,) = GAME.to_move(state)
    obs, legal = GAME.observe(state, seat), GAME.legal_actions(state, seat)
    for level in GAME.levels:
        played = bot(level, 5)
        for other in random_states({}, 3, seed=4):
            (s,) = GAME.to_move(other)
            played.choose(GAME.observe(other, s), GAME.legal_actions(other, s))
        assert played.choose(obs, legal) == bot(level, 5).choose(obs, legal)


def test_the_beginners_games_vary_with_the_seed() -> None:
    games = {tuple(play_game(("beginner", "beginner"), (s, s + 100), {})) for s in range(6)}
    assert len(games) > 3


def test_the_expert_plays_out_an_extra_turn_chain_to_the_win() -> None:
    """Pits 5, 4, 5 all end in the store and empty the side: 25-23. Pit 4 first draws 24-24."""
    obs = observation([[0, 0, 0, 0, 2, 1], [1, 1, 0, 0, 0, 1]], [22, 20])
    rules, board, _ = position(obs)
    expert = bot("expert", 1)
    played = []
    for _ in range(6):
        obs = {**obs, "pits": [board[0:6], board[7:13]], "stores": [board[6], board[13]]}
        pit = expert.choose(obs, legal_of(obs))["pit"]
        played.append(pit)
        extra = sow(board, rules, 0, pit)[1]
        if finish(board, rules) or not extra:
            break
    assert played == [5, 4, 5]
    assert board[6] == 25 and board[13] == 23


def test_searching_levels_take_the_big_capture_over_the_extra_turn_that_spoils_it() -> None:
    """Pit 2 lands in empty pit 4 and captures the 9 opposite (exactly: +18 at the end); pit 1
    earns an extra turn but sows through pit 4 (+10). The beginner takes the extra turn."""
    obs = observation([[0, 5, 2, 0, 0, 0], [0, 9, 0, 0, 0, 3]], [15, 14])
    rules, board, player = position(obs)
    exact = Search(rules).best(board, player, 64)
    assert exact.exact and exact.pit == 2 and exact.value == 18 * SCALE
    for level in ("casual", "strong", "expert"):
        assert bot(level, 1).choose(obs, legal_of(obs)) == {"pit": 2}, level
    assert make_bot("beginner", 2).choose(obs, legal_of(obs)) == {"pit": 1}


def minimax(board: list[int], rules: Rules, player: int, depth: int) -> int:
    """Plain minimax without pruning or tables: the reference the search must agree with."""
    final = _final_value(rules)
    n = rules.pits
    best = None
    for pit in range(n):
        if not board[player * (n + 1) + pit]:
            continue
        child = board[:]
        extra = sow(child, rules, player, pit)[1]
        if finish(child, rules):
            value = final(child, player)
        elif depth == 1:
            value = evaluate(child, rules, player) if extra else -evaluate(child, rules, 1 - player)
        elif extra:
            value = minimax(child, rules, player, depth - 1)
        else:
            value = -minimax(child, rules, 1 - player, depth - 1)
        best = value if best is None else max(best, value)
    assert best is not None
    return best


@pytest.mark.parametrize(
    "options", [{}, {"capture": "empty", "count_leftovers": False}, {"variant": "basic"}]
)
def test_search_values_agree_with_plain_minimax(options: dict[str, Any]) -> None:
    resolved = GAME.resolve_options({"pits": 4, **options})
    rules = Rules.from_options(resolved)
    for k, state in enumerate(random_states(resolved, 3, seed=11)):
        obs = GAME.observe(state, None)
        _, board, player = position(obs)
        depth = 1 + k % 3 + 1
        values = Search(rules).values(board, player, depth)
        assert max(values.values()) == minimax(board, rules, player, depth)
        assert Search(rules).best(board, player, depth).value == minimax(
            board, rules, player, depth
        )


def test_the_search_is_exact_when_few_stones_remain() -> None:
    """With a handful of stones every line reaches the end: the value is the true result."""
    resolved = GAME.resolve_options({"pits": 4, "seeds": 3})
    rules = Rules.from_options(resolved)
    rng = random.Random(2)
    checked = 0
    for _ in range(40):
        state = GAME.new_state(resolved, 2, 0)
        while GAME.outcome(state) is None and sum(map(sum, GAME.observe(state, None)["pits"])) > 7:
            (seat,) = GAME.to_move(state)
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        if GAME.outcome(state) is not None:
            continue
        _, board, player = position(GAME.observe(state, None))
        result = Search(rules).best(board, player, 64)
        assert result.exact
        assert result.value == minimax(board, rules, player, 40)
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("options", [{}, {"variant": "basic"}, {"count_leftovers": False}])
def test_the_expert_beats_random_play(options: dict[str, Any]) -> None:
    wins = 0
    for k in range(4):
        expert, other = bot("expert", k), RandomBot(k)
        seats = [expert, other] if k % 2 == 0 else [other, expert]
        state = GAME.new_state(options, 2, k)
        while GAME.outcome(state) is None:
            (seat,) = GAME.to_move(state)
            legal = GAME.legal_actions(state, seat)
            state = GAME.apply(state, seat, seats[seat].choose(GAME.observe(state, seat), legal))
        outcome = GAME.outcome(state)
        assert outcome is not None
        wins += outcome["winners"] == [k % 2]
    assert wins == 4


def test_the_expert_stops_on_its_node_budget() -> None:
    rules = Rules()
    board = [4] * 6 + [0] + [4] * 6 + [0]
    result = Search(rules, nodes=5000).best(board, 0, 64)
    assert 5000 <= result.nodes < 5000 + 1024
    assert result.depth >= 4 and not result.exact


def test_the_expert_stops_on_its_clock() -> None:
    ticks = iter(range(1000))
    search = Search(Rules(), time=50.0, clock=lambda: float(next(ticks)))
    result = search.best([6] * 6 + [0] + [6] * 6 + [0], 0, 64)
    assert result.depth >= 1 and result.nodes < 60 * 1024


def test_the_expert_levels_budget_stays_under_a_second() -> None:
    expert = LEVEL_BY_ID["expert"]
    assert 0 < expert.time <= 0.9 and expert.nodes > 0


def situations(seed: int, count: int) -> list[tuple[dict[str, Any], set[int], set[int]]]:
    """Random default-Kalah positions with the mover's extra-turn pits and capturing pits."""
    rng = random.Random(seed)
    found: list[tuple[dict[str, Any], set[int], set[int]]] = []
    while len(found) < count:
        state = random_states({}, 1, seed=rng.randrange(10**6))[0]
        (seat,) = GAME.to_move(state)
        obs = GAME.observe(state, seat)
        rules, board, player = position(obs)
        extra, captures = set(), set()
        for pit in range(6):
            if board[player * 7 + pit]:
                after = board[:]
                _, again, captured = sow(after, rules, player, pit)
                if again:
                    extra.add(pit)
                elif captured > 2:
                    captures.add(pit)
        found.append((obs, extra, captures))
    return found


def test_the_beginner_sees_its_extra_turns_but_misses_captures() -> None:
    """Human mistakes, not random ones: a new player finds the extra turns the rulebook teaches
    first but overlooks some of its captures (the level's ``sight``)."""
    beginner = make_bot("beginner", 3)
    assert isinstance(beginner, NoviceBot)
    took_extra = had_extra = took_capture = had_capture = 0
    for obs, extra, captures in situations(1, 400):
        pit = beginner.choose(obs, legal_of(obs))["pit"]
        if extra:
            had_extra += 1
            took_extra += pit in extra
        elif captures:
            had_capture += 1
            took_capture += pit in captures
    assert had_extra > 50 and had_capture > 30
    assert took_extra / had_extra > 0.75
    assert 0.5 < took_capture / had_capture < 0.92


def test_stronger_levels_take_captures_more_often() -> None:
    """The levels' rates lie a few points apart (about 0.77, 0.83 and 0.81), so this takes the
    240-odd capturing positions among 1500: with a few dozen, the order is a coin toss."""
    rates = {}
    found = situations(2, 1500)
    for level in ("beginner", "casual", "strong"):
        player = bot(level, 3)
        taken = had = 0
        for obs, extra, captures in found:
            if captures and not extra:
                had += 1
                taken += player.choose(obs, legal_of(obs))["pit"] in captures
        rates[level] = taken / had
    assert rates["beginner"] < rates["casual"] and rates["beginner"] < rates["strong"], rates


def test_the_evaluation_is_antisymmetric_and_in_quarter_stones() -> None:
    for options in ({}, {"count_leftovers": False}, {"variant": "basic"}):
        rules = Rules.from_options(GAME.resolve_options(options))
        for state in random_states(GAME.resolve_options(options), 4, seed=5):
            _, board, _ = position(GAME.observe(state, None) | {"to_move": 0})
            assert evaluate(board, rules, 0) == -evaluate(board, rules, 1)
    assert evaluate([0] * 6 + [10] + [0] * 6 + [7], Rules(), 0) == 3 * SCALE
