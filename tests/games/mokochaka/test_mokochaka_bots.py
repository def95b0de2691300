"""Mokochaka bots: legal, deterministic, never faster than a person can be, slipping at the
rates data.toml designs, and honest (they see one seat's observation, nothing else)."""

from __future__ import annotations

import copy
import itertools
import math
import random
from dataclasses import replace
from typing import Any

import pytest

from asobiba.core import arena
from asobiba.core.arena import round_robin
from asobiba.core.bots import Bot, RealTimeBot, Timed
from asobiba.games.mokochaka import SPECIALS, judge
from asobiba.games.mokochaka.bots import (
    GABU_SHARE,
    MIN_REACTION,
    MokochakaBot,
    Plan,
    elapsed,
    make_bot,
    pile_gabu,
    showing,
    special_chance,
)
from asobiba.games.mokochaka.cards import Card
from asobiba.games.mokochaka.data import LEVEL_BY_ID, LEVELS, designed_values
from asobiba.games.mokochaka.rules import MokochakaState
from tests.games.mokochaka.mokochaka_helpers import (
    GAME,
    call,
    cards,
    flip,
    grab,
    playout,
    table,
)

LEVEL_IDS = [level.id for level in LEVELS]


def sampled_states(count: int, seed: int) -> list[MokochakaState]:
    """States spread over random legal games of 2 to 6 seats (every phase, not over)."""
    states: list[MokochakaState] = []
    for k in range(count):
        game = playout(2 + k % 5, seed + k)
        states += [s for s in game.states[:: max(1, len(game.states) // 12)] if s.phase != "over"]
    return states


def call_states(count: int, seed: int) -> list[MokochakaState]:
    """Call phases just after a flip (the room asks every seat then), from random deals."""
    rng = random.Random(seed)
    states = []
    for k in range(count):
        state = GAME.new_state({}, rng.randint(2, 6), seed * 100_000 + k)
        state = GAME.apply(state, state.turn, {"flip": rng.randrange(3)}, 10.0)
        states.append(state)
    return states


# --- the protocol ------------------------------------------------------------------------------


def test_every_level_is_a_real_time_bot() -> None:
    for level in LEVEL_IDS:
        assert isinstance(GAME.make_bot(level, 1), RealTimeBot)
        assert isinstance(GAME.make_bot(level, 1), MokochakaBot)


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_every_level_plays_only_legal_actions_in_random_states_of_2_to_6_seats(
    level: str,
) -> None:
    bot = make_bot(level, 7)
    asked = 0
    for state in sampled_states(40, 1000):
        for seat in sorted(GAME.to_move(state)):
            legal = GAME.legal_actions(state, seat)
            decision = bot.decide(GAME.observe(state, seat), legal)
            assert isinstance(decision, Timed)
            assert decision.action is None or decision.action in legal
            assert decision.after >= 0 and math.isfinite(decision.after)
            assert bot.choose(GAME.observe(state, seat), legal) in legal
            asked += 1
    assert asked > 500


@pytest.mark.parametrize("level", LEVEL_IDS)
@pytest.mark.parametrize("seats", [2, 3, 6])
def test_whole_games_between_bots_of_every_level_end_with_legal_play(
    level: str, seats: int
) -> None:
    """The arena's loop applies each action through the engine, which refuses illegal ones."""
    bots: list[Bot] = [
        make_bot(LEVEL_IDS[(i + LEVEL_IDS.index(level)) % 4], i) for i in range(seats)
    ]
    outcome = arena.play(GAME, {}, bots, seats, random.Random(0), opening_plies=0)
    assert len(outcome["scores"]) == seats and outcome["winners"]


def test_a_bot_without_anything_to_say_passes_and_choose_still_answers() -> None:
    # moko1 starts the third pile beside paka3 and moko1: Moko 2, Paka 3, a plain "pakamoko".
    state = flip(table(["moko1 pome1", "paka1 moko2", "gabu2 pome3"], ["paka3", "moko1", ""]), 2)
    assert not judge(showing(GAME.observe(state, 1))) & set(SPECIALS)
    quiet = [bot.plan(GAME.observe(state, 1)).slip is None for bot in map(expert_bot, range(50))]
    assert any(quiet)
    seed = quiet.index(True)
    legal = GAME.legal_actions(state, 1)
    assert expert_bot(seed).decide(GAME.observe(state, 1), legal) == Timed(None)
    assert expert_bot(seed).choose(GAME.observe(state, 1), legal) in legal
    assert expert_bot(seed).decide(GAME.observe(state, 0), []) == Timed(None)


def expert_bot(seed: int) -> MokochakaBot:
    """An expert whose plans differ by ``seed``: the plan is keyed by the level's id."""
    return MokochakaBot(replace(LEVEL_BY_ID["expert"], id=f"expert-{seed}"), seed)


# --- determinism and honesty --------------------------------------------------------------------


def decisions(level: str, seed: int, states: list[MokochakaState]) -> list[Timed]:
    bot = make_bot(level, seed)
    return [
        bot.decide(GAME.observe(s, seat), GAME.legal_actions(s, seat))
        for s in states
        for seat in sorted(GAME.to_move(s))
    ]


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_a_bot_is_deterministic_for_its_seed(level: str) -> None:
    states = sampled_states(10, 2000)
    assert decisions(level, 5, states) == decisions(level, 5, states)


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_a_whole_game_replays_alike_for_the_same_seeds(level: str) -> None:
    def game() -> dict[str, Any]:
        bots: list[Bot] = [make_bot(level, 11), make_bot("casual", 12), make_bot("expert", 13)]
        return arena.play(GAME, {}, bots, 4, random.Random(1))

    assert game() == game()


def test_a_bot_decides_from_the_observation_alone_and_leaves_it_untouched() -> None:
    """Two states that differ only in hidden cards (the hands' contents) look alike to a seat,
    and every level decides alike in both: nothing but the observation reaches it."""
    rng = random.Random(3)
    compared = 0
    for state in sampled_states(20, 3000):
        hidden = [c for hand in state.hands for c in hand]
        rng.shuffle(hidden)
        sizes = [len(hand) for hand in state.hands]
        hands, start = [], 0
        for size in sizes:
            hands.append(tuple(hidden[start : start + size]))
            start += size
        twin = replace(state, hands=tuple(hands))
        for seat in sorted(GAME.to_move(state)):
            observation = GAME.observe(state, seat)
            assert observation == GAME.observe(twin, seat)
            kept = copy.deepcopy(observation)
            for level in LEVEL_IDS:
                legal = GAME.legal_actions(state, seat)
                bot = make_bot(level, 9)
                first = bot.decide(observation, legal)
                assert first == bot.decide(GAME.observe(twin, seat), legal)
                compared += 1
            assert observation == kept
    assert compared > 200


# --- timing --------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_no_level_speaks_sooner_than_150_ms_after_the_flip(level: str) -> None:
    bot = make_bot(level, 1)
    spoke = 0
    for state in call_states(600, 4):
        for seat in sorted(GAME.to_move(state)):
            observation = GAME.observe(state, seat)
            assert elapsed(observation) == 0
            decision = bot.decide(observation, GAME.legal_actions(state, seat))
            if decision.action is not None:
                assert decision.after >= MIN_REACTION
                spoke += 1
    assert spoke > 300


def test_the_floor_holds_even_for_a_level_faster_than_a_person() -> None:
    lightning = replace(LEVEL_BY_ID["expert"], mu=-5.0, sigma=0.0, tau=0.0, hick=0.0)
    bot = MokochakaBot(lightning, 1)
    for state in call_states(50, 5):
        plan = bot.plan(GAME.observe(state, state.turn))
        assert plan.at == MIN_REACTION


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_reaction_times_follow_the_levels_human_model(level: str) -> None:
    """The mean time from the flip is mu + tau + hick * log2(n + 1) (n animals showing), within
    loose bounds (the floor only lifts it)."""
    spec = LEVEL_BY_ID[level]
    bot = MokochakaBot(spec, 1)
    gaps = []
    for state in call_states(1500, 6):
        observation = GAME.observe(state, state.turn)
        n = sum(card.number for card in showing(observation))
        model = spec.mu + spec.tau + spec.hick * math.log2(n + 1)
        gaps.append(bot.plan(observation).at - model)
    mean = sum(gaps) / len(gaps)
    spread = math.sqrt(spec.sigma**2 + spec.tau**2)
    assert abs(mean) < 6 * spread / math.sqrt(len(gaps)) + 0.01


def test_more_animals_take_longer_to_count() -> None:
    few = flip(table(["moko1", "paka1 moko2"], ["paka1", "gabu1", "pome1"]), 0)
    many = flip(table(["moko4", "paka1 moko2"], ["paka4", "paka4", "paka4"]), 0)
    for level in LEVEL_IDS:
        slow = fast = 0.0
        for k in range(300):
            bot = MokochakaBot(replace(LEVEL_BY_ID[level], id=f"{level}{k}"), k)
            fast += bot.plan(GAME.observe(few, 0)).at
            slow += bot.plan(GAME.observe(many, 0)).at
        assert slow > fast


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_a_bot_asked_again_mid_call_keeps_its_plan_and_counts_the_time_gone(level: str) -> None:
    """The flip at 100 (Mokochaka holds); seat 2 grabs with a wrong word at 100.2; seat 1 is
    asked again: same plan (from a fresh bot with the seat's seed, as the room makes one per
    state), and ``after`` is what is left of it, not a fresh reaction from zero. Another seed
    plans otherwise: nobody without the room's secret can tell a bot's plan in advance."""
    before = flip(table(["moko4 pome1", "paka1 moko2", "gabu2 pome3"],
                        ["paka3", "gabu1", "pome1"], at=99.0), 2, at=100.0)  # fmt: skip
    assert judge(showing(GAME.observe(before, 1))) & set(SPECIALS)
    after = grab(before, 2, "chakamokochaka", 100.2)
    found = 0
    for k in range(200):
        spec = replace(LEVEL_BY_ID[level], id=f"{level}-{k}")
        plan = MokochakaBot(spec, 1).plan(GAME.observe(before, 1))
        again = MokochakaBot(spec, 1)
        assert MokochakaBot(spec, 2).plan(GAME.observe(before, 1)).at != plan.at
        observation = GAME.observe(after, 1)
        assert elapsed(observation) == pytest.approx(0.2)
        assert again.plan(observation) == plan
        decision = again.decide(observation, GAME.legal_actions(after, 1))
        if plan.action is not None and plan.at > 0.2:
            assert decision.action == plan.action
            assert decision.after == pytest.approx(plan.at - 0.2)
            found += 1
    assert found > 50


def test_once_the_token_is_grabbed_a_later_grab_and_the_flippers_call_stand_down() -> None:
    before = flip(table(["moko4 pome1", "paka1 moko2", "gabu2 pome3"],
                        ["paka3", "gabu1", "pome1"], at=99.0), 2, at=100.0)  # fmt: skip
    right = grab(before, 2, "mokochaka", 100.2)
    wrong = grab(before, 2, "chakamokochaka", 100.2)
    grabbed = standing = 0
    for k in range(200):
        bot = MokochakaBot(replace(LEVEL_BY_ID["casual"], id=f"casual-{k}"), k)
        for seat in (0, 1):
            plan = bot.plan(GAME.observe(before, seat))
            if plan.action is None:
                continue
            late = bot.decide(GAME.observe(right, seat), GAME.legal_actions(right, seat))
            assert late == Timed(None)
            standing += 1
            if "grab" in plan.action:
                still = bot.decide(GAME.observe(wrong, seat), GAME.legal_actions(wrong, seat))
                assert still.action == plan.action
                grabbed += 1
            else:
                assert seat == 0
                quiet = bot.decide(GAME.observe(wrong, seat), GAME.legal_actions(wrong, seat))
                assert quiet == Timed(None)
    assert grabbed > 100 and standing > grabbed


def test_elapsed_reads_the_latest_time_the_observation_shows() -> None:
    state = flip(table(["moko4 pome1", "paka1 moko2", "gabu2 pome3"],
                       ["paka3", "gabu1", "pome1"], at=5.0), 2, at=10.0)  # fmt: skip
    assert elapsed(GAME.observe(state, 1)) == 0.0
    later = grab(grab(state, 2, "mokochaka", 10.5), 1, "mokochaka", 10.4)  # dated back
    assert elapsed(GAME.observe(later, 0)) == pytest.approx(0.5)
    assert elapsed(GAME.observe(GAME.advance(later, 20.0), 0)) == 0.0


# --- slips at their designed rates ---------------------------------------------------------------


def plans(level: str, states: list[MokochakaState]) -> list[tuple[MokochakaState, int, Plan]]:
    bot = make_bot(level, 1)
    return [(s, seat, bot.plan(GAME.observe(s, seat))) for s in states for seat in range(s.seats)]


def close(hits: int, samples: int, p: float) -> bool:
    """``hits / samples`` within six standard errors (and a point) of ``p``: never flakes."""
    bound = 6 * math.sqrt(max(p * (1 - p), 1e-4) / samples) + 0.01
    return samples > 100 and abs(hits / samples - p) <= bound


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_slips_happen_at_the_levels_designed_rates_and_mean_what_they_say(level: str) -> None:
    spec = LEVEL_BY_ID[level]
    special = {"n": 0, "missed_special": 0}
    plain = {"n": 0, "false_grab": 0}
    flipper_plain = {"n": 0, "miscount": 0}
    noticed = {"n": 0, "miscount": 0}
    for state, seat, plan in plans(level, call_states(2500, 7)):
        top = showing(GAME.observe(state, seat))
        correct = judge(top)
        specials = correct & set(SPECIALS)
        flipper = seat == state.turn
        action = plan.action
        if specials:
            special["n"] += 1
            if plan.slip == "missed_special":
                special["missed_special"] += 1
                if flipper:
                    assert action is not None and action["call"] not in correct
                else:
                    assert action is None
                continue
            noticed["n"] += 1
            assert action is not None and "grab" in action
            if plan.slip == "miscount":
                noticed["miscount"] += 1
                assert action["grab"] not in correct
            else:
                assert plan.slip is None and action["grab"] in correct
            continue
        plain["n"] += 1
        if plan.slip == "false_grab":
            plain["false_grab"] += 1
            assert action is not None and action["grab"] in SPECIALS
            continue
        if not flipper:
            assert action is None and plan.slip is None
            continue
        flipper_plain["n"] += 1
        assert action is not None
        if plan.slip == "miscount":
            flipper_plain["miscount"] += 1
            assert action["call"] not in correct
        else:
            assert plan.slip is None and action["call"] in correct
    assert close(special["missed_special"], special["n"], spec.miss_special), special
    assert close(plain["false_grab"], plain["n"], spec.false_grab), plain
    assert close(flipper_plain["miscount"], flipper_plain["n"], spec.miscount), flipper_plain
    assert close(noticed["miscount"], noticed["n"], spec.miscount), noticed


def test_stronger_levels_slip_less_and_answer_sooner() -> None:
    for weaker, stronger in itertools.pairwise(LEVELS):
        assert stronger.mean_reaction() < weaker.mean_reaction()
        for rate in ("miscount", "miss_special", "false_grab"):
            assert getattr(stronger, rate) < getattr(weaker, rate), (stronger.id, rate)
        assert stronger.source == "designed"


# --- choices nobody races ------------------------------------------------------------------------


def test_tactics_take_the_biggest_piles_and_give_to_the_fewest_cards() -> None:
    # Seat 2 grabs a Mokochaka (moko4 - gabu1 = 3 = paka3) and takes 2 of the 3 piles.
    start = table(["moko4 pome1", "paka1 moko2", "gabu2 pome3"],
                  ["paka3", "gabu1 gabu2 paka1 gabu1", "pome1 pome2"])  # fmt: skip
    taking = GAME.advance(grab(flip(start, 2), 2, "mokochaka", 0.5), 1.0)
    assert taking.phase == "take"
    observation = GAME.observe(taking, 2)
    legal = GAME.legal_actions(taking, 2)
    for level in ("strong", "expert"):
        choice = make_bot(level, 1).decide(observation, legal)
        assert choice.action == {"take": [1, 2]} and choice.after >= MIN_REACTION
    # Seat 0 calls wrong: it gives its card to the seat with the fewest cards.
    three = table(["moko1 paka1", "paka1 moko2 moko1", "gabu2"], ["paka3", "gabu1", "pome1"])
    giving = GAME.apply(flip(three, 0), 0, {"call": "moko"}, 0.5)
    assert giving.phase == "give"
    for level in ("strong", "expert"):
        bot = make_bot(level, 1)
        answer = bot.decide(GAME.observe(giving, 0), GAME.legal_actions(giving, 0))
        assert answer.action == {"give": 2}


def test_tactics_flip_where_a_special_call_is_likeliest() -> None:
    state = table(["moko1 paka1", "paka1 moko2"], ["paka3", "moko3", "moko1"])
    tops: list[Card | None] = list(cards("paka3 moko3 moko1"))
    chances = [special_chance(tops, pile) for pile in range(3)]
    best = {pile for pile in range(3) if chances[pile] == max(chances)}
    assert 0 < max(chances) < 1
    for level in ("strong", "expert"):
        for seed in range(5):
            bot = make_bot(level, seed)
            choice = bot.decide(GAME.observe(state, 0), GAME.legal_actions(state, 0))
            assert choice.action is not None and choice.action["flip"] in best


# --- strength and the designed values -------------------------------------------------------------


def test_the_expert_beats_the_beginner_in_a_small_round_robin() -> None:
    """A fixed-seed round robin (deterministic: it cannot flake); the full tables are in
    docs/STRENGTH.md."""
    result = round_robin(GAME, ["beginner", "expert"], games=6, seed=1, players=2)
    record = result.record(1, 0)
    assert record.wins > record.losses


def test_every_level_is_a_designed_row_of_the_rule_pages_table() -> None:
    rows = {row.name["en"]: row for row in designed_values()}
    for level in LEVELS:
        row = rows[f"Strength: {level.name_en}"]
        assert row.source == "designed"
        assert (
            f"{level.miscount:.0%}" in row.value["en"]
            and f"{level.miscount:.0%}" in row.value["ja"]
        )
        assert f"{level.mean_reaction():.1f} s" in row.value["en"]
        assert row.reason == {"ja": level.reason_ja, "en": level.reason_en}


def _right_call(state: MokochakaState) -> str:
    return min(judge(showing(GAME.observe(state, None))))


def test_tactics_judge_gabu_beneath_the_top_card_from_the_events() -> None:
    """Issue 20: a pile shows only its top, yet the recent flips show every card laid on it.
    Pile 0 grows to four cards, two of them Gabu buried under a Moko; pile 2 holds three Pome.
    Counting only the top, the bigger pile looked best; the cards that count are in pile 2."""
    start = table(["gabu1 moko3 paka2", "gabu2 paka4"], ["moko2", "paka1", "pome1 pome1 pome2"])
    state = flip(start, 0, 0.0)  # gabu1 lands on pile 0
    state = call(state, _right_call(state), 0.5)
    state = flip(state, 0, 1.0)  # seat 1: gabu2 on pile 0
    state = call(state, _right_call(state), 1.5)
    state = flip(state, 0, 2.0)  # moko3 on pile 0: Moko, Paka and Pome all show
    assert judge(showing(GAME.observe(state, 0))) == {"chakamoko"}
    taking = GAME.advance(grab(state, 0, "chakamoko", 2.5), 3.0)
    assert taking.phase == "take"
    observation = GAME.observe(taking, 0)
    assert [pile["top"] for pile in observation["piles"]] == ["moko3", "paka1", "pome2"]
    gabu = pile_gabu(observation)
    assert gabu[0] == pytest.approx(2 + GABU_SHARE) and gabu[2] == pytest.approx(2 * GABU_SHARE)
    for level in ("strong", "expert"):
        choice = make_bot(level, 1).decide(observation, GAME.legal_actions(taking, 0))
        assert choice.action == {"take": [2]}, level
