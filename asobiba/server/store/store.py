"""Persistence of rooms, their event logs and results: synchronous SQLAlchemy, called off-loop.

A room's events go through ``Store.append`` (group commit: every event waiting when the writer
is free shares one transaction, ``GroupCommit``); everything else is one call, one transaction.

SQLite lets one transaction write at a time and makes the others poll for the lock, sleeping up
to 100 ms between tries. So on SQLite the writes of the hot path (the events, and each new
game's guest and room: ``Store.writing``) queue for one writer thread of their own instead:
under a thousand games starting at once, commits of a few events had waited 85 to 440 ms on
those sleeps. PostgreSQL takes concurrent writers; there they run in the loop's executor.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, ParamSpec, TypeVar, cast

from sqlalchemy import Table, func, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from asobiba.core.ratings import PROVISIONAL_RD, Rating
from asobiba.core.rng import LegacySeed
from asobiba.server.metrics import EVENT_BATCH_SIZE, EVENT_COMMIT_SECONDS
from asobiba.server.store import personal, ratings
from asobiba.server.store.accounts import Accounts
from asobiba.server.store.db import (
    ALL_KINDS,
    LessonProgress,
    Player,
    PlayerRating,
    RatingChange,
    Result,
    Review,
    RoomChat,
    RoomEvent,
    RoomHint,
    RoomRow,
    TrainerBest,
)
from asobiba.server.store.seats import alone, mentions, seated

log = logging.getLogger(__name__)

EVENTS = cast(Table, RoomEvent.__table__)
RESULTS = cast(Table, Result.__table__)
PLAYERS = cast(Table, Player.__table__)
ROOMS = cast(Table, RoomRow.__table__)

P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True)
class ChatLine:
    """One line of a table's chat (``social/chat.py``): ``text`` or a ``stamp``."""

    n: int
    seat: int | None
    player: str
    name: str
    text: str | None
    stamp: str | None
    at: float
    """Wall-clock seconds."""

    def to_json(self) -> dict[str, Any]:
        """What every watcher and the replay see: never the guest's id."""
        entry: dict[str, Any] = {"n": self.n, "seat": self.seat, "name": self.name, "at": self.at}
        if self.text is not None:
            entry["text"] = self.text
        if self.stamp is not None:
            entry["stamp"] = self.stamp
        return entry


@dataclass(frozen=True)
class StoredHint:
    """A hint given in a room: to ``seat``, after ``seq`` events, showing ``action``."""

    seq: int
    seat: int
    action: dict[str, Any]
    at: float


@dataclass(frozen=True)
class StoredRoom:
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    events: list[tuple[int | None, dict[str, Any] | None, float]]
    finished: bool
    outcome: dict[str, Any] | None
    hints: tuple[StoredHint, ...] = ()
    """The hints given, in order (they change no state, so ``events`` holds none)."""
    clock_at: float | None = None
    """The game time at which the room's clock was last stopped, if it ever was."""
    status: str = "playing"
    """``waiting`` (a table whose open seats are being taken: no events yet) or ``playing``."""
    code: str | None = None
    public: bool = False
    host: str | None = None
    settings: dict[str, Any] | None = None
    """A table's settings (``social.tables.TableSettings``); None for a game against bots."""
    standins: tuple[str | None, ...] = ()
    """Per event (same order as ``events``): the level of the stand-in that played it, or None."""
    chat: tuple[ChatLine, ...] = ()
    created_at: datetime | None = None
    paused: bool = True
    """Its clock was last stopped with nobody at it (``rooms.paused``): not listed as being
    played."""

    @property
    def kept_private(self) -> bool:
        """A private table no longer being played: seen only by its people (``http/sharing.py``)."""
        return self.settings is not None and not self.public and self.finished

    @property
    def abandoned(self) -> bool:
        """Ended because its guest started too many other games (``Store.abandon_oldest``)."""
        return self.outcome is not None and self.outcome.get("abandoned") is True

    def resume_at(self) -> float | None:
        """The game time a rebuilt room's clock continues from: where it was stopped, or the
        latest event if the process died first (a wait then gets back at least what it had
        left). The latest, not the last: an action dated back by its sender's line may be logged
        after one with a later time. A table's start counts as an event: its first turn clock
        runs from it, so a process that died before the first move must not charge the outage
        to the person whose turn it was."""
        known = [at for _, _, at in self.events]
        if self.clock_at is not None:
            known.append(self.clock_at)
        started = None if self.settings is None else self.settings.get("started_at")
        if started is not None:
            known.append(started)
        return max(known, default=None)

    @property
    def stood_in(self) -> frozenset[int]:
        """The seats a stand-in played at least one logged event for (their results carry the
        mark; the other seats' do not)."""
        return frozenset(
            seat
            for (seat, _, _), level in zip(self.events, self.standins, strict=False)
            if level is not None and seat is not None
        )

    def hints_per_seat(self) -> list[int]:
        return [
            sum(1 for hint in self.hints if hint.seat == seat) for seat in range(len(self.seats))
        ]


@dataclass(frozen=True)
class Finish:
    """What the end of a game writes: the room's outcome, one result per person and, for a rated
    game, its rating change (``store/ratings.py``)."""

    outcome: dict[str, Any]
    results: list[Result]
    rating: ratings.RatedGame | None = None


