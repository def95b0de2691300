"""The Alembic migrations build exactly the tables the models describe, on both back ends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import text

from asobiba.core.rng import SEED_BITS, LegacySeed, new_seed
from asobiba.games import get_game
from asobiba.server.rooms.recovery import replay
from asobiba.server.settings import Settings
from asobiba.server.store.db import Base, make_engine, migrate, migrations_config, session_factory
from asobiba.server.store.store import Store


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_migrations_match_the_models(backend: str, request: pytest.FixtureRequest) -> None:
    url = request.getfixturevalue("sqlite_url" if backend == "sqlite" else "postgres_url")
    engine = make_engine(url)
    migrate(engine)
    migrate(engine)  # a second upgrade is a no-op
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    engine.dispose()
    assert differences == []


def test_default_settings_keep_the_database_and_key_in_the_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASOBIBA_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = Settings.load()
    assert first.database_url == f"sqlite:///{tmp_path / 'asobiba.sqlite3'}"
    assert Settings.load().secret_key == first.secret_key  # guest cookies survive a restart
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_results_stored_before_the_players_column_count_as_two_player_games(
    backend: str, request: pytest.FixtureRequest
) -> None:
    url = request.getfixturevalue("sqlite_url" if backend == "sqlite" else "postgres_url")
    engine = make_engine(url)
    config: Config = migrations_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(text("INSERT INTO players VALUES ('p', CURRENT_TIMESTAMP)"))
        connection.execute(
            text(
                "INSERT INTO rooms VALUES ('r', 'mancala', '{}', 'k', 1, '[]', CURRENT_TIMESTAMP,"
                " CURRENT_TIMESTAMP, '{}')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO results (room_id, player_id, game, rule_key, options, level, seat,"
                " result, score, opponent_score, margin, finished_at) VALUES ('r', 'p',"
                " 'mancala', 'k', '{}', 'casual', 0, 'win', 30, 18, 12, CURRENT_TIMESTAMP)"
            )
        )
    migrate(engine)
    with engine.connect() as connection:
        players = connection.execute(text("SELECT players FROM results")).scalar_one()
    engine.dispose()
    assert players == 2


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_rooms_stored_before_wide_seeds_keep_replaying_as_they_were_dealt(
    backend: str, request: pytest.FixtureRequest
) -> None:
    """Migration 0006: a room of 31-bit Mersenne Twister days keeps its seed and its deals; new
    rooms hold 256-bit seeds, which no integer column could."""
    url = request.getfixturevalue("sqlite_url" if backend == "sqlite" else "postgres_url")
    game = get_game("michikake")
    old_seed = 1_234_567_890
    state = game.new_state({"short_pile": 0}, 3, LegacySeed(old_seed))
    mover = next(iter(game.to_move(state)))
    discard = next(a for a in game.legal_actions(state, mover) if "discard" in a)
    dealt = game.observe(state, mover)["hand"]

    engine = make_engine(url)
    config: Config = migrations_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0005_hints")
        connection.execute(text("INSERT INTO players VALUES ('p', CURRENT_TIMESTAMP)"))
        connection.execute(
            text(
                "INSERT INTO rooms VALUES ('old', 'michikake', :options, 'k', :seed, :seats,"
                " CURRENT_TIMESTAMP, NULL, NULL)"
            ),
            {
                "options": json.dumps({"short_pile": 0}),
                "seed": old_seed,
                "seats": json.dumps([{"player": "p"}, {"bot": "casual"}, {"bot": "casual"}]),
            },
        )
        connection.execute(
            text("INSERT INTO room_events VALUES ('old', 1, :seat, :action, 10.0)"),
            {"seat": mover, "action": json.dumps(discard)},
        )
    migrate(engine)
    store = Store(session_factory(engine))
    stored = store.load_room("old")
    assert stored is not None and isinstance(stored.seed, LegacySeed)
    assert stored.seed == old_seed
    rebuilt = replay(game, stored)
    assert game.observe(rebuilt, mover)["discards"][mover][0]["card"] == discard["discard"]
    assert sorted(dealt) == sorted([*game.observe(rebuilt, mover)["hand"], discard["discard"]])

    wide = new_seed() | 1 << (SEED_BITS - 1)
    store.create_room("new", "michikake", {"short_pile": 0}, "k", wide, stored.seats)
    fresh = store.load_room("new")
    assert fresh is not None and fresh.seed == wide and not isinstance(fresh.seed, LegacySeed)
    engine.dispose()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_players_stored_before_public_ids_get_one_each(
    backend: str, request: pytest.FixtureRequest
) -> None:
    """Migration 0010: every player already stored gets a public id of its own, unlike any
    other and unlike the secret id; a player stored afterwards gets one as it is stored."""
    url = request.getfixturevalue("sqlite_url" if backend == "sqlite" else "postgres_url")
    engine = make_engine(url)
    config: Config = migrations_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0009_room_paused")
        for player in ("p", "q", "r"):
            connection.execute(
                text("INSERT INTO players (id, created_at) VALUES (:id, CURRENT_TIMESTAMP)"),
                {"id": player},
            )
    migrate(engine)
    store = Store(session_factory(engine))
    store.ensure_player("s")
    public = {player: store.public_id(player) for player in ("p", "q", "r", "s")}
    owners = {store.player_of(value) for value in public.values()}
    engine.dispose()
    assert len(set(public.values())) == 4
    assert all(len(value) == 12 and value not in "pqrs" for value in public.values())
    assert owners == {"p", "q", "r", "s"}
