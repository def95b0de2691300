"""MOMOJAN scoring: the rulebook's three worked examples played through the engine, the scoring
rules (dora, set bonus, ロン bonus, doubling, loser pays, middle to the winner) and every entry
of the yaku table in data.toml (rulebook and designed).
"""

from __future__ import annotations

from dataclasses import replace

from asobiba.games.momojan import MomojanState, Win, parse, score
from asobiba.games.momojan.data import BONUSES, YAKU
from asobiba.games.momojan.scoring import CODED_YAKU
from tests.games.momojan.momojan_positions import (
    GAME,
    call,
    discard,
    draw,
    legal,
    melds,
    play,
    position,
)


def breakdown(state: MomojanState) -> dict[str, object]:
    result = state.results[-1]
    assert result.score is not None
    return result.score.to_json()


def yaku_names(state: MomojanState) -> list[str]:
    return [name for name, _ in breakdown(state)["yaku"]]  # type: ignore[attr-defined]


# --- the worked examples -------------------------------------------------------------------


def example_one() -> MomojanState:
    """The child (seat 1) is in riichi on sun sun O2 O3; the dealer lets O1 go.

    The rulebook's own cards: its waits are orange or peach 1 or 4, so neither 4 is in sight;
    the one dora 4 lies in the open 4-5-6, which is therefore another fruit (here lemon)."""
    return position(
        "L1 L2 L8 S7",
        "sun sun O2 O3",
        melds1=melds("pon: dog dog dog", "kai: L4 L5 L6", "chi: M7 O8 O9"),
        riichi=(False, True),
        dora="S3",
        turn=1,
        offer="O1",
    )


def test_example_one_keeps_its_own_waits_orange_and_peach_1_or_4_all_live() -> None:
    from asobiba.games.momojan import waits

    state = example_one()
    assert waits(state.hands[1], [m.cards for m in state.melds[1]]) == {"O1", "O4", "M1", "M4"}
    in_sight = {c for meld in state.melds[1] for c in meld.cards} | {state.dead[0]}
    assert not in_sight & {"O1", "O4", "M1", "M4"}


def test_example_one_riichi_dog_straight_dora_journey_ron_make_7_doubled_to_14() -> None:
    """Point 1 of issue 20: the straight of example ① mixes fruits (orange 1-2-3, lemon 4-5-6,
    orange 7-8-9 with a peach) and still scores, as the rulebook's 14 needs."""
    won = play(example_one(), {"type": "ron"})
    score = breakdown(won)
    assert score["yaku"] == [["riichi", 1], ["dog", 1], ["ittsu", 2]]
    assert (score["dora"], score["bonus"], score["ron"]) == (1, ["tabi", 1], 1)
    assert (score["subtotal"], score["doubled"], score["total"]) == (7, True, 14)


def test_example_one_the_dealer_pays_and_the_child_takes_back_its_own_stake() -> None:
    before = example_one()
    won = play(before, {"type": "ron"})
    result = won.results[-1]
    assert result.points == (before.points[0] - 14, before.points[1] + 14 + before.middle)
    assert result.middle == 1
    assert won.dealer == 1  # the child won: the deal passes


def example_two() -> MomojanState:
    """The dealer (seat 0), not in riichi, holds L2 S2 moon moon and draws a moon."""
    return position(
        "L2 S2 moon moon",
        "M6 M7 M8 M9",
        melds0=melds("pon: pheasant pheasant pheasant", "chi: L5 L6 L7", "kai: O3 O4 O5",
                     "kai: S7 S8 S9"),
        dora="S1",
        piles=("L9", "O9", "S5 moon"),
    )  # fmt: skip


def test_example_two_waits_are_a_2_of_peach_or_orange_or_the_moon() -> None:
    from asobiba.games.momojan import waits

    state = example_two()
    assert waits(state.hands[0], [m.cards for m in state.melds[0]]) == {"M2", "O2", "moon"}


def test_example_two_pheasant_moon_ogre_island_two_dora_make_6_not_doubled() -> None:
    state = play(example_two(), draw(2))
    assert {"type": "tsumo"} in legal(state)
    won = play(state, {"type": "tsumo"})
    score = breakdown(won)
    assert score["yaku"] == [["pheasant", 1], ["moon", 1]]
    assert (score["dora"], score["bonus"], score["ron"]) == (2, ["onigashima", 2], 0)
    assert (score["subtotal"], score["doubled"], score["total"]) == (6, False, 6)


