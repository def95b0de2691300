"""Tables and the engine. The schema itself is made by the Alembic migrations in ``migrations/``."""

from __future__ import annotations

from datetime import UTC, datetime
from importlib import resources
from typing import Any, ClassVar

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    TypeDecorator,
    create_engine,
    event,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every back end (SQLite drops the offset on its own)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        return value.astimezone(UTC) if value is not None else None

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class Player(Base):
    """A guest (or later a registered player), known by the id in their signed cookie."""

    __tablename__ = "players"
    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    name: Mapped[str | None] = mapped_column(String(24))
    """The display name chosen the first time they joined a table (``social/names.py``)."""


class RoomRow(Base):
    """One game: its setup and, once over, its outcome. The moves are in ``room_events``."""

    __tablename__ = "rooms"
    __table_args__ = (
        Index("ix_rooms_unfinished", "finished_at"),
        Index("ix_rooms_code", "code", unique=True),
        Index("ix_rooms_status", "status", "public"),
    )
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]]
    rule_key: Mapped[str] = mapped_column(String(200))
    seed: Mapped[str] = mapped_column(String(80))
    """The deal's secret, in decimal: 256 bits for new rooms (no integer column holds that)."""
    rng: Mapped[str] = mapped_column(String(16))
    """How the seed deals: ``blake2b`` (``core/rng.py``'s keyed stream) or ``mt19937`` (rooms
    stored before migration 0006, dealt by Mersenne Twister, kept so they replay exactly)."""
    clock_at: Mapped[float | None] = mapped_column(Float)
    """The game time at which the room's clock was last stopped (``server/rooms/clock.py``)."""
    seats: Mapped[list[Any]]
    """One entry per seat: ``{"player": id, "name": name}`` for a person, ``{"bot": level}`` for
    a bot, ``{"open": true}`` for a seat still waiting for a person (``status`` "waiting")."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    outcome: Mapped[dict[str, Any] | None]
    status: Mapped[str] = mapped_column(String(16), default="playing")
    """``waiting`` (open seats still being taken: no events yet) or ``playing``."""
    code: Mapped[str | None] = mapped_column(String(8))
    """A table's short code to type (``social/tables.py``); None for games against bots."""
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    """Listed in the lobby, or reachable by its link and code only."""
    host: Mapped[str | None] = mapped_column(String(36))
    """The guest who set the table; None for games against bots."""
    settings: Mapped[dict[str, Any] | None]
    """The table's settings (``social.tables.TableSettings.to_json``) and ``started_at``."""


class RoomEvent(Base):
    """The append-only log: replaying it over ``new_state`` rebuilds the room exactly."""

    __tablename__ = "room_events"
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer)
    """None for a timed event applied by ``advance``."""
    action: Mapped[dict[str, Any] | None]
    at: Mapped[float] = mapped_column(Float)
    standin: Mapped[str | None] = mapped_column(String(32))
    """The level of the stand-in bot that played this event for an absent or out-of-time
    person; None for everything else."""


class RoomChat(Base):
    """One line of a table's chat: ``text`` or a ``stamp`` (``social/chat.py``), from a guest
    seated at ``seat`` (None: a spectator). Kept with the room; its replay shows it."""

    __tablename__ = "room_chat"
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer)
    player_id: Mapped[str] = mapped_column(String(36))
    name: Mapped[str] = mapped_column(String(24))
    text: Mapped[str | None] = mapped_column(String(400))
    stamp: Mapped[str | None] = mapped_column(String(16))
    at: Mapped[float] = mapped_column(Float)
    """Wall-clock seconds (Unix time)."""


class Result(Base):
    """One person's finished game (against bots, or with other people: ``people``), as the
    records page counts it."""

    __tablename__ = "results"
    __table_args__ = (Index("ix_results_player_game", "player_id", "game", "finished_at"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"))
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    game: Mapped[str] = mapped_column(String(32))
    rule_key: Mapped[str] = mapped_column(String(200))
    options: Mapped[dict[str, Any]]
    level: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int] = mapped_column(Integer)
    """0 = moved first, 1 = second, and so on round the table."""
    players: Mapped[int] = mapped_column(Integer)
    """How many seats the game had (records split by it)."""
    stats: Mapped[dict[str, Any]]
    """The game's own figures for this seat (``Game.record``), e.g. cards at the end."""
    result: Mapped[str] = mapped_column(String(8))
    """"win", "draw" or "loss"."""
    score: Mapped[int] = mapped_column(Integer)
    opponent_score: Mapped[int] = mapped_column(Integer)
    margin: Mapped[int] = mapped_column(Integer)
    """Signed from the player's side: positive for a win."""
    hints: Mapped[int] = mapped_column(Integer, default=0)
    """Hints this player asked for in the game: any at all keeps it apart from the unassisted
    records."""
    people: Mapped[int] = mapped_column(Integer, default=1)
    """How many people sat at the table: 1 is a game against bots; more are kept apart."""
    standin: Mapped[bool] = mapped_column(Boolean, default=False)
    """A stand-in bot played for an absent (or out-of-time) person in this game."""
    finished_at: Mapped[datetime] = mapped_column(UTCDateTime())


class Review(Base):
    """A finished game's review, computed once (``server/analysis/reviews.py``) and kept."""

    __tablename__ = "reviews"
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    seconds: Mapped[float] = mapped_column(Float)
    """The engine's time per position when it was made."""
    moves: Mapped[list[Any]]
    """One entry per reviewed move, in order (``reviews.review_move``)."""
    players: Mapped[list[Any]]
    """Per seat: moves reviewed, count of each class, accuracy (``reviews.summarize``)."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class RoomHint(Base):
    """A hint the room gave a seat: beside ``room_events`` (it changes no state, so replaying
    the events never meets it), at ``seq``, the number of events applied when it was given."""

    __tablename__ = "room_hints"
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[dict[str, Any]]
    """The move the hint showed."""
    at: Mapped[float] = mapped_column(Float)


class LessonProgress(Base):
    """A lesson a guest finished (one row per player × game × lesson)."""

    __tablename__ = "lesson_progress"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    lesson: Mapped[str] = mapped_column(String(64), primary_key=True)
    done_at: Mapped[datetime] = mapped_column(UTCDateTime())


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def migrations_config() -> Config:
    """Alembic's configuration for the packaged migrations (no alembic.ini needed)."""
    config = Config()
    config.set_main_option(
        "script_location", str(resources.files("asobiba.server.store").joinpath("migrations"))
    )
    return config


MIGRATION_LOCK = 0x61736F62
"""PostgreSQL advisory lock key held while migrating ("asob")."""


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration (``alembic upgrade head``)."""
    config = migrations_config()
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # A batch migration rebuilds a table others refer to (``rooms``): SQLite drops the old
            # copy only with foreign keys off, and turns them off only outside a transaction.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            with connection.begin():
                if connection.dialect.name == "postgresql":
                    # Several processes starting at once on one database: one migrates, the
                    # others wait for its commit and then find the schema at head.
                    connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                    if broken:
                        raise RuntimeError(f"a migration broke foreign keys: {broken}")
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


def session_factory(engine: Engine) -> sessionmaker[Any]:
    return sessionmaker(engine, expire_on_commit=False)
