"""A person's export and deletion (issue 33, "Accounts": export and deletion), through the real
app on SQLite and PostgreSQL: the export holds every kind of row the site keeps about them and
nothing of another seat's hidden cards, anyone's id or a seed; the deletion takes every row of
theirs, leaves the others' games and results as they were with the seat shown as a deleted
player, and makes the cookie a fresh guest's; it is refused without ``{"confirm": true}`` and
from another site. The registry of what is kept (``store/personal.py``) is checked against the
tables themselves, so a new table that names players fails here until it is exported.

Finished games are written into the store as a room logs them (``tests/server/
stored_games.py``); a table being played is played through its sockets.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from itsdangerous import TimestampSigner
from sqlalchemy import JSON, Column, ForeignKey, Integer, String, Table, select, text
from starlette.requests import Request

from asobiba.core.options import rule_key
from asobiba.core.rng import new_seed
from asobiba.games import get_game
from asobiba.server.app import create_app
from asobiba.server.http.personal import from_this_site
from asobiba.server.settings import SocketLimits
from asobiba.server.social.tables import TableSettings
from asobiba.server.store.db import Base, make_engine, migrate, session_factory
from asobiba.server.store.personal import SECTIONS, player_key, register
from asobiba.server.store.seats import DELETED_SEAT
from asobiba.server.store.store import ChatLine, Store, StoredHint
from tests.server.stored_games import store_of, stored_game
from tests.server.tables import Guest, host_table, until

SECRET = "test-secret"
SAME_SITE = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
"""What a browser sends with a request from one of the site's own pages."""
CONFIRM = {"confirm": True}


