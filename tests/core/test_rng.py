"""Keyed random streams (core/rng.py): the same numbers for the same seed and label on every
run, unrelated numbers for another label or seed, sound distributions, no Mersenne Twister
anywhere, and legacy seeds that keep their old generator."""

from __future__ import annotations

import copy
import itertools
import json
import pickle
import random
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, replace

import pytest

from asobiba.core.bots import RandomBot
from asobiba.core.rng import (
    SEED_BITS,
    KeyedStream,
    LegacySeed,
    deal_rng,
    derive,
    is_seed,
    new_seed,
    stream,
)

WIDE = (1 << SEED_BITS) - 12345
"""A full-width seed, as the rooms use."""


def draws(rng: random.Random, count: int = 8) -> list[int]:
    return [rng.getrandbits(64) for _ in range(count)]


def chi_square(counts: Counter[int], cells: int) -> float:
    total = sum(counts.values())
    expected = total / cells
    return sum((counts[cell] - expected) ** 2 / expected for cell in range(cells))


# --- the same numbers, always -------------------------------------------------------------------


def test_the_same_seed_and_label_give_the_same_numbers() -> None:
    for seed in (0, 1, 2**31 - 1, WIDE, -7, 1 << 600):
        assert draws(stream(seed, "deal/1")) == draws(stream(seed, "deal/1"))


def test_the_numbers_are_pinned_so_replays_stay_exact() -> None:
    """Stored games replay from their seed: if these change, every stored deal changes."""
    assert stream(1, "deal/1").getrandbits(64) == 5664419207595880553
    assert stream(WIDE, "bot/0/3").getrandbits(64) == 7232490269393012916
    assert derive(1, "bot/0/1") % 10**12 == 732219564746


