"""Each MICHIKAKE table rule (turns, claims, steals, barred cards, crests, bonus cards, deals and
the session's end), one test apiece, named after the rule it checks. The corners the rulebook
leaves open are tested as data.toml decides them.

Tables are built by hand: ``table(["C1 C2 ...", ...], pile="...")`` gives each seat's cards and
the pile (next draw first); the seat to move holds six cards after its draw.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from asobiba.core.errors import IllegalAction
from asobiba.core.game import automatic, first_state
from asobiba.games import get_game
from asobiba.games.michikake import MichikakeState, sort_cards
from asobiba.games.michikake.data import BREAK_SECONDS, CLAIM_SECONDS
from asobiba.games.michikake.rules import BREAK, DISCARD

GAME = get_game("michikake")
PASS: dict[str, Any] = {"pass": True}
WIN: dict[str, Any] = {"win": True}
STEAL: dict[str, Any] = {"steal": True}
NEXT: dict[str, Any] = {"next": True}


def table(
    hands: list[str],
    pile: str = "C9 W9 R9 C8 W8 R8",
    *,
    turn: int = 0,
    dealer: int = 0,
    drawn: str | None = None,
    points: tuple[int, ...] | None = None,
    discards: list[str] | None = None,
    steals: tuple[int, ...] | None = None,
    passes: int = 0,
) -> MichikakeState:
    """A deal in progress: ``turn`` holds six cards (``drawn`` the last one drawn) and must
    discard; every bonus card is Sweep (R cards), which the tests' winning hands avoid."""
    n = len(hands)
    start = GAME.new_state({}, n, 0)
    rows = [tuple((c, None) for c in (discards[s].split() if discards else [])) for s in range(n)]
    return replace(
        start,
        hands=tuple(sort_cards(h.split()) for h in hands),
        pile=tuple(pile.split()),
        aside=(),
        turn=turn,
        dealer=dealer,
        drawn=drawn if drawn is not None else hands[turn].split()[-1],
        points=points or start.points,
        discards=tuple(rows),
        barred=tuple(frozenset(c for c, _ in row) for row in rows),
        steals=steals or (0,) * n,
        passes=passes,
        bonus=("sweep",) * n,
        phase=DISCARD,
    )


def act(state: MichikakeState, *moves: tuple[int, dict[str, Any]]) -> MichikakeState:
    for seat, action in moves:
        state = GAME.apply(state, seat, action)
    return state


def next_deal(state: MichikakeState) -> MichikakeState:
    """Every seat asks for the next deal after the break that follows a finished one."""
    assert state.phase == BREAK
    return act(state, *((seat, NEXT) for seat in range(state.players)))


def events(state: MichikakeState, seat: int | None = None) -> list[dict[str, Any]]:
    return list(GAME.observe(state, seat)["last"])


def kinds(state: MichikakeState) -> list[str]:
    return [e["type"] for e in events(state)]


FOUR = [
    "C1 C2 C4 W7 H8 H9",  # seat 0, to move: discards W7 in most tests
    "C3 C5 R1 R3 H5",
    "C6 C7 H1 H2 H4",
    "C8 C9 R5 R7 H6",
]


# --- turns ---------------------------------------------------------------------------------------


def test_everyone_starts_with_1000_points() -> None:
    assert GAME.observe(GAME.new_state({}, 4, 7), None)["points"] == [1000] * 4
    assert GAME.observe(GAME.new_state({}, 3, 7), None)["points"] == [1000] * 3


def test_each_seat_holds_five_and_the_dealer_draws_first() -> None:
    state = GAME.new_state({}, 4, 7)
    obs = GAME.observe(state, 0)
    assert obs["dealer"] == 0 and obs["turn"] == 0 and obs["phase"] == DISCARD
    assert obs["hand_sizes"] == [6, 5, 5, 5]
    assert obs["drawn"] in obs["hand"]
    assert obs["pile"] == 114 - 20 - 1
    assert GAME.observe(GAME.new_state({}, 3, 7), None)["pile"] == 87 - 15 - 1


def test_a_turn_ends_by_discarding_one_card_back_to_five() -> None:
    after = act(table(FOUR), (0, {"discard": "W7"}))
    obs = GAME.observe(after, 0)
    assert obs["hand"] == ["C1", "C2", "C4", "H8", "H9"]
    assert obs["discards"][0] == [{"card": "W7", "taken_by": None}]
    assert events(after, 2) == [{"type": "discard", "seat": 0, "card": "W7"}]


