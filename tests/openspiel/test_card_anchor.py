"""bench/card_anchor.py's accounting, on tiny deals (ISMCTS at a handful of simulations): each
deal is played once with our bot in every seat, the same cards each time, our bot asked only in
its own seat, and the points of a deal add up as the game says. The bench's figures rest on this;
its strength is measured by the bench, not here (the tests time nothing)."""

from __future__ import annotations

import importlib.util
import statistics
import sys
from pathlib import Path
from typing import Any

import pyspiel

from asobiba.openspiel import EngineBot

PATH = Path(__file__).resolve().parents[2] / "bench" / "card_anchor.py"


def _bench() -> Any:
    """The bench as a module (bench/ is scripts, not a package); registered in sys.modules
    before it runs, as its dataclasses need."""
    if "card_anchor" not in sys.modules:
        spec = importlib.util.spec_from_file_location("card_anchor", PATH)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["card_anchor"] = module
        spec.loader.exec_module(module)
    return sys.modules["card_anchor"]


class Spy(pyspiel.Bot):
    """A bot that remembers the seats it was asked for and each seat's hand the first time."""

    def __init__(self, bot: Any) -> None:
        super().__init__()
        self.bot = bot
        self.first_hands: dict[int, list[str]] = {}

    def step(self, state: Any) -> int:
        seat = state.current_player()
        self.first_hands.setdefault(seat, state.view(seat)["hand"])
        return int(self.bot.step(state))


def test_momojan_seats_swap_on_the_same_cards() -> None:
    bench = _bench()
    game = bench.load("momojan", 2, seed=3)
    spies = []
    for ours in (0, 1):
        mine = Spy(EngineBot(game, ours, "expert", seed=ours))
        theirs = Spy(bench.searcher(game, "momojan", 3, cheater=False, seed=ours))
        one = bench.play(game, 5, ours, mine, theirs, bench.Times())
        assert one.deal == 5 and one.ours == ours
        assert sum(one.points) == 0, "a MOMOJAN round is zero-sum (an untaken stake goes back)"
        assert set(mine.first_hands) == {ours}
        assert set(theirs.first_hands) == {1 - ours}
        spies.append((mine, theirs))
    (mine0, theirs0), (mine1, theirs1) = spies
    # Each seat is dealt the same hand in both plays: the hands swap sides, not cards.
    assert mine0.first_hands[0] == theirs1.first_hands[0]
    assert theirs0.first_hands[1] == mine1.first_hands[1]


def test_momojan_duplicate_deal_accounting() -> None:
    bench = _bench()
    times = bench.Times()
    deal = bench.duplicate("momojan", 2, 7, 3, seed=2, times=times)
    assert deal.number == 7
    assert [(one.deal, one.ours) for one in deal.plays] == [(7, 0), (7, 1)]
    assert deal.ours == statistics.fmean(one.points[one.ours] for one in deal.plays)
    assert deal.theirs == -deal.ours
    assert deal.ahead == (1.0 if deal.ours > 0 else 0.5 if deal.ours == 0 else 0.0)
    assert times.ours and times.theirs


def test_michikake_rotates_our_bot_through_every_seat() -> None:
    bench = _bench()
    deal = bench.duplicate("michikake", 3, 4, 2, seed=1)
    assert [(one.deal, one.ours) for one in deal.plays] == [(4, 0), (4, 1), (4, 2)]
    for one in deal.plays:
        # Steals cost points that leave the game; nothing enters it.
        assert sum(one.points) <= 0
        others = [p for seat, p in enumerate(one.points) if seat != one.ours]
        assert one.their_points == statistics.fmean(others)
    assert deal.ours == statistics.fmean(one.points[one.ours] for one in deal.plays)
    assert deal.theirs == statistics.fmean(one.their_points for one in deal.plays)


def test_the_michikake_deal_ends_at_the_first_break_with_the_engine_points() -> None:
    bench = _bench()
    game = bench.load("michikake", 4, seed=1)
    state = game.new_initial_state()
    state.apply_action(0)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    engine = state.now.engine
    assert len(engine.results) == 1
    assert state.returns() == [float(p - 1000) for p in engine.points]


def test_summary_counts_ties_as_half() -> None:
    bench = _bench()

    def deal(number: int, ours: float) -> Any:
        plays = (bench.Play(number, 0, (ours, -ours)), bench.Play(number, 1, (-ours, ours)))
        return bench.Deal(number, plays)

    summary = bench.summarise([deal(0, 4.0), deal(1, 0.0), deal(2, -2.0), deal(3, 6.0)])
    assert summary.deals == 4
    assert summary.share == (1 + 0.5 + 0 + 1) / 4
    assert summary.difference == (8 + 0 - 4 + 12) / 4
    assert summary.ours == -summary.theirs == (4 + 0 - 2 + 6) / 4