def test_example_two_the_dealer_collects_the_stake_keeps_the_deal_and_the_child_puts_in_2() -> None:
    before = example_two()
    won = play(before, draw(2), {"type": "tsumo"})
    assert won.results[-1].points == (before.points[0] + 6 + before.middle, before.points[1] - 6)
    assert won.dealer == 0 and won.streak == 1
    assert won.stake == 2 and won.middle == 2
    assert won.points[1] == before.points[1] - 6 - 2


def example_three() -> MomojanState:
    """The child (seat 1) chi'd the peach 8, declared riichi on a lone strawberry 8."""
    return position(
        "L1 L2 L3 O6",
        "S8",
        melds1=melds(
            "pon: dog dog dog",
            "pon: monkey monkey monkey",
            "pon: pheasant pheasant pheasant",
            "chi: L7 M8 L9",
            "chi: O1 O2 O3",
            "pon: L5 O5 S5",
            "kai: S1 S2 S3",
        ),
        riichi=(False, True),
        dora="sun",
        turn=1,
        offer="L8",
        stake=2,
        middle=2,
        streak=1,
        points=(40, 38),
    )


def test_example_three_read_as_a_ron_on_lemon_8_scores_19_doubled_to_38() -> None:
    """The rulebook's ron card is the very strawberry 8 in the hand (one copy exists): read by
    its stated waits, orange or lemon 8, and not straight after the riichi (no ippatsu)."""
    won = play(example_three(), {"type": "ron"})
    score = breakdown(won)
    assert score["yaku"] == [
        ["riichi", 1],
        ["dog", 1],
        ["monkey", 1],
        ["pheasant", 1],
        ["kibidango", 2],
        ["kerai", 5],
    ]
    assert (score["dora"], score["bonus"], score["ron"]) == (0, ["nihonichi", 7], 1)
    assert (score["subtotal"], score["doubled"], score["total"]) == (19, True, 38)


def test_example_three_played_as_told_chi_riichi_then_ron_on_the_next_discard_is_38() -> None:
    """Point 3 of issue 20: the child チーs the dealer's peach 8, discards for riichi at once
    (no draw of three), the dealer draws and throws an 8, ロン: no 一発, since the riichi came
    in the turn of a call, so 19 doubled to 38 as the rulebook says (not 20, 40)."""
    start = position(
        "L1 L2 L3 O6",
        "L7 L9 S8 O7",
        melds1=melds(
            "pon: dog dog dog",
            "pon: monkey monkey monkey",
            "pon: pheasant pheasant pheasant",
            "chi: O1 O2 O3",
            "pon: L5 O5 S5",
            "kai: S1 S2 S3",
        ),
        dora="sun",
        turn=1,
        offer="M8",
        piles=("L4", "O4", "S4 L8"),
        stake=2,
        middle=2,
        streak=1,
        points=(40, 38),
    )
    riichi = play(start, call("chi", "L7 L9"), discard("O7", riichi=True))
    assert riichi.hands[1] == ("S8",)
    won = play(riichi, draw(2), discard("L8"), {"type": "ron"})
    score = breakdown(won)
    assert [name for name, _ in score["yaku"]] == [  # type: ignore[attr-defined]
        "riichi", "dog", "monkey", "pheasant", "kibidango", "kerai",
    ]  # fmt: skip
    assert (score["subtotal"], score["total"]) == (19, 38)


def test_designed_ippatsu_still_comes_after_a_riichi_on_a_plain_draw() -> None:
    start = position(
        "L1 L2 L3 O6",
        "S8 O7",
        melds1=melds(
            "pon: dog dog dog",
            "pon: monkey monkey monkey",
            "pon: pheasant pheasant pheasant",
            "chi: O1 O2 O3",
            "pon: L5 O5 S5",
            "kai: S1 S2 S3",
            "chi: L7 M8 L9",
        ),
        turn=1,
        phase="drawn",
        drawn="O7",
        piles=("L4", "O4", "S4 L8"),
    )
    won = play(start, discard("O7", riichi=True), draw(2), discard("L8"), {"type": "ron"})
    assert "ippatsu" in [name for name, _ in breakdown(won)["yaku"]]  # type: ignore[attr-defined]


def test_kibidango_needs_the_final_ron_a_tsumo_does_not_make_it() -> None:
    """Point 4 of issue 20: the rulebook counts the final ロン among the calls of きびだんご."""
    sets = ("pon: dog dog dog", "pon: monkey monkey monkey", "chi: O1 O2 O3")
    assert ("kibidango", 2) in score(win("S8 L8", *sets)).yaku  # type: ignore[union-attr]
    tsumo = score(win("S8 L8", *sets, ron=False))
    assert tsumo is not None and "kibidango" not in dict(tsumo.yaku)


