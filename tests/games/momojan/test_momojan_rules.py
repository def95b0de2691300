"""MOMOJAN's turn rules, one test apiece, each named for the rule (rulebook or Q&A) it checks:
the draw or call that starts a turn, 開, drawing three, ポン/チー, riichi, ツモ/ロン, furiten and
the round's last discard.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from asobiba.core.errors import IllegalAction
from asobiba.games.momojan import MomojanState
from tests.games.momojan.momojan_positions import (
    GAME,
    call,
    discard,
    draw,
    kai,
    legal,
    legal_types,
    melds,
    play,
    position,
    river,
)

TWO_OPEN = melds("kai: S1 S2 S3", "pon: dog dog dog")


# --- the start of a turn -------------------------------------------------------------------


def test_qa_a_turn_starts_with_a_draw_from_any_pile_never_with_kai() -> None:
    state = position("L1 L2 L3 O5 O6 dog moon", "S5 S6 S7 S8 S9 sun sun")
    assert legal(state) == [draw(0), draw(1), draw(2)]


def test_draw_puts_the_top_card_of_the_chosen_pile_in_the_hand() -> None:
    after = play(position("L1 L2 L3 O5 O6 dog moon", "S5 S6 S7 S8 S9 sun sun"), draw(1))
    assert "O4" in after.hands[0] and len(after.hands[0]) == 8
    assert GAME.observe(after, None)["piles"] == [4, 3, 4]
    assert GAME.observe(after, 0)["last"] == {
        "round": 1,
        "seat": 0,
        "type": "draw",
        "pile": 1,
        "drew": ["O4"],
    }
    assert GAME.observe(after, 1)["last"] == {"round": 1, "seat": 0, "type": "draw", "pile": 1}


def test_qa_draw_three_is_never_allowed_at_the_start_of_a_turn() -> None:
    state = position("L1 L2 L3 O5", "S5 S6 S7 S8", melds0=melds("kai: M1 M2 M3"))
    assert legal_types(state) == {"draw"}


# --- 開 (kai) ------------------------------------------------------------------------------


def test_kai_after_a_draw_opens_a_set_made_from_the_hand_alone() -> None:
    state = play(position("L1 L2 L3 O5 O6 dog moon", "S5 S6 S7 S8 S9 sun sun"), draw(0))
    assert kai("L1 L2 L3") in legal(state)
    after = play(state, kai("L1 L2 L3"))
    assert [m.kind for m in after.melds[0]] == ["kai"]
    assert len(after.hands[0]) == 5


def test_after_kai_pon_or_chi_you_draw_three_or_discard_and_nothing_else() -> None:
    state = play(position("L1 L2 L3 O5 O6 dog moon", "S5 S6 S7 S8 S9 sun sun"), draw(0))
    after = play(state, kai("L1 L2 L3"))
    assert legal_types(after) == {"draw3", "discard"}


def test_kai_is_made_one_set_at_a_time() -> None:
    state = play(position("L1 L2 L3 O5 O6 O7 moon", "S5 S6 S7 S8 S9 sun sun"), draw(0))
    with pytest.raises(IllegalAction, match="list of 3 cards"):
        GAME.apply(state, 0, {"type": "kai", "cards": ["L1", "L2", "L3", "O5", "O6", "O7"]})
    after = play(state, kai("L1 L2 L3"))
    assert "kai" not in legal_types(after)


def test_draw_three_takes_one_card_from_each_pile() -> None:
    state = play(position("L1 L2 L3 O5 O6 dog moon", "S5 S6 S7 S8 S9 sun sun"), draw(0))
    after = play(state, kai("L1 L2 L3"), {"type": "draw3"})
    assert {"L3", "O4", "S4"} <= set(after.hands[0])
    assert len(after.hands[0]) == 8
    assert GAME.observe(after, 1)["last"]["piles"] == [0, 1, 2]
    assert "drew" not in GAME.observe(after, 1)["last"]
    assert len(GAME.observe(after, 0)["last"]["drew"]) == 3


def test_qa_after_drawing_three_kai_again_as_long_as_a_set_is_in_hand() -> None:
    state = position(
        "L5 L6 L7 dog dog dog moon",
        "S5 S6 S7 S8 S9 sun sun",
        piles=("L1 L2 L3 L4", "O1 O2 O3 O4", "S1 monkey monkey monkey"),
    )
    state = play(state, draw(2), kai("L5 L6 L7"), {"type": "draw3"})
    assert kai("dog dog dog") in legal(state)
    state = play(state, kai("dog dog dog"))
    assert "draw3" in legal_types(state)
    state = play(state, {"type": "draw3"})
    assert kai("monkey monkey monkey") in legal(state)


def test_qa_draw_three_is_not_allowed_with_two_or_fewer_cards_left() -> None:
    state = position("L1 L2 L3 O5 O6 dog moon", "S5 S6 S7 S8 S9 sun sun", piles=("", "L9", "O9"))
    after = play(state, draw(1), kai("L1 L2 L3"))
    assert legal_types(after) == {"discard"}


def test_designed_draw_three_with_an_empty_pile_takes_the_rest_from_the_other_piles() -> None:
    state = position("L1 L2 L3 O5 O6 dog moon", "S5 S6 S7", piles=("", "L7 L8 L9", "O8 O9"))
    after = play(state, draw(1), kai("L1 L2 L3"), {"type": "draw3"})
    assert GAME.observe(after, 1)["last"]["piles"] == [1, 2, 1]
    assert GAME.observe(after, None)["piles"] == [0, 0, 1]


def test_a_head_is_never_opened() -> None:
    state = play(position("L1 L5 O9 dog dog moon moon", "S5 S6 S7 S8 S9 sun sun"), draw(0))
    assert "kai" not in legal_types(state)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, {"type": "kai", "cards": ["dog", "dog", "L1"]})


# --- ポン and チー -------------------------------------------------------------------------


def test_pon_takes_the_opponents_last_discard_with_two_cards_of_the_same_number() -> None:
    state = position("L1 L2 L3 O5 O6 dog moon", "O5 S5 S7 S8 S9 sun sun", turn=1, offer="L5")
    assert call("pon", "O5 S5") in legal(state)
    after = play(state, call("pon", "O5 S5"))
    meld = after.melds[1][0]
    assert (meld.kind, meld.cards, meld.claimed) == ("pon", ("L5", "O5", "S5"), "L5")
    assert after.rivers[0][-1].called
    assert legal_types(after) == {"draw3", "discard"}
    assert len(after.hands[1]) == 5


def test_pon_with_two_equal_pictures() -> None:
    state = position("L1 L2 L3 O5 O6 dog moon", "O5 S5 S7 S8 S9 sun sun", turn=1, offer="sun")
    after = play(state, call("pon", "sun sun"))
    assert after.melds[1][0].cards == ("sun", "sun", "sun")


def test_chi_takes_the_last_discard_into_a_run_of_one_fruit_peach_standing_in() -> None:
    state = position("L1 L2 L3 O5 O6 dog moon", "L3 M4 S7 S8 S9 sun sun", turn=1, offer="L5")
    assert call("chi", "L3 M4") in legal(state)
    assert call("pon", "L3 M4") not in legal(state)
    after = play(state, call("chi", "L3 M4"))
    assert after.melds[1][0].cards == ("M4", "L3", "L5")


def test_only_the_opponents_last_discard_may_be_called_not_after_drawing() -> None:
    state = position("L1 L2 L3 O5 O6 dog moon", "O5 S5 S7 S8 S9 sun sun", turn=1, offer="L5")
    after = play(state, draw(0))
    assert after.offer is None
    assert "pon" not in legal_types(after)


def test_hand_holds_7_4_or_1_cards_between_turns() -> None:
    state = position("L1 L2 L3 O5 O6 dog moon", "O5 S5 S7 S8 S9 sun sun", turn=1, offer="L5")
    after = play(state, call("pon", "O5 S5"), discard("S7"))
    assert len(after.hands[1]) == 4
    after = play(position("S6 S7 S8 S9", "L1 L5 O5 dog", turn=1, offer="S5"), call("pon", "L5 O5"))
    after = play(after, discard("L1"))
    assert len(after.hands[1]) == 1


# --- riichi ---------------------------------------------------------------------------------


def drawn_ready(piles: tuple[str, str, str] = ("L8", "O8", "S8")) -> MomojanState:
    """Seat 0 has just drawn O9 to moon moon L3 L4, two sets open: ready without the O9."""
    return position(
        "moon moon L3 L4 O9",
        "S5 S6 S7 S8",
        melds0=TWO_OPEN,
        piles=piles,
        phase="drawn",
        drawn="O9",
    )


def test_riichi_is_declared_with_the_discard_when_ready_even_with_open_sets() -> None:
    state = drawn_ready()
    assert discard("O9", riichi=True) in legal(state)
    assert discard("L3", riichi=True) not in legal(state)


def test_riichi_discard_is_laid_sideways_in_the_river() -> None:
    state = play(drawn_ready(), discard("O9", riichi=True))
    assert GAME.observe(state, 1)["rivers"][0] == [{"card": "O9", "riichi": True, "called": False}]
    assert GAME.observe(state, None)["riichi"] == [True, False]


def test_riichi_is_not_offered_when_the_hand_is_not_ready() -> None:
    state = play(position("L1 L5 O9 dog moon sun S2", "S5 S6 S7 S8", melds0=TWO_OPEN), draw(0))
    assert not any(a.get("riichi") for a in legal(state))


@pytest.mark.parametrize(
    ("single", "own_set"), [("dog", "pon: dog dog dog"), ("L5", "kai: M5 O5 S5")]
)
def test_riichi_is_not_offered_on_a_wait_whose_every_copy_is_in_your_hand_or_open_sets(
    single: str, own_set: str
) -> None:
    """Issue 31, point 1: ready means one card from a win, and a card none of whose copies can
    still come wins nothing. A single dog beside its own dog ポン would wait on a fifth dog; a
    single L5 beside its own 開 of the other three 5s, on one of those three."""
    state = position(
        f"{single} L9",
        "S5 S6 S7 S8",
        melds0=melds(own_set, "kai: S1 S2 S3", "chi: O1 O2 O3"),
        phase="drawn",
        drawn="L9",
        piles=("L8", "O8", "S8"),
    )
    assert discard(single, riichi=True) in legal(state)  # L9 waits on M9, O9 or S9
    assert discard("L9", riichi=True) not in legal(state)


def test_designed_riichi_needs_two_cards_left_in_the_piles() -> None:
    state = drawn_ready(piles=("", "", "S8"))
    assert not any(a.get("riichi") for a in legal(state))


def test_after_riichi_only_draw_and_discard_what_was_drawn() -> None:
    state = position(
        "moon moon L3 L4",
        "S5 S6 S7 S8",
        melds0=TWO_OPEN,
        riichi=(True, False),
        offer="moon",
        piles=("L8", "O8", "S9"),
    )
    assert legal_types(state) == {"draw"}  # no ポン of the moon in riichi
    after = play(state, draw(2))
    assert legal(after) == [discard("S9")]
    with pytest.raises(IllegalAction):
        GAME.apply(after, 0, discard("L3"))


def yaku_of(state: MomojanState) -> list[str]:
    score = state.results[-1].score
    assert score is not None
    return [name for name, _ in score.yaku]


def test_designed_ippatsu_a_win_before_your_next_discard_after_riichi() -> None:
    riichi = play(drawn_ready(), discard("O9", riichi=True))
    riichi = replace(riichi, hands=(riichi.hands[0], ("L5", "S5", "S6", "S7", "dog", "sun", "sun")))
    won = play(riichi, draw(1), discard("L5"), {"type": "ron"})
    assert "ippatsu" in yaku_of(won)


def test_qa_ippatsu_is_lost_when_the_riichi_discard_is_called() -> None:
    riichi = play(drawn_ready(), discard("O9", riichi=True))
    riichi = replace(riichi, hands=(riichi.hands[0], ("O7", "O8", "S5", "S6", "L5", "dog", "sun")))
    assert call("chi", "O7 O8") in legal(riichi)
    won = play(riichi, call("chi", "O7 O8"), discard("L5"), {"type": "ron"})
    assert "riichi" in yaku_of(won) and "ippatsu" not in yaku_of(won)


# --- winning --------------------------------------------------------------------------------


def test_qa_tsumo_on_your_own_draw_from_seven_cards_with_one_set_open() -> None:
    state = position(
        "L1 L2 L3 S6 S7 S8 dog",
        "O1 O2 O3 O4",
        melds0=melds("kai: M4 M5 M6"),
        riichi=(True, False),
        piles=("L9", "O9", "S9 dog"),
    )
    after = play(state, draw(2))
    assert {"type": "tsumo"} in legal(after)
    won = play(after, {"type": "tsumo"})
    assert won.results[-1].end == "tsumo" and won.results[-1].winner == 0


def test_ron_on_the_opponents_discard() -> None:
    state = position(
        "moon moon L3 L4", "S5 S6 S7 S8", melds0=TWO_OPEN, riichi=(True, False), offer="L5"
    )
    assert {"type": "ron"} in legal(state)
    won = play(state, {"type": "ron"})
    assert won.results[-1].end == "ron"


PLAIN = melds("kai: S1 S2 S3", "chi: O6 O7 O8")


def test_no_win_without_a_yaku_even_with_the_shape() -> None:
    state = position("moon moon L3 L4", "S5 S6 S7 S8", melds0=PLAIN, offer="L5")
    assert "ron" not in legal_types(state)
    assert {"type": "ron"} in legal(replace(state, riichi=(True, False)))


def test_ron_bonus_and_dora_are_not_yaku_so_they_alone_do_not_win() -> None:
    state = position("L3 L4 M5 O5", "S6 S7 S8 S9", melds0=PLAIN, offer="L5", dora="L4")
    assert "ron" not in legal_types(state)


def test_qa_seven_dealt_cards_cannot_ron_the_first_discard() -> None:
    state = position("L1 L2 L3 S6 S7 S8 dog", "O5 O6 O7", offer="dog", riichi=(True, False))
    assert "ron" not in legal_types(state)


@pytest.mark.parametrize(
    ("hand", "open_specs", "offer"),
    [
        ("sun", ("kai: S1 S2 S3", "pon: dog dog dog", "chi: O6 O7 O8"), "sun"),
        ("moon moon L3 L4", ("kai: S1 S2 S3", "pon: dog dog dog"), "L5"),
        ("L1 L2 L3 S6 S7 S8 dog", ("kai: M4 M5 M6",), "dog"),
    ],
)
def test_qa_a_win_can_come_from_one_four_or_seven_cards(
    hand: str, open_specs: tuple[str, ...], offer: str
) -> None:
    state = position(
        hand, "O1 O2 O3 O4", melds0=melds(*open_specs), offer=offer, riichi=(True, False)
    )
    assert {"type": "ron"} in legal(state)


# --- furiten --------------------------------------------------------------------------------


def furiten_child(offer: str | None, discards: str = "L2") -> MomojanState:
    """The rulebook's furiten example: the child holds moon moon L3 L4, has let L2 go."""
    return position(
        "S5 S6 S7 S8",
        "moon moon L3 L4",
        melds1=TWO_OPEN,
        riichi=(False, True),
        rivers=((), river(discards)),
        turn=1,
        offer=offer,
        piles=("L1", "L5", "O1"),
    )