def test_after_every_discard_a_claim_window_opens_for_every_other_seat() -> None:
    after = act(table(FOUR), (0, {"discard": "W7"}))
    assert GAME.to_move(after) == frozenset({1, 2, 3})
    for seat in (1, 2, 3):
        assert GAME.legal_actions(after, seat) == [PASS]  # open even when nobody can claim
    assert GAME.legal_actions(after, 0) == []
    assert GAME.deadline(after) == CLAIM_SECONDS
    assert GAME.observe(after, None)["window"] == {
        "discarder": 0, "card": "W7", "closes_at": CLAIM_SECONDS, "seconds": CLAIM_SECONDS,
        "answer": None,
    }  # fmt: skip


def test_the_next_player_draws_only_after_the_window_is_settled() -> None:
    open_window = act(table(FOUR), (0, {"discard": "W7"}), (1, PASS), (2, PASS))
    assert GAME.observe(open_window, 1)["hand_sizes"] == [5, 5, 5, 5]
    after = act(open_window, (3, PASS))
    obs = GAME.observe(after, 1)
    assert obs["turn"] == 1 and obs["drawn"] == "C9" and obs["hand_sizes"] == [5, 6, 5, 5]
    assert events(after, 0) == [{"type": "draw", "seat": 1, "pile": 5}]  # never the card
    assert events(after, 1) == [{"type": "draw", "seat": 1, "pile": 5, "card": "C9"}]


def test_the_window_closes_early_once_every_seat_has_answered() -> None:
    after = act(table(FOUR), (0, {"discard": "W7"}), (3, PASS), (1, PASS), (2, PASS))
    assert GAME.deadline(after) is None and GAME.to_move(after) == frozenset({1})


def test_designed_a_seat_that_cannot_claim_answers_pass_without_being_asked() -> None:
    """Seat 1 holds two W7 (it may steal) and is asked; seats 2 and 3 can only pass, which
    ``automatic`` gives for them (the room answers a person's so, and shows no control)."""
    hands = ["C1 C2 C4 W7 H8 H9", "C3 C5 W7 W7 H5", FOUR[2], FOUR[3]]
    opened = act(table(hands), (0, {"discard": "W7"}))
    assert GAME.legal_actions(opened, 1) == [PASS, STEAL]
    assert automatic(GAME, opened, 1) is None
    assert [automatic(GAME, opened, seat) for seat in (2, 3)] == [PASS, PASS]
    assert automatic(GAME, opened, 0) is None, "the discarder has nothing to answer"
    assert automatic(GAME, table(hands), 0) is None, "a discard is a choice"
    assert automatic(GAME, act(opened, (2, PASS)), 2) is None, "answered already"


@pytest.mark.parametrize("people", [2, 3, 4])
def test_designed_between_people_the_window_runs_its_full_length(people: int) -> None:
    """With two or more people at the table, every answer in does not close the window: only
    its deadline does, so how long it lasts shows nobody whether the others could claim."""
    start = first_state(GAME, {}, 4, 0, people)
    assert start.full_windows
    state = replace(table(FOUR), full_windows=True)
    answered = act(state, (0, {"discard": "W7"}), (3, PASS), (1, PASS), (2, PASS))
    assert GAME.to_move(answered) == frozenset() and GAME.deadline(answered) == CLAIM_SECONDS
    assert GAME.observe(answered, 2)["phase"] == "claim"
    closed = GAME.advance(answered, CLAIM_SECONDS)
    assert GAME.to_move(closed) == frozenset({1}) and GAME.deadline(closed) is None


@pytest.mark.parametrize("people", [0, 1])
def test_designed_against_the_computer_the_last_answer_closes_the_window(people: int) -> None:
    assert not first_state(GAME, {}, 4, 0, people).full_windows


def test_at_the_deadline_the_window_closes_and_silent_seats_pass() -> None:
    opened = act(table(FOUR), (0, {"discard": "W7"}), (2, PASS))
    assert GAME.advance(opened, CLAIM_SECONDS - 0.1) == opened
    closed = GAME.advance(opened, CLAIM_SECONDS)
    assert GAME.to_move(closed) == frozenset({1}) and GAME.deadline(closed) is None