@pytest.fixture(params=["sqlite", "postgres"])
def site(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("ASOBIBA_STANDIN_SECONDS", "0.3")
    url = request.getfixturevalue(f"{request.param}_url")
    quiet = SocketLimits(ping_seconds=None)
    app = create_app(url, secret_key=SECRET, bot_workers=1, socket_limits=quiet, bot_pace=0)
    with TestClient(app) as client:
        yield client


def secret_of(guest: Guest) -> str:
    """The guest's secret id, read from their signed cookie."""
    assert guest.cookie is not None
    payload = TimestampSigner(SECRET).unsign(guest.cookie)
    player: str = json.loads(base64.b64decode(payload))["player"]
    return player


def every_row(store: Store) -> dict[str, list[str]]:
    """Every row of every table, as text, by table."""
    found: dict[str, list[str]] = {}
    with store.engine.connect() as connection:
        for table in Base.metadata.sorted_tables:
            rows = connection.execute(select(table)).all()
            found[table.name] = [json.dumps([str(v) for v in row]) for row in rows]
    return found


def wearing(client: TestClient, cookie: str | None) -> Guest:
    """A browser sending ``cookie`` (one kept from before, say)."""
    guest = Guest.__new__(Guest)
    guest.client, guest.cookie = client, cookie
    return guest


def keys_in(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {key for value in data.values() for key in keys_in(value)}
    if isinstance(data, list):
        return {key for value in data for key in keys_in(value)}
    return set()


# --- the registry against the tables ---------------------------------------------------------


def _holds_players(column: Column[Any]) -> bool | None:
    """What a column's ``info`` says (``db.HOLDS_PLAYERS``, ``db.NO_PLAYERS``), or None."""
    said = column.info.get("player_ids")
    return None if said is None else bool(said)


def test_every_table_that_names_a_player_has_an_export_section() -> None:
    """A table with a foreign key to ``players.id``, or a column marked as holding player ids
    (seats in JSON, a guest id without a key), is in ``store/personal.py``'s registry: add one
    line there (``register(table, section)``) to export it."""
    naming = {
        table.name
        for table in Base.metadata.sorted_tables
        if player_key(table) is not None or any(_holds_players(c) for c in table.columns)
    }
    assert {"results", "lesson_progress", "rooms", "room_chat"} <= naming
    missing = naming - set(SECTIONS)
    assert not missing, f"tables naming players with no export section: {sorted(missing)}"


def test_every_json_or_id_wide_column_says_whether_it_holds_player_ids() -> None:
    """A JSON column may hold seats, and a column as wide as a guest id (36) may hold one: each
    says which (``info=HOLDS_PLAYERS`` or ``info=NO_PLAYERS`` in ``db.py``), unless it is a
    foreign key to ``players.id`` (found by itself) or that id itself."""
    players = Base.metadata.tables["players"]
    unsaid = []
    for table in Base.metadata.sorted_tables:
        for column in table.columns:
            if column is players.c.id or column is player_key(table):
                continue
            wide = isinstance(column.type, String) and column.type.length == 36
            if (isinstance(column.type, JSON) or wide) and _holds_players(column) is None:
                unsaid.append(f"{table.name}.{column.key}")
    assert not unsaid, f"say whether these hold player ids (db.py info=...): {unsaid}"


@pytest.fixture
def notes_table(sqlite_url: str) -> Iterator[tuple[Store, Table]]:
    """A table another part of the site might add (``notes``, a foreign key to players.id, ON
    DELETE CASCADE), registered in one line; taken out of the metadata afterwards."""
    table = Table(
        "notes",
        Base.metadata,
        Column("id", Integer, primary_key=True),
        Column("player_id", String(36), ForeignKey("players.id", ondelete="CASCADE")),
        Column("text", String(100)),
        Column("secret", String(100)),
    )
    register("notes", "notes", omit=("secret",))
    engine = make_engine(sqlite_url)
    migrate(engine)
    table.create(engine)
    store = Store(session_factory(engine))
    try:
        yield store, table
    finally:
        store.close()
        engine.dispose()
        del SECTIONS["notes"]
        Base.metadata.remove(table)


def test_a_new_table_is_exported_and_erased_with_one_line(
    notes_table: tuple[Store, Table],
) -> None:
    store, notes = notes_table
    store.set_player_name("p1", "Aki")
    store.set_player_name("p2", "Ben")
    with store.engine.begin() as connection:
        connection.execute(
            notes.insert(),
            [
                {"player_id": "p1", "text": "mine", "secret": "s1"},
                {"player_id": "p2", "text": "theirs", "secret": "s2"},
            ],
        )
    exported = store.export_player("p1")
    assert exported is not None
    assert exported["notes"] == [{"id": 1, "text": "mine"}], "no player id, no omitted column"
    store.erase_player("p1")
    with store.engine.connect() as connection:
        left = connection.execute(select(notes.c.player_id)).scalars().all()
    assert left == ["p2"]
    assert store.export_player("p1") is None


# --- a person's world --------------------------------------------------------------------------


@dataclass
class World:
    """Aki's and Ben's games, written as rooms write them."""

    aki: Guest
    ben: Guest
    aki_id: str
    ben_id: str
    solo: str
    """Aki against the computer, finished, reviewed, with a hint."""
    shared: str
    """Aki and Ben at a Mancala table, finished, reviewed, with chat."""
    hidden: str
    """Aki and Ben at a MOMOJAN table still being played (hidden hands)."""
    bens: str
    """Ben against the computer; Aki watched and wrote a line."""
    seeds: list[int]


def _review(room: str) -> tuple[list[Any], list[Any]]:
    moves = [
        {"event": 1, "seat": 0, "played": {"pit": 1}, "grade": "best"},
        {"event": 2, "seat": 1, "played": {"pit": 2}, "grade": "mistake"},
    ]
    players = [
        {"seat": 0, "moves": 1, "grades": {"best": 1}, "accuracy": 1.0},
        {"seat": 1, "moves": 1, "grades": {"mistake": 1}, "accuracy": 0.0},
    ]
    return moves, players


def hidden_game(store: Store, room: str, seats: list[dict[str, Any]], seed: int) -> None:
    """A MOMOJAN table between two people, a few moves in and not finished."""
    game = get_game("momojan")
    options = game.resolve_options({"dealerships": 1})
    settings = TableSettings("beginner").started(0.0, seats).to_json()
    store.create_room(
        room,
        "momojan",
        options,
        rule_key(options),
        seed,
        seats,
        host=seats[0]["player"],
        settings=settings,
    )
    state = game.new_state(options, 2, seed)
    movers: set[int] = set()
    seq = 0
    # Six moves at least, and on until both seats have moved (a random deal may let the first
    # seat draw and call for a while).
    while seq < 6 or movers != {0, 1}:
        [seat] = game.to_move(state)
        action = game.legal_actions(state, seat)[0]
        state = game.apply(state, seat, action)
        seq += 1
        movers.add(seat)
        store.append_event(room, seq, seat, action, float(seq))
    assert game.outcome(state) is None


def world(client: TestClient) -> World:
    store = store_of(client)
    aki, ben = Guest(client, "Aki"), Guest(client, "Ben")
    aki_id, ben_id = secret_of(aki), secret_of(ben)
    mancala = {"seeds": 3}
    seeds = [new_seed() for _ in range(4)]
    stored_game(store, "solo", [{"player": aki_id}, {"bot": "beginner"}], seeds[0],
                game_name="mancala", options=mancala)  # fmt: skip
    people = [{"player": aki_id, "name": "Aki"}, {"player": ben_id, "name": "Ben"}]
    stored_game(store, "shared", people, seeds[1], game_name="mancala", options=mancala)
    hidden_game(store, "hidden", people, seeds[2])
    stored_game(store, "bens", [{"player": ben_id}, {"bot": "beginner"}], seeds[3],
                game_name="mancala", options=mancala)  # fmt: skip
    lines = [
        ("shared", ChatLine(1, 0, aki_id, "Aki", "hello", None, 1.0)),
        ("shared", ChatLine(2, 1, ben_id, "Ben", "hi Aki", None, 2.0)),
        ("shared", ChatLine(3, 0, aki_id, "Aki", None, "gg", 3.0)),
        ("bens", ChatLine(1, None, aki_id, "Aki", "nice move", None, 4.0)),
    ]
    for room, line in lines:
        store.add_chat(room, line)
    store.add_hint("solo", StoredHint(2, 0, {"pit": 1}, 2.5))
    store.mark_lesson_done(aki_id, "mancala", "first")
    for room in ("solo", "shared"):
        store.save_review(room, 0.05, *_review(room))
    return World(aki, ben, aki_id, ben_id, "solo", "shared", "hidden", "bens", seeds)


def export_of(guest: Guest) -> tuple[Any, dict[str, Any]]:
    public = guest.get("/api/me").json()["id"]
    response = guest.get(f"/api/players/{public}/export")
    assert response.status_code == 200, response.text
    return response, response.json()


# --- export --------------------------------------------------------------------------------------


def test_the_export_holds_every_kind_of_row_and_nothing_hidden(site: TestClient) -> None:
    w = world(site)
    store = store_of(site)
    public = w.aki.get("/api/me").json()["id"]
    response, data = export_of(w.aki)
    assert response.headers["content-type"].startswith("application/json")
    assert response.headers["content-disposition"] == (
        f'attachment; filename="asobiba-{public}.json"'
    )
    assert data["format"] == "asobiba-export/1"
    assert data["player"]["id"] == public and data["player"]["name"] == "Aki"
    assert data["player"]["created_at"]

    games = {game["room_id"]: game for game in data["games"]}
    assert set(games) == {"solo", "shared", "hidden"}, "the games Aki sat in (not Ben's own)"
    assert games["solo"]["seats"] == [
        {"kind": "you", "name": None},
        {"kind": "bot", "level": "beginner"},
    ]
    assert games["shared"]["seats"] == [
        {"kind": "you", "name": "Aki"},
        {"kind": "human", "name": "Ben"},
    ]
    assert games["shared"]["status"] == "finished" and games["shared"]["outcome"]["scores"]
    assert games["shared"]["replay"] == "/replay/shared"
    assert games["hidden"]["status"] == "playing" and games["hidden"]["outcome"] is None
    for room, game in games.items():
        stored = store.load_room(room)
        assert stored is not None
        own = [(seq, action) for seq, (seat, action, _) in enumerate(stored.events) if seat == 0]
        assert [m["action"] for m in game["moves"]] == [action for _, action in own], room
        assert len(game["moves"]) < len(stored.events), "never another seat's moves"

    assert sorted(r["room_id"] for r in data["results"]) == ["shared", "solo"]
    assert all("player_id" not in r and "id" not in r for r in data["results"])
    assert [(c["room_id"], c.get("text"), c.get("stamp")) for c in data["chat"]] == [
        ("bens", "nice move", None),
        ("shared", "hello", None),
        ("shared", None, "gg"),
    ], "every line Aki wrote, as a player and as a spectator; none of Ben's"
    assert data["hints"] == [{"room_id": "solo", "seq": 2, "action": {"pit": 1}, "at": 2.5}]
    assert [(r["room_id"], r["summary"]["seat"]) for r in data["reviews"]] == [
        ("shared", 0),
        ("solo", 0),
    ]
    assert all(m["seat"] == 0 for r in data["reviews"] for m in r["moves"])
    assert [(row["game"], row["lesson"]) for row in data["lessons"]] == [("mancala", "first")]

    # Nothing secret: no id of anyone, no seed, no hand, deck or wall.
    body = response.text
    assert w.aki_id not in body and w.ben_id not in body
    for seed in w.seeds:
        assert str(seed) not in body, "a seed in the export"
    assert not keys_in(data) & {"seed", "hand", "hands", "deck", "wall", "piles", "player_id"}


def test_only_the_player_downloads_their_export(site: TestClient) -> None:
    w = world(site)
    public = w.aki.get("/api/me").json()["id"]
    refused = w.ben.get(f"/api/players/{public}/export")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_yours"
    stranger = TestClient(site.app).get(f"/api/players/{public}/export")
    assert stranger.status_code == 403
    for unknown in ("nobody-here", "x" * 40, "%2e%2e"):
        missing = w.aki.get(f"/api/players/{unknown}/export")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_player"


# --- deletion ------------------------------------------------------------------------------------


def test_deletion_is_refused_without_the_confirm_flag_or_from_another_site(
    site: TestClient,
) -> None:
    w = world(site)
    tries: list[tuple[dict[str, Any], dict[str, str], int, str]] = [
        ({}, SAME_SITE, 400, "confirm_required"),
        ({"json": {}}, SAME_SITE, 400, "confirm_required"),
        ({"json": {"confirm": False}}, SAME_SITE, 400, "confirm_required"),
        ({"json": {"confirm": "yes"}}, SAME_SITE, 400, "bad_request"),
        ({"json": CONFIRM}, {"Origin": "https://evil.example"}, 403, "cross_site"),
        ({"json": CONFIRM}, {"Origin": "null"}, 403, "cross_site"),
        ({"json": CONFIRM}, {"Sec-Fetch-Site": "cross-site"}, 403, "cross_site"),
        ({"json": CONFIRM}, {"Sec-Fetch-Site": "same-site"}, 403, "cross_site"),
        ({"json": CONFIRM}, {"Origin": "https://testserver"}, 403, "cross_site"),  # scheme
    ]
    cookie = w.aki.cookie
    for body, headers, status, code in tries:
        refused = w.aki.delete("/api/account", headers=headers, **body)
        assert (refused.status_code, refused.json()["error"]["code"]) == (status, code), body
        assert w.aki.cookie == cookie, "still the same guest"
    _, data = export_of(w.aki)
    assert data["player"]["name"] == "Aki" and len(data["games"]) == 3, "nothing was deleted"


def test_a_request_from_this_site_is_told_from_another_sites() -> None:
    def request(headers: dict[str, str], scheme: str = "http") -> Request:
        raw = [
            (k.lower().encode(), v.encode())
            for k, v in ({"host": "asobiba.test"} | headers).items()
        ]
        return Request(
            {"type": "http", "scheme": scheme, "headers": raw, "path": "/", "query_string": b""}
        )

    assert from_this_site(request({}))  # no browser: curl and the like hold no visitor's cookie
    assert from_this_site(
        request({"Origin": "http://asobiba.test", "Sec-Fetch-Site": "same-origin"})
    )
    assert from_this_site(request({"Origin": "https://asobiba.test"}, scheme="https"))
    assert not from_this_site(request({"Origin": "http://asobiba.test"}, scheme="https"))
    assert not from_this_site(request({"Origin": "http://evil.test"}))
    assert not from_this_site(request({"Sec-Fetch-Site": "none"}))
    assert not from_this_site(
        request({"Origin": "http://asobiba.test", "Sec-Fetch-Site": "cross-site"})
    )


def test_deletion_takes_the_person_and_leaves_the_others_games(site: TestClient) -> None:
    w = world(site)
    store = store_of(site)
    old_public = w.aki.get("/api/me").json()["id"]
    old_cookie = w.aki.cookie
    ben_results = [
        (r.room_id, r.result, r.score, r.margin, r.people)
        for r in store.results(w.ben_id, "mancala")
    ]
    ben_rows = w.ben.get("/api/records/mancala").json()["rows"]

    deleted = w.aki.delete("/api/account", json=CONFIRM, headers=SAME_SITE)
    assert deleted.status_code == 200, deleted.text
    assert deleted.json() == {"deleted": True, "rooms_deleted": 1, "rooms_kept": 2, "chat_lines": 3}

    # Not a trace of Aki: no id, no name, in any table.
    for table, rows in every_row(store).items():
        for row in rows:
            assert w.aki_id not in row, f"{table}: {row}"
            assert '"Aki"' not in row and "'Aki'" not in row, f"{table}: {row}"
            assert "hello" not in row and "nice move" not in row, f"{table}: {row}"
    # The game Aki played alone is gone with its log, hint and review.
    assert store.load_room("solo") is None and store.load_review("solo") is None
    assert w.ben.get("/api/rooms/solo/replay").status_code == 404
    # The games with Ben stay, Aki's seat a deleted player's; Ben's results are as they were.
    shared = store.load_room("shared")
    hidden = store.load_room("hidden")
    assert shared is not None and hidden is not None
    assert shared.seats == [DELETED_SEAT, {"player": w.ben_id, "name": "Ben"}]
    assert hidden.seats[0] == DELETED_SEAT and hidden.host is None and not hidden.finished
    assert [line.text for line in shared.chat] == ["hi Aki"]
    assert store.load_review("shared") is not None, "the game's review is Ben's too"
    assert [
        (r.room_id, r.result, r.score, r.margin, r.people)
        for r in store.results(w.ben_id, "mancala")
    ] == ben_results
    records = w.ben.get("/api/records/mancala").json()
    assert records["rows"] == ben_rows
    [listed] = [g for g in records["games"] if g["room_id"] == "shared"]
    assert (listed["names"], listed["kinds"]) == ([None, "Ben"], ["deleted", "human"])
    bens = store.load_room("bens")
    assert bens is not None and bens.chat == (), "Aki's line as a spectator went too"
    # The replay of the shared game still plays, and names the seat.
    replay = w.ben.get("/api/rooms/shared/replay").json()
    assert replay["seats"] == [{"kind": "deleted", "name": None}, {"kind": "human", "name": "Ben"}]
    assert replay["seat"] == 1 and len(replay["frames"]) > 2
    assert [line["name"] for line in replay["chat"]] == ["Ben"]

    # The answer made a new guest; the old cookie, sent again, is a stranger with nothing.
    fresh = w.aki.get("/api/me").json()
    assert w.aki.cookie != old_cookie and fresh["name"] is None and fresh["id"] != old_public
    again = wearing(site, old_cookie)
    stranger = again.get("/api/me").json()
    assert stranger["name"] is None and stranger["id"] not in (old_public, fresh["id"])
    assert again.get("/api/records/mancala").json()["games"] == []
    assert again.get("/api/rooms?game=momojan").json()["rooms"] == []
    assert again.get(f"/api/players/{old_public}/export").status_code == 404
    _, data = export_of(again)
    assert data["games"] == [] and data["results"] == [] and data["chat"] == []


def test_a_table_being_played_goes_on_with_a_stand_in_in_the_deleted_seat(
    site: TestClient,
) -> None:
    """Aki leaves mid-game: Ben is told at once, the table's stand-in plays Aki's seat to the
    end, Ben gets his result (Aki's seat none), and the replay shows the seat as a deleted
    player's. Aki's game against the computer ends and goes; Aki's waiting table closes and
    goes; the seat Aki took at Ben's waiting table opens again."""
    store = store_of(site)
    aki, ben = Guest(site, "Aki"), Guest(site, "Ben")
    table = host_table(aki, "mancala", [{"kind": "me"}, {"kind": "open"}], options={"seeds": 3})
    room = table["room_id"]
    assert ben.post(f"/api/rooms/{room}/join", json={}).json() == {"seat": 1}
    solo = aki.post("/api/rooms", json={"game": "mancala", "level": "beginner"}).json()["room_id"]
    waiting = host_table(aki, "mancala", [{"kind": "me"}, {"kind": "open"}])["room_id"]
    three = [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]
    bens = host_table(ben, "mokochaka", three)["room_id"]
    assert aki.post(f"/api/rooms/{bens}/join", json={}).json() == {"seat": 1}

    with aki.socket(room) as aki_ws, ben.socket(room) as ws:
        until(aki_ws, lambda m: m["type"] == "sync")
        aki_ws.send_json({"type": "chat", "text": "must go"})
        until(ws, lambda m: m["type"] == "chat")
        deleted = aki.delete("/api/account", json=CONFIRM, headers=SAME_SITE)
        assert deleted.status_code == 200, deleted.text
        told, _ = until(ws, lambda m: m["type"] == "sync" and m["players"][0]["kind"] == "deleted")
        assert told["players"][0] | {"standin": None} == {
            "kind": "deleted", "name": None, "connected": False, "standin": None,
            "away": None, "standin_in": None, "host": False, "clock": None,
        }  # fmt: skip
        assert told["players"][0]["standin"] == "beginner", "the table's stand-in plays it"
        assert told["chat"] == [] and told["table"]["host"] is None
        mine, _ = until(aki_ws, lambda m: m["type"] == "sync")
        assert mine["seat"] is None, "Aki's own tab watches as a stranger now"
        view = told
        while view["obs"]["outcome"] is None:
            if view["legal"]:
                ws.send_json({"type": "act", "action": view["legal"][0]})
            view, _ = until(ws, lambda m: m["type"] == "event")

    stored = store.load_room(room)
    assert stored is not None and stored.finished and stored.seats[0] == DELETED_SEAT
    after = [
        level
        for (seat, _, _), level in zip(stored.events, stored.standins, strict=True)
        if seat == 0
    ]
    assert after and after[-1] == "beginner", "the stand-in's moves are marked"
    [result] = store.results(secret_of(ben), "mancala")
    assert result.room_id == room and result.people == 2 and result.seat == 1
    with store.engine.connect() as connection:
        count = connection.execute(text("SELECT COUNT(*) FROM results")).scalar()
    assert count == 1, "no result for the deleted seat"
    replay = ben.get(f"/api/rooms/{room}/replay").json()
    assert replay["seats"][0] == {"kind": "deleted", "name": None}
    assert replay["outcome"] == stored.outcome

    assert store.load_room(solo) is None, "the game against the computer ended and went"
    assert store.load_room(waiting) is None, "Aki's own waiting table closed and went"
    bens_table = store.load_room(bens)
    assert bens_table is not None and bens_table.status == "waiting"
    assert bens_table.seats[1:] == [{"open": True}, {"open": True}]
