"""``asobiba check``: the settings in force (secrets masked), whether the database and Redis
answer, the migrations not yet applied; exit status 1 when anything would stop the site."""

from __future__ import annotations

import sys
from dataclasses import fields
from typing import Any, TextIO

from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from asobiba.server.logs import Misconfigured, chosen_format, chosen_level
from asobiba.server.settings import GuestLimits, Settings
from asobiba.server.startup import (
    fingerprint,
    fingerprint_key,
    redis_client,
    require_shared_key,
)
from asobiba.server.store.db import migrations_config

SECRET_FIELDS = {"secret_key"}
URL_FIELDS = {"database_url", "redis_url"}


def masked(name: str, value: Any) -> str:
    """A setting as ``check`` prints it: a URL without its password, a key as its fingerprint.

    >>> masked("database_url", "postgresql+psycopg://me:pw@db/asobiba")
    'postgresql+psycopg://me:***@db/asobiba'
    >>> masked("secret_key", "k")[:14]
    'fingerprint 32'
    """
    if value is None:
        return "unset"
    if name in SECRET_FIELDS:
        return f"fingerprint {fingerprint(str(value))[:8]}... (the key itself is not shown)"
    if name in URL_FIELDS:
        return make_url(str(value)).render_as_string(hide_password=True)
    return str(value)


def pending_migrations(database_url: str) -> list[str]:
    """The migrations the database has not had, oldest first (raises when it does not answer)."""
    script = ScriptDirectory.from_config(migrations_config())
    args = {} if make_url(database_url).get_backend_name() == "sqlite" else {"connect_timeout": 5}
    engine = create_engine(database_url, poolclass=NullPool, connect_args=args)
    try:
        with engine.connect() as connection:
            current = MigrationContext.configure(connection).get_current_heads()
    finally:
        engine.dispose()
    heads = script.get_heads()
    if set(current) == set(heads):
        return []
    pending = [
        revision.revision
        for head in heads
        for revision in script.iterate_revisions(head, current or "base")
    ]
    return list(reversed(pending))


def run_check(database_url: str | None = None, out: TextIO = sys.stdout) -> int:
    """Print what ``asobiba serve`` would run with and what it would find; 0 if it would start
    and serve, 1 if not (each problem on a line of its own, starting ``problem:``)."""
    problems: list[str] = []
    settings = Settings.load(database_url)
    print("settings in force:", file=out)
    for field in fields(Settings):
        if field.name in {"guest_limits", "secret_key_given"}:
            continue
        shown = masked(field.name, getattr(settings, field.name))
        if field.name == "secret_key":
            given = "from SECRET_KEY" if settings.secret_key_given else "made in the data directory"
            shown = f"{given}, {shown}"
        print(f"  {field.name} = {shown}", file=out)
    defaults = GuestLimits()
    for field in fields(GuestLimits):
        value = getattr(settings.guest_limits, field.name)
        if value != getattr(defaults, field.name):
            print(
                f"  guest_limits.{field.name} = {value} (default {getattr(defaults, field.name)})",
                file=out,
            )
    for name, choose in (("log format", chosen_format), ("log level", chosen_level)):
        try:
            print(f"  {name} = {choose()}", file=out)
        except Misconfigured as error:
            problems.append(str(error))
    try:
        require_shared_key(settings)
    except Misconfigured as error:
        problems.append(str(error))

    try:
        pending = pending_migrations(settings.database_url)
    except Exception as error:
        problems.append(f"the database does not answer: {_first_line(error)}")
    else:
        print("database: answers", file=out)
        if pending:
            problems.append(
                f"{len(pending)} migrations pending ({', '.join(pending)}); "
                "asobiba serve applies them when it starts"
            )
        else:
            print("migrations: none pending", file=out)

    if settings.redis_url is None:
        print("redis: not used (REDIS_URL unset: one process owns every room)", file=out)
    else:
        client = redis_client(settings.redis_url)
        try:
            client.ping()
            stored = client.get(fingerprint_key(settings.redis_prefix))
        except Exception as error:
            problems.append(f"Redis does not answer: {_first_line(error)}")
        else:
            print("redis: answers", file=out)
            mine = fingerprint(settings.secret_key)
            theirs = stored.decode() if isinstance(stored, bytes) else stored
            if theirs is None:
                print(
                    "redis: no key fingerprint stored yet (the first process stores it)", file=out
                )
            elif theirs != mine:
                problems.append(
                    f"SECRET_KEY differs from the site's (fingerprint {mine[:8]}... here, "
                    f"{theirs[:8]}... in Redis): a process would refuse to start"
                )
            else:
                print("redis: the site's key fingerprint matches SECRET_KEY", file=out)
        finally:
            client.close()

    for problem in problems:
        print(f"problem: {problem}", file=out)
    print("ok" if not problems else f"{len(problems)} problem(s)", file=out)
    return 1 if problems else 0


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else repr(error)
