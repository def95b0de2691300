"""What the site holds about a person, table by table: their export and their erasure.

**Export** (``Store.export_player``, ``GET /api/players/{id}/export``): one section per table
that holds something about a person, from ``SECTIONS``, a registry keyed by table name. A
section's exporter gets a ``Subject`` (the person and a connection in one read transaction) and
answers JSON-safe data. Adding a table that refers to ``players.id`` is one line here::

    register("ratings", "ratings")  # every row whose foreign key is the person, as it is
    register("account_sessions", "sessions", omit=("token_hash",))  # leave a secret out

``rows`` finds the table's foreign key to ``players.id`` by itself and leaves that column out
(the secret id never leaves the site). A table that names people another way (a column of
guest ids without a foreign key, or seats in JSON) marks that column with
``info={"player_ids": True}`` in ``db.py`` and registers an exporter of its own; every other
JSON column and every column as wide as a player id says ``info={"player_ids": False}``.
``tests/server/test_personal_data.py`` reads the metadata and fails while a table with a
foreign key to ``players.id`` or a column marked ``True`` has no section, or while such a
column is not marked at all.

What a section never holds: the person's secret id, another person's id, the seed, or any
other seat's hidden cards. A game is listed with its seats as the person may see them (names
and bots' levels), the outcome once it is finished (the replay shows it to anyone then), and
the person's own moves only.

**Erasure** (``Store.erase_player``, the store's part of ``DELETE /api/account``), in one
transaction: every room that no other person sat in goes with its log, hints, chat and review
(it was the person's alone); in every other room the person's seat becomes ``DELETED_SEAT`` and
the hints they took there go, and they stop being its host; every chat line they wrote goes
(anywhere, as a player or a spectator); then every row of a table with a foreign key to
``players.id`` (read from the metadata, so a new table needs no line here; those declared
``ON DELETE CASCADE`` would go anyway) and last the ``players`` row. The rooms those rooms'
foreign keys name are found the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any, cast

from sqlalchemy import Column, Row, Table, delete, or_, select, update
from sqlalchemy.engine import Connection

from asobiba.server.store.db import (
    Base,
    Player,
    Review,
    RoomChat,
    RoomEvent,
    RoomHint,
    RoomRow,
)
from asobiba.server.store.seats import alone, forget, is_deleted, mentions, seated

PLAYERS = cast(Table, Player.__table__)
ROOMS = cast(Table, RoomRow.__table__)
CHUNK = 500
"""Room ids per ``IN (...)`` list (SQLite takes a limited number of parameters)."""


def _plain(value: Any) -> Any:
    """A column's value as JSON takes it (times in ISO 8601, UTC)."""
    return value.isoformat() if isinstance(value, datetime) else value


def _chunks(ids: Sequence[str]) -> Iterator[Sequence[str]]:
    for start in range(0, len(ids), CHUNK):
        yield ids[start : start + CHUNK]


@dataclass
class Subject:
    """The person being exported, and the connection every section reads through."""

    connection: Connection
    id: str
    """Their secret id (the cookie's): what the tables are searched by, never written out."""

    @cached_property
    def rooms(self) -> list[Row[Any]]:
        """Every room they sat in (waiting, played, finished or abandoned), oldest first."""
        found = self.connection.execute(
            select(ROOMS).where(mentions(self.id)).order_by(ROOMS.c.created_at, ROOMS.c.id)
        ).all()
        return [room for room in found if seated(room.seats, self.id)]

    @cached_property
    def seat_in(self) -> dict[str, int]:
        """Their seat in each of their rooms, by room id."""
        return {
            room.id: next(k for k, spec in enumerate(room.seats) if spec.get("player") == self.id)
            for room in self.rooms
        }

    def own(self, table: Table, extra: Sequence[Any] = ()) -> list[Row[Any]]:
        """The rows of ``table`` (with a ``room_id`` and a ``seat``) at their seat in their
        rooms, in the order of ``extra``'s columns."""
        rows: list[Row[Any]] = []
        for ids in _chunks(list(self.seat_in)):
            rows += self.connection.execute(
                select(table).where(table.c.room_id.in_(ids)).order_by(*extra)
            ).all()
        return [row for row in rows if self.seat_in.get(row.room_id) == row.seat]


Exporter = Callable[[Subject], Any]


@dataclass(frozen=True)
class Section:
    table: str
    """The table it exports (the registry's key; the test matches the metadata against it)."""
    name: str
    """Its key in the export."""
    export: Exporter = field(compare=False)