def test_an_answer_after_the_window_closed_is_refused() -> None:
    opened = act(table(FOUR), (0, {"discard": "W7"}))
    with pytest.raises(IllegalAction, match="window closed"):
        GAME.apply(opened, 1, PASS, at=CLAIM_SECONDS)


def test_answers_are_secret_until_the_window_closes() -> None:
    hands = list(FOUR)
    hands[2] = "W7 W7 H1 H2 H4"  # seat 2 may steal the W7
    opened = act(table(hands), (0, {"discard": "W7"}))
    answered = act(opened, (2, STEAL))
    for viewer in (0, 1, 3, None):
        assert GAME.observe(answered, viewer) == GAME.observe(opened, viewer)
    assert GAME.observe(answered, 2)["window"]["answer"] == "steal"
    assert GAME.legal_actions(answered, 2) == [] and 2 not in GAME.to_move(answered)


def test_win_on_your_own_draw() -> None:
    state = table(["C1 C2 C3 W5 W5 W5", "C4 C6 R1 R3 H5", "C7 C8 H1 H2 H4", "C9 R5 R7 H6 H7"])
    assert WIN in GAME.legal_actions(state, 0)
    after = act(state, (0, WIN))
    win = events(after)[0]
    assert win["type"] == "win" and win["self_draw"] is True and win["from"] is None
    # mixed 60 + low? no (W5); dealer: 90, every other seat pays 30
    assert win["total"] == 90 and win["each"] == 30 and win["gain"] == 90
    assert GAME.observe(after, None)["points"] == [1090, 970, 970, 970]


def test_a_hand_completed_by_its_own_draw_wins_there_and_then() -> None:
    """Issue 20: the rulebook discards only a hand the draw did not complete, so a completed
    hand wins: ``win`` is the only action offered and a discard is refused."""
    state = table(["C1 C2 C3 W5 W5 W5", "C4 C6 R1 R3 H5", "C7 C8 H1 H2 H4", "C9 R5 R7 H6 H7"])
    assert GAME.legal_actions(state, 0) == [WIN]
    with pytest.raises(IllegalAction, match="the hand wins"):
        GAME.apply(state, 0, {"discard": "C1"})
    # After a steal (no draw) the same six are discarded as before.
    stolen = replace(state, drawn=None)
    assert WIN not in GAME.legal_actions(stolen, 0)
    assert {"discard": "C1"} in GAME.legal_actions(stolen, 0)


def test_no_win_is_offered_when_the_six_are_not_two_sets() -> None:
    assert WIN not in GAME.legal_actions(table(FOUR), 0)
    with pytest.raises(IllegalAction, match="not two sets"):
        GAME.apply(table(FOUR), 0, WIN)


# --- claims on a discard -------------------------------------------------------------------------


def test_anyone_may_win_on_a_discard_and_the_discarder_pays_it_all() -> None:
    hands = list(FOUR)
    hands[2] = "W5 W6 H1 H1 H1"  # W7 completes W5-W6-W7 + H1×3
    opened = act(table(hands), (0, {"discard": "W7"}))
    assert GAME.legal_actions(opened, 2) == [PASS, WIN]
    after = act(opened, (1, PASS), (2, WIN), (3, PASS))
    win = events(after)[0]
    assert (win["seat"], win["from"], win["self_draw"]) == (2, 0, False)
    assert win["hand"] == ["W5", "W6", "W7", "H1", "H1", "H1"]
    assert win["total"] == 60 and win["paid"] == [60, 0, 0, 0]
    assert GAME.observe(after, None)["points"] == [940, 1000, 1060, 1000]


def test_several_wins_on_one_discard_go_to_the_nearest_clockwise_from_the_discarder() -> None:
    hands = ["C1 C2 C4 R5 R6", "W5 W6 H1 H1 H1", "C6 C7 H2 H4 H8 W7", "W8 W9 C5 C5 C5"]
    opened = act(table(hands, turn=2), (2, {"discard": "W7"}))
    for order in ([(1, WIN), (3, WIN), (0, PASS)], [(3, WIN), (0, PASS), (1, WIN)]):
        win = events(act(opened, *order))[0]
        assert win["seat"] == 3, "seat 3 sits next after the discarder, seat 1 furthest"