def test_another_process_draws_the_same_numbers() -> None:
    """Nothing depends on the process (no ``hash()``, no randomized state)."""
    code = (
        f"from asobiba.core.rng import stream\nprint(stream({WIDE}, 'deal/2').getrandbits(256))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(out.stdout) == stream(WIDE, "deal/2").getrandbits(256)


def test_bits_come_out_in_order_however_they_are_asked_for() -> None:
    whole = stream(5, "x").getrandbits(1000)
    parts = stream(5, "x")
    low, middle, high = parts.getrandbits(10), parts.getrandbits(590), parts.getrandbits(400)
    assert whole == low | middle << 10 | high << 600
    assert stream(5, "x").getrandbits(0) == 0
    with pytest.raises(ValueError):
        stream(5, "x").getrandbits(-1)


# --- independent streams -----------------------------------------------------------------------


def test_each_label_and_each_seed_gives_its_own_stream() -> None:
    seen = set()
    for seed in (0, 1, 2, WIDE, WIDE + 1):
        for label in ("deal/1", "deal/2", "deal/10", "deal/1 ", "bot/0/1", "", "random-bot"):
            seen.add(stream(seed, label).getrandbits(128))
    assert len(seen) == 5 * 7


def test_a_stream_is_not_another_shifted() -> None:
    """No label's output shows up inside another's (as it would if labels only moved a
    counter)."""
    a = [stream(9, "deal/1").getrandbits(32) for _ in range(500)]
    b = [stream(9, "deal/2").getrandbits(32) for _ in range(500)]
    assert not set(a) & set(b)


def test_wide_seeds_keep_their_differences() -> None:
    """A seed wider than BLAKE2b's key is hashed down; nearby wide seeds still differ."""
    assert draws(stream(1 << 600, "x")) != draws(stream((1 << 600) + 1, "x"))
    assert draws(stream(-1, "x")) != draws(stream(1, "x"))
    assert draws(stream(255, "x")) != draws(stream(-1, "x"))


# --- distributions ---------------------------------------------------------------------------


def test_shuffles_of_four_give_every_order_as_often() -> None:
    rng = stream(20240601, "test/shuffle")
    counts: Counter[int] = Counter()
    orders = {p: k for k, p in enumerate(itertools.permutations(range(4)))}
    for _ in range(24_000):
        cards = [0, 1, 2, 3]
        rng.shuffle(cards)
        counts[orders[tuple(cards)]] += 1
    assert len(counts) == 24
    assert chi_square(counts, 24) < 49.7  # 23 degrees of freedom, p = 0.001


def test_randrange_is_uniform() -> None:
    rng = stream(7, "test/randrange")
    for n in (3, 10, 90):
        counts = Counter(rng.randrange(n) for _ in range(300 * n))
        assert set(counts) == set(range(n))
        critical = {3: 13.8, 10: 27.9, 90: 137.0}[n]  # n - 1 degrees of freedom, p = 0.001
        assert chi_square(counts, n) < critical


def test_floats_and_their_derived_draws_look_right() -> None:
    rng = stream(11, "test/floats")
    values = [rng.random() for _ in range(20_000)]
    assert all(0.0 <= v < 1.0 for v in values)
    assert abs(sum(values) / len(values) - 0.5) < 0.01
    gauss = [rng.gauss(3.0, 2.0) for _ in range(20_000)]
    mean = sum(gauss) / len(gauss)
    sd = (sum((g - mean) ** 2 for g in gauss) / len(gauss)) ** 0.5
    assert abs(mean - 3.0) < 0.05 and abs(sd - 2.0) < 0.05
    assert all(1.0 <= rng.uniform(1.0, 2.0) <= 2.0 for _ in range(100))
    assert sorted(rng.sample(range(10), 10)) == list(range(10))


# --- no Mersenne Twister ---------------------------------------------------------------------


def test_integers_are_drawn_from_getrandbits() -> None:
    """``random.Random`` picks integers through ``getrandbits`` for a subclass that overrides
    it (on this Python: checked here, since ``shuffle`` and ``choice`` rely on it)."""
    with_bits = vars(random.Random)["_randbelow_with_getrandbits"]
    assert vars(KeyedStream)["_randbelow"] is with_bits


def test_the_numbers_are_not_mersenne_twisters() -> None:
    for seed in (0, 1, 42):
        keyed = stream(seed, "deal/1")
        assert draws(keyed) != draws(random.Random(seed))
        assert stream(seed, "deal/1").random() != random.Random(seed).random()
        cards, old = list(range(90)), list(range(90))
        stream(seed, "deal/1").shuffle(cards)
        random.Random(seed).shuffle(old)
        assert cards != old


def test_a_stream_cannot_be_reseeded_but_its_state_round_trips() -> None:
    rng = stream(3, "x")
    with pytest.raises(TypeError):
        rng.seed(4)
    rng.getrandbits(7)
    rng.gauss(0.0, 1.0)  # leaves one normal value waiting
    state = rng.getstate()
    ahead = [rng.gauss(0.0, 1.0), *draws(rng)]
    rng.setstate(state)
    assert [rng.gauss(0.0, 1.0), *draws(rng)] == ahead
    with pytest.raises(ValueError):
        rng.setstate(random.Random(3).getstate())
    twins = [copy.copy(rng), copy.deepcopy(rng), pickle.loads(pickle.dumps(rng))]
    expected = draws(rng)
    for twin in twins:
        assert isinstance(twin, KeyedStream)
        assert draws(twin) == expected


def test_the_random_bot_draws_from_its_own_stream() -> None:
    legal = [{"n": n} for n in range(7)]
    bot = RandomBot(12)
    expected = stream(12, "random-bot")
    assert [bot.choose({}, legal) for _ in range(20)] == [expected.choice(legal) for _ in range(20)]


# --- new and derived seeds -----------------------------------------------------------------


def test_new_seeds_are_full_width_and_fresh() -> None:
    seeds = {new_seed() for _ in range(50)}
    assert len(seeds) == 50
    assert all(0 <= s < 1 << SEED_BITS for s in seeds)
    assert max(s.bit_length() for s in seeds) > SEED_BITS - 8


def test_derived_seeds_are_wide_and_differ_by_seed_and_label() -> None:
    labels = [f"bot/{seat}/{seq}" for seat in range(4) for seq in range(25)]
    derived = {derive(seed, label) for seed in (1, 2, WIDE) for label in labels}
    assert len(derived) == 3 * len(labels)
    assert all(0 <= d < 1 << SEED_BITS for d in derived)
    assert derive(WIDE, "bot/0/1") == derive(WIDE, "bot/0/1")
    assert derive(WIDE, "bot/0/1") not in (WIDE, stream(WIDE, "bot/0/1").getrandbits(SEED_BITS))


# --- legacy seeds ------------------------------------------------------------------------------


def test_a_legacy_seed_reads_as_its_number() -> None:
    seed = LegacySeed(1234)
    assert seed == 1234 and f"momojan/{seed}/1" == "momojan/1234/1" and str(seed) == "1234"
    assert repr(seed) == "LegacySeed(1234)"
    assert json.dumps({"seed": seed}) == '{"seed": 1234}'
    assert is_seed(seed) and is_seed(0) and is_seed(WIDE)
    assert not is_seed(True) and not is_seed(1.0) and not is_seed("1")


@dataclass(frozen=True)
class Held:
    """A state that keeps its seed, as the games' states do."""

    seed: int
    ply: int


def test_a_legacy_seed_survives_copies_pickles_and_replace() -> None:
    held = Held(LegacySeed(77), 0)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(held.seed, protocol))
        assert type(back) is LegacySeed and back == 77
    assert type(pickle.loads(pickle.dumps(held)).seed) is LegacySeed
    assert type(copy.deepcopy(held).seed) is LegacySeed
    assert type(replace(held, ply=1).seed) is LegacySeed


def test_deal_rng_keeps_the_old_generator_for_legacy_seeds_only() -> None:
    old = deal_rng(LegacySeed(5), "deal/1", "game/5/1")
    assert type(old) is random.Random
    assert draws(old) == draws(random.Random("game/5/1"))
    new = deal_rng(5, "deal/1", "game/5/1")
    assert isinstance(new, KeyedStream)
    assert draws(new) == draws(stream(5, "deal/1"))
