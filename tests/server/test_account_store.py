"""The accounts' tables through ``store/accounts.py``: names unique once folded, sessions kept
as hashes, and a guest's history merged into an account without losing or doubling a row; on
SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from alembic import command
from sqlalchemy import select, text, update

from asobiba.games import get_game
from asobiba.server.social.names import fold_name
from asobiba.server.store.accounts import (
    SESSIONS,
    AlreadyAccount,
    NameTaken,
    public_session_id,
    token_hash,
)
from asobiba.server.store.db import (
    LessonProgress,
    Player,
    Result,
    RoomChat,
    make_engine,
    migrate,
    migrations_config,
    session_factory,
)
from asobiba.server.store.store import ChatLine, Store
from tests.server.stored_games import stored_game


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest) -> Iterator[Store]:
    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "postgres_url")
    engine = make_engine(url)
    migrate(engine)
    store = Store(session_factory(engine))
    try:
        yield store
    finally:
        store.close()
        engine.dispose()


def test_a_username_is_one_name_whatever_its_width_or_case(store: Store) -> None:
    store.accounts.create("guest-a", "Aki", fold_name("Aki"), "hash-a")
    with pytest.raises(NameTaken):
        store.accounts.create("guest-b", "ａｋｉ", fold_name("ａｋｉ"), "hash-b")
    with pytest.raises(AlreadyAccount):
        store.accounts.create("guest-a", "Ben", fold_name("Ben"), "hash-c")
    assert not store.accounts.is_account("guest-b")  # the refused one wrote nothing
    found = store.accounts.credentials(fold_name("AKI"))
    assert found is not None
    assert (found.player, found.username, found.password_hash) == ("guest-a", "Aki", "hash-a")
    assert store.accounts.credentials(fold_name("Ben")) is None
    assert store.accounts.username("guest-a") == "Aki"
    assert store.accounts.username("guest-b") is None


def test_a_session_is_kept_as_its_tokens_hash_and_ends_when_revoked(store: Store) -> None:
    store.accounts.create("p1", "Aki", fold_name("Aki"), None)
    key = token_hash("the-token")
    store.accounts.start_session("p1", key, "Firefox on Linux")
    with store.engine.connect() as connection:
        [stored] = connection.execute(select(SESSIONS.c.id)).scalars().all()
    assert stored == key and "the-token" not in stored
    signed = store.accounts.signed_in(key)
    assert signed is not None and (signed.player, signed.username) == ("p1", "Aki")
    assert store.accounts.signed_in(token_hash("another-token")) is None
    [listed] = store.accounts.sessions("p1")
    assert listed.label == "Firefox on Linux" and listed.public_id == public_session_id(key)
    assert listed.public_id not in (key, "the-token")
    assert store.accounts.revoke_listed("p1", "0" * 16) is None
    assert store.accounts.revoke_listed("someone-else", listed.public_id) is None
    assert store.accounts.revoke_listed("p1", listed.public_id) == key
    assert store.accounts.signed_in(key) is None
    assert store.accounts.sessions("p1") == []
    assert not store.accounts.revoke("p1", key)  # once


def test_a_session_seen_again_after_a_while_says_so(store: Store) -> None:
    store.accounts.create("p1", "Aki", fold_name("Aki"), None)
    key = token_hash("t")
    store.accounts.start_session("p1", key, "Safari on iPhone")
    [before] = store.accounts.sessions("p1")
    long_ago = before.seen_at - timedelta(hours=1)
    with store.engine.begin() as connection:
        connection.execute(update(SESSIONS).values(seen_at=long_ago))
    assert store.accounts.signed_in(key) is not None
    [after] = store.accounts.sessions("p1")
    assert after.seen_at > long_ago + timedelta(minutes=59)
    assert after.created_at == before.created_at


def _results(store: Store, player: str) -> list[tuple[str, str]]:
    with store.sessions() as session:
        rows = session.execute(
            select(Result.room_id, Result.result).where(Result.player_id == player)
        ).all()
        return sorted((room_id, result) for room_id, result in rows)


def test_merging_moves_every_row_of_the_guest_once(store: Store) -> None:
    guest, account = "guest-1", "account-1"
    store.accounts.create(account, "Aki", "aki", None)
    store.ensure_player(guest)
    store.set_player_name(guest, "Aki-san")
    bot = {"bot": "beginner"}
    stored_game(
        store, "g1", [{"player": guest, "name": "Aki-san"}, bot], 1, game_name="mancala", options={}
    )
    stored_game(store, "g2", [bot, {"player": guest}], 2, game_name="mancala", options={})
    stored_game(store, "a1", [{"player": account}, bot], 3, game_name="mancala", options={})
    # Both at one table: the account's seat stays, the guest's stays the guest's.
    stored_game(
        store, "both", [{"player": guest}, {"player": account}], 4, game_name="mancala", options={}
    )
    store.add_chat("g1", ChatLine(1, 0, guest, "Aki-san", "hi", None, 1.0))
    store.add_chat("a1", ChatLine(1, None, guest, "Aki-san", "watching", None, 2.0))
    store.add_chat("both", ChatLine(1, 0, guest, "Aki-san", "me vs me", None, 3.0))
    store.mark_lesson_done(guest, "mancala", "one")
    store.mark_lesson_done(guest, "mancala", "two")
    store.mark_lesson_done(account, "mancala", "two")
    earlier = store.lessons_done(account, "mancala")["two"] - timedelta(days=3)
    with store.sessions.begin() as session:  # the guest finished "two" first
        session.execute(
            update(LessonProgress)
            .where(LessonProgress.player_id == guest, LessonProgress.lesson == "two")
            .values(done_at=earlier)
        )
    guest_before, account_before = _results(store, guest), _results(store, account)

    merged = store.accounts.merge(guest, account)

    assert merged.left == ("both",)
    assert (merged.rooms, merged.results, merged.lessons) == (2, 2, 1)
    moved = [row for row in guest_before if row[0] != "both"]
    assert _results(store, account) == sorted(account_before + moved)
    assert _results(store, guest) == [row for row in guest_before if row[0] == "both"]
    g1 = store.room_brief("g1")
    assert g1 is not None and g1.seats[0] == {"player": account, "name": "Aki-san"}
    assert store.room_brief("both") is not None
    assert store.unfinished_of(guest) == []
    with store.sessions() as session:
        chat = dict(session.execute(select(RoomChat.room_id, RoomChat.player_id)).all())
    assert chat == {"g1": account, "a1": account, "both": guest}
    done = store.lessons_done(account, "mancala")
    assert set(done) == {"one", "two"} and done["two"] == earlier
    assert store.lessons_done(guest, "mancala") == {}
    assert store.player_name(account) == "Aki-san"
    # The guest still has the game at the table they shared with the account.
    with store.sessions() as session:
        assert session.get(Player, guest) is not None


def test_a_merged_guest_with_nothing_left_is_gone(store: Store) -> None:
    store.accounts.create("acc", "Aki", fold_name("Aki"), None)
    store.set_player_name("acc", "Aki")
    store.set_player_name("g", "Guest name")
    stored_game(
        store, "r", [{"player": "g"}, {"bot": "beginner"}], 5, game_name="mancala", options={}
    )
    merged = store.accounts.merge("g", "acc")
    assert (merged.rooms, merged.results, merged.left) == (1, 1, ())
    assert store.player_name("acc") == "Aki"  # the account's own name stays
    with store.sessions() as session:
        assert session.get(Player, "g") is None
    assert len(_results(store, "acc")) == 1
    again = store.accounts.merge("g", "acc")  # nothing left to move: nothing doubles
    assert (again.rooms, again.results, again.lessons) == (0, 0, 0)
    assert len(_results(store, "acc")) == 1


def test_an_unfinished_room_is_left_to_its_process(store: Store) -> None:
    """The final merge moves finished rooms only: an unfinished one may be held in memory by
    a process, which moves it under its lock (``Room.adopt``) before the merge."""
    store.accounts.create("acc", "Aki", fold_name("Aki"), None)
    store.ensure_player("g")
    seats = [{"player": "g"}, {"bot": "beginner"}]
    store.create_room("live", "mancala", {}, "k", 7, seats)
    merged = store.accounts.merge("g", "acc")
    assert merged.left == ("live",)
    assert store.unfinished_of("g") == ["live"]
    assert store.accounts.adopt_room("live", "g", "acc")
    assert store.unfinished_of("acc") == ["live"] and store.unfinished_of("g") == []
    assert store.accounts.rooms_naming("g") == []


def test_the_accounts_migration_goes_down_and_up_again(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    migrate(engine)
    store = Store(session_factory(engine))
    store.accounts.create("p", "Aki", fold_name("Aki"), None)
    store.close()
    config = migrations_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0010_public_ids")
    with engine.connect() as connection:
        tables = connection.execute(text("SELECT name FROM sqlite_master")).scalars().all()
        assert "accounts" not in tables and "account_sessions" not in tables
        assert connection.execute(text("SELECT id FROM players")).scalars().all() == ["p"]
    migrate(engine)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM accounts")).scalar_one() == 0
    engine.dispose()


def test_merging_keeps_the_better_of_each_trainer_figure(store: Store) -> None:
    """A guest's best trainer figures join the account's: a kind only the guest has moves, a
    kind both have keeps the more sessions, the higher accuracy, the lower time and the
    stronger level; the guest's row can then go."""
    guest, account = "guest-1", "account-1"
    store.accounts.create(account, "Aki", "aki", None)
    levels = get_game("mokochaka").levels

    def session(accuracy: float, seconds: float, level: str, kinds: list[str]) -> dict[str, Any]:
        kind = {"tries": 2, "accuracy": accuracy, "seconds": seconds}
        every = [{"kind": name, **kind} for name in kinds]
        return {**kind, "level": level, "kinds": every}

    store.record_drill(account, "mokochaka", session(0.5, 0.9, levels[2], ["pair"]), levels)
    store.record_drill(guest, "mokochaka", session(0.75, 1.2, levels[1], ["pair", "gabu"]), levels)

    store.accounts.merge(guest, account)

    bests = store.drill_bests(account, "mokochaka")
    assert bests["all"] == {"sessions": 2, "accuracy": 0.75, "seconds": 0.9, "level": levels[2]}
    assert bests["gabu"] == {"sessions": 1, "accuracy": 0.75, "seconds": 1.2, "level": None}
    assert store.drill_bests(guest, "mokochaka") == {}
    assert store.player_name(guest) is None