def test_a_win_on_a_discard_beats_a_steal_of_it() -> None:
    hands = list(FOUR)
    hands[1] = "W7 W7 R1 R3 H5"  # could steal
    hands[3] = "W8 W9 C5 C5 C5"  # could win
    after = act(table(hands), (0, {"discard": "W7"}), (1, STEAL), (2, PASS), (3, WIN))
    obs = GAME.observe(after, None)
    assert events(after)[0]["seat"] == 3
    assert obs["points"][1] == 1000, "the losing steal is never paid for"
    assert "steal" not in kinds(after), "a losing claim is never shown"


def test_a_player_holding_two_identical_cards_may_steal_the_third_and_shows_the_three() -> None:
    hands = list(FOUR)
    hands[2] = "W7 W7 H1 H2 H4"
    after = act(table(hands), (0, {"discard": "W7"}), (1, PASS), (2, STEAL), (3, PASS))
    obs = GAME.observe(after, 1)
    assert events(after) == [{"type": "steal", "seat": 2, "card": "W7", "from": 0, "cost": 10}]
    assert obs["shown"][2] == ["W7", "W7", "W7"]
    assert obs["discards"][0] == [{"card": "W7", "taken_by": 2}]
    assert obs["turn"] == 2 and obs["phase"] == DISCARD and obs["hand_sizes"][2] == 6


def test_a_stealer_discards_and_play_passes_to_its_left_skipping_those_between() -> None:
    hands = list(FOUR)
    hands[2] = "W7 W7 H1 H2 H4"
    stolen = act(table(hands), (0, {"discard": "W7"}), (1, PASS), (2, STEAL), (3, PASS))
    assert GAME.legal_actions(stolen, 2) == [{"discard": c} for c in ["W7", "H1", "H2", "H4"]], (
        "discard only: no win after a steal"
    )
    after = act(stolen, (2, {"discard": "H4"}), (0, PASS), (1, PASS), (3, PASS))
    assert GAME.observe(after, None)["turn"] == 3  # seat 1 never got a turn


def test_no_steal_to_make_a_run() -> None:
    hands = list(FOUR)
    hands[2] = "W6 W8 H1 H2 H4"
    opened = act(table(hands), (0, {"discard": "W7"}))
    assert GAME.legal_actions(opened, 2) == [PASS]
    with pytest.raises(IllegalAction, match="cannot steal"):
        GAME.apply(opened, 2, STEAL)


def test_a_steal_costs_10_then_30_paid_at_once_and_kept_without_a_win() -> None:
    hands = list(FOUR)
    hands[2] = "W7 W7 H1 H2 H4"
    first = act(table(hands, pile=""), (0, {"discard": "W7"}), (1, PASS), (2, STEAL), (3, PASS))
    assert GAME.observe(first, None)["points"][2] == 990
    second = act(
        table(hands, steals=(0, 0, 1, 0)), (0, {"discard": "W7"}), (1, PASS), (2, STEAL), (3, PASS)
    )
    assert GAME.observe(second, None)["points"][2] == 970
    # the deal then runs out (empty pile): the 10 points stay paid, and nobody receives them
    ended = act(first, (2, {"discard": "H4"}), (0, PASS), (1, PASS), (3, PASS))
    assert kinds(ended)[0] == "exhausted"
    assert GAME.observe(ended, None)["points"] == [1000, 1000, 990, 1000]


def test_each_seat_sees_what_its_next_steal_would_cost() -> None:
    """Issue 20: the Steal button says its cost, read from the seat's own observation
    (``steal_cost``: 10, then 30, then None); a spectator sees none."""
    for steals, cost in (((0, 0, 0, 0), 10), ((0, 0, 1, 0), 30), ((0, 0, 2, 0), None)):
        state = table(list(FOUR), steals=steals)
        assert GAME.observe(state, 2)["steal_cost"] == cost
        assert GAME.observe(state, None)["steal_cost"] is None


def test_designed_no_third_steal_in_one_game() -> None:
    hands = list(FOUR)
    hands[2] = "W7 W7 H1 H2 H4"
    opened = act(table(hands, steals=(0, 0, 2, 0)), (0, {"discard": "W7"}))
    assert GAME.legal_actions(opened, 2) == [PASS]
    with pytest.raises(IllegalAction, match="already stolen 2 times"):
        GAME.apply(opened, 2, STEAL)


