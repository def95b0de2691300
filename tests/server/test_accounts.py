"""Accounts through the real app (issue 33): keeping a guest's games under a password, signing
in elsewhere, a device's guest history merged into the account, sign-in failures and limits,
signing out and revoking sessions, and refusing other sites; on SQLite and PostgreSQL.

Each browser is a ``Guest`` of ``tables.py``: its own signed cookie, worn for its requests on
one test client (so every socket stays on the app's one event loop). Finished games are
written into the store as a room logs them (``test_people_records.played_game``)."""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from alembic import command
from argon2 import PasswordHasher, Type
from fastapi.testclient import TestClient
from itsdangerous import TimestampSigner
from starlette.websockets import WebSocketDisconnect

from asobiba.games.mancala.lessons import LESSON_BY_ID
from asobiba.server.accounts.passwords import HASHER
from asobiba.server.app import create_app
from asobiba.server.settings import GuestLimits, SocketLimits
from asobiba.server.social.names import fold_name
from asobiba.server.store.db import make_engine, migrations_config
from tests.server.stored_games import store_of
from tests.server.tables import Guest, until
from tests.server.tcp_cut import cuttable
from tests.server.test_people_records import played_game

SECRET = "test-secret"
PASSWORD = "correct horse battery"


def app_at(url: str, **limits: Any) -> TestClient:
    quiet = SocketLimits(ping_seconds=None)
    guest_limits = GuestLimits(**limits) if limits else None
    app = create_app(
        url,
        secret_key=SECRET,
        bot_workers=1,
        socket_limits=quiet,
        guest_limits=guest_limits,
        bot_pace=0,
    )
    return TestClient(app)


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest) -> str:
    return str(request.getfixturevalue(f"{request.param}_url"))


@pytest.fixture
def site(url: str) -> Iterator[TestClient]:
    with app_at(url) as client:
        yield client


def guest_id(browser: Guest) -> str:
    """The secret id in a guest's cookie."""
    assert browser.cookie is not None
    payload = TimestampSigner(SECRET).unsign(browser.cookie)
    player: str = json.loads(base64.b64decode(payload))["player"]
    return player


def records(browser: Guest) -> dict[str, Any]:
    response = browser.get("/api/records/mancala")
    assert response.status_code == 200
    answer: dict[str, Any] = response.json()
    return answer


def unfinished(browser: Guest) -> list[dict[str, Any]]:
    rooms: list[dict[str, Any]] = browser.get("/api/rooms?game=mancala").json()["rooms"]
    return rooms


def lessons_done(browser: Guest) -> set[str]:
    listed = browser.get("/api/learn/mancala").json()["lessons"]
    return {lesson["id"] for lesson in listed if lesson["done"]}


def finish_lesson(browser: Guest, lesson: str) -> None:
    moves = [{"pit": pit - 1} for pit in LESSON_BY_ID[lesson].answer]
    answer = browser.post(f"/api/learn/mancala/{lesson}", json={"moves": moves})
    assert answer.json()["status"] == "right"


def new_game(browser: Guest) -> str:
    body = {"game": "mancala", "options": {}, "level": "beginner", "order": "first"}
    response = browser.post("/api/rooms", json=body)
    assert response.status_code == 201, response.text
    room_id: str = response.json()["room_id"]
    return room_id


def games_of(client: TestClient, browser: Guest, seeds: range, prefix: str) -> None:
    """Finished games of ``browser``'s guest against the beginner, stored as rooms log them."""
    store = store_of(client)
    person = guest_id(browser)
    for seed in seeds:
        played_game(store, f"{prefix}{seed:02d}", [{"player": person}, {"bot": "beginner"}], seed)


def keep(browser: Guest, username: str, password: str = PASSWORD) -> dict[str, Any]:
    response = browser.post("/api/account", json={"username": username, "password": password})
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def sign_in(browser: Guest, username: str, password: str = PASSWORD) -> dict[str, Any]:
    response = browser.post("/api/session", json={"username": username, "password": password})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def played(answer: dict[str, Any]) -> int:
    return sum(row["games"] for row in answer["rows"])


