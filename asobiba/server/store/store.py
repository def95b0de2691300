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
import json
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, ParamSpec, TypeVar, cast

from sqlalchemy import ColumnElement, String, Table, insert, select, true, update
from sqlalchemy import cast as cast_sql
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from asobiba.core.rng import LegacySeed
from asobiba.server.store.db import (
    LessonProgress,
    Player,
    Result,
    Review,
    RoomChat,
    RoomEvent,
    RoomHint,
    RoomRow,
)

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

    @property
    def abandoned(self) -> bool:
        """Ended because its guest started too many other games (``Store.abandon_oldest``)."""
        return self.outcome is not None and self.outcome.get("abandoned") is True

    def resume_at(self) -> float | None:
        """The game time a rebuilt room's clock continues from: where it was stopped, or the
        latest event if the process died first (a wait then gets back at least what it had
        left). The latest, not the last: an action dated back by its sender's line may be logged
        after one with a later time."""
        known = [at for _, _, at in self.events]
        if self.clock_at is not None:
            known.append(self.clock_at)
        return max(known, default=None)

    @property
    def stood_in(self) -> bool:
        """A stand-in played at least one of the logged events (its results carry the mark)."""
        return any(level is not None for level in self.standins)

    def hints_per_seat(self) -> list[int]:
        return [
            sum(1 for hint in self.hints if hint.seat == seat) for seat in range(len(self.seats))
        ]


@dataclass(frozen=True)
class Finish:
    """What the end of a game writes: the room's outcome and one result per person."""

    outcome: dict[str, Any]
    results: list[Result]


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
    return _seated(row.seats, player_id)


def _seated(seats: list[dict[str, Any]], player_id: str) -> bool:
    return any(seat.get("player") == player_id for seat in seats)


def _names(player_id: str) -> ColumnElement[bool]:
    """Rooms whose stored seats mention ``player_id`` anywhere (a cheap filter in SQL on the
    JSON's text; ``_seated`` then matches exactly). An id that JSON would escape is not looked
    for in the text: then every room passes."""
    if json.dumps(player_id) != f'"{player_id}"':
        return true()
    return cast_sql(RoomRow.seats, String).contains(player_id, autoescape=True)


def _seed(row: RoomRow) -> int:
    """The room's seed as its game takes it: a room dealt before keyed streams is marked, so it
    deals again exactly as it did."""
    seed = int(row.seed)
    return LegacySeed(seed) if row.rng == "mt19937" else seed


def now() -> datetime:
    return datetime.now(UTC)