def test_furiten_example_lemon_2_in_your_river_stops_ron_on_lemon_5() -> None:
    state = furiten_child("L5")
    assert "ron" not in legal_types(state)


def test_furiten_example_tsumo_still_wins() -> None:
    state = play(furiten_child(None), draw(1))
    assert {"type": "tsumo"} in legal(state)


def test_furiten_never_stops_ron_on_a_peach() -> None:
    assert {"type": "ron"} in legal(furiten_child("M5"))


def test_a_peach_in_your_river_never_makes_furiten() -> None:
    assert {"type": "ron"} in legal(furiten_child("L5", discards="M2 M5"))


def test_designed_a_called_discard_still_counts_for_furiten() -> None:
    state = furiten_child("L5")
    state = replace(state, rivers=(state.rivers[0], (replace(state.rivers[1][0], called=True),)))
    assert "ron" not in legal_types(state)


# --- the last discard -----------------------------------------------------------------------


def test_qa_the_rounds_last_discard_may_still_be_called() -> None:
    state = position(
        "L1 L2 L3 O5 O6 dog moon", "O5 S5 S7 S8", turn=1, offer="L5", piles=("", "", "")
    )
    assert legal(state) == [call("pon", "O5 S5"), {"type": "pass"}]
    after = play(state, call("pon", "O5 S5"))
    assert legal_types(after) == {"discard"}


def test_ron_on_the_rounds_last_discard() -> None:
    state = position(
        "moon moon L3 L4",
        "S5 S6 S7 S8",
        melds0=TWO_OPEN,
        riichi=(True, False),
        offer="L5",
        piles=("", "", ""),
    )
    assert {"type": "ron"} in legal(state)


def test_when_the_piles_are_empty_letting_the_last_discard_go_ends_the_round() -> None:
    state = position("L1 L2 L3 O5 O6 dog moon", "O1 S5 S7 S8", turn=1, offer="L5", piles=("",) * 3)
    assert legal(state) == [{"type": "pass"}]
    after = play(state, {"type": "pass"})
    assert after.results[-1].end == "exhausted"