def test_the_upgrade_keeps_every_record(url: str) -> None:
    """Records and unfinished games read through the API are the same after the schema is
    taken back to 0010 and upgraded to accounts again."""
    with app_at(url) as client:
        browser = Guest(client, name="Aki")
        games_of(client, browser, range(1, 4), "r")
        new_game(browser)
        finish_lesson(browser, "capture")
        before = (records(browser), unfinished(browser), lessons_done(browser))
        me = browser.get("/api/me").json()
        cookie = browser.cookie
    assert played(before[0]) == 3 and len(before[1]) == 1
    engine = make_engine(url)
    config = migrations_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0010_public_ids")
    engine.dispose()
    with app_at(url) as client:  # create_app upgrades to the head again
        browser = Guest.__new__(Guest)
        browser.client, browser.cookie = client, cookie
        assert (records(browser), unfinished(browser), lessons_done(browser)) == before
        assert browser.get("/api/me").json() == me | {"account": None}


def test_kept_games_follow_the_account_to_a_fresh_browser(site: TestClient) -> None:
    home = Guest(site, name="Aki")
    games_of(site, home, range(1, 4), "k")
    room_id = new_game(home)
    finish_lesson(home, "capture")
    me = home.get("/api/me").json()
    assert me["account"] is None
    before = (records(home), unfinished(home), lessons_done(home))

    kept = keep(home, "Aki")

    assert kept == {"id": me["id"], "account": {"username": "Aki"}}
    after = home.get("/api/me").json()
    assert after == me | {"account": {"username": "Aki"}}
    assert (records(home), unfinished(home), lessons_done(home)) == before
    phone = Guest(site)
    assert records(phone)["rows"] == []
    signed = sign_in(phone, "aki")  # the name in any case or width
    assert signed["account"] == {"username": "Aki"} and signed["id"] == me["id"]
    assert (records(phone), unfinished(phone), lessons_done(phone)) == before
    assert phone.get("/api/me").json() == after
    assert [room["room_id"] for room in unfinished(phone)] == [room_id]
    with phone.socket(room_id) as ws:  # the phone sits at the game left open at home
        sync, _ = until(ws, lambda m: m["type"] == "sync")
        assert sync["seat"] == 0


def test_signing_in_merges_the_devices_guest_history_once(site: TestClient) -> None:
    home = Guest(site, name="Aki")
    games_of(site, home, range(1, 3), "h")
    finish_lesson(home, "capture")
    keep(home, "Aki")
    laptop = Guest(site, name="Laptop")
    games_of(site, laptop, range(3, 6), "l")
    finish_lesson(laptop, "capture")  # both finished it: it counts once
    finish_lesson(laptop, "chain")
    laptop_room = new_game(laptop)

    answer = sign_in(laptop, "Aki")

    assert answer["merged"] == {"rooms": 4, "results": 3, "lessons": 1}
    summed = records(laptop)
    assert played(summed) == 5
    assert sorted(game["room_id"] for game in summed["games"]) == sorted(
        [f"h{n:02d}" for n in range(1, 3)] + [f"l{n:02d}" for n in range(3, 6)]
    )
    assert records(home) == summed
    assert lessons_done(home) == lessons_done(laptop) == {"capture", "chain"}
    assert [room["room_id"] for room in unfinished(home)] == [laptop_room]
    assert home.get("/api/me").json()["name"] == "Aki"  # the account's own name stays
    # Signing out and in again brings a new, empty guest: nothing more to merge, nothing doubled.
    assert laptop.delete("/api/session").json() == {"account": None}
    again = sign_in(laptop, "Aki")
    assert again["merged"] == {"rooms": 0, "results": 0, "lessons": 0}
    assert records(laptop) == summed


def test_a_live_game_moves_to_the_account_with_its_sockets(site: TestClient) -> None:
    """The guest's game is open in this browser (held in memory, its socket connected) when
    it signs in: the room's seat is the account's, the socket keeps it and plays on, and the
    game's end is the account's."""
    home = Guest(site)
    keep(home, "Aki")
    laptop = Guest(site)
    room_id = new_game(laptop)
    with laptop.socket(room_id) as ws:
        sync, _ = until(ws, lambda m: m["type"] == "sync")
        assert sync["seat"] == 0
        sign_in(laptop, "Aki")
        ws.send_json({"type": "act", "action": sync["legal"][0]})
        event, _ = until(ws, lambda m: m["type"] in ("event", "error"))
        assert event["type"] == "event"
    assert [room["room_id"] for room in unfinished(home)] == [room_id]
    with home.socket(room_id) as ws:
        sync, _ = until(ws, lambda m: m["type"] == "sync")
        assert sync["seat"] == 0