def test_designed_a_steal_may_not_take_its_player_to_zero_or_less() -> None:
    hands = list(FOUR)
    hands[2] = "W7 W7 H1 H2 H4"
    poor = act(table(hands, points=(1000, 1000, 10, 1000)), (0, {"discard": "W7"}))
    assert GAME.legal_actions(poor, 2) == [PASS]
    with pytest.raises(IllegalAction, match="costs 10 and it has 10 points"):
        GAME.apply(poor, 2, STEAL)
    enough = act(table(hands, points=(1000, 1000, 11, 1000)), (0, {"discard": "W7"}))
    assert STEAL in GAME.legal_actions(enough, 2)


def test_shown_cards_are_not_fixed_and_stay_shown_while_held() -> None:
    hands = list(FOUR)
    hands[2] = "W7 W7 H1 H2 H4"
    stolen = act(table(hands), (0, {"discard": "W7"}), (1, PASS), (2, STEAL), (3, PASS))
    broken = act(stolen, (2, {"discard": "W7"}))
    assert GAME.observe(broken, 0)["shown"][2] == ["W7", "W7"]


def test_designed_only_the_card_just_discarded_can_be_claimed() -> None:
    hands = list(FOUR)
    hands[2] = "W7 W7 H1 H2 H4"  # could steal a W7, but the W7 lies in an older row
    older = act(table(hands, discards=["W7", "", "", ""]), (0, {"discard": "C1"}))
    assert GAME.legal_actions(older, 2) == [PASS]


def test_designed_the_last_discard_of_an_empty_pile_can_still_be_won_on() -> None:
    hands = list(FOUR)
    hands[2] = "W5 W6 H1 H1 H1"
    after = act(table(hands, pile=""), (0, {"discard": "W7"}), (1, PASS), (2, WIN), (3, PASS))
    assert kinds(after)[0] == "win"
    assert GAME.observe(after, None)["results"][0]["end"] == "win"


# --- cards you once discarded --------------------------------------------------------------------


def test_a_card_you_have_discarded_can_never_be_taken_by_you_by_win_or_steal() -> None:
    hands = list(FOUR)
    hands[2] = "W6 W7 W7 H1 H1"  # could steal W7, had it not discarded one
    discards = ["", "", "W7", ""]
    opened = act(table(hands, discards=discards), (0, {"discard": "W7"}))
    assert GAME.legal_actions(opened, 2) == [PASS]
    with pytest.raises(IllegalAction, match="has discarded W7"):
        GAME.apply(opened, 2, STEAL)
    winner = ["C1 C2 C4 W7 H8 H9", "C3 C5 R1 R3 H5", "W5 W6 H1 H1 H1", "C8 C9 R5 R7 H6"]
    opened = act(table(winner, discards=discards), (0, {"discard": "W7"}))
    assert GAME.legal_actions(opened, 2) == [PASS]
    with pytest.raises(IllegalAction, match="cannot win on W7"):
        GAME.apply(opened, 2, WIN)


def test_a_card_of_another_stage_or_suit_is_still_yours_to_take() -> None:
    winner = ["C1 C2 C4 W7 H8 H9", "C3 C5 R1 R3 H5", "W5 W6 H1 H1 H1", "C8 C9 R5 R7 H6"]
    opened = act(table(winner, discards=["", "", "W8 C7", ""]), (0, {"discard": "W7"}))
    assert WIN in GAME.legal_actions(opened, 2)


def test_your_own_draw_is_free_of_what_you_discarded() -> None:
    state = table(
        ["C1 C2 C3 W5 W5 W5", "C4 C6 R1 R3 H5", "C7 C8 H1 H2 H4", "C9 R5 R7 H6 H7"],
        discards=["W5", "", "", ""],
    )
    assert WIN in GAME.legal_actions(state, 0)


def test_designed_a_discarded_star_bars_taking_a_star() -> None:
    hands = ["C1 C2 C4 W7 H8 star", "C3 C5 R1 R3 H5", "star star H1 H2 H4", "C8 C9 R5 R7 H6"]
    opened = act(table(hands, discards=["", "", "star", ""]), (0, {"discard": "star"}))
    assert GAME.legal_actions(opened, 2) == [PASS]
    free = act(table(hands), (0, {"discard": "star"}))
    assert STEAL in GAME.legal_actions(free, 2)


# --- crests and bonus cards ---------------------------------------------------------------------