def _finish(session: Session | Connection, room_id: str, finish: Finish) -> bool:
    """Set the room's outcome and add its results, unless another writer already did.

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
    return True


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


class Store:
    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions
        self.engine: Engine = sessions.kw["bind"]
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
    ) -> None:
        """Store a new room. A table's ``code`` is unique: a clash raises ``IntegrityError``
        (the caller draws another)."""
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
                    created_at=now(),
                    finished_at=None,
                    outcome=None,
                    clock_at=None,
                    status=status,
                    code=code,
                    public=public,
                    host=host,
                    settings=settings,
                )
            )

    def update_table(
        self,
        room_id: str,
        seats: list[dict[str, Any]],
        status: str,
        settings: dict[str, Any] | None,
    ) -> None:
        """A waiting table's seats changed (a person joined or left, a seat was removed), or it
        started (``status`` "playing", its final seats and ``settings.started_at``). Only a
        waiting table changes: a started one's seats are fixed with its log."""
        with self.sessions.begin() as session:
            changed = session.execute(
                update(RoomRow)
                .where(RoomRow.id == room_id, RoomRow.status == "waiting")
                .values(seats=seats, status=status, settings=settings)
            )
            if changed.rowcount != 1:  # type: ignore[attr-defined]
                raise RuntimeError(f"room {room_id} is not a waiting table")

    def close_table(self, room_id: str) -> None:
        """The host left a table before it started: it ends unplayed, like an abandoned game."""
        with self.sessions.begin() as session:
            session.execute(
                update(RoomRow)
                .where(RoomRow.id == room_id, RoomRow.finished_at.is_(None))
                .values(finished_at=now(), outcome=dict(ABANDONED))
            )

    def room_by_code(self, code: str) -> RoomBrief | None:
        """The table with this short code (any case, spaces around ignored), if any."""
        with self.sessions() as session:
            row = session.scalars(
                select(RoomRow).where(RoomRow.code == code.strip().upper())
            ).first()
            return None if row is None else _brief(row)

    def public_tables(self, limit: int = 100) -> list[RoomRow]:
        """Unfinished public tables, newest first: what the lobby lists at start-up."""
        with self.sessions() as session:
            return list(
                session.scalars(
                    select(RoomRow)
                    .where(RoomRow.public.is_(True), RoomRow.finished_at.is_(None))
                    .order_by(RoomRow.created_at.desc())
                    .limit(limit)
                ).all()
            )

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
            _write(connection, [event])

    def append(self, event: Event) -> asyncio.Future[None]:
        """Log ``event`` (awaitable, on the event loop): resolved once it is committed, in one
        transaction with every other event that was waiting (``GroupCommit``); raises what
        writing it raised, and then nothing of it was written."""
        return self.events.append(event)

    def write_events(self, events: Sequence[Event]) -> list[BaseException | None]:
        """Write ``events`` (of different rooms) in one transaction; if that fails, each alone,
        so one bad event fails by itself. Answers, per event, None (committed) or its error."""
        try:
            with self.engine.begin() as connection:  # no Session: the writer needs no ORM
                _write(connection, events)
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
                    _write(connection, [event])
                errors.append(None)
            except Exception as error:
                errors.append(error)
        return errors

    def finish_room(self, room_id: str, finish: Finish) -> bool:
        """Mark a room finished whose log already ends the game (repair after a crash of an
        older version). Idempotent: False, and nothing written, if it is already finished."""
        with self.sessions.begin() as session:
            return _finish(session, room_id, finish)

    def unfinished_room_ids(self) -> list[str]:
        with self.sessions() as session:
            return list(session.scalars(select(RoomRow.id).where(RoomRow.finished_at.is_(None))))

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
            )

    def unfinished_of(self, player_id: str) -> list[str]:
        """The ids of the player's unfinished games, newest first."""
        with self.engine.connect() as connection:
            return [room_id for room_id, _ in _unfinished_of(connection, player_id)]

    def abandon_oldest(self, player_id: str, keep: int, busy: set[str]) -> list[str]:
        """End the player's oldest unfinished games until at most ``keep`` are left, never one
        in ``busy`` (someone is at the table): marked finished as abandoned, with no result and
        no replay. Returns their ids."""
        with self.engine.begin() as connection:
            mine = [room_id for room_id, _ in _unfinished_of(connection, player_id)]
            nobody_there = [room_id for room_id in reversed(mine) if room_id not in busy]
            ended = nobody_there[: max(0, len(mine) - keep)]
            if ended:
                connection.execute(
                    update(RoomRow)
                    .where(RoomRow.id.in_(ended), RoomRow.finished_at.is_(None))
                    .values(finished_at=now(), outcome=dict(ABANDONED))
                )
            return ended

    def stop_clock(self, room_id: str, at: float) -> None:
        """Remember the game time at which the room's clock stopped (``server/rooms/clock.py``)."""
        with self.sessions.begin() as session:
            session.execute(update(RoomRow).where(RoomRow.id == room_id).values(clock_at=at))

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
        .where(RoomRow.finished_at.is_(None), _names(player_id))
        .order_by(RoomRow.created_at.desc(), RoomRow.id)
    ).all()
    return [(room_id, seats) for room_id, seats in rows if _seated(seats, player_id)]


def _write(connection: Connection, events: Sequence[Event]) -> None:
    """Insert the events' rows (Core: no ORM objects) and finish the games they end."""
    connection.execute(insert(EVENTS), [event.row() for event in events])
    for event in events:
        if event.finish is not None:
            _finish(connection, event.room_id, event.finish)


def _brief(row: RoomRow) -> RoomBrief:
    finished = row.finished_at is not None and row.outcome != ABANDONED
    playing = row.finished_at is None
    return RoomBrief(row.id, row.game, row.options, row.seats, row.created_at, finished, playing)


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
