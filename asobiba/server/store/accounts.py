"""Accounts and their signed-in browsers, and moving a guest's history into an account.

A guest who keeps their games becomes an account under the same player id, so nothing moves.
Signing in on a device where a guest played moves that guest's rows to the account
(``merge``): results, seats and host of rooms, chat lines, finished lessons, the name. Rooms
held in memory by a process are moved by that process, under the room's lock
(``adopt_room``, called by ``Room.adopt``; ``Hub.adopt`` finds them first).

Synchronous SQLAlchemy, called off the event loop like ``Store``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import cast

from sqlalchemy import Table, delete, exists, func, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from asobiba.games import get_game
from asobiba.server.store.db import (
    Account,
    AccountSession,
    LessonProgress,
    Player,
    PlayerRating,
    RatingChange,
    Result,
    RoomChat,
    RoomRow,
    TrainerBest,
)
from asobiba.server.store.seats import mentions, seated

ACCOUNTS = cast(Table, Account.__table__)
SESSIONS = cast(Table, AccountSession.__table__)
PLAYERS = cast(Table, Player.__table__)
ROOMS = cast(Table, RoomRow.__table__)
RESULTS = cast(Table, Result.__table__)
CHAT = cast(Table, RoomChat.__table__)
LESSONS = cast(Table, LessonProgress.__table__)

SEEN_SECONDS = 300.0
"""How stale a session's ``seen_at`` may grow before a request writes it again: the list of
sessions says when each was last used to within five minutes, and a busy browser writes its
row once in that time, not with every request."""


class NameTaken(Exception):
    """Another account has this username (folded: "Aki" and "ａｋｉ" are one)."""


class AlreadyAccount(Exception):
    """This player has an account already."""


def token_hash(token: str) -> str:
    """What ``account_sessions.id`` keeps of a session's token: its SHA-256 in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def public_session_id(key: str) -> str:
    """The id a session is listed and revoked by (``GET /api/sessions``): derived one way from
    its key, so neither the token nor the key is ever sent to a page."""
    return hashlib.sha256(b"asobiba session " + key.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class SignedIn:
    """A valid session: its key (``token_hash``), its account's player id and username."""

    session: str
    player: str
    username: str


@dataclass(frozen=True)
class Credentials:
    player: str
    username: str
    password_hash: str | None


@dataclass(frozen=True)
class SessionRow:
    key: str
    label: str
    created_at: datetime
    seen_at: datetime

    @property
    def public_id(self) -> str:
        return public_session_id(self.key)


@dataclass(frozen=True)
class Merged:
    """What ``merge`` moved from a guest to an account."""

    rooms: int
    results: int
    lessons: int
    left: tuple[str, ...]
    """Rooms left to the guest: the account sits there too (a person holds one seat at a
    table), or the room was being played elsewhere and could not be reached."""


class Accounts:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # --- accounts ------------------------------------------------------------------------------

    def create(self, player_id: str, username: str, folded: str, password_hash: str | None) -> None:
        """Make ``player_id`` (known or not) an account named ``username``, unique as
        ``folded`` (``social.names.fold_name``: the caller folds, the store knows no name
        rules). Raises ``AlreadyAccount`` or ``NameTaken``; then nothing is written."""
        try:
            with self.engine.begin() as connection:
                insert_account(connection, player_id, username, folded, password_hash)
        except IntegrityError:
            # Two requests at once: whichever lost finds why in the rows the winner wrote.
            with self.engine.connect() as connection:
                if _has_account(connection, player_id):
                    raise AlreadyAccount(player_id) from None
            raise NameTaken(username) from None

    def credentials(self, folded: str) -> Credentials | None:
        """The account whose username folds to ``folded``, if any."""
        with self.engine.connect() as connection:
            row = connection.execute(
                select(ACCOUNTS.c.player_id, ACCOUNTS.c.username, ACCOUNTS.c.password_hash).where(
                    ACCOUNTS.c.folded == folded
                )
            ).first()
            return None if row is None else Credentials(*row)

    def username(self, player_id: str) -> str | None:
        """The account's username, or None for a guest."""
        with self.engine.connect() as connection:
            found = connection.scalar(
                select(ACCOUNTS.c.username).where(ACCOUNTS.c.player_id == player_id)
            )
            return None if found is None else str(found)

    def is_account(self, player_id: str) -> bool:
        with self.engine.connect() as connection:
            return _has_account(connection, player_id)

    def set_password_hash(self, player_id: str, password_hash: str) -> None:
        """A new hash of the same password (its parameters were raised: ``check_needs_rehash``)."""
        with self.engine.begin() as connection:
            connection.execute(
                update(ACCOUNTS)
                .where(ACCOUNTS.c.player_id == player_id)
                .values(password_hash=password_hash)
            )

    # --- sessions ------------------------------------------------------------------------------

    def start_session(self, player_id: str, key: str, label: str) -> None:
        """A browser signed in: ``key`` is its token's ``token_hash``."""
        at = now()
        with self.engine.begin() as connection:
            connection.execute(
                insert(SESSIONS).values(
                    id=key,
                    player_id=player_id,
                    created_at=at,
                    seen_at=at,
                    label=label[:64],
                    revoked_at=None,
                )
            )

    def signed_in(self, key: str) -> SignedIn | None:
        """The session with this key if it is still signed in (never revoked, its account
        still there); its ``seen_at`` is written when older than ``SEEN_SECONDS``."""
        with self.engine.connect() as connection:
            row = connection.execute(
                select(SESSIONS.c.player_id, SESSIONS.c.seen_at, ACCOUNTS.c.username)
                .join(ACCOUNTS, ACCOUNTS.c.player_id == SESSIONS.c.player_id)
                .where(SESSIONS.c.id == key, SESSIONS.c.revoked_at.is_(None))
            ).first()
        if row is None:
            return None
        at = now()
        if row.seen_at < at - timedelta(seconds=SEEN_SECONDS):
            with self.engine.begin() as connection:
                connection.execute(update(SESSIONS).where(SESSIONS.c.id == key).values(seen_at=at))
        return SignedIn(key, str(row.player_id), str(row.username))

    def sessions(self, player_id: str) -> list[SessionRow]:
        """The account's signed-in sessions, the latest seen first."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(SESSIONS.c.id, SESSIONS.c.label, SESSIONS.c.created_at, SESSIONS.c.seen_at)
                .where(SESSIONS.c.player_id == player_id, SESSIONS.c.revoked_at.is_(None))
                .order_by(SESSIONS.c.seen_at.desc(), SESSIONS.c.id)
            ).all()
            return [SessionRow(row.id, row.label, row.created_at, row.seen_at) for row in rows]

    def revoke(self, player_id: str, key: str) -> bool:
        """Sign the session with this key out (it must be the account's); whether it was
        signed in."""
        with self.engine.begin() as connection:
            done = connection.execute(
                update(SESSIONS)
                .where(
                    SESSIONS.c.id == key,
                    SESSIONS.c.player_id == player_id,
                    SESSIONS.c.revoked_at.is_(None),
                )
                .values(revoked_at=now())
            )
            return bool(done.rowcount == 1)

    def revoke_listed(self, player_id: str, public_id: str) -> str | None:
        """Sign out the account's session listed as ``public_id``; its key, or None when the
        account has no such session signed in."""
        for row in self.sessions(player_id):
            if row.public_id == public_id and self.revoke(player_id, row.key):
                return row.key
        return None

    # --- a guest's history ---------------------------------------------------------------------

    def is_known(self, player_id: str) -> bool:
        """Whether the store holds anything of this player (its ``players`` row: every row
        naming a guest is written after it)."""
        with self.engine.connect() as connection:
            found = connection.scalar(select(PLAYERS.c.id).where(PLAYERS.c.id == player_id))
            return found is not None

    def rooms_naming(self, player_id: str) -> list[tuple[str, bool]]:
        """``(id, finished)`` of every room ``player_id`` sits at (read as ``Store`` finds a
        guest's games: a filter on the seats' text, then matched exactly)."""
        with self.engine.connect() as connection:
            return _rooms_naming(connection, player_id)

    def adopt_room(self, room_id: str, guest: str, account: str) -> bool:
        """Make ``guest``'s seat, hosting and chat lines at one room, and its results there,
        the account's, in one transaction. Not where the account sits too (a person holds one
        seat at a table): False, and nothing changes. The room's own process calls it, under
        the room's lock (``Room.adopt``), or a process holding its lease."""
        with self.engine.begin() as connection:
            return _adopt_room(connection, room_id, guest, account)

    def merge(self, guest: str, account: str, left: frozenset[str] = frozenset()) -> Merged:
        """Move everything stored of ``guest`` (a guest without an account) to ``account``,
        in one transaction: the seats, hosting, chat lines and results of its finished rooms
        (its unfinished ones were moved by their processes first, ``Hub.adopt``; any still
        naming the guest are left to it), its spectator chat lines, its finished lessons (on a
        clash the earlier finish stays), its best trainer figures (the better of each stays), its
        ratings (on a clash the one of more games stays) with their history, and its name when
        the account has none. Rows of the
        rooms in ``left`` stay the guest's. The guest's player row goes once nothing names
        it."""
        with self.engine.begin() as connection:
            had = _count_results(connection, guest)
            kept = set(left)
            moved = 0
            for room_id, finished in _rooms_naming(connection, guest):
                if room_id in kept:
                    continue
                if finished and _adopt_room(connection, room_id, guest, account):
                    moved += 1
                else:
                    kept.add(room_id)
            connection.execute(
                update(RESULTS)
                .where(RESULTS.c.player_id == guest, RESULTS.c.room_id.not_in(sorted(kept)))
                .values(player_id=account)
            )
            results = had - _count_results(connection, guest)
            connection.execute(
                update(CHAT)
                .where(CHAT.c.player_id == guest, CHAT.c.room_id.not_in(sorted(kept)))
                .values(player_id=account)
            )
            lessons = _merge_lessons(connection, guest, account)
            _merge_trainer_bests(connection, guest, account)
            _merge_ratings(connection, guest, account, kept)
            names = dict(
                connection.execute(
                    select(PLAYERS.c.id, PLAYERS.c.name).where(PLAYERS.c.id.in_([guest, account]))
                ).all()
            )
            if names.get(account) is None and names.get(guest) is not None:
                connection.execute(
                    update(PLAYERS).where(PLAYERS.c.id == account).values(name=names[guest])
                )
            if not kept:
                connection.execute(delete(PLAYERS).where(PLAYERS.c.id == guest))
            return Merged(moved, results, lessons, tuple(sorted(kept)))


def now() -> datetime:
    return datetime.now(UTC)


def insert_account(
    connection: Connection, player_id: str, username: str, folded: str, password_hash: str | None
) -> None:
    """``Accounts.create``'s writes, in the caller's transaction (a passkey's account is made
    with its first passkey: ``store/passkeys.py``). Raises ``AlreadyAccount``; a name taken
    meanwhile fails the transaction's commit or this insert (``IntegrityError``)."""
    _know(connection, player_id)
    if _has_account(connection, player_id):
        raise AlreadyAccount(player_id)
    connection.execute(
        insert(ACCOUNTS).values(
            player_id=player_id,
            username=username,
            folded=folded,
            password_hash=password_hash,
            created_at=now(),
        )
    )


def _know(connection: Connection, player_id: str) -> None:
    if connection.scalar(select(PLAYERS.c.id).where(PLAYERS.c.id == player_id)) is None:
        connection.execute(insert(PLAYERS).values(id=player_id, created_at=now()))


def _has_account(connection: Connection, player_id: str) -> bool:
    return bool(connection.scalar(select(exists().where(ACCOUNTS.c.player_id == player_id))))


def _count_results(connection: Connection, player_id: str) -> int:
    return int(connection.scalar(select(func.count()).where(RESULTS.c.player_id == player_id)) or 0)


def _rooms_naming(connection: Connection, player_id: str) -> list[tuple[str, bool]]:
    rows = connection.execute(
        select(ROOMS.c.id, ROOMS.c.seats, ROOMS.c.finished_at, ROOMS.c.host).where(
            or_(mentions(player_id), ROOMS.c.host == player_id)
        )
    ).all()
    return [
        (row.id, row.finished_at is not None)
        for row in rows
        if seated(row.seats, player_id) or row.host == player_id
    ]


def _adopt_room(connection: Connection, room_id: str, guest: str, account: str) -> bool:
    row = connection.execute(
        select(ROOMS.c.seats, ROOMS.c.host).where(ROOMS.c.id == room_id)
    ).first()
    if row is None or seated(row.seats, account):
        return False
    seats = [
        {**seat, "player": account} if seat.get("player") == guest else seat for seat in row.seats
    ]
    host = account if row.host == guest else row.host
    connection.execute(update(ROOMS).where(ROOMS.c.id == room_id).values(seats=seats, host=host))
    connection.execute(
        update(CHAT)
        .where(CHAT.c.room_id == room_id, CHAT.c.player_id == guest)
        .values(player_id=account)
    )
    connection.execute(
        update(RESULTS)
        .where(RESULTS.c.room_id == room_id, RESULTS.c.player_id == guest)
        .values(player_id=account)
    )
    return True


def _merge_ratings(connection: Connection, guest: str, account: str, kept: set[str]) -> None:
    """The guest's ratings become the account's: a rule family only the guest was rated in
    moves; one both were rated in keeps the rating of more games (two ratings of one person
    cannot be combined: each already counts its own games). The history of the games moved
    goes with them."""
    ratings = cast(Table, PlayerRating.__table__)
    changes = cast(Table, RatingChange.__table__)
    games = dict(
        connection.execute(
            select(ratings.c.key, ratings.c.games).where(ratings.c.player_id == account)
        ).all()
    )
    for key, count in connection.execute(
        select(ratings.c.key, ratings.c.games).where(ratings.c.player_id == guest)
    ).all():
        if key in games and games[key] >= count:
            continue
        connection.execute(
            delete(ratings).where(ratings.c.player_id == account, ratings.c.key == key)
        )
        connection.execute(
            update(ratings)
            .where(ratings.c.player_id == guest, ratings.c.key == key)
            .values(player_id=account)
        )
    connection.execute(delete(ratings).where(ratings.c.player_id == guest))
    connection.execute(
        update(changes)
        .where(changes.c.player_id == guest, changes.c.room_id.not_in(sorted(kept)))
        .values(player_id=account)
    )


def _merge_trainer_bests(connection: Connection, guest: str, account: str) -> None:
    """The guest's best trainer figures join the account's: one the account lacks moves; one
    both have keeps the better of each figure (sessions summed, the higher accuracy, the lower
    mean time, the stronger level matched, by the game's levels, weakest first)."""
    table = cast(Table, TrainerBest.__table__)
    mine = {
        (row.game, row.kind): row
        for row in connection.execute(select(table).where(table.c.player_id == account))
    }
    for row in connection.execute(select(table).where(table.c.player_id == guest)).all():
        kept = mine.get((row.game, row.kind))
        if kept is None:
            connection.execute(
                update(table)
                .where(
                    table.c.player_id == guest, table.c.game == row.game, table.c.kind == row.kind
                )
                .values(player_id=account)
            )
            continue
        rank = {level: index for index, level in enumerate(get_game(row.game).levels)}
        stronger = max(
            (level for level in (kept.level, row.level) if level is not None),
            key=lambda level: rank.get(level, -1),
            default=None,
        )
        times = [seconds for seconds in (kept.seconds, row.seconds) if seconds is not None]
        connection.execute(
            update(table)
            .where(table.c.player_id == account, table.c.game == row.game, table.c.kind == row.kind)
            .values(
                sessions=kept.sessions + row.sessions,
                accuracy=max(kept.accuracy, row.accuracy),
                seconds=min(times, default=None),
                level=stronger,
                updated_at=max(kept.updated_at, row.updated_at),
            )
        )
    connection.execute(delete(table).where(table.c.player_id == guest))


def _merge_lessons(connection: Connection, guest: str, account: str) -> int:
    """The guest's finished lessons become the account's; one both finished keeps the earlier
    finish (the better: done sooner). Returns how many the account gained."""
    theirs = {
        (row.game, row.lesson): row.done_at
        for row in connection.execute(
            select(LESSONS.c.game, LESSONS.c.lesson, LESSONS.c.done_at).where(
                LESSONS.c.player_id == account
            )
        )
    }
    gained = 0
    for row in connection.execute(
        select(LESSONS.c.game, LESSONS.c.lesson, LESSONS.c.done_at).where(
            LESSONS.c.player_id == guest
        )
    ).all():
        key = (row.game, row.lesson)
        if key not in theirs:
            connection.execute(
                insert(LESSONS).values(
                    player_id=account, game=row.game, lesson=row.lesson, done_at=row.done_at
                )
            )
            gained += 1
        elif row.done_at < theirs[key]:
            connection.execute(
                update(LESSONS)
                .where(
                    LESSONS.c.player_id == account,
                    LESSONS.c.game == row.game,
                    LESSONS.c.lesson == row.lesson,
                )
                .values(done_at=row.done_at)
            )
    connection.execute(delete(LESSONS).where(LESSONS.c.player_id == guest))
    return gained