def test_crests_are_shown_to_all_and_move_one_seat_each_game() -> None:
    state = GAME.new_state({}, 4, 3)
    assert GAME.observe(state, None)["crests"] == ["C", "W", "R", "H"]
    nxt = next_deal(
        act(table(FOUR, pile=""), (0, {"discard": "W7"}), (1, PASS), (2, PASS), (3, PASS))
    )
    assert GAME.observe(nxt, None)["crests"] == ["H", "C", "W", "R"]
    assert GAME.observe(GAME.new_state({}, 3, 3), 1)["crests"] == ["C", "W", "R"]


def test_your_crest_suit_counts_for_the_crest_hand() -> None:
    state = table(["W2 W3 W4 W6 W6 W6", "C4 C6 R1 R3 H5", "C7 C8 H1 H2 H4", "C9 R5 R7 H6 H7"])
    state = replace(state, crests=("W", "C", "R", "H"))
    win = events(act(state, (0, WIN)))[0]
    assert [y["id"] for y in win["yaku"]] == ["mixed", "crest"]


def test_each_seat_gets_one_face_down_bonus_card_only_it_sees() -> None:
    state = GAME.new_state({}, 4, 5)
    seen = [GAME.observe(state, seat)["bonus"] for seat in range(4)]
    assert len(set(seen)) == 4 and None not in seen
    assert GAME.observe(state, None)["bonus"] is None


def test_the_bonus_card_is_revealed_and_added_only_when_its_holder_wins() -> None:
    state = table(["C1 C2 C3 W5 W5 W5", "C4 C6 R1 R3 H5", "C7 C8 H1 H2 H4", "C9 R5 R7 H6 H7"])
    state = replace(state, bonus=("odd", "new_moon", "full_moon", "even"), dealer=1)
    win = events(act(state, (0, WIN)))[0]
    assert win["bonus"] == {"id": "odd", "points": 50}  # C1 C3 W5 W5 W5
    assert win["points"] == 60 + 50 and win["total"] == 110 and win["each"] == 37
    assert "new_moon" not in str(GAME.observe(act(state, (0, WIN)), None))


# --- the dealer, deals and the session -----------------------------------------------------------


def test_the_dealers_total_is_one_and_a_half_times() -> None:
    hands = list(FOUR)
    hands[2] = "W5 W6 H1 H1 H1"
    after = act(
        table(hands, turn=0, dealer=2), (0, {"discard": "W7"}), (1, PASS), (2, WIN), (3, PASS)
    )
    assert events(after)[0]["total"] == 90


def test_the_dealer_stays_after_winning() -> None:
    state = table(["C1 C2 C3 W5 W5 W5", "C4 C6 R1 R3 H5", "C7 C8 H1 H2 H4", "C9 R5 R7 H6 H7"])
    obs = GAME.observe(next_deal(act(state, (0, WIN))), None)
    assert (obs["dealer"], obs["passes"], obs["deal"], obs["turn"]) == (0, 0, 1, 0)
    assert obs["crests"] == ["H", "C", "W", "R"], "the crests still move on to the next game"


def test_the_deal_passes_when_another_player_wins() -> None:
    hands = list(FOUR)
    hands[2] = "W5 W6 H1 H1 H1"
    after = act(table(hands), (0, {"discard": "W7"}), (1, PASS), (2, WIN), (3, PASS))
    obs = GAME.observe(next_deal(after), None)
    assert (obs["dealer"], obs["passes"], obs["turn"]) == (1, 1, 1)


def test_an_exhausted_pile_moves_no_points_and_passes_the_deal() -> None:
    ended = act(table(FOUR, pile=""), (0, {"discard": "W7"}), (1, PASS), (2, PASS), (3, PASS))
    assert kinds(ended) == ["exhausted"]
    after = next_deal(ended)
    obs = GAME.observe(after, None)
    assert kinds(after)[0] == "deal"
    assert obs["points"] == [1000] * 4 and (obs["dealer"], obs["passes"]) == (1, 1)
    assert obs["results"] == [{"deal": 0, "dealer": 0, "end": "exhausted"}]
    assert obs["discards"] == [[], [], [], []], "each game starts with fresh discard rows"


