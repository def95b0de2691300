"""Tables and the engine. The schema itself is made by the Alembic migrations in ``migrations/``."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from importlib import resources
from typing import Any, ClassVar

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
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


def new_public_id() -> str:
    """A player's public id: 72 random bits in 12 URL-safe characters."""
    return secrets.token_urlsafe(9)


HOLDS_PLAYERS = {"player_ids": True}
"""A column's ``info``: it names players (guest ids, or seats holding them) without a foreign
key to ``players.id``, so the person's export and erasure must read it
(``store/personal.py``)."""
NO_PLAYERS = {"player_ids": False}
"""A column's ``info``: a JSON column (or one as wide as a guest id) that holds no player's
id. Every such column says one or the other (tests/server/test_personal_data.py)."""


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class Player(Base):
    """A guest (or later a registered player), known by the id in their signed cookie."""

    __tablename__ = "players"
    __table_args__ = (Index("ix_players_public_id", "public_id", unique=True),)
    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    """The secret id in the player's signed cookie: never shown to anyone else."""
    public_id: Mapped[str] = mapped_column(String(16), default=lambda: new_public_id())
    """What others may see and link to (``/players/<public_id>``, ``GET /api/me``'s ``id``):
    random, so it tells nothing of the cookie's id. Migration ``0010_public_ids``."""
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
    options: Mapped[dict[str, Any]] = mapped_column(info=NO_PLAYERS)
    rule_key: Mapped[str] = mapped_column(String(200))
    seed: Mapped[str] = mapped_column(String(80))
    """The deal's secret, in decimal: 256 bits for new rooms (no integer column holds that)."""
    rng: Mapped[str] = mapped_column(String(16))
    """How the seed deals: ``blake2b`` (``core/rng.py``'s keyed stream) or ``mt19937`` (rooms
    stored before migration 0006, dealt by Mersenne Twister, kept so they replay exactly)."""
    clock_at: Mapped[float | None] = mapped_column(Float)
    """The game time at which the room's clock was last stopped (``server/rooms/clock.py``)."""
    seats: Mapped[list[Any]] = mapped_column(info=HOLDS_PLAYERS)
    """One entry per seat: ``{"player": id, "name": name}`` for a person, ``{"bot": level}`` for
    a bot, ``{"open": true}`` for a seat still waiting for a person (``status`` "waiting"),
    ``seats.DELETED_SEAT`` for a person who deleted their data."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    outcome: Mapped[dict[str, Any] | None] = mapped_column(info=NO_PLAYERS)
    status: Mapped[str] = mapped_column(String(16), default="playing")
    """``waiting`` (open seats still being taken: no events yet) or ``playing``."""
    code: Mapped[str | None] = mapped_column(String(8))
    """A table's short code to type (``social/tables.py``); None for games against bots."""
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    """Listed in the lobby, or reachable by its link and code only."""
    host: Mapped[str | None] = mapped_column(String(36), info=HOLDS_PLAYERS)
    """The guest who set the table; None for games against bots."""
    settings: Mapped[dict[str, Any] | None] = mapped_column(info=NO_PLAYERS)
    """The table's settings (``social.tables.TableSettings.to_json``) and ``started_at``."""
    touched_at: Mapped[datetime] = mapped_column(UTCDateTime())
    """When someone last did something here (made it, moved, took or left a seat, or left it and
    its clock stopped), to within ``Store.touch_seconds``: rooms nobody came back to are ended
    as abandoned (``Hub.reap``). Migration ``0008_room_activity``."""
    timed: Mapped[bool] = mapped_column(Boolean, default=True)
    """After its last event the game may wait on its own clock (a claim or call window), or
    that is not known (rooms stored before migration ``0008_room_activity``, events written
    without a room): start-up rebuilds these rooms and only these (``Hub.recover``)."""
    paused: Mapped[bool] = mapped_column(Boolean, default=False)
    """Its clock stands still because no seated person is at it (``Room.pause``; also once it
    leaves memory or its server stops): the lobby lists a started table only while this is
    false, on every process. Migration ``0009_room_paused``."""


class RoomEvent(Base):
    """The append-only log: replaying it over ``new_state`` rebuilds the room exactly."""

    __tablename__ = "room_events"
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer)
    """None for a timed event applied by ``advance``."""
    action: Mapped[dict[str, Any] | None] = mapped_column(info=NO_PLAYERS)
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
    player_id: Mapped[str] = mapped_column(String(36), info=HOLDS_PLAYERS)
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
    options: Mapped[dict[str, Any]] = mapped_column(info=NO_PLAYERS)
    level: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int] = mapped_column(Integer)
    """0 = moved first, 1 = second, and so on round the table."""
    players: Mapped[int] = mapped_column(Integer)
    """How many seats the game had (records split by it)."""
    stats: Mapped[dict[str, Any]] = mapped_column(info=NO_PLAYERS)
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


