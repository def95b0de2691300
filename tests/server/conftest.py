"""A real app per test: its own SQLite file (or PostgreSQL database), real bot worker processes."""

from __future__ import annotations

import gc
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from tests.server.servers import ServerProcess
from tests.server.tables import serving

POSTGRES_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'asobiba.sqlite3'}"


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with serving(sqlite_url) as client:
        yield client


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh database on the machine's PostgreSQL server, dropped afterwards."""
    name = f"asobiba_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    finally:
        with psycopg.connect(POSTGRES_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        # A connection the test left open (an engine not disposed, or used after disposing)
        # warns when it is collected: collect now, so the warning fails this test, not
        # whichever later test the collector happens to run in.
        gc.collect()


Start = Callable[..., dict[str, Any]]


@pytest.fixture
def start() -> Start:
    """``start(client, **body)``: make a room against the beginner, return the API's answer."""

    def make(client: TestClient, **overrides: Any) -> dict[str, Any]:
        body = {"game": "mancala", "options": {}, "level": "beginner", "order": "first"}
        body.update(overrides)
        response = client.post("/api/rooms", json=body)
        assert response.status_code == 201, response.text
        return response.json()

    return make


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """``asobiba serve`` in its own process with its own SQLite file, stopped afterwards."""
    process = ServerProcess(tmp_path, f"sqlite:///{tmp_path / 'live.sqlite3'}")
    process.start()
    yield process
    process.stop()