@dataclass(frozen=True)
class Event:
    """One event of a room's log, as ``Store.append`` takes it: with ``finish`` (the event ends
    the game) the room's outcome and results are written in the same transaction."""

    room_id: str
    seq: int
    seat: int | None
    action: dict[str, Any] | None
    at: float
    finish: Finish | None = None
    standin: str | None = None
    """The level of the stand-in bot that played it for a person."""
    timed: bool = True
    """The game waits on its own clock after it (``rooms.timed``: start-up rebuilds the room).
    A writer that does not know the game's state leaves it true: start-up then looks."""

    def row(self) -> dict[str, Any]:
        return {
            "room_id": self.room_id,
            "seq": self.seq,
            "seat": self.seat,
            "action": self.action,
            "at": self.at,
            "standin": self.standin,
        }


ABANDONED = {"abandoned": True}
"""The outcome of a game ended unplayed (``Store.abandon_oldest``)."""


def _holds(row: RoomRow, player_id: str) -> bool:
    return seated(row.seats, player_id)


def _seed(row: RoomRow) -> int:
    """The room's seed as its game takes it: a room dealt before keyed streams is marked, so it
    deals again exactly as it did."""
    seed = int(row.seed)
    return LegacySeed(seed) if row.rng == "mt19937" else seed


def now() -> datetime:
    return datetime.now(UTC)


def _finish(session: Session | Connection, room_id: str, finish: Finish) -> bool:
    """Set the room's outcome, add its results and rate its people (a rated game), unless
    another writer already did: only the writer that marks the room finished rates it, so a
    finish written again (a retried batch, a repair) never rates twice.

    The results are inserted as rows (SQLAlchemy Core), never added to the session: a
    transaction that fails leaves the ``Result`` objects as they were, so the same ``Finish``
    can be written again (``Store.write_events`` retries a failed batch one event at a time)."""
    finished_at = now()
    marked = session.execute(
        update(RoomRow)
        .where(RoomRow.id == room_id, RoomRow.finished_at.is_(None))
        .values(finished_at=finished_at, outcome=finish.outcome)
    )
    if marked.rowcount != 1:  # type: ignore[attr-defined]
        return False
    for result in finish.results:
        result.finished_at = finished_at
    if finish.results:
        session.execute(insert(RESULTS), [_result_row(result) for result in finish.results])
    if finish.rating is not None:
        ratings.apply(session, room_id, finish.rating, finished_at)
    return True


def _between_people(seats: list[dict[str, Any]], status: str) -> bool:
    """A started table with two or more people (``GuestLimits.abandon_table_seconds``)."""
    return status == "playing" and sum("player" in seat for seat in seats) >= 2


def _result_row(result: Result) -> dict[str, Any]:
    """A result's column values: those set on it, the column's default for the others; no
    ``id`` (the database numbers results)."""
    given = result.__dict__
    row: dict[str, Any] = {}
    for column in RESULTS.columns:
        if column.key == "id":
            continue
        if column.key in given:
            row[column.key] = given[column.key]
        elif column.default is not None and column.default.is_scalar:
            row[column.key] = column.default.arg  # type: ignore[attr-defined]
    return row


class GroupCommit:
    """Group commit of room events: one writer per ``Store``.

    ``append`` queues an event and answers a future. While no batch is being written, the
    events waiting are handed to a worker thread as one batch (``Store.write_events``: one
    transaction); events that arrive meanwhile wait for the next batch. When a batch is
    committed every event's future is resolved; an event that could not be written (its batch
    failed, then it failed alone) gets its own error. No task is involved: the write runs in the
    executor given (the store's SQLite writer) or the loop's, and reports back by a callback,
    so cancelling a waiter (its socket closed) can neither cancel the write nor leave other
    waiters unanswered."""

    def __init__(
        self,
        write: Callable[[Sequence[Event]], list[BaseException | None]],
        executor: Executor | None = None,
    ) -> None:
        """``executor``: where batches are written (default: the loop's)."""
        self._write = write
        self._executor = executor
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiting: list[tuple[Event, asyncio.Future[None]]] = []
        self._busy = False
        self.batches = 0
        """Batches written (for tests and benches)."""

    def append(self, event: Event) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # first use, or a new loop (tests): nothing is in flight
            self._loop, self._waiting, self._busy = loop, [], False
        future: asyncio.Future[None] = loop.create_future()
        self._waiting.append((event, future))
        if not self._busy:
            self._next(loop)
        return future

    def _next(self, loop: asyncio.AbstractEventLoop) -> None:
        batch, self._waiting = self._waiting, []
        try:
            written = loop.run_in_executor(
                self._executor, self._write, [event for event, _ in batch]
            )
        except RuntimeError as error:  # the executor is shut down: nothing was written
            for _, future in batch:
                if not future.done():
                    future.set_exception(error)
            return
        self._busy = True
        self.batches += 1
        written.add_done_callback(lambda done: self._written(loop, batch, done))

    def _written(
        self,
        loop: asyncio.AbstractEventLoop,
        batch: list[tuple[Event, asyncio.Future[None]]],
        done: asyncio.Future[list[BaseException | None]],
    ) -> None:
        if loop is not self._loop:
            return  # a loop that was replaced: its waiters are gone with it
        self._busy = False
        failure = None if done.cancelled() else done.exception()
        errors: list[BaseException | None] = (
            [failure or RuntimeError("the write was cancelled")] * len(batch)
            if failure is not None or done.cancelled()
            else done.result()
        )
        for (_, future), error in zip(batch, errors, strict=True):
            if future.done():
                continue
            if error is None:
                future.set_result(None)
            else:
                future.set_exception(error)
        if self._waiting:
            self._next(loop)