def test_a_wrong_password_and_an_unknown_name_answer_alike(site: TestClient) -> None:
    keep(Guest(site), "Aki")
    stranger = Guest(site)
    wrong = stranger.post("/api/session", json={"username": "Aki", "password": "wrong pass"})
    unknown = stranger.post("/api/session", json={"username": "Nobody", "password": PASSWORD})
    empty = stranger.post("/api/session", json={"username": "  ", "password": PASSWORD})
    assert wrong.status_code == unknown.status_code == empty.status_code == 401
    assert wrong.json() == unknown.json() == empty.json()
    assert wrong.json()["error"]["code"] == "wrong_credentials"
    assert stranger.get("/api/me").json()["account"] is None


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"username": "A ki", "password": PASSWORD}, 400, "invalid_username"),
        ({"username": "", "password": PASSWORD}, 400, "invalid_username"),
        ({"username": "x" * 25, "password": PASSWORD}, 400, "invalid_username"),
        ({"username": "CPU 2", "password": PASSWORD}, 400, "invalid_username"),
        ({"username": "Aki\u202e", "password": PASSWORD}, 400, "invalid_username"),
        ({"username": "Aki", "password": "seven77"}, 400, "password_too_short"),
        ({"username": "Aki", "password": "é" * 513}, 400, "password_too_long"),
        ({"username": "Aki", "password": 12345678}, 400, "bad_request"),
        ({"username": "Aki"}, 400, "bad_request"),
        ({"username": "Aki", "password": PASSWORD, "admin": True}, 400, "bad_request"),
    ],
)
def test_a_bad_account_is_refused_and_changes_nothing(
    sqlite_url: str, body: dict[str, Any], status: int, code: str
) -> None:
    with app_at(sqlite_url) as client:
        browser = Guest(client)
        refused = browser.post("/api/account", json=body)
        assert (refused.status_code, refused.json()["error"]["code"]) == (status, code)
        assert browser.get("/api/me").json()["account"] is None
        assert store_of(client).accounts.credentials(fold_name("Aki")) is None


def test_a_name_is_one_name_and_a_guest_keeps_one_account(site: TestClient) -> None:
    keep(Guest(site), "Aki")
    other = Guest(site)
    taken = other.post("/api/account", json={"username": "ＡＫＩ", "password": PASSWORD})
    assert (taken.status_code, taken.json()["error"]["code"]) == (409, "username_taken")
    keep(other, "Ben")
    twice = other.post("/api/account", json={"username": "Carl", "password": PASSWORD})
    assert (twice.status_code, twice.json()["error"]["code"]) == (409, "already_account")
    assert other.get("/api/me").json()["account"] == {"username": "Ben"}


def test_the_old_guest_cookie_of_an_account_is_a_stranger(site: TestClient) -> None:
    """A copy of the cookie the guest had before keeping their games signs nobody in: the
    account is reached only through a session, which can be signed out."""
    browser = Guest(site)
    games_of(site, browser, range(1, 2), "c")
    old = browser.cookie
    keep(browser, "Aki")
    copy = Guest.__new__(Guest)
    copy.client, copy.cookie = site, old
    me = copy.get("/api/me").json()
    assert me["account"] is None and me["id"] != browser.get("/api/me").json()["id"]
    assert records(copy)["rows"] == []
    assert played(records(browser)) == 1


def test_signing_out_makes_the_browser_a_new_guest(site: TestClient) -> None:
    browser = Guest(site)
    games_of(site, browser, range(1, 2), "o")
    keep(browser, "Aki")
    signed_in = browser.cookie
    account_id = browser.get("/api/me").json()["id"]
    assert browser.delete("/api/session").status_code == 200
    me = browser.get("/api/me").json()
    assert me["account"] is None and me["id"] != account_id
    assert records(browser)["rows"] == []
    copy = Guest.__new__(Guest)  # the signed-out cookie, kept somewhere, is nobody's
    copy.client, copy.cookie = site, signed_in
    assert copy.get("/api/me").json()["account"] is None
    assert browser.get("/api/sessions").status_code == 401
    assert sign_in(browser, "Aki")["id"] == account_id
    assert played(records(browser)) == 1


