"""The game registry, and the protocol every registered game keeps (docs/ARCHITECTURE.md)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from asobiba.core.game import Game
from asobiba.games import COMING, engine_names, game_names, get_game

SITE_GAMES = {"mancala", "mokochaka", "momojan", "michikake"}


def test_mancala_is_registered_first() -> None:
    assert game_names()[0] == "mancala"


def test_every_site_game_is_either_playable_or_announced_as_coming() -> None:
    assert set(game_names()).isdisjoint(COMING)
    assert set(game_names()) | set(COMING) == SITE_GAMES
    assert len(game_names()) == len(set(game_names()))


def test_unknown_game_raises_key_error_naming_the_known_games() -> None:
    with pytest.raises(KeyError, match="unknown game 'chess'; known: "):
        get_game("chess")


@pytest.fixture(params=game_names())
def game(request: pytest.FixtureRequest) -> Game[Any]:
    return get_game(request.param)


def test_registered_game_answers_to_its_name(game: Game[Any]) -> None:
    assert game_names().count(game.name) == 1
    assert get_game(game.name) is game
    assert 1 <= game.min_seats <= game.max_seats


def test_registered_game_declares_valid_option_rules(game: Game[Any]) -> None:
    specs = game.options_spec()
    assert len({spec.key for spec in specs}) == len(specs)
    for spec in specs:
        assert spec.default in spec.values
        assert set(spec.label) == {"ja", "en"}
        assert json.loads(json.dumps(spec.to_json())) == spec.to_json()
    assert game.resolve_options(game.resolve_options({})) == game.resolve_options({})


def test_registered_game_names_every_bot_level_in_both_languages(game: Game[Any]) -> None:
    names = game.level_names()
    assert game.levels
    assert list(names) == game.levels
    assert all(set(name) == {"ja", "en"} for name in names.values())


def json_safe(value: Any) -> bool:
    return bool(json.loads(json.dumps(value, allow_nan=False)) == value)


def test_registered_game_plays_a_seeded_random_game_through_the_protocol(game: Game[Any]) -> None:
    rng = random.Random(3)
    state = game.new_state({}, game.min_seats, 3)
    assert state == game.new_state({}, game.min_seats, 3)
    viewers: list[int | None] = [*range(game.min_seats), None]
    while game.outcome(state) is None:
        movers = sorted(game.to_move(state))
        if not movers:
            due = game.deadline(state)
            assert due is not None, "a running game with nobody to move must have a timer due"
            state = game.advance(state, due)
            continue
        seat = movers[0]
        legal = game.legal_actions(state, seat)
        assert legal and json_safe(legal)
        assert all(json_safe(game.observe(state, viewer)) for viewer in viewers)
        state = game.apply(state, seat, rng.choice(legal))
    assert game.to_move(state) == frozenset()
    outcome = game.outcome(state)
    assert outcome is not None and json_safe(outcome)
    assert len(outcome["scores"]) == game.min_seats
    assert set(outcome["winners"]) <= set(range(game.min_seats))


@pytest.mark.parametrize("name", engine_names())
def test_every_engines_record_gives_one_value_per_record_field(name: str) -> None:
    """What a finished game adds to the records page matches the columns the game declares."""
    game = get_game(name)
    rng = random.Random(3)
    state = game.new_state({}, game.min_seats, 3)
    at = 0.0
    while (outcome := game.outcome(state)) is None:
        movers = sorted(game.to_move(state))
        due = game.deadline(state)
        if due is not None and (not movers or rng.random() < 0.2):
            at = max(at, due)
            state = game.advance(state, at)
            continue
        seat = rng.choice(movers)
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)), at)
        at += 0.5
    fields = {field.key: field for field in game.record_fields()}
    assert all(field.how in {"mean", "min", "max", "tally"} for field in fields.values())
    for seat in range(game.min_seats):
        figures = game.record(outcome, seat)
        assert set(figures) == set(fields)
        for key, value in figures.items():
            if value is None:
                continue
            if fields[key].how == "tally":  # labels to count, each one the field names
                assert isinstance(value, list) and set(value) <= set(fields[key].names), value
            else:
                assert isinstance(value, int | float), (key, value)
