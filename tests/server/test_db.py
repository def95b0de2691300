"""The Alembic migrations build exactly the tables the models describe, on both back ends."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import text

from asobiba.server.db import Base, make_engine, migrate, migrations_config
from asobiba.server.settings import Settings


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