class PlayerRating(Base):
    """A person's rating in one game's rule family (``core/ratings.py``; migration
    ``0012_ratings``): Glicko-2's rating, RD and volatility for two-player families, OpenSkill's
    mu (``rating``) and sigma (``rd``) with no volatility for three to six players."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_board", "key", "updated_at"),)
    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    """``"<game>/<family>"`` (``core.game.rating_key``)."""
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    """As of ``updated_at``: it grows with the time since (``core.ratings.decayed``)."""
    volatility: Mapped[float | None] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())
    """When the last rated game finished."""


class RatingChange(Base):
    """What one rated game did to one person's rating: the profile's chart draws these."""

    __tablename__ = "rating_changes"
    __table_args__ = (Index("ix_rating_changes_player", "player_id", "key", "at"),)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    """A room rates each of its people once: a finish written again adds nothing."""
    key: Mapped[str] = mapped_column(String(64))
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    """The RD (or sigma) after the game."""
    at: Mapped[datetime] = mapped_column(UTCDateTime())


class Review(Base):
    """A finished game's review, computed once (``server/analysis/reviews.py``) and kept."""

    __tablename__ = "reviews"
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    seconds: Mapped[float] = mapped_column(Float)
    """The engine's time per position when it was made."""
    moves: Mapped[list[Any]] = mapped_column(info=NO_PLAYERS)
    """One entry per reviewed move, in order (``reviews.review_move``)."""
    players: Mapped[list[Any]] = mapped_column(info=NO_PLAYERS)
    """Per seat: moves reviewed, count of each class, accuracy (``reviews.summarize``)."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class RoomHint(Base):
    """A hint the room gave a seat: beside ``room_events`` (it changes no state, so replaying
    the events never meets it), at ``seq``, the number of events applied when it was given."""

    __tablename__ = "room_hints"
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[dict[str, Any]] = mapped_column(info=NO_PLAYERS)
    """The move the hint showed."""
    at: Mapped[float] = mapped_column(Float)


class LessonProgress(Base):
    """A lesson a guest finished (one row per player × game × lesson)."""

    __tablename__ = "lesson_progress"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    lesson: Mapped[str] = mapped_column(String(64), primary_key=True)
    done_at: Mapped[datetime] = mapped_column(UTCDateTime())


class Account(Base):
    """A player who keeps their games: the same id as the guest they were, so every row that
    names the guest (results, seats, chat, lessons) is the account's without a copy. Migration
    ``0011_accounts``."""

    __tablename__ = "accounts"
    __table_args__ = (Index("ix_accounts_folded", "folded", unique=True),)
    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    username: Mapped[str] = mapped_column(String(24))
    """As typed (``social.names.clean_username``), shown on the account's pages."""
    folded: Mapped[str] = mapped_column(String(96))
    """``social.names.fold_name(username)``: "Aki" and "ａｋｉ" are one name, so one account."""
    password_hash: Mapped[str | None] = mapped_column(String(200))
    """Argon2id, in its PHC string (``server/accounts/passwords.py``); None for an account
    signed in only with passkeys."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class AccountSession(Base):
    """A browser signed in to an account. Its signed cookie carries a random token; only the
    token's SHA-256 is kept here, so a copy of this table signs nobody in."""

    __tablename__ = "account_sessions"
    __table_args__ = (Index("ix_account_sessions_player", "player_id"),)
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    """The SHA-256 of the session's token, in hex."""
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime())
    """Its last request, to within ``store.accounts.SEEN_SECONDS``."""
    label: Mapped[str] = mapped_column(String(64))
    """What the browser is, from its User-Agent ("Chrome on Android"), for the list of
    sessions."""
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    """Signed out or revoked: its cookie is a stranger's from then on."""


class Passkey(Base):
    """A WebAuthn credential an account signs in with (``server/accounts/passkeys.py``);
    several per account. Only what checking its signatures needs is kept: the private key
    never leaves the person's device. Migration ``0013_passkeys``."""

    __tablename__ = "passkeys"
    __table_args__ = (
        Index("ix_passkeys_credential", "credential_id", unique=True),
        Index("ix_passkeys_player", "player_id"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    """What the account's pages list, rename and delete it by."""
    credential_id: Mapped[str] = mapped_column(String(1400))
    """The credential's id as the authenticator made it (at most 1023 bytes), in base64url."""
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    """The credential's public key, COSE-encoded as the authenticator sent it."""
    sign_count: Mapped[int] = mapped_column(BigInteger)
    """The authenticator's signature counter at its last use (0 for those that keep none); a
    sign-in must raise it (a lower one suggests a cloned authenticator)."""
    transports: Mapped[list[Any]] = mapped_column(info=NO_PLAYERS)
    """How the browser said it reaches the authenticator ("internal", "hybrid", "usb"...):
    a hint given back to browsers with the account's credentials."""
    user_handle: Mapped[str] = mapped_column(String(88))
    """The WebAuthn user handle given to the authenticator, base64url: random, one per
    account (every passkey of an account has the same), never the player id."""
    name: Mapped[str] = mapped_column(String(64))
    """What the person calls it ("Phone"); at first what the browser that made it is."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime())


class TrainerBest(Base):
    """A guest's best figures in a game's trainer (``core.game.drills``), per kind of question
    and in all (``kind`` "all"), over every session they finished (migration ``0014_trainer``)."""

    __tablename__ = "trainer_bests"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(32), primary_key=True)
    sessions: Mapped[int] = mapped_column(Integer)
    """Finished sessions that asked this kind."""
    accuracy: Mapped[float] = mapped_column(Float)
    """The best share of right answers in one session."""
    seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    """The best (lowest) mean seconds of a session's right answers; None before any."""
    level: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """For "all": the strongest computer level a session matched; None before any."""
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())


ALL_KINDS = "all"
"""``TrainerBest.kind`` of a whole session's figures."""


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