SECTIONS: dict[str, Section] = {}
"""Every table that holds something about a person, in the export's order."""


def register(
    table: str, name: str, export: Exporter | None = None, *, omit: Sequence[str] = ()
) -> None:
    """Export ``table`` as the section ``name``: with ``export``, or else every row whose
    foreign key to ``players.id`` is the person (``rows``, leaving ``omit`` out)."""
    SECTIONS[table] = Section(table, name, export or rows(table, omit=omit))


def player_key(table: Table) -> Column[Any] | None:
    """The column of ``table`` that is a foreign key to ``players.id``, if any."""
    for key in table.foreign_keys:
        if key.column is PLAYERS.c.id:
            return key.parent
    return None


def rows(table_name: str, *, omit: Sequence[str] = (), key: str | None = None) -> Exporter:
    """Every row of ``table_name`` whose ``key`` (default: its foreign key to ``players.id``)
    is the person, with every column but that one and ``omit``, in primary-key order."""

    def export(subject: Subject) -> list[dict[str, Any]]:
        table = Base.metadata.tables[table_name]
        column = table.c[key] if key is not None else player_key(table)
        if column is None:
            raise LookupError(f"{table_name} has no foreign key to players.id: name its key")
        shown = [c for c in table.columns if c is not column and c.key not in omit]
        found = subject.connection.execute(
            select(*shown).where(column == subject.id).order_by(*table.primary_key.columns)
        )
        return [{c.key: _plain(v) for c, v in zip(shown, row, strict=True)} for row in found]

    return export


def export(connection: Connection, player_id: str) -> dict[str, Any]:
    """Every section of the person's export (``SECTIONS``), in order."""
    subject = Subject(connection, player_id)
    return {section.name: section.export(subject) for section in SECTIONS.values()}


# --- the sections ---------------------------------------------------------------------------


def _player(subject: Subject) -> dict[str, Any] | None:
    """Their name, their public id and when they first came: never the cookie's secret id."""
    row = subject.connection.execute(
        select(PLAYERS.c.public_id, PLAYERS.c.name, PLAYERS.c.created_at).where(
            PLAYERS.c.id == subject.id
        )
    ).first()
    if row is None:
        return None
    return {"id": row.public_id, "name": row.name, "created_at": _plain(row.created_at)}


def shown_seat(spec: dict[str, Any], yours: bool) -> dict[str, Any]:
    """A seat as its person may see it: names and bots' levels, never anyone's id."""
    if yours:
        return {"kind": "you", "name": spec.get("name")}
    if "bot" in spec:
        return {"kind": "bot", "level": spec["bot"]}
    if spec.get("open"):
        return {"kind": "open"}
    if is_deleted(spec):
        return {"kind": "deleted"}
    return {"kind": "human", "name": spec.get("name")}


def _status(room: Row[Any]) -> str:
    if room.finished_at is None:
        return str(room.status)  # "waiting" (a table taking its seats) or "playing"
    return "abandoned" if room.outcome == {"abandoned": True} else "finished"


def _games(subject: Subject) -> list[dict[str, Any]]:
    """Every game they sat in: its set-up, the seats as they may see them, its outcome once
    finished (public then: the replay shows it), and their own moves (``moves``: event number,
    action, game time, the stand-in's level where one played it for them). Another seat's moves
    are not listed: a hidden card or a secret answer may be in them; the seed is never read."""
    events = cast(Table, RoomEvent.__table__)
    moves: dict[str, list[dict[str, Any]]] = {room.id: [] for room in subject.rooms}
    for row in subject.own(events, [events.c.room_id, events.c.seq]):
        moves[row.room_id].append(
            {"n": row.seq, "action": row.action, "at": row.at, "standin": row.standin}
        )
    listed = []
    for room in subject.rooms:
        seat = subject.seat_in[room.id]
        status = _status(room)
        listed.append(
            {
                "room_id": room.id,
                "game": room.game,
                "options": room.options,
                "status": status,
                "table": room.settings is not None,
                "public": room.public,
                "created_at": _plain(room.created_at),
                "finished_at": _plain(room.finished_at),
                "seat": seat,
                "seats": [shown_seat(spec, k == seat) for k, spec in enumerate(room.seats)],
                "outcome": room.outcome if status == "finished" else None,
                "replay": f"/replay/{room.id}" if status == "finished" else None,
                "moves": moves[room.id],
            }
        )
    return listed


