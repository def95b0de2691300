"""The passkeys accounts sign in with (WebAuthn credentials, ``server/accounts/passkeys.py``):
making an account with its first passkey, adding more, finding one by its credential id,
keeping its signature counter, and the account's list (rename, delete).

Synchronous SQLAlchemy, called off the event loop like ``Store``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import cast

from sqlalchemy import Table, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from asobiba.server.store.accounts import (
    ACCOUNTS,
    AlreadyAccount,
    NameTaken,
    insert_account,
    now,
)
from asobiba.server.store.db import Passkey

PASSKEYS = cast(Table, Passkey.__table__)

MAX_PER_ACCOUNT = 20
"""Passkeys one account may hold: more than anyone has devices, few enough that the list
stays short and a sign-in form's list of credentials stays small."""


class CredentialTaken(Exception):
    """This credential id is stored already (an authenticator never makes one twice: a
    response sent again)."""


class TooMany(Exception):
    """The account holds ``MAX_PER_ACCOUNT`` passkeys already."""


@dataclass(frozen=True)
class NewPasskey:
    """A passkey a registration ceremony proved (``accounts.passkeys.verify_creation``)."""

    credential_id: str
    """base64url."""
    public_key: bytes
    sign_count: int
    transports: tuple[str, ...]
    user_handle: str
    """base64url."""
    name: str


@dataclass(frozen=True)
class Listed:
    """A passkey as its account's page shows it."""

    id: int
    name: str
    created_at: datetime
    last_used_at: datetime | None


@dataclass(frozen=True)
class Found:
    """A passkey a sign-in offers, with its account."""

    id: int
    player: str
    username: str
    folded: str
    public_key: bytes
    sign_count: int
    user_handle: str


class Deleted(Enum):
    DELETED = "deleted"
    UNKNOWN = "unknown"
    """The account has no such passkey."""
    LAST = "last"
    """It is the account's last way to sign in (no password, no other passkey): kept."""


