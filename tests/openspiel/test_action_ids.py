"""The action id tables are fixed: a trained policy's output layer means the same moves after
any change to the code. These pins fail if an id would move."""

from __future__ import annotations

from hashlib import blake2b

import pyspiel

import asobiba.openspiel
from asobiba.openspiel import michikake, momojan


def _digest(lines: list[str]) -> str:
    return blake2b("\n".join(lines).encode(), digest_size=8).hexdigest()


def test_the_games_action_spaces() -> None:
    sizes = {
        name: pyspiel.load_game(name).num_distinct_actions() for name in asobiba.openspiel.GAMES
    }
    assert sizes == {"asobiba_mancala": 6, "asobiba_momojan": 479, "asobiba_michikake": 41}


def test_momojan_ids() -> None:
    assert (momojan.DRAW3, momojan.DISCARD, momojan.RIICHI, momojan.CALL, momojan.KAI) == (
        3,
        7,
        48,
        89,
        284,
    )
    assert len(momojan.SETS) == 195
    assert momojan.SETS[:2] == (("L1", "L2", "L3"), ("L1", "O1", "S1"))
    assert _digest([" ".join(s) for s in momojan.SETS]) == "fea4343fbcad873b"


def test_momojan_strings() -> None:
    spec = momojan.MomojanSpec()
    assert spec.action_text(None, 0, 2) == "draw pile 2"
    assert spec.action_text(None, 0, 7) == "discard M1"
    assert spec.action_text(None, 0, 48 + 40) == "riichi moon"
    assert spec.action_text(None, 0, 284) == "kai L1 L2 L3"


def test_michikake_ids() -> None:
    spec = michikake.MichikakeSpec()
    texts = [spec.action_text(None, 0, i) for i in range(michikake.ACTIONS)]
    assert texts[:2] == ["discard C1", "discard C2"]
    assert texts[36:] == ["discard star", "discard ring", "win", "steal", "pass"]
    assert _digest(texts) == "782b6ef69e3422f4"