def _hints(subject: Subject) -> list[dict[str, Any]]:
    """The hints they took: room, after how many events, the move it showed, when."""
    hints = cast(Table, RoomHint.__table__)
    return [
        {"room_id": row.room_id, "seq": row.seq, "action": row.action, "at": row.at}
        for row in subject.own(hints, [hints.c.room_id, hints.c.seq])
    ]


def _reviews(subject: Subject) -> list[dict[str, Any]]:
    """The reviews of games they sat in: their own summary and their own reviewed moves."""
    reviews = cast(Table, Review.__table__)
    found: list[dict[str, Any]] = []
    for ids in _chunks(list(subject.seat_in)):
        for row in subject.connection.execute(
            select(reviews).where(reviews.c.room_id.in_(ids)).order_by(reviews.c.room_id)
        ):
            seat = subject.seat_in[row.room_id]
            found.append(
                {
                    "room_id": row.room_id,
                    "seat": seat,
                    "seconds": row.seconds,
                    "created_at": _plain(row.created_at),
                    "summary": next((p for p in row.players if p.get("seat") == seat), None),
                    "moves": [move for move in row.moves if move.get("seat") == seat],
                }
            )
    return found


register("players", "player", _player)
register("rooms", "games", _games)
register("results", "results", omit=("id",))
register("room_chat", "chat", rows("room_chat", key="player_id"))
register("room_hints", "hints", _hints)
register("reviews", "reviews", _reviews)
register("lesson_progress", "lessons")
register("accounts", "account", omit=("password_hash",))  # never the password's hash
register("account_sessions", "sessions", omit=("id",))  # no session key, even hashed
register("passkeys", "passkeys", omit=("public_key",))  # bytes that tell a person nothing
register("trainer_bests", "trainer")
register("ratings", "ratings")
register("rating_changes", "rating_changes")


# --- erasure --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Erased:
    """What an erasure did (``DELETE /api/account`` answers it)."""

    rooms_deleted: int
    """Rooms nobody else sat in, gone with their logs."""
    rooms_kept: int
    """Rooms other people sat in, where the seat is a deleted player's now."""
    chat_lines: int
    """Chat lines of theirs removed."""


def _referring(target: Column[Any]) -> list[tuple[Table, Column[Any]]]:
    """Every (table, column) with a foreign key to ``target``, dependents before what they
    refer to (the metadata's order, reversed)."""
    found = []
    for table in reversed(Base.metadata.sorted_tables):
        for key in table.foreign_keys:
            if key.column is target:
                found.append((table, cast(Column[Any], key.parent)))
    return found


def delete_rooms(connection: Connection, room_ids: Sequence[str]) -> None:
    """Delete these rooms and every row that refers to them (their log, hints, chat, review,
    results, and whatever a later table keeps per room)."""
    for ids in _chunks(room_ids):
        for table, column in _referring(ROOMS.c.id):
            connection.execute(delete(table).where(column.in_(ids)))
        connection.execute(delete(ROOMS).where(ROOMS.c.id.in_(ids)))


def erase(connection: Connection, player_id: str) -> Erased:
    """Erase the person (see the module's note), in the caller's transaction."""
    hints = cast(Table, RoomHint.__table__)
    chat = cast(Table, RoomChat.__table__)
    found = connection.execute(
        select(ROOMS.c.id, ROOMS.c.seats, ROOMS.c.host).where(
            or_(mentions(player_id), ROOMS.c.host == player_id)
        )
    ).all()
    gone: list[str] = []
    kept = 0
    for room in found:
        if not seated(room.seats, player_id):
            if room.host == player_id:
                connection.execute(update(ROOMS).where(ROOMS.c.id == room.id).values(host=None))
            continue
        if alone(room.seats, player_id):
            gone.append(room.id)
            continue
        kept += 1
        theirs = [k for k, spec in enumerate(room.seats) if spec.get("player") == player_id]
        host = None if room.host == player_id else room.host
        connection.execute(
            update(ROOMS)
            .where(ROOMS.c.id == room.id)
            .values(seats=forget(room.seats, player_id), host=host)
        )
        connection.execute(
            delete(hints).where(hints.c.room_id == room.id, hints.c.seat.in_(theirs))
        )
    lines = connection.execute(delete(chat).where(chat.c.player_id == player_id))
    delete_rooms(connection, gone)
    for table, column in _referring(PLAYERS.c.id):
        connection.execute(delete(table).where(column == player_id))
    connection.execute(delete(PLAYERS).where(PLAYERS.c.id == player_id))
    return Erased(len(gone), kept, int(lines.rowcount))