class Passkeys:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create_account(self, player_id: str, username: str, folded: str, key: NewPasskey) -> int:
        """Make ``player_id`` an account named ``username`` (unique as ``folded``) with no
        password and ``key`` as its passkey, in one transaction: an account never exists
        without a way to sign in. The passkey's id. Raises ``AlreadyAccount``, ``NameTaken`` or
        ``CredentialTaken``; then nothing is written."""
        try:
            with self.engine.begin() as connection:
                insert_account(connection, player_id, username, folded, None)
                return _insert(connection, player_id, key)
        except IntegrityError:
            # Two requests at once: whichever lost finds why in the rows the winner wrote.
            with self.engine.connect() as connection:
                if connection.scalar(
                    select(ACCOUNTS.c.player_id).where(ACCOUNTS.c.player_id == player_id)
                ):
                    raise AlreadyAccount(player_id) from None
                if _credential_stored(connection, key.credential_id):
                    raise CredentialTaken(key.credential_id) from None
            raise NameTaken(username) from None

    def add(self, player_id: str, key: NewPasskey) -> int:
        """One more passkey of the account ``player_id``; its id. Raises ``CredentialTaken``
        or ``TooMany``."""
        try:
            with self.engine.begin() as connection:
                _lock_account(connection, player_id)
                if _count(connection, player_id) >= MAX_PER_ACCOUNT:
                    raise TooMany(player_id)
                return _insert(connection, player_id, key)
        except IntegrityError:
            raise CredentialTaken(key.credential_id) from None

    def user_handle(self, player_id: str) -> str | None:
        """The user handle the account's passkeys were given, if it has any (a new passkey
        gets the same, so an authenticator holding one of them sees the same user)."""
        with self.engine.connect() as connection:
            found = connection.scalar(
                select(PASSKEYS.c.user_handle)
                .where(PASSKEYS.c.player_id == player_id)
                .order_by(PASSKEYS.c.id)
                .limit(1)
            )
            return None if found is None else str(found)

    def credentials(self, player_id: str) -> list[tuple[str, tuple[str, ...]]]:
        """``(credential id, transports)`` of each of the account's passkeys: the ones a new
        passkey must not be made beside, on an authenticator that already holds one."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(PASSKEYS.c.credential_id, PASSKEYS.c.transports)
                .where(PASSKEYS.c.player_id == player_id)
                .order_by(PASSKEYS.c.id)
            ).all()
            return [(str(row.credential_id), tuple(row.transports)) for row in rows]

    def find(self, credential_id: str) -> Found | None:
        """The passkey with this credential id, and its account, if stored."""
        with self.engine.connect() as connection:
            row = connection.execute(
                select(
                    PASSKEYS.c.id,
                    PASSKEYS.c.player_id,
                    ACCOUNTS.c.username,
                    ACCOUNTS.c.folded,
                    PASSKEYS.c.public_key,
                    PASSKEYS.c.sign_count,
                    PASSKEYS.c.user_handle,
                )
                .join(ACCOUNTS, ACCOUNTS.c.player_id == PASSKEYS.c.player_id)
                .where(PASSKEYS.c.credential_id == credential_id)
            ).first()
            if row is None:
                return None
            return Found(
                row.id,
                str(row.player_id),
                str(row.username),
                str(row.folded),
                bytes(row.public_key),
                int(row.sign_count),
                str(row.user_handle),
            )

    def used(self, passkey_id: int, was: int, count: int) -> bool:
        """A sign-in with the passkey succeeded: its counter goes from ``was`` to ``count`` and
        it was used now. False, and nothing written, when its counter is no longer ``was``
        (another sign-in with it won meanwhile: one of the two is a copy)."""
        with self.engine.begin() as connection:
            done = connection.execute(
                update(PASSKEYS)
                .where(PASSKEYS.c.id == passkey_id, PASSKEYS.c.sign_count == was)
                .values(sign_count=count, last_used_at=now())
            )
            return bool(done.rowcount == 1)

    def listed(self, player_id: str) -> list[Listed]:
        """The account's passkeys, the oldest first."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(
                    PASSKEYS.c.id, PASSKEYS.c.name, PASSKEYS.c.created_at, PASSKEYS.c.last_used_at
                )
                .where(PASSKEYS.c.player_id == player_id)
                .order_by(PASSKEYS.c.id)
            ).all()
            return [Listed(row.id, row.name, row.created_at, row.last_used_at) for row in rows]

    def has_password(self, player_id: str) -> bool:
        """Whether the account signs in with a password too (so any passkey may go)."""
        with self.engine.connect() as connection:
            found = connection.scalar(
                select(ACCOUNTS.c.password_hash).where(ACCOUNTS.c.player_id == player_id)
            )
            return found is not None

    def rename(self, player_id: str, passkey_id: int, name: str) -> bool:
        """Whether the account had that passkey (now named ``name``)."""
        with self.engine.begin() as connection:
            done = connection.execute(
                update(PASSKEYS)
                .where(PASSKEYS.c.id == passkey_id, PASSKEYS.c.player_id == player_id)
                .values(name=name)
            )
            return bool(done.rowcount == 1)

    def delete(self, player_id: str, passkey_id: int) -> Deleted:
        """Forget one of the account's passkeys, unless it is the last way to sign in to the
        account. The check is part of the deletion's own statement, after the account's row
        is locked (``FOR UPDATE`` on PostgreSQL; SQLite runs one writing statement at a time),
        so two deletions at once of an account's last two passkeys cannot both go."""
        with self.engine.begin() as connection:
            _lock_account(connection, player_id)
            others = select(func.count()).where(PASSKEYS.c.player_id == player_id).scalar_subquery()
            password = (
                select(ACCOUNTS.c.password_hash)
                .where(ACCOUNTS.c.player_id == player_id)
                .scalar_subquery()
            )
            done = connection.execute(
                delete(PASSKEYS).where(
                    PASSKEYS.c.id == passkey_id,
                    PASSKEYS.c.player_id == player_id,
                    or_(password.is_not(None), others > 1),
                )
            )
            if done.rowcount == 1:
                return Deleted.DELETED
            mine = connection.scalar(
                select(PASSKEYS.c.id).where(
                    PASSKEYS.c.id == passkey_id, PASSKEYS.c.player_id == player_id
                )
            )
            return Deleted.UNKNOWN if mine is None else Deleted.LAST


def _insert(connection: Connection, player_id: str, key: NewPasskey) -> int:
    created = connection.execute(
        insert(PASSKEYS)
        .values(
            credential_id=key.credential_id,
            player_id=player_id,
            public_key=key.public_key,
            sign_count=key.sign_count,
            transports=list(key.transports),
            user_handle=key.user_handle,
            name=key.name,
            created_at=now(),
            last_used_at=None,
        )
        .returning(PASSKEYS.c.id)
    )
    return int(created.scalar_one())


def _lock_account(connection: Connection, player_id: str) -> None:
    """Lock the account's row until the transaction ends (``FOR UPDATE``; SQLAlchemy leaves
    it out on SQLite, which has no row locks)."""
    connection.execute(
        select(ACCOUNTS.c.player_id).where(ACCOUNTS.c.player_id == player_id).with_for_update()
    )


def _count(connection: Connection, player_id: str) -> int:
    return int(
        connection.scalar(select(func.count()).where(PASSKEYS.c.player_id == player_id)) or 0
    )


def _credential_stored(connection: Connection, credential_id: str) -> bool:
    found = connection.scalar(
        select(PASSKEYS.c.id).where(PASSKEYS.c.credential_id == credential_id)
    )
    return found is not None