def test_sessions_are_listed_and_one_revoked_is_a_stranger(site: TestClient) -> None:
    home = Guest(site)
    home.client.headers["user-agent"] = (
        "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0"
    )
    keep(home, "Aki")
    del home.client.headers["user-agent"]
    phone = Guest(site)
    sign_in(phone, "Aki")
    room_id = new_game(phone)
    listed = home.get("/api/sessions").json()["sessions"]
    assert [(s["label"], s["current"]) for s in listed] == [("", False), ("Firefox on Linux", True)]
    phones = listed[0]["id"]

    revoked = home.delete(f"/api/sessions/{phones}")

    assert revoked.json() == {"revoked": phones, "signed_out": False}
    with phone.socket(room_id) as ws:  # its socket is nobody's: it watches, seated nowhere
        sync, _ = until(ws, lambda m: m["type"] == "sync")
        assert sync["seat"] is None
    assert phone.get("/api/me").json()["account"] is None  # and a new guest at its request
    assert unfinished(phone) == []
    assert [s["current"] for s in home.get("/api/sessions").json()["sessions"]] == [True]
    assert home.delete(f"/api/sessions/{phones}").status_code == 404
    assert home.delete("/api/sessions/not-an-id").status_code == 404
    mine = home.get("/api/sessions").json()["sessions"][0]["id"]
    assert home.delete(f"/api/sessions/{mine}").json() == {"revoked": mine, "signed_out": True}
    assert home.get("/api/me").json()["account"] is None


def test_a_hash_with_old_parameters_is_remade_at_sign_in(site: TestClient) -> None:
    browser = Guest(site)
    keep(browser, "Aki")
    accounts = store_of(site).accounts
    found = accounts.credentials(fold_name("Aki"))
    assert found is not None and found.password_hash is not None
    weaker = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1, type=Type.ID)
    accounts.set_password_hash(found.player, weaker.hash(PASSWORD))
    sign_in(Guest(site), "Aki")
    remade = accounts.credentials(fold_name("Aki"))
    assert remade is not None and remade.password_hash is not None
    assert not HASHER.check_needs_rehash(remade.password_hash)
    assert "m=19456,t=2,p=1" in remade.password_hash


def test_sign_ins_are_limited_per_name_and_per_address(sqlite_url: str) -> None:
    with app_at(sqlite_url, signin_per_name=3, signin_per_address=5) as client:
        keep(Guest(client), "Aki")  # one of the address's five
        guesser = Guest(client)
        for _ in range(3):
            wrong = guesser.post("/api/session", json={"username": "aki", "password": "guess123"})
            assert wrong.status_code == 401
        limited = guesser.post("/api/session", json={"username": "AKI", "password": PASSWORD})
        assert limited.status_code == 429 and int(limited.headers["retry-after"]) > 0
        assert limited.json()["error"]["code"] == "too_many_attempts"
        other = {"username": "Ben", "password": PASSWORD}
        assert guesser.post("/api/session", json=other).status_code == 401  # the address's 5th
        assert guesser.post("/api/session", json=other).status_code == 429
        assert guesser.get("/api/me").json()["account"] is None


@pytest.mark.parametrize(
    ("headers", "status", "code"),
    [
        ({"origin": "https://evil.example"}, 403, "cross_site"),
        ({"origin": "http://testserver.evil.example"}, 403, "cross_site"),
        ({"origin": "https://testserver"}, 403, "cross_site"),  # another scheme
        ({"sec-fetch-site": "cross-site"}, 403, "cross_site"),
        ({"sec-fetch-site": "same-site"}, 403, "cross_site"),
        ({"content-type": "text/plain"}, 415, "json_only"),
        ({"content-type": "application/x-www-form-urlencoded"}, 415, "json_only"),
    ],
)
def test_another_site_cannot_sign_a_visitor_in_or_out(
    sqlite_url: str, headers: dict[str, str], status: int, code: str
) -> None:
    """Login CSRF would put the visitor's guest games in the forger's account."""
    with app_at(sqlite_url) as client:
        forger = Guest(client)
        keep(forger, "Forger")
        victim = Guest(client)
        games_of(client, victim, range(1, 2), "v")
        body = json.dumps({"username": "Forger", "password": PASSWORD})
        kinds = {"content-type": "application/json"} | headers
        for method, path, content in [
            ("POST", "/api/session", body),
            ("POST", "/api/account", body.replace("Forger", "Victim")),
        ]:
            refused = victim.request(method, path, content=content, headers=kinds)
            assert (refused.status_code, refused.json()["error"]["code"]) == (status, code)
        assert victim.get("/api/me").json()["account"] is None
        assert played(records(victim)) == 1
        out = forger.request("DELETE", "/api/session", headers=headers)
        if "origin" in headers or "sec-fetch-site" in headers:
            assert out.status_code == 403
            assert forger.get("/api/me").json()["account"] == {"username": "Forger"}
        own = {"origin": "http://testserver", "sec-fetch-site": "same-origin"}
        assert (
            victim.post(
                "/api/session", content=body, headers=own | {"content-type": "application/json"}
            ).status_code
            == 200
        )


