"""A finished session's replay may show everything (``Game.reveal``): every hand and every dealt
bonus card, on top of exactly what the seat saw."""

from __future__ import annotations

from asobiba.core.game import revealed, reveals
from asobiba.games import get_game

GAME = get_game("michikake")


def test_the_full_view_is_the_seats_own_plus_every_hand_and_bonus_card() -> None:
    state = GAME.new_state({}, 4, 7)
    assert reveals(GAME)
    for seat in (0, 2, None):
        seen = GAME.observe(state, seat)
        full = revealed(GAME, state, seat)
        assert {k: v for k, v in full.items() if k not in ("hands", "bonuses")} == seen
        assert full["hands"] == [list(hand) for hand in state.hands]
        assert full["bonuses"] == list(state.bonus)
        assert "hands" not in seen and "bonuses" not in seen