THREE_CALLED = melds("pon: dog dog dog", "pon: monkey monkey monkey", "chi: O1 O2 O3")


def ron_on(hand: str, card: str) -> list[str]:
    """The yaku of the dealer's ロン on ``card`` with ``hand`` beside ``THREE_CALLED``."""
    state = position(hand, "L7 S5 S6 S7", melds0=THREE_CALLED, offer=card, dora="sun")
    return yaku_names(play(state, {"type": "ron"}))


def test_designed_kibidango_not_when_the_ron_completes_a_set_around_a_concealed_head() -> None:
    """Issue 31, point 2: three called sets and L3 L4 moon moon, the dealer's L2 completes
    L2-L3-L4 by ロン. That is example one's shape (three open sets, the ロン on O1 completing
    O1-O2-O3 beside sun sun), which the rulebook scores 14 without きびだんご: a set the ロン
    completes is not a called set, so only the head may stay in the hand."""
    assert ron_on("L3 L4 moon moon", "L2") == ["dog", "monkey"]
    assert "kibidango" not in yaku_names(play(example_one(), {"type": "ron"}))


def test_kibidango_when_only_the_head_is_left_and_the_ron_completes_it() -> None:
    """The other hand of point 2, as in example three: every set called, one card in the hand,
    the ロン pairs it."""
    assert ron_on("moon", "moon") == ["dog", "monkey", "kibidango"]
    assert ron_on("L2 L3 L4 moon", "moon") == ["dog", "monkey"]  # a set never called


def test_example_three_the_child_takes_back_both_stake_points() -> None:
    won = play(example_three(), {"type": "ron"})
    assert won.results[-1].middle == 2
    assert won.results[-1].points == (40 - 38, 38 + 38 + 2)


# --- scoring rules -------------------------------------------------------------------------


def win(hand: str, *open_specs: str, ron: bool = True, dora: str = "moon", **flags: bool) -> Win:
    cards = tuple(parse(hand))
    return Win(cards, melds(*open_specs), cards[-1], ron, dora, **flags)


def test_dora_counts_one_point_per_card_in_hand_and_open_sets() -> None:
    s = score(win("L5 O5 M5 sun sun", "pon: dog dog dog", "kai: S4 S5 S6", dora="L4"))
    assert s is not None and s.dora == 4


def test_set_bonus_is_not_a_yaku_and_only_one_counts() -> None:
    seven = ("pon: L1 O1 S1", "chi: L2 L3 L4", "chi: O2 O3 O4", "chi: S2 S3 S4", "kai: L6 O6 S6",
             "chi: L7 L8 L9")  # fmt: skip
    s = score(win("M5 M6 M7 sun sun", *seven, ron=False))
    assert s is None  # seven sets but no yaku: no win
    s = score(win("M5 M6 M7 sun sun", *seven, ron=False, riichi=True, dora="pheasant"))
    assert s is not None and s.sets == 7 and s.bonus == ("nihonichi", 7)
    assert s.subtotal == 1 + 7


def test_set_bonus_table_journey_4_ogre_island_5_momotaro_6_best_in_japan_7() -> None:
    assert [(b.id, b.sets, b.points) for b in BONUSES] == [
        ("tabi", 4, 1),
        ("onigashima", 5, 2),
        ("momotaro", 6, 4),
        ("nihonichi", 7, 7),
    ]


def test_a_total_of_7_or_more_is_doubled_and_6_is_not() -> None:
    hand, sets = "L2 O2 dog dog dog", ("pon: sun sun sun", "pon: moon moon moon")
    six = score(win(hand, *sets, ron=False, riichi=True, dora="L9"))  # riichi, dog, sun, moon,
    assert six is not None and (six.subtotal, six.doubled, six.total) == (6, False, 6)  # toitoi
    seven = score(win(hand, *sets, ron=True, riichi=True, dora="L9"))  # the same plus ロン
    assert seven is not None and (seven.subtotal, seven.doubled, seven.total) == (7, True, 14)


def test_ron_adds_one_bonus_point_tsumo_none() -> None:
    hand, sets = "L2 O2 dog dog dog", ("kai: S4 S5 S6", "chi: O6 O7 O8")
    r = score(win(hand, *sets, ron=True))
    t = score(win(hand, *sets, ron=False))
    assert r is not None and t is not None and (r.ron, t.ron) == (1, 0)
    assert r.subtotal == t.subtotal + 1


# --- the yaku table ------------------------------------------------------------------------


