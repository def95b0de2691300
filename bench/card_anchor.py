"""Anchor for the card games: the site's top level against OpenSpiel's ISMCTS, one deal at a time.

The card games' Elo comes from our own arena, so it says how our levels compare with each other
and nothing about how strong the top is. OpenSpiel's ``ismcts.ISMCTSBot`` is an outside
opponent anyone can rerun: it searches states resampled by the engine's own ``sample_state``
(``resample_from_infostate`` of asobiba.openspiel) and values a leaf by one cheap playout
(``Playout``: a win whenever one is offered, any legal move otherwise).

The unit is one deal, not a match or session: a deal takes seconds, a whole match with a search
at every move takes many minutes, and the luck of one deal is what duplicate play removes. The
engines have no one-deal option (MOMOJAN's ``dealerships=1`` is still two rounds or more), so
this bench registers ``asobiba_momojan_deal`` and ``asobiba_michikake_deal``: the same adapter
over engines that stop once the first deal is settled (``MomojanFirstDeal``,
``MichikakeFirstDeal``); no rule is written again. ISMCTS's playouts therefore end at the deal's
end and it maximises the deal's points, the figure it is judged by.

Duplicate deals: every deal is played once with our bot in each seat (MOMOJAN: seat 0, then the
same cards with the seats swapped; MICHIKAKE: our bot in seat 0, 1, 2 (and 3), ISMCTS in every
other seat), so each hand is played by both sides. Per deal, our points are the mean over those
plays of our seat's points, ISMCTS's the mean over the plays of its seats' mean points; the deal
is ahead (1), even (0.5) or behind (0) by their difference.

    .venv/bin/python bench/card_anchor.py --game momojan --calibrate
    .venv/bin/python bench/card_anchor.py --game momojan --deals 100 --simulations N
    .venv/bin/python bench/card_anchor.py --game michikake --players 4 --deals 30 --budget x1

``--calibrate`` prints the simulations ISMCTS runs in 1 s a move here; ``--budget x1`` calibrates
and plays at that count, ``x10`` at ten times it; ``--simulations`` sets the count directly.
``--cheater`` gives ISMCTS the true state instead of a resampled one (every hidden card, the
piles' order too): a perfect-information ceiling. ``--minutes`` starts no deal after that long
and reports the deals played.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from asobiba.core.game import Action
from asobiba.core.rng import derive
from asobiba.games.michikake import Michikake
from asobiba.games.michikake.state import MichikakeState
from asobiba.games.momojan import Momojan
from asobiba.games.momojan.rules import MomojanState
from asobiba.openspiel import EngineBot
from asobiba.openspiel.game import SPECS, AsobibaState, register
from asobiba.openspiel.michikake import MichikakeSpec
from asobiba.openspiel.momojan import MomojanSpec

UCT_C = {"momojan": 5.0, "michikake": 100.0}
"""ISMCTS's exploration constant, in points as its returns are: about the spread of one seat's
points over a deal (their standard deviation between our experts was 5.5 in MOMOJAN, 108 and 73
in MICHIKAKE with 3 and 4 players), so exploring is weighed against the game's own stakes as
OpenSpiel's usual constant of about 2 is against returns of ±1."""


def _winners(scores: Sequence[int]) -> list[int]:
    return [seat for seat, points in enumerate(scores) if points == max(scores)]


class MomojanFirstDeal(Momojan):
    """MOMOJAN over once its first round is settled. A seat's points are its points after the
    settlement; a stake nobody took (a wall settlement with nobody paid) goes back to the child
    who put it in, so a deal stays zero-sum rather than carrying it into a round never dealt."""

    def to_move(self, state: MomojanState) -> frozenset[int]:
        return frozenset() if state.results else super().to_move(state)

    def legal_actions(self, state: MomojanState, seat: int) -> list[dict[str, Any]]:
        return [] if state.results else super().legal_actions(state, seat)

    def outcome(self, state: MomojanState) -> dict[str, Any] | None:
        if not state.results:
            return None
        first = state.results[0]
        scores = list(first.points)
        if first.winner is None:
            scores[1 - first.dealer] += first.stake
        return {"scores": scores, "winners": _winners(scores)}


class MichikakeFirstDeal(Michikake):
    """MICHIKAKE over once its first deal is settled (at the break, before the next deal)."""

    def to_move(self, state: MichikakeState) -> frozenset[int]:
        return frozenset() if state.results else super().to_move(state)

    def legal_actions(self, state: MichikakeState, seat: int) -> list[dict[str, Any]]:
        return [] if state.results else super().legal_actions(state, seat)

    def outcome(self, state: MichikakeState) -> dict[str, Any] | None:
        if not state.results:
            return None
        scores = list(state.points)
        return {"scores": scores, "winners": _winners(scores)}