def test_between_deals_the_table_waits_until_every_seat_asks_for_the_next_deal() -> None:
    """Designed (the rulebook deals on at once): a break lets everyone read the last deal's
    result without their next claim windows running out."""
    ended = act(table(FOUR, pile=""), (0, {"discard": "W7"}), (1, PASS), (2, PASS), (3, PASS))
    assert ended.phase == BREAK and GAME.to_move(ended) == frozenset(range(4))
    assert all(GAME.legal_actions(ended, seat) == [NEXT] for seat in range(4))
    assert GAME.deadline(ended) == ended.now + BREAK_SECONDS
    seen = GAME.observe(ended, 1)
    assert seen["turn"] is None and seen["window"] is None
    assert seen["break"] == {
        "resumes_at": ended.now + BREAK_SECONDS,
        "seconds": BREAK_SECONDS,
        "ready": False,
    }
    assert seen["discards"][0] == [{"card": "W7", "taken_by": None}], "the ended table stays shown"
    three = act(ended, (0, NEXT), (2, NEXT), (3, NEXT))
    assert three.phase == BREAK and GAME.to_move(three) == frozenset({1})
    # Being ready is a seat's own business, as a claim answer is.
    assert GAME.observe(three, 1) == seen and GAME.observe(three, None) == GAME.observe(ended, None)
    assert GAME.observe(three, 0)["break"]["ready"] is True
    dealt = act(three, (1, NEXT))
    assert dealt.phase == DISCARD and dealt.deal == 1 and kinds(dealt)[0] == "deal"


def test_the_next_deal_is_dealt_when_the_break_runs_out() -> None:
    ended = act(table(FOUR, pile=""), (0, {"discard": "W7"}), (1, PASS), (2, PASS), (3, PASS))
    waiting = act(ended, (2, NEXT))
    due = ended.now + BREAK_SECONDS
    assert GAME.advance(waiting, due - 0.1) == waiting
    dealt = GAME.advance(waiting, due)
    assert dealt.phase == DISCARD and dealt.deal == 1


def test_a_break_takes_only_one_next_from_each_seat() -> None:
    ended = act(table(FOUR, pile=""), (0, {"discard": "W7"}), (1, PASS), (2, PASS), (3, PASS))
    waiting = act(ended, (2, NEXT))
    for seat, action in ((2, NEXT), (1, PASS), (0, {"discard": "W7"}), (1, {"next": False})):
        with pytest.raises(IllegalAction):
            GAME.apply(waiting, seat, action)


def test_the_session_ends_when_the_deal_has_gone_round_once_per_player() -> None:
    last = table(FOUR, pile="", dealer=3, passes=3, turn=0)
    after = act(last, (0, {"discard": "W7"}), (1, PASS), (2, PASS), (3, PASS))
    assert GAME.to_move(after) == frozenset() and GAME.deadline(after) is None
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome["end"] == "round"
    assert outcome["scores"] == [1000] * 4


def test_the_session_ends_when_someone_has_zero_or_less_and_ranks_by_points() -> None:
    hands = list(FOUR)
    hands[2] = "W5 W6 H1 H1 H1"
    state = table(hands, points=(60, 1000, 1000, 1020))
    after = act(state, (0, {"discard": "W7"}), (1, PASS), (2, WIN), (3, PASS))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome["end"] == "bust"
    assert outcome["scores"] == [0, 1000, 1060, 1020]
    assert outcome["winners"] == [2] and outcome["ranks"] == [4, 3, 1, 2]


def test_designed_equal_points_share_a_rank_and_all_top_scores_win() -> None:
    last = table(FOUR, pile="", dealer=3, passes=3, points=(1000, 990, 1000, 1010))
    after = act(last, (0, {"discard": "W7"}), (1, PASS), (2, PASS), (3, PASS))
    assert GAME.outcome(after) == {
        "scores": [1000, 990, 1000, 1010], "winners": [3], "ranks": [2, 4, 2, 1],
        "end": "round", "deals": 1, "best": [None, None, None, None],
    }  # fmt: skip
    tied = table(FOUR, pile="", dealer=3, passes=3, points=(1000, 990, 1000, 990))
    outcome = GAME.outcome(act(tied, (0, {"discard": "W7"}), (1, PASS), (2, PASS), (3, PASS)))
    assert outcome is not None and outcome["winners"] == [0, 2] and outcome["ranks"] == [1, 3, 1, 3]


def test_three_player_sessions_deal_three_suits_and_need_three_passes() -> None:
    three = ["C1 C2 C4 W7 R8 R9", "C3 C5 R1 R3 W5", "C6 C7 W1 W2 W4"]
    last = table(three, pile="", dealer=2, passes=2)
    after = act(last, (0, {"discard": "W7"}), (1, PASS), (2, PASS))
    assert GAME.outcome(after) is not None