def test_yaku_table_in_data_toml_is_exactly_the_coded_yaku_each_with_source_and_reasons() -> None:
    assert {y.id for y in YAKU} == CODED_YAKU
    for y in YAKU:
        assert y.source in ("rulebook", "designed") and y.reason and y.reason_ja
        assert y.points > 0


def test_yaku_values_known_from_the_rulebook() -> None:
    points = {y.id: y.points for y in YAKU}
    known = {"riichi": 1, "dog": 1, "monkey": 1, "pheasant": 1, "moon": 1, "sun": 1,
             "ittsu": 2, "kibidango": 2, "kerai": 5, "takaramono": 7}  # fmt: skip
    assert {k: points[k] for k in known} == known


def test_tsumo_is_not_a_yaku() -> None:
    assert score(win("L2 O2 L5 L6 L7", "kai: S1 S2 S3", "chi: O6 O7 O8", ron=False)) is None


def test_designed_straight_runs_1_4_7_of_any_fruits_each_run_of_one() -> None:
    s = score(win("L1 L2 M3 S5 O5", "kai: M4 L5 L6", "chi: L7 L8 L9", ron=False))
    assert s is not None and ("ittsu", 2) in s.yaku
    s = score(win("L1 L2 L3 O9 M9", "kai: O4 O5 O6", "chi: S7 S8 S9", ron=False))
    assert s is not None and s.yaku == (("ittsu", 2),)
    # 1-2-3, 4-5-6 and 6-7-8 is no straight (and no other yaku here).
    assert score(win("L1 L2 L3 S9 M9", "kai: O4 O5 O6", "chi: S6 S7 S8", ron=False)) is None


def test_designed_all_simples() -> None:
    s = score(win("L3 O3 L5 L6 L7", "kai: S4 S5 S6", "chi: O6 O7 O8", ron=False))
    assert s is not None and s.yaku == (("tanyao", 1),)
    assert score(win("L3 O3 L5 L6 L7", "kai: S7 S8 S9", "chi: O6 O7 O8", ron=False)) is None


def test_designed_no_runs() -> None:
    s = score(win("L2 O2 L5 O5 S5", "pon: L3 O3 S3", "kai: L8 O8 S8", ron=False))
    assert s is not None and ("toitoi", 2) in s.yaku


def test_designed_one_fruit() -> None:
    s = score(win("L1 M1 L2 L3 M4", "chi: M2 M3 L4", "kai: L5 L6 L7", ron=False))
    assert s is not None and ("chinitsu", 5) in s.yaku


def test_designed_treasure_all_pictures() -> None:
    s = score(win("sun sun moon moon moon", "pon: dog dog dog", "pon: monkey monkey monkey"))
    assert s is not None and ("takaramono", 7) in s.yaku and not s.ends_game


def test_designed_the_end_all_five_pictures_ends_the_game() -> None:
    s = score(
        win(
            "sun sun moon moon moon",
            "pon: dog dog dog",
            "pon: monkey monkey monkey",
            "pon: pheasant pheasant pheasant",
        )
    )
    assert s is not None and ("oshimai", 10) in s.yaku and s.ends_game


def test_designed_last_draw_and_last_discard() -> None:
    s = score(win("L2 O2 L5 L6 L7", "kai: S4 S5 S6", "chi: O6 O7 O8", ron=False, last_card=True))
    assert s is not None and [n for n, _ in s.yaku] == ["tanyao", "haitei"]
    s = score(win("L2 O2 L5 L6 L7", "kai: S4 S5 S6", "chi: O6 O7 O8", last_card=True))
    assert s is not None and ("houtei", 1) in s.yaku


def test_designed_a_hand_that_splits_several_ways_scores_its_best_reading() -> None:
    # Three runs 1-2-3, or three sets of equal numbers: only the second holds toitoi.
    hand = "L1 L2 L3 O1 O2 O3 S1 S2 S3 M5 L5"
    s = score(win(hand, ron=False, riichi=True))
    assert s is not None and s.yaku == (("riichi", 1), ("toitoi", 2))


def test_engine_last_discard_ron_scores_last_discard() -> None:
    state = replace(example_one(), piles=((), (), ()))
    won = play(state, {"type": "ron"})
    assert "houtei" in yaku_names(won)


def test_win_screen_breakdown_is_in_every_observation_after_the_round() -> None:
    won = play(example_one(), {"type": "ron"})
    for viewer in (0, 1, None):
        result = GAME.observe(won, viewer)["results"][-1]
        assert result["score"]["total"] == 14
        assert result["hands"][1] == ["O1", "O2", "O3", "sun", "sun"]
        assert result["hands"][0] is None  # the loser's hand stays hidden