class MomojanDealSpec(MomojanSpec):
    engine = MomojanFirstDeal()
    short_name = "asobiba_momojan_deal"
    long_name = "asobiba MOMOJAN, one round"


class MichikakeDealSpec(MichikakeSpec):
    engine = MichikakeFirstDeal()
    short_name = "asobiba_michikake_deal"
    long_name = "asobiba MICHIKAKE, one deal"


for _spec in (MomojanDealSpec(), MichikakeDealSpec()):
    if _spec.short_name not in SPECS:
        register(_spec)


def _momojan_win(action: Action) -> bool:
    return action.get("type") in ("tsumo", "ron")


def _michikake_win(action: Action) -> bool:
    return "win" in action


@dataclass(frozen=True)
class CardGame:
    """One card game as this bench plays it."""

    spiel_name: str
    is_win: Callable[[Action], bool]
    """Whether an engine action takes a win (the playout's one rule of thumb)."""


CARDS = {
    "momojan": CardGame("asobiba_momojan_deal", _momojan_win),
    "michikake": CardGame("asobiba_michikake_deal", _michikake_win),
}


class Playout(mcts.Evaluator):
    """ISMCTS's leaf value: one playout to the deal's end, taking a win whenever one is offered
    and any legal move otherwise. Uniform random play lets a win go by most times it is offered
    (a ツモ is one legal move of about eight), so its playouts would mostly end at the wall and
    tell close hands from hopeless ones poorly; taking the win costs nothing. It runs on the
    engine state directly, not through OpenSpiel's state, which would build every seat's
    observation and recall after each move: the same moves without that work."""

    def __init__(self, is_win: Callable[[Action], bool], rng: np.random.RandomState) -> None:
        self.is_win = is_win
        self.rng = rng

    def evaluate(self, state: AsobibaState) -> np.ndarray[Any, Any]:
        now = state.now
        spec, engine, position = now.spec, now.spec.engine, now.engine
        while (outcome := engine.outcome(position)) is None:
            seat = spec.mover(position)
            assert seat is not None, "a deal not over has a seat to move"
            legal = engine.legal_actions(position, seat)
            wins = [action for action in legal if self.is_win(action)]
            action = wins[0] if wins else legal[self.rng.randint(len(legal))]
            position = spec.settle(engine.apply(position, seat, action))
        return np.array(spec.returns(outcome, now.setup))

    def prior(self, state: AsobibaState) -> list[tuple[int, float]]:
        """Uniform (ISMCTS's UCT selection does not read it)."""
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


@dataclass(frozen=True)
class Play:
    """One deal played once: our bot in seat ``ours``, ISMCTS in every other seat."""

    deal: int
    ours: int
    points: tuple[float, ...]
    """Every seat's points over the deal (the deal's returns)."""

    @property
    def our_points(self) -> float:
        return self.points[self.ours]

    @property
    def their_points(self) -> float:
        """The mean of the ISMCTS seats' points."""
        return statistics.fmean(p for seat, p in enumerate(self.points) if seat != self.ours)


@dataclass(frozen=True)
class Deal:
    """One deal in duplicate: played once with our bot in each seat."""

    number: int
    plays: tuple[Play, ...]

    @property
    def ours(self) -> float:
        """Our points a play, averaged over the seats."""
        return statistics.fmean(play.our_points for play in self.plays)

    @property
    def theirs(self) -> float:
        """ISMCTS's points a play and seat, averaged over the plays."""
        return statistics.fmean(play.their_points for play in self.plays)

    @property
    def ahead(self) -> float:
        """1 if our points beat ISMCTS's, 0.5 if even, else 0."""
        difference = self.ours - self.theirs
        return 1.0 if difference > 0 else 0.5 if difference == 0 else 0.0


@dataclass
class Times:
    """Seconds per decision of each side; only decisions with more than one legal action, since
    a forced move (most claim answers are a lone ``pass``) is no decision and is not asked."""

    ours: list[float] = field(default_factory=list)
    theirs: list[float] = field(default_factory=list)


def load(name: str, players: int, seed: int) -> pyspiel.Game:
    """The one-deal game, deals dealt from engine seeds ``seed * 1_000_000 + deal``."""
    params: dict[str, Any] = {"first_seed": seed * 1_000_000}
    if name == "michikake":
        params["players"] = players
    return pyspiel.load_game(CARDS[name].spiel_name, params)