@dataclass(frozen=True)
class IdleRoom:
    """An unfinished room nobody came back to for its time (``Store.idle_rooms``)."""

    id: str
    public: bool
    before: datetime
    """Its time's cutoff: it is ended only if its ``touched_at`` is still older than this."""


TOUCH_SECONDS = 60.0
"""How stale ``rooms.touched_at`` may grow before another event writes it again (default of
``Store.touch_seconds``)."""


class Store:
    def __init__(
        self, sessions: sessionmaker[Session], touch_seconds: float = TOUCH_SECONDS
    ) -> None:
        """``touch_seconds``: how stale a room's ``touched_at`` may grow before an event writes
        it again (``GuestLimits.touch_seconds``): a busy room's row is then written once a
        minute, not with every batch of its events."""
        self.sessions = sessions
        self.touch_seconds = touch_seconds
        self.engine: Engine = sessions.kw["bind"]
        self.accounts = Accounts(self.engine)
        """Accounts, their sessions and merging a guest into one (``store/accounts.py``)."""
        self.writer: Executor | None = (
            ThreadPoolExecutor(1, thread_name_prefix="sqlite-writer")
            if self.engine.dialect.name == "sqlite"
            else None
        )
        """The one thread that writes the hot path's rows on SQLite (see the module's note)."""
        self.events = GroupCommit(self.write_events, self.writer)

    async def writing(self, call: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """``call`` (one of this store's writes) off the loop, by the writer."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.writer, functools.partial(call, *args, **kwargs))

    def close(self) -> None:
        """Stop the writer thread, after what it was given is written."""
        if self.writer is not None:
            self.writer.shutdown()

    def ensure_player(self, player_id: str) -> None:
        """Know the guest (one indexed read, no ORM objects)."""
        with self.engine.begin() as connection:
            _know(connection, player_id)

    def arrive(self, player_id: str) -> list[str]:
        """Know the guest and return the ids of their unfinished games, newest first: what
        every new game asks first, in one short transaction. A guest not known before holds no
        game (a person takes a seat only once known: here or by ``ensure_player``), so their
        rooms are not looked for: at a thousand unfinished rooms, that look cost more than the
        rest of the transaction."""
        with self.engine.begin() as connection:
            if not _know(connection, player_id):
                return []
            return [room_id for room_id, _ in _unfinished_of(connection, player_id)]

    def create_room(
        self,
        room_id: str,
        game: str,
        options: dict[str, Any],
        rule_key: str,
        seed: int,
        seats: list[dict[str, Any]],
        *,
        status: str = "playing",
        code: str | None = None,
        public: bool = False,
        host: str | None = None,
        settings: dict[str, Any] | None = None,
        created_at: datetime | None = None,
        timed: bool = False,
    ) -> None:
        """Store a new room. A table's ``code`` is unique: a clash raises ``IntegrityError``
        (the caller draws another). ``created_at``: the moment the room in memory says it was
        made (default now), so a room read back from the store is listed as it was; ``timed``:
        its first position waits on the game's own clock."""
        with self.engine.begin() as connection:  # a row, no Session: every new game does this
            connection.execute(
                insert(ROOMS).values(
                    id=room_id,
                    game=game,
                    options=options,
                    rule_key=rule_key,
                    seed=str(seed),
                    rng="blake2b",
                    seats=seats,
                    created_at=created_at or now(),
                    finished_at=None,
                    outcome=None,
                    clock_at=None,
                    status=status,
                    code=code,
                    public=public,
                    host=host,
                    settings=settings,
                    touched_at=now(),
                    timed=timed,
                    paused=False,  # its clock runs from the start (``Room(running=True)``)
                )
            )

    def update_table(
        self,
        room_id: str,
        seats: list[dict[str, Any]],
        status: str,
        settings: dict[str, Any] | None,
        timed: bool = False,
    ) -> None:
        """A waiting table's seats changed (a person joined or left, a seat was removed), or it
        started (``status`` "playing", its final seats and ``settings.started_at``; ``timed``:
        its first position waits on the game's own clock). Only a waiting table changes: a
        started one's seats are fixed with its log."""
        with self.sessions.begin() as session:
            changed = session.execute(
                update(RoomRow)
                .where(RoomRow.id == room_id, RoomRow.status == "waiting")
                .values(
                    seats=seats, status=status, settings=settings, touched_at=now(), timed=timed
                )
            )
            if changed.rowcount != 1:  # type: ignore[attr-defined]
                raise RuntimeError(f"room {room_id} is not a waiting table")

    def abandon_room(self, room_id: str) -> None:
        """End an unfinished room unplayed (its only person deleted their data: ``Room.forget``);
        it has no result and no replay, like an abandoned game."""
        with self.engine.begin() as connection:
            connection.execute(
                update(ROOMS)
                .where(ROOMS.c.id == room_id, ROOMS.c.finished_at.is_(None))
                .values(finished_at=now(), outcome=dict(ABANDONED))
            )

    def forget_seat(self, room_id: str, seats: list[dict[str, Any]], host: str | None) -> None:
        """A started table's seats once a person at it deleted their data (their seat is a
        deleted player's, ``seats.DELETED_SEAT``), and its host (None if it was them): the
        only change a started table's seats ever see."""
        with self.engine.begin() as connection:
            connection.execute(
                update(ROOMS).where(ROOMS.c.id == room_id).values(seats=seats, host=host)
            )

    def export_player(self, player_id: str) -> dict[str, Any] | None:
        """Everything the site holds about the player, section by section
        (``personal.export``), read as of one moment; None for a player it does not know."""
        with self.engine.connect() as connection:
            if connection.dialect.name == "postgresql":
                connection = connection.execution_options(isolation_level="REPEATABLE READ")
            with connection.begin():
                known = connection.scalar(select(PLAYERS.c.id).where(PLAYERS.c.id == player_id))
                return None if known is None else personal.export(connection, player_id)

    def erase_player(self, player_id: str) -> personal.Erased:
        """Delete the player and everything of theirs, in one transaction (``personal.erase``:
        rooms nobody else sat in go; in the others their seat becomes a deleted player's)."""
        with self.engine.begin() as connection:
            return personal.erase(connection, player_id)

    def close_table(self, room_id: str) -> None:
        """The host left a table before it started: it ends unplayed, like an abandoned game."""
        with self.sessions.begin() as session:
            session.execute(
                update(RoomRow)
                .where(RoomRow.id == room_id, RoomRow.finished_at.is_(None))
                .values(finished_at=now(), outcome=dict(ABANDONED))
            )

    def set_table_settings(self, room_id: str, settings: dict[str, Any]) -> None:
        """The host changed an unfinished table's settings (spectators' chat on or off)."""
        with self.sessions.begin() as session:
            session.execute(
                update(RoomRow)
                .where(RoomRow.id == room_id, RoomRow.finished_at.is_(None))
                .values(settings=settings)
            )

    def room_by_code(self, code: str) -> RoomBrief | None:
        """The table with this short code (any case, spaces around ignored), if any."""
        with self.sessions() as session:
            row = session.scalars(
                select(RoomRow).where(RoomRow.code == code.strip().upper())
            ).first()
            return None if row is None else _brief(row)

    def public_tables(self, limit: int = 100) -> list[RoomRow]:
        """Unfinished public tables, newest first, but for started ones nobody is at (paused):
        what the lobby lists at start-up and whenever another process changed it."""
        with self.sessions() as session:
            return list(
                session.scalars(
                    select(RoomRow)
                    .where(
                        RoomRow.public.is_(True),
                        RoomRow.finished_at.is_(None),
                        or_(RoomRow.status != "playing", RoomRow.paused.is_(False)),
                    )
                    .order_by(RoomRow.created_at.desc())
                    .limit(limit)
                ).all()
            )

    def public_id(self, player_id: str) -> str:
        """The guest's public id (``Player.public_id``), knowing the guest first."""
        with self.engine.begin() as connection:
            _know(connection, player_id)
            return str(
                connection.scalar(select(PLAYERS.c.public_id).where(PLAYERS.c.id == player_id))
            )

    def player_of(self, public_id: str) -> str | None:
        """The player whose public id this is, if any."""
        with self.engine.connect() as connection:
            found = connection.scalar(select(PLAYERS.c.id).where(PLAYERS.c.public_id == public_id))
            return None if found is None else str(found)

    def player_name(self, player_id: str) -> str | None:
        with self.sessions() as session:
            player = session.get(Player, player_id)
            return None if player is None else player.name

    def set_player_name(self, player_id: str, name: str) -> None:
        with self.sessions.begin() as session:
            player = session.get(Player, player_id)
            if player is None:
                session.add(Player(id=player_id, created_at=now(), name=name))
            else:
                player.name = name

    def add_chat(self, room_id: str, line: ChatLine) -> None:
        """Keep a chat line with its room (before anyone sees it, like a move)."""
        with self.sessions.begin() as session:
            session.add(
                RoomChat(
                    room_id=room_id,
                    n=line.n,
                    seat=line.seat,
                    player_id=line.player,
                    name=line.name,
                    text=line.text,
                    stamp=line.stamp,
                    at=line.at,
                )
            )

    def append_event(
        self,
        room_id: str,
        seq: int,
        seat: int | None,
        action: dict[str, Any] | None,
        at: float,
        finish: Finish | None = None,
        standin: str | None = None,
    ) -> None:
        """Log one event now, in a transaction of its own (synchronous; rooms use ``append``);
        with ``finish`` (the event ends the game) mark the room finished and write its results
        in the same transaction, so a crash can never keep the one without the other.
        ``standin``: the level of the stand-in that played it for a person."""
        event = Event(room_id, seq, seat, action, at, finish, standin)
        with self.engine.begin() as connection:
            _write(connection, [event], self.touch_seconds)

    def append(self, event: Event) -> asyncio.Future[None]:
        """Log ``event`` (awaitable, on the event loop): resolved once it is committed, in one
        transaction with every other event that was waiting (``GroupCommit``); raises what
        writing it raised, and then nothing of it was written."""
        return self.events.append(event)

    def write_events(self, events: Sequence[Event]) -> list[BaseException | None]:
        """Write ``events`` (of different rooms) in one transaction; if that fails, each alone,
        so one bad event fails by itself. Answers, per event, None (committed) or its error."""
        EVENT_BATCH_SIZE.observe(len(events))
        started = time.perf_counter()
        try:
            with self.engine.begin() as connection:  # no Session: the writer needs no ORM
                _write(connection, events, self.touch_seconds)
            EVENT_COMMIT_SECONDS.observe(time.perf_counter() - started)
            return [None] * len(events)
        except Exception as error:
            if len(events) == 1:
                return [error]
            reason = str(error).split("\n", 1)[0]  # not its SQL and every row's values
            log.warning("a batch of %d events failed (%s); writing each alone", len(events), reason)
        errors: list[BaseException | None] = []
        for event in events:
            try:
                with self.engine.begin() as connection:
                    _write(connection, [event], self.touch_seconds)
                errors.append(None)
            except Exception as error:
                errors.append(error)
        return errors

    def finish_room(self, room_id: str, finish: Finish) -> bool:
        """Mark a room finished whose log already ends the game (repair after a crash of an
        older version). Idempotent: False, and nothing written, if it is already finished."""
        with self.sessions.begin() as session:
            return _finish(session, room_id, finish)

    def timed_rooms(self, limit: int) -> list[str]:
        """The ids of at most ``limit`` unfinished rooms whose game may wait on its own clock
        (``rooms.timed``), the latest touched first: one query, no log read."""
        with self.engine.connect() as connection:
            return list(
                connection.scalars(
                    select(ROOMS.c.id)
                    .where(ROOMS.c.finished_at.is_(None), ROOMS.c.timed.is_(True))
                    .order_by(ROOMS.c.touched_at.desc(), ROOMS.c.id)
                    .limit(limit)
                )
            )

    def untime(self, room_id: str) -> None:
        """The room's game was found not waiting on its clock: start-up need not look again."""
        with self.engine.begin() as connection:
            connection.execute(update(ROOMS).where(ROOMS.c.id == room_id).values(timed=False))

    def idle_rooms(
        self, games_before: datetime, tables_before: datetime, limit: int
    ) -> list[IdleRoom]:
        """At most ``limit`` unfinished rooms last touched before their cutoff, the longest
        idle first: ``tables_before`` for a started table with two or more people,
        ``games_before`` for every other room (games against the computer, tables not yet
        started). Only unfinished rooms are read (``ix_rooms_unfinished``), a few columns."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(
                    ROOMS.c.id, ROOMS.c.seats, ROOMS.c.status, ROOMS.c.public, ROOMS.c.touched_at
                )
                .where(
                    ROOMS.c.finished_at.is_(None),
                    ROOMS.c.touched_at < max(games_before, tables_before),
                )
                .order_by(ROOMS.c.touched_at, ROOMS.c.id)
            )
            found: list[IdleRoom] = []
            for row in rows:
                before = tables_before if _between_people(row.seats, row.status) else games_before
                if row.touched_at < before:
                    found.append(IdleRoom(row.id, row.public, before))
                    if len(found) == limit:
                        break
            return found

    def reap(self, room: IdleRoom) -> bool:
        """End ``room`` as abandoned (``outcome = {"abandoned": true}``, no result, no replay)
        if it is unfinished and still untouched since its cutoff; whether it was."""
        with self.engine.begin() as connection:
            ended = connection.execute(
                update(ROOMS)
                .where(
                    ROOMS.c.id == room.id,
                    ROOMS.c.finished_at.is_(None),
                    ROOMS.c.touched_at < room.before,
                )
                .values(finished_at=now(), outcome=dict(ABANDONED))
            )
            return bool(ended.rowcount == 1)

    def load_room(self, room_id: str) -> StoredRoom | None:
        with self.sessions() as session:
            row = session.get(RoomRow, room_id)
            if row is None:
                return None
            events = session.scalars(
                select(RoomEvent).where(RoomEvent.room_id == room_id).order_by(RoomEvent.seq)
            ).all()
            hints = session.scalars(
                select(RoomHint)
                .where(RoomHint.room_id == room_id)
                .order_by(RoomHint.seq, RoomHint.seat)
            ).all()
            chat = session.scalars(
                select(RoomChat).where(RoomChat.room_id == room_id).order_by(RoomChat.n)
            ).all()
            return StoredRoom(
                id=row.id,
                game=row.game,
                options=row.options,
                seed=_seed(row),
                seats=row.seats,
                events=[(e.seat, e.action, e.at) for e in events],
                finished=row.finished_at is not None,
                outcome=row.outcome,
                hints=tuple(StoredHint(h.seq, h.seat, h.action, h.at) for h in hints),
                clock_at=row.clock_at,
                status=row.status,
                code=row.code,
                public=row.public,
                host=row.host,
                settings=row.settings,
                standins=tuple(e.standin for e in events),
                chat=tuple(
                    ChatLine(c.n, c.seat, c.player_id, c.name, c.text, c.stamp, c.at) for c in chat
                ),
                created_at=row.created_at,
                paused=row.paused,
            )

    def unfinished_of(self, player_id: str) -> list[str]:
        """The ids of the player's unfinished games, newest first."""
        with self.engine.connect() as connection:
            return [room_id for room_id, _ in _unfinished_of(connection, player_id)]

    def abandon_oldest(self, player_id: str, keep: int, busy: set[str]) -> list[str]:
        """End the player's oldest unfinished games until at most ``keep`` are left, never one
        in ``busy`` (someone is at the table) and never one another person sits at: marked
        finished as abandoned, with no result and no replay. Returns their ids.

        Only the player's own games against the computer can go: a table shared with another
        person is theirs too, and one of its people starting games must not end it for the
        others."""
        with self.engine.begin() as connection:
            mine = _unfinished_of(connection, player_id)
            endable = [
                room_id
                for room_id, seats in reversed(mine)
                if room_id not in busy and alone(seats, player_id)
            ]
            ended = endable[: max(0, len(mine) - keep)]
            if ended:
                connection.execute(
                    update(RoomRow)
                    .where(RoomRow.id.in_(ended), RoomRow.finished_at.is_(None))
                    .values(finished_at=now(), outcome=dict(ABANDONED))
                )
            return ended

    def stop_clock(self, room_id: str, at: float) -> None:
        """Remember the game time at which the room's clock stopped (``server/rooms/clock.py``):
        its last seated person left (or the server stops), which touches it. Nobody is at it
        now: it is ``paused`` (the lobby does not list it as being played)."""
        with self.sessions.begin() as session:
            session.execute(
                update(RoomRow)
                .where(RoomRow.id == room_id)
                .values(clock_at=at, touched_at=now(), paused=True)
            )

    def set_paused(self, room_id: str, paused: bool) -> None:
        """Whether nobody is at the room (``rooms.paused``): false when a person came back and
        its clock runs again; true for a room found listed that nobody is at (its process died
        with people at it)."""
        with self.sessions.begin() as session:
            session.execute(update(RoomRow).where(RoomRow.id == room_id).values(paused=paused))

    def add_hint(self, room_id: str, hint: StoredHint) -> None:
        """Log a hint beside the room's events (before it is shown, like a move)."""
        with self.sessions.begin() as session:
            session.add(
                RoomHint(
                    room_id=room_id,
                    seq=hint.seq,
                    seat=hint.seat,
                    action=hint.action,
                    at=hint.at,
                )
            )

    def lessons_done(self, player_id: str, game: str) -> dict[str, datetime]:
        """The lessons of ``game`` the player finished, and when."""
        with self.sessions() as session:
            rows = session.scalars(
                select(LessonProgress).where(
                    LessonProgress.player_id == player_id, LessonProgress.game == game
                )
            ).all()
            return {row.lesson: row.done_at for row in rows}

    def mark_lesson_done(self, player_id: str, game: str, lesson: str) -> None:
        """Remember a finished lesson (the first time counts; doing it again changes nothing)."""
        self.ensure_player(player_id)
        with contextlib.suppress(IntegrityError), self.sessions.begin() as session:
            # Two tabs finishing the same lesson at once: the second insert loses, harmlessly.
            if session.get(LessonProgress, (player_id, game, lesson)) is None:
                session.add(
                    LessonProgress(player_id=player_id, game=game, lesson=lesson, done_at=now())
                )

    def record_drill(
        self, player_id: str, game: str, summary: dict[str, Any], levels: Sequence[str]
    ) -> None:
        """Keep a finished trainer session's figures where they beat the guest's best:
        ``summary`` as the game's ``drill_summary`` gives it (its own figures and ``kinds``),
        ``levels`` the game's levels weakest first (the stronger level matched is kept)."""
        self.ensure_player(player_id)
        figures = [{**summary, "kind": ALL_KINDS}, *summary["kinds"]]
        rank = {level: index for index, level in enumerate(levels)}
        # Two tabs finishing their first sessions at once: the second insert loses, harmlessly.
        with contextlib.suppress(IntegrityError), self.sessions.begin() as session:
            for entry in figures:
                if not entry["tries"]:
                    continue
                key = (player_id, game, entry["kind"])
                row = session.get(TrainerBest, key, with_for_update=True)
                level = summary.get("level") if entry["kind"] == ALL_KINDS else None
                if row is None:
                    session.add(
                        TrainerBest(
                            player_id=player_id,
                            game=game,
                            kind=entry["kind"],
                            sessions=1,
                            accuracy=entry["accuracy"],
                            seconds=entry["seconds"],
                            level=level,
                            updated_at=now(),
                        )
                    )
                    continue
                row.sessions += 1
                row.accuracy = max(row.accuracy, entry["accuracy"])
                if entry["seconds"] is not None:
                    row.seconds = min(row.seconds or entry["seconds"], entry["seconds"])
                if level is not None and rank.get(level, -1) > rank.get(row.level or "", -1):
                    row.level = level
                row.updated_at = now()

    def drill_bests(self, player_id: str, game: str) -> dict[str, dict[str, Any]]:
        """A guest's best trainer figures in ``game`` by kind ("all": whole sessions)."""
        with self.sessions() as session:
            rows = session.scalars(
                select(TrainerBest).where(
                    TrainerBest.player_id == player_id, TrainerBest.game == game
                )
            ).all()
            return {
                row.kind: {
                    "sessions": row.sessions,
                    "accuracy": row.accuracy,
                    "seconds": row.seconds,
                    "level": row.level,
                }
                for row in rows
            }

    def has_results(self, player_id: str, game: str) -> bool:
        """Whether the guest has finished a game of ``game`` (one indexed read)."""
        with self.sessions() as session:
            found = session.scalar(
                select(Result.id).where(Result.player_id == player_id, Result.game == game).limit(1)
            )
            return found is not None

    def results(self, player_id: str, game: str) -> list[Result]:
        """A player's results in one game, oldest first."""
        with self.sessions() as session:
            return list(
                session.scalars(
                    select(Result)
                    .where(Result.player_id == player_id, Result.game == game)
                    .order_by(Result.finished_at, Result.id)
                ).all()
            )

    def room_seats(self, room_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
        """The seats of these rooms by id (the records' game list names the other players)."""
        if not room_ids:
            return {}
        with self.sessions() as session:
            rows = session.execute(
                select(RoomRow.id, RoomRow.seats).where(RoomRow.id.in_(room_ids))
            ).all()
            return {room_id: seats for room_id, seats in rows}

    def save_review(
        self, room_id: str, seconds: float, moves: list[Any], players: list[Any]
    ) -> None:
        """Keep a finished game's review; a second writer of the same review changes nothing."""
        with self.sessions.begin() as session:
            if session.get(Review, room_id) is None:
                session.add(
                    Review(
                        room_id=room_id,
                        seconds=seconds,
                        moves=moves,
                        players=players,
                        created_at=now(),
                    )
                )

    def load_review(self, room_id: str) -> Review | None:
        with self.sessions() as session:
            return session.get(Review, room_id)

    def reviewed(self, player_id: str, game: str) -> list[tuple[Result, Review]]:
        """A player's results in one game that have a review, each with it."""
        with self.sessions() as session:
            rows = session.execute(
                select(Result, Review)
                .join(Review, Review.room_id == Result.room_id)
                .where(Result.player_id == player_id, Result.game == game)
            ).all()
            return [(result, review) for result, review in rows]

    def player_ratings(self, player_id: str) -> list[PlayerRating]:
        """Every rating the player has, by key (each as of its last game)."""
        with self.sessions() as session:
            return list(
                session.scalars(
                    select(PlayerRating)
                    .where(PlayerRating.player_id == player_id)
                    .order_by(PlayerRating.key)
                ).all()
            )

    def rating_history(self, player_id: str, key: str) -> list[RatingChange]:
        """What each rated game did to the player's rating in ``key``, oldest first."""
        with self.sessions() as session:
            return list(
                session.scalars(
                    select(RatingChange)
                    .where(RatingChange.player_id == player_id, RatingChange.key == key)
                    .order_by(RatingChange.at, RatingChange.room_id)
                ).all()
            )

    def leaderboard(self, key: str, at: datetime, days: float, limit: int) -> list[Leader]:
        """The best ``limit`` established ratings in ``key`` at ``at`` (not provisional, their
        RD grown by the time since: ``core.ratings.decayed``) of players whose last rated game
        is at most ``days`` old, best first."""
        since = at - timedelta(days=days)
        leaders: list[Leader] = []
        with self.sessions() as session:
            rows = session.execute(
                select(PlayerRating, Player.public_id, Player.name)
                .join(Player, Player.id == PlayerRating.player_id)
                .where(
                    PlayerRating.key == key,
                    PlayerRating.updated_at >= since,
                    PlayerRating.rd < PROVISIONAL_RD,
                )
                .order_by(PlayerRating.rating.desc(), Player.public_id)
            )
            for row, public_id, name in rows:
                rating = ratings.now_rating(row, at)
                if not rating.provisional:
                    leaders.append(Leader(row.player_id, public_id, name, rating, row.updated_at))
                    if len(leaders) == limit:
                        break
        return leaders

    def shown_games(self, player_id: str, limit: int) -> list[ShownGame]:
        """The player's newest finished games anyone may see (against the computer, or at a
        public table: never a private table's, which only its people see), each with its rating
        change if it was rated."""
        with self.sessions() as session:
            rows = session.execute(
                select(Result, RoomRow.seats, RatingChange)
                .join(RoomRow, RoomRow.id == Result.room_id)
                .outerjoin(
                    RatingChange,
                    (RatingChange.room_id == Result.room_id)
                    & (RatingChange.player_id == Result.player_id),
                )
                .where(
                    Result.player_id == player_id,
                    # A game against bots has no host (its settings are JSON null, not NULL).
                    or_(RoomRow.host.is_(None), RoomRow.public.is_(True)),
                )
                .order_by(Result.finished_at.desc(), Result.id.desc())
                .limit(limit)
            ).all()
            return [ShownGame(result, seats, change) for result, seats, change in rows]

    def totals(self, player_id: str) -> dict[str, dict[str, int]]:
        """Per game, the player's wins, draws and losses over every finished game."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(RESULTS.c.game, RESULTS.c.result, func.count())
                .where(RESULTS.c.player_id == player_id)
                .group_by(RESULTS.c.game, RESULTS.c.result)
            ).all()
        totals: dict[str, dict[str, int]] = {}
        for game, result, count in rows:
            totals.setdefault(game, {"win": 0, "draw": 0, "loss": 0})[result] = count
        return totals

    def room_brief(self, room_id: str) -> RoomBrief | None:
        """A room's set-up and state without its event log: what a page needs to decide who
        sits where (cheaper than ``load_room`` for a long game)."""
        with self.sessions() as session:
            row = session.get(RoomRow, room_id)
            return None if row is None else _brief(row)

    def unfinished_rooms(self, player_id: str, game: str, limit: int = 20) -> list[RoomBrief]:
        """The player's unfinished rooms of one game, newest first.

        Seats are JSON, so the player is matched here rather than in SQL; the scan covers only
        unfinished rooms of that game (``ix_rooms_unfinished``). A ``room_players`` table would
        index it if abandoned rooms ever pile up.
        """
        with self.sessions() as session:
            rows = session.scalars(
                select(RoomRow)
                .where(RoomRow.finished_at.is_(None), RoomRow.game == game)
                .order_by(RoomRow.created_at.desc())
            ).all()
            mine = [row for row in rows if _holds(row, player_id)][:limit]
            return [
                RoomBrief(
                    row.id, row.game, row.options, row.seats, row.created_at, False, playing=True
                )
                for row in mine
            ]


def _know(connection: Connection, player_id: str) -> bool:
    """Add the guest unless known; whether they were known."""
    known = connection.execute(select(PLAYERS.c.id).where(PLAYERS.c.id == player_id))
    if known.first() is not None:
        return True
    connection.execute(insert(PLAYERS).values(id=player_id, created_at=now()))
    return False


def _unfinished_of(connection: Connection, player_id: str) -> list[tuple[str, Any]]:
    """``(id, seats)`` of the player's unfinished games, newest first. Every new game asks this:
    only the rooms whose seats' text names the player are read (two columns, no ORM objects),
    then matched exactly."""
    rows = connection.execute(
        select(RoomRow.id, RoomRow.seats)
        .where(RoomRow.finished_at.is_(None), mentions(player_id))
        .order_by(RoomRow.created_at.desc(), RoomRow.id)
    ).all()
    return [(room_id, seats) for room_id, seats in rows if seated(seats, player_id)]


def _write(connection: Connection, events: Sequence[Event], touch_seconds: float) -> None:
    """Insert the events' rows (Core: no ORM objects), finish the games they end, and keep
    each room's ``timed`` and ``touched_at`` (``_mark``)."""
    connection.execute(insert(EVENTS), [event.row() for event in events])
    for event in events:
        if event.finish is not None:
            _finish(connection, event.room_id, event.finish)
    _mark(connection, events, touch_seconds)


def _mark(connection: Connection, events: Sequence[Event], touch_seconds: float) -> None:
    """Each room's latest event says whether its game waits on its clock now. A room's row is
    written only when that changed or its ``touched_at`` is older than ``touch_seconds``: at
    most two statements a batch, and a room moving every second rewrites its row about once a
    minute, not with every batch."""
    latest = {event.room_id: event.timed for event in events}
    at = now()
    stale = at - timedelta(seconds=touch_seconds)
    for timed in (True, False):
        # In one order everywhere: two writers' batches never lock two rows the other way round.
        ids = sorted(room_id for room_id, mark in latest.items() if mark is timed)
        if ids:
            connection.execute(
                update(ROOMS)
                .where(
                    ROOMS.c.id.in_(ids),
                    or_(ROOMS.c.timed != timed, ROOMS.c.touched_at < stale),
                )
                .values(timed=timed, touched_at=at)
            )


def _brief(row: RoomRow) -> RoomBrief:
    finished = row.finished_at is not None and row.outcome != ABANDONED
    playing = row.finished_at is None
    private = row.settings is not None and not row.public and not playing
    return RoomBrief(
        row.id, row.game, row.options, row.seats, row.created_at, finished, playing, private
    )


@dataclass(frozen=True)
class Leader:
    """One line of a leaderboard (``Store.leaderboard``)."""

    player_id: str
    """The secret id: only for naming a player without a name (``names.default_name``)."""
    public_id: str
    name: str | None
    rating: Rating
    """As of the board's moment."""
    played_at: datetime
    """Their last rated game in the board's family."""


@dataclass(frozen=True)
class ShownGame:
    """One of a player's finished games on their public profile (``Store.shown_games``)."""

    result: Result
    seats: list[dict[str, Any]]
    change: RatingChange | None
    """What it did to their rating; None for a game that was not rated."""


@dataclass(frozen=True)
class RoomBrief:
    """A room without its log (``Store.room_brief``, ``Store.unfinished_rooms``)."""

    id: str
    game: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    created_at: datetime
    finished: bool
    """Played to its end (an abandoned game is not)."""
    playing: bool
    """Still being played: neither played to its end nor abandoned."""
    kept_private: bool = False
    """A private table no longer being played: seen only by its people (``http/sharing.py``)."""