def test_a_signed_out_sessions_open_sockets_are_closed(site: TestClient) -> None:
    """Revoked from another device, or signed out in another tab: the session's sockets close
    at once (4401) rather than act for the account until they reconnect."""
    home = Guest(site)
    keep(home, "Aki")
    phone = Guest(site)
    sign_in(phone, "Aki")
    room_id = new_game(phone)
    with phone.socket(room_id) as ws:
        until(ws, lambda m: m["type"] == "sync")
        [theirs] = [s for s in home.get("/api/sessions").json()["sessions"] if not s["current"]]
        assert home.delete(f"/api/sessions/{theirs['id']}").status_code == 200
        with pytest.raises(WebSocketDisconnect) as closed:
            until(ws, lambda m: False)
        assert closed.value.code == 4401
    with home.socket(room_id) as ws:  # the account's other session still sits there
        sync, _ = until(ws, lambda m: m["type"] == "sync")
        assert sync["seat"] == 0
        home.delete("/api/session")
        with pytest.raises(WebSocketDisconnect) as closed:
            until(ws, lambda m: False)
        assert closed.value.code == 4401


def test_a_database_outage_signs_nobody_out(postgres_url: str) -> None:
    """While the store cannot be asked who a session is, its browser is nobody for the moment
    (pages still answer; what needs a player is 503) and its cookie is left alone: once the
    database is back, it is signed in as before."""
    with cuttable(("127.0.0.1", 5432)) as line:
        through = postgres_url.replace("127.0.0.1:5432", f"127.0.0.1:{line.port}")
        with app_at(through) as client:
            browser = Guest(client)
            keep(browser, "Aki")
            cookie = browser.cookie
            line.cut()
            page = browser.get("/games/mancala/rules")
            assert page.status_code == 200 and "set-cookie" not in page.headers
            refused = browser.post(
                "/api/rooms", json={"game": "mancala", "options": {}, "level": "beginner"}
            )
            assert refused.status_code == 503 and "set-cookie" not in refused.headers
            assert refused.json()["error"]["code"] == "unavailable"
            assert browser.cookie == cookie
            line.mend()
            deadline = time.monotonic() + 30
            while browser.get("/api/me").json()["account"] != {"username": "Aki"}:
                assert time.monotonic() < deadline, "still nobody after the database came back"
                time.sleep(0.1)
            assert browser.cookie == cookie


def test_the_session_cookie_is_http_only_same_site_lax_and_secure_over_tls(
    sqlite_url: str,
) -> None:
    with app_at(sqlite_url) as client:
        tls = TestClient(client.app, base_url="https://testserver")
        kept = tls.post("/api/account", json={"username": "Aki", "password": PASSWORD})
        assert kept.status_code == 201
        cookie = kept.headers["set-cookie"].lower()
        assert cookie.startswith("asobiba=")
        assert "httponly" in cookie and "samesite=lax" in cookie and "secure" in cookie
        signed = tls.post("/api/session", json={"username": "Aki", "password": PASSWORD})
        assert {"httponly", "samesite=lax", "secure"} <= {
            part.strip() for part in signed.headers["set-cookie"].lower().split(";")
        }


def test_an_account_exports_and_deletes_itself_with_its_sessions(site: TestClient) -> None:
    """Export and deletion (``http/personal.py``) cover an account: its username and sessions are
    in the export (never the password's hash or a session's key), and deleting it signs out
    every device and frees the name."""
    home = Guest(site, name="Aki")
    games_of(site, home, range(1, 3), "k")
    keep(home, "Aki")
    phone = Guest(site)
    sign_in(phone, "Aki")
    public = home.get("/api/me").json()["id"]
    exported = home.get(f"/api/players/{public}/export").json()
    assert [row["username"] for row in exported["account"]] == ["Aki"]
    assert "password_hash" not in exported["account"][0]
    assert len(exported["sessions"]) == 2 and all("id" not in row for row in exported["sessions"])
    assert HASHER.hash(PASSWORD)[:9] not in json.dumps(exported)

    same_site = {"Sec-Fetch-Site": "same-origin"}
    deleted = home.delete("/api/account", json={"confirm": True}, headers=same_site)
    assert deleted.status_code == 200, deleted.text
    assert home.get("/api/me").json()["account"] is None
    assert phone.get("/api/me").json()["account"] is None, "the other device is signed out"
    wrong = phone.post("/api/session", json={"username": "Aki", "password": PASSWORD})
    assert wrong.status_code == 401
    assert keep(Guest(site), "aki")["account"] == {"username": "aki"}, "the name is free again"