def searcher(
    game: pyspiel.Game, name: str, simulations: int, cheater: bool, seed: int
) -> ismcts.ISMCTSBot:
    """OpenSpiel's ISMCTS as the bench plays it: UCT with ``UCT_C``, the most visited move,
    worlds drawn afresh for every simulation. The cheater's resampler hands back the true
    state itself."""
    rng = np.random.RandomState(seed % 2**32)
    bot = ismcts.ISMCTSBot(
        game, Playout(CARDS[name].is_win, rng), UCT_C[name], simulations, random_state=rng
    )
    if cheater:
        bot.set_resampler(lambda state, player: state.clone())
    return bot


def play(
    game: pyspiel.Game,
    deal: int,
    ours: int,
    our_bot: pyspiel.Bot,
    their_bot: pyspiel.Bot,
    times: Times,
) -> Play:
    """Deal ``deal`` once, ``our_bot`` in seat ``ours`` and ``their_bot`` in every other."""
    state = game.new_initial_state()
    state.apply_action(deal)
    while not state.is_terminal():
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        mine = state.current_player() == ours
        started = time.perf_counter()
        action = int((our_bot if mine else their_bot).step(state))
        (times.ours if mine else times.theirs).append(time.perf_counter() - started)
        state.apply_action(action)
    return Play(deal, ours, tuple(state.returns()))


def duplicate(
    name: str,
    players: int,
    deal: int,
    simulations: int,
    *,
    seed: int,
    cheater: bool = False,
    level: str | None = None,
    times: Times | None = None,
) -> Deal:
    """Deal ``deal`` played once with our bot (``level``, default the top) in each seat in
    turn. Every play has its own bots, seeded from (seed, deal, seat), so a run can be split
    and rerun deal by deal."""
    game = load(name, players, seed)
    top = level or game.spec.engine.levels[-1]
    plays = []
    for ours in range(game.num_players()):
        label = f"card_anchor/{deal}/{ours}"
        mine = EngineBot(game, ours, top, seed=derive(seed, label))
        theirs = searcher(game, name, simulations, cheater, derive(seed, f"{label}/ismcts"))
        plays.append(play(game, deal, ours, mine, theirs, times or Times()))
    return Deal(deal, tuple(plays))


class Recorder(pyspiel.Bot):
    """A bot that keeps a copy of every state it is asked to move in, then lets ``bot`` move."""

    def __init__(self, bot: pyspiel.Bot) -> None:
        super().__init__()
        self.bot = bot
        self.states: list[AsobibaState] = []

    def step(self, state: AsobibaState) -> int:
        self.states.append(state.clone())
        return int(self.bot.step(state))


def calibrate(name: str, players: int, seed: int, positions: int = 40) -> int:
    """The simulations ISMCTS runs in 1 s a move here. The positions are fixed first: ISMCTS's
    first ``positions`` decisions in deals against our top level (at 10 simulations). Each is
    searched at a probe count; the count is 1 s over the median time a simulation took, then
    measured again on the same positions and scaled once more (a simulation's cost is not quite
    constant). Timing the same positions at both counts keeps the deals' luck out of it: timed
    along the games they played, two probes put a simulation's cost a factor of three apart.
    The seconds are this process's CPU time, so a busy machine (the bench runs under ``nice``)
    slows the moves, not the count."""
    game = load(name, players, seed)
    top = game.spec.engine.levels[-1]
    recorder = Recorder(searcher(game, name, 10, False, seed))
    deal = 10_000
    while len(recorder.states) < positions:
        for ours in range(players):
            mine = EngineBot(game, ours, top, seed=derive(seed, f"calibrate/{deal}/{ours}"))
            play(game, deal, ours, mine, recorder, Times())
        deal += 1
    count = 50
    for step in (1, 2):
        seconds = []
        for state in recorder.states[:positions]:
            bot = searcher(game, name, count, False, derive(seed, f"calibrate/{step}"))
            started = time.process_time()
            bot.step(state.clone())
            seconds.append(time.process_time() - started)
        median = statistics.median(seconds)
        print(
            f"calibration step {step}: {count} simulations on {positions} positions,"
            f" median {median:.3f} s, max {max(seconds):.3f} s CPU a move",
            flush=True,
        )
        count = max(1, round(count / median))
    return count


@dataclass(frozen=True)
class Summary:
    """What a run prints."""

    deals: int
    share: float
    share_half_width: float
    difference: float
    difference_half_width: float
    ours: float
    theirs: float


def summarise(deals: Sequence[Deal]) -> Summary:
    """Score share and points difference a deal, each with a 95% normal interval (1.96 standard
    errors over the deals, which are independent; the plays of one deal are not)."""
    n = len(deals)
    ahead = [deal.ahead for deal in deals]
    differences = [deal.ours - deal.theirs for deal in deals]

    def half_width(values: list[float]) -> float:
        return 1.96 * statistics.stdev(values) / math.sqrt(n) if n > 1 else math.inf

    return Summary(
        deals=n,
        share=statistics.fmean(ahead),
        share_half_width=half_width(ahead),
        difference=statistics.fmean(differences),
        difference_half_width=half_width(differences),
        ours=statistics.fmean(deal.ours for deal in deals),
        theirs=statistics.fmean(deal.theirs for deal in deals),
    )


