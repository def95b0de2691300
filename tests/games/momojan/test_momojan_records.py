"""What a finished MOMOJAN adds to a player's records (the site: "records per strength: games,
wins, points, biggest win, yaku seen"): ``Game.record`` on real outcomes."""

from __future__ import annotations

from asobiba.games.momojan import MomojanState
from asobiba.games.momojan.data import YAKU
from tests.games.momojan.momojan_positions import GAME, dealer_ron, melds, play, position


def child_ron_ends_the_game(**fields: object) -> MomojanState:
    """``dealer_ron`` with seat 0 the child of the last dealership: the deal passes after its
    ロン (リーチ 1 + 犬 1 + ロン 1 = 3), every player has dealt twice, the game ends."""
    return dealer_ron(dealer=1, terms=4, **fields)


def test_the_record_counts_the_yaku_of_each_win_and_keeps_the_biggest_win() -> None:
    first = child_ron_ends_the_game(middle=1)
    assert GAME.outcome(first) is not None
    # The same win again, now with 3 points waiting in the middle, after the first one.
    final = child_ron_ends_the_game(middle=3, results=first.results)
    outcome = GAME.outcome(final)
    assert outcome is not None
    assert [r.paid for r in final.results] == [3, 3]
    winner = GAME.record(outcome, 0)
    assert winner["yaku"] == ["riichi", "dog", "riichi", "dog"]
    assert winner["best_win"] == 3 + 3, "the loser's 3 and the middle's 3"
    assert winner["points"] == outcome["scores"][0]
    assert winner["rounds"] == 2
    loser = GAME.record(outcome, 1)
    assert loser["yaku"] is None and loser["best_win"] is None, "nothing to count: a dash"


def test_a_wall_settlement_is_no_win_in_the_record() -> None:
    state = position(
        "moon",
        "monkey",
        melds0=melds("kai: L1 L2 L3", "kai: O1 O2 O3", "kai: S1 S2 S3"),
        piles=("", "", ""),
        turn=1,
        offer="sun",
        dealer=1,
        terms=4,
    )
    final = play(state, {"type": "pass"})
    outcome = GAME.outcome(final)
    assert outcome is not None and final.results[-1].winner == 0  # took the settlement
    assert GAME.record(outcome, 0)["best_win"] is None
    assert GAME.record(outcome, 0)["yaku"] is None


def test_the_yaku_tally_names_every_yaku_of_the_data_file_in_its_order() -> None:
    [field] = [f for f in GAME.record_fields() if f.key == "yaku"]
    assert field.how == "tally"
    assert list(field.names) == [yaku.id for yaku in YAKU]
    assert all(field.names[y.id] == {"ja": y.ja, "en": y.en} for y in YAKU)
    [best] = [f for f in GAME.record_fields() if f.key == "best_win"]
    assert best.how == "max"