def report(args: argparse.Namespace, simulations: int, deals: Sequence[Deal], times: Times) -> None:
    summary = summarise(deals)
    table = f"{args.game}, {args.players} players" if args.game == "michikake" else args.game
    who = "cheating ISMCTS (true state)" if args.cheater else "ISMCTS"
    print()
    print(f"| {args.level or 'top level'} vs {who}, {simulations} simulations | value |")
    print("|---|---:|")
    print(f"| game | {table} |")
    print(f"| deals (each played from every seat) | {summary.deals} |")
    print(
        f"| deals ahead, ties half | {100 * summary.share:.1f}%"
        f" ± {100 * summary.share_half_width:.1f} |"
    )
    print(
        f"| points a deal, ours - ISMCTS's | {summary.difference:+.2f}"
        f" ± {summary.difference_half_width:.2f} |"
    )
    print(f"| points a deal, ours / ISMCTS's | {summary.ours:+.2f} / {summary.theirs:+.2f} |")
    for side, values in ((args.level or "our top level", times.ours), ("ISMCTS", times.theirs)):
        print(
            f"| {side} s/move, median / max ({len(values)} decisions) |"
            f" {statistics.median(values):.3f} / {max(values):.3f} |"
        )
    by_seat = ", ".join(f"{seat}: {p:+.2f}" for seat, p in _points_by_seat(deals).items())
    print(f"| our points a play by seat | {by_seat} |")
    if not args.cheater:  # the goals are set against the fair search; the cheater is a ceiling
        print(
            f"\nscore {100 * summary.share:.1f}% (issue 21's goals: at least 55% at the 1 s"
            " budget, at least 50% at ten times it)"
        )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(CARDS), default="momojan")
    parser.add_argument("--players", type=int, choices=(3, 4), default=4, help="MICHIKAKE")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first-deal", type=int, default=0, help="deal numbers start here")
    parser.add_argument("--simulations", type=int, help="ISMCTS's count (else --budget)")
    parser.add_argument("--budget", choices=("x1", "x10"), default="x1")
    parser.add_argument("--calibrate", action="store_true", help="print the 1 s count, stop")
    parser.add_argument("--cheater", action="store_true", help="ISMCTS sees the true state")
    parser.add_argument("--level", help="our level (default the top one)")
    parser.add_argument(
        "--minutes", type=float, help="start no deal after this long (report what was played)"
    )
    args = parser.parse_args(argv)
    players = args.players if args.game == "michikake" else 2
    args.players = players
    if args.calibrate or args.simulations is None:
        count = calibrate(args.game, players, args.seed)
        print(f"ISMCTS runs {count} simulations in 1 s a move ({args.game}, {players} players)")
        if args.calibrate:
            return
        simulations = count * (10 if args.budget == "x10" else 1)
    else:
        simulations = args.simulations
    times = Times()
    deals: list[Deal] = []
    stop = math.inf if args.minutes is None else time.monotonic() + 60 * args.minutes
    for number in range(args.first_deal, args.first_deal + args.deals):
        if time.monotonic() >= stop:
            print(f"--minutes {args.minutes:g} reached: {len(deals)} deals played", flush=True)
            break
        deal = duplicate(
            args.game,
            players,
            number,
            simulations,
            seed=args.seed,
            cheater=args.cheater,
            level=args.level,
            times=times,
        )
        deals.append(deal)
        running = summarise(deals)
        print(
            f"deal {number}: ours {deal.ours:+.1f}, ISMCTS {deal.theirs:+.1f} a play"
            f" (seats {' '.join(_seat_points(deal))});"
            f" running {100 * running.share:.1f}% over {len(deals)}",
            flush=True,
        )
    report(args, simulations, deals, times)


def _seat_points(deal: Deal) -> list[str]:
    """Each play's points, ours marked with *, for the per-deal line."""
    return [
        "/".join(f"{p:g}{'*' if seat == play.ours else ''}" for seat, p in enumerate(play.points))
        for play in deal.plays
    ]


def _points_by_seat(deals: Sequence[Deal]) -> Mapping[int, float]:
    """Our mean points from each seat: the seats are not worth the same (the dealer moves
    first), which is why every deal is played from each."""
    seats: dict[int, list[float]] = {}
    for deal in deals:
        for one in deal.plays:
            seats.setdefault(one.ours, []).append(one.our_points)
    return {seat: statistics.fmean(values) for seat, values in sorted(seats.items())}


if __name__ == "__main__":
    main()
