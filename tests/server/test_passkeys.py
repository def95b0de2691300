"""Passkeys through the real app (issue 33), on SQLite and PostgreSQL: a guest keeps their games
with a passkey, signs in with it on another browser (whose guest history joins the account),
adds, names and deletes passkeys; answers for another challenge, a challenge answered twice,
another origin or relying party, no user verification, or a counter gone back are refused.

The browser and its authenticator are ``authenticator.Authenticator`` (P-256 keys, "none"
attestation), answering the options the site sends. The test client's site is
``http://testserver``: its relying party is ``testserver``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi.testclient import TestClient

from asobiba.server.accounts.ceremonies import Ceremony, MemoryCeremonies
from tests.server.authenticator import Authenticator, Credential, b64
from tests.server.tables import Guest
from tests.server.test_accounts import (
    app_at,
    finish_lesson,
    games_of,
    keep,
    lessons_done,
    new_game,
    played,
    records,
    unfinished,
)

ORIGIN = "http://testserver"


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest) -> str:
    return str(request.getfixturevalue(f"{request.param}_url"))


@pytest.fixture
def site(url: str) -> Iterator[TestClient]:
    with app_at(url) as client:
        yield client


def register_options(browser: Guest, username: str | None = None) -> dict[str, Any]:
    body = {} if username is None else {"username": username}
    response = browser.post("/api/passkeys/register/options", json=body)
    assert response.status_code == 200, response.text
    options: dict[str, Any] = response.json()
    return options


def register(browser: Guest, answer: dict[str, Any], **extra: Any) -> tuple[int, dict[str, Any]]:
    response = browser.post("/api/passkeys/register/verify", json={"credential": answer, **extra})
    return response.status_code, response.json()


def sign_in_options(browser: Guest) -> dict[str, Any]:
    response = browser.post("/api/passkeys/sign-in/options")
    assert response.status_code == 200, response.text
    options: dict[str, Any] = response.json()
    return options


def sign_in(browser: Guest, answer: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    response = browser.post("/api/passkeys/sign-in/verify", json={"credential": answer})
    return response.status_code, response.json()


def keep_with_passkey(
    browser: Guest, device: Authenticator, username: str, **extra: Any
) -> dict[str, Any]:
    status, answer = register(browser, device.create(register_options(browser, username)), **extra)
    assert status == 201, answer
    return answer


def passkeys(browser: Guest) -> list[dict[str, Any]]:
    response = browser.get("/api/passkeys")
    assert response.status_code == 200, response.text
    listed: list[dict[str, Any]] = response.json()["passkeys"]
    return listed


def code(answer: dict[str, Any]) -> str:
    found: str = answer["error"]["code"]
    return found


def test_a_guest_keeps_their_games_with_a_passkey_and_signs_in_elsewhere(
    site: TestClient,
) -> None:
    home = Guest(site, name="Aki")
    games_of(site, home, range(1, 4), "k")
    room_id = new_game(home)
    finish_lesson(home, "capture")
    me = home.get("/api/me").json()
    before = (records(home), unfinished(home), lessons_done(home))
    phone = Authenticator(ORIGIN)

    options = register_options(home, "Aki")

    assert options["rp"] == {"name": "asobiba", "id": "testserver"}
    assert options["user"]["name"] == "Aki" and options["excludeCredentials"] == []
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["authenticatorSelection"]["userVerification"] == "required"
    assert options["attestation"] == "none"
    old_cookie = home.cookie
    status, kept = register(home, phone.create(options), name="Phone")
    assert status == 201, kept
    copy = Guest.__new__(Guest)  # the guest cookie of before: a stranger now, as with a password
    copy.client, copy.cookie = site, old_cookie
    assert copy.get("/api/me").json()["account"] is None and records(copy)["rows"] == []
    assert kept["id"] == me["id"] and kept["account"] == {"username": "Aki"}
    assert kept["passkey"]["name"] == "Phone" and kept["passkey"]["last_used_at"] is None
    assert home.get("/api/me").json() == me | {"account": {"username": "Aki"}}
    assert (records(home), unfinished(home), lessons_done(home)) == before
    no_password = home.post("/api/session", json={"username": "Aki", "password": "x" * 12})
    assert no_password.status_code == 401  # a passkey's account has no password

    laptop = Guest(site, name="Laptop")  # a guest history on the other browser joins the account
    games_of(site, laptop, range(4, 6), "l")
    options = sign_in_options(laptop)
    assert options["rpId"] == "testserver" and options["allowCredentials"] == []
    assert options["userVerification"] == "required"
    status, signed = sign_in(laptop, phone.get(options))
    assert status == 200, signed
    assert signed["id"] == me["id"] and signed["account"] == {"username": "Aki"}
    assert signed["merged"] == {"rooms": 2, "results": 2, "lessons": 0}
    assert played(records(laptop)) == 5 and records(laptop) == records(home)
    assert [room["room_id"] for room in unfinished(laptop)] == [room_id]
    assert lessons_done(laptop) == {"capture"}
    [listed] = passkeys(laptop)
    assert listed["name"] == "Phone" and listed["last_used_at"] is not None
    assert len(laptop.get("/api/sessions").json()["sessions"]) == 2


def test_the_passkey_is_named_after_the_browser_unless_named(site: TestClient) -> None:
    browser = Guest(site)
    firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
    options = register_options(browser, "Ben")
    response = browser.post(
        "/api/passkeys/register/verify",
        json={"credential": Authenticator(ORIGIN).create(options)},
        headers={"user-agent": firefox},
    )
    assert response.status_code == 201, response.text
    assert response.json()["passkey"]["name"] == "Firefox on Linux"


BENT: list[dict[str, Any]] = [
    {"challenge": b64(b"a challenge the site never gave")},
    {"origin": "http://evil.example"},
    {"rp_id": "evil.example"},
    {"verified": False},
]
"""Answers bent as an attacker or a broken device would: another challenge, origin or relying
party, no user verification."""


def test_answers_the_site_did_not_ask_for_are_refused(site: TestClient) -> None:
    browser = Guest(site)
    device = Authenticator(ORIGIN)
    expected = ["passkey_expired", "passkey_refused", "passkey_refused", "passkey_refused"]
    for bent, refusal in zip(BENT, expected, strict=True):
        options = register_options(browser, "Aki")
        status, refused = register(browser, device.create(options, **bent))
        assert (status, code(refused)) == (400, refusal), bent
    assert browser.get("/api/me").json()["account"] is None
    answer = device.create(register_options(browser, "Aki"))
    assert register(browser, answer)[0] == 201
    status, again = register(browser, answer)  # the same answer once more: its challenge is used
    assert (status, code(again)) == (400, "passkey_expired")

    stranger = Guest(site)
    for bent, status_expected in zip(BENT, [400, 401, 401, 401], strict=True):
        status, refused = sign_in(stranger, device.get(sign_in_options(stranger), **bent))
        assert status == status_expected, (bent, refused)
    assert stranger.get("/api/me").json()["account"] is None
    answer = device.get(sign_in_options(stranger))
    assert sign_in(stranger, answer)[0] == 200
    other = Guest(site)
    status, replayed = sign_in(other, answer)  # a copied answer: the challenge is spent
    assert (status, code(replayed)) == (400, "passkey_expired")
    assert other.get("/api/me").json()["account"] is None


def test_a_challenge_answers_only_for_the_browser_that_asked(site: TestClient) -> None:
    device = Authenticator(ORIGIN)
    keep_with_passkey(Guest(site), device, "Aki")
    asked, other = Guest(site), Guest(site)
    answer = device.get(sign_in_options(asked))
    status, refused = sign_in(other, answer)
    assert (status, code(refused)) == (400, "passkey_expired")
    assert other.get("/api/me").json()["account"] is None
    options = register_options(asked, "Ben")  # a sign-in's challenge makes no account either
    status, refused = register(other, Authenticator(ORIGIN).create(options))
    assert (status, code(refused)) == (400, "passkey_expired")


def test_a_counter_that_does_not_rise_is_refused(site: TestClient) -> None:
    device = Authenticator(ORIGIN)
    keep_with_passkey(Guest(site), device, "Aki")
    browser = Guest(site)
    assert sign_in(browser, device.get(sign_in_options(browser), sign_count=5))[0] == 200
    for count in (5, 4, 0):  # the same count, one lower, none: a copy of the key
        stranger = Guest(site)
        status, refused = sign_in(stranger, device.get(sign_in_options(stranger), sign_count=count))
        assert (status, refused["error"]) == (
            401,
            {"code": "passkey_refused", "message": "that passkey does not sign in to an account"},
        ), count
    assert sign_in(Guest(site), device.get(sign_in_options(browser), sign_count=6))[0] == 400
    assert sign_in(browser, device.get(sign_in_options(browser), sign_count=6))[0] == 200


def test_of_two_sign_ins_from_one_counter_value_one_is_written(site: TestClient) -> None:
    """Two sign-ins checked against the same stored counter (a copied key used at once): the
    store writes the new counter only over the value each was checked against."""
    device = Authenticator(ORIGIN)
    keep_with_passkey(Guest(site), device, "Aki")
    store = site.app.state.passkeys  # type: ignore[attr-defined]
    found = store.find(b64(device.credentials[0].id))
    assert found is not None and found.sign_count == 0
    assert store.used(found.id, found.sign_count, 7)
    assert not store.used(found.id, found.sign_count, 8), "the other one lost"
    assert store.find(b64(device.credentials[0].id)).sign_count == 7


def test_an_authenticator_without_a_counter_signs_in_every_time(site: TestClient) -> None:
    synced = Authenticator(ORIGIN, counting=False)
    keep_with_passkey(Guest(site), synced, "Aki")
    for _ in range(3):
        browser = Guest(site)
        assert sign_in(browser, synced.get(sign_in_options(browser)))[0] == 200


def test_an_unknown_passkey_answers_as_a_wrong_one(site: TestClient) -> None:
    device = Authenticator(ORIGIN)
    keep_with_passkey(Guest(site), device, "Aki")
    browser = Guest(site)
    unknown = Authenticator(ORIGIN)
    unknown.create(register_options(Guest(site), "Ben"))  # made, never sent to the site
    status, nobody = sign_in(browser, unknown.get(sign_in_options(browser)))
    assert status == 401
    status, unverified = sign_in(browser, device.get(sign_in_options(browser), verified=False))
    assert status == 401 and unverified == nobody
    [kept] = device.credentials
    thief = Credential(
        kept.id, ec.generate_private_key(ec.SECP256R1()), kept.rp_id, kept.user_handle
    )
    status, forged = sign_in(browser, device.get(sign_in_options(browser), credential=thief))
    assert status == 401 and forged == nobody, "signed with another key"
    assert sign_in(browser, device.get(sign_in_options(browser)))[0] == 200


def test_an_account_holds_several_passkeys_and_keeps_one(site: TestClient) -> None:
    phone, laptop, key = Authenticator(ORIGIN), Authenticator(ORIGIN), Authenticator(ORIGIN)
    home = Guest(site)
    keep_with_passkey(home, phone, "Aki", name="Phone")

    options = register_options(home, "ignored: a signed-in browser adds to its own account")
    assert options["user"]["name"] == "Aki"
    assert options["user"]["id"] == b64(phone.credentials[0].user_handle), "one handle"
    assert [item["id"] for item in options["excludeCredentials"]] == [b64(phone.credentials[0].id)]
    with pytest.raises(AssertionError, match="holds one of the account's passkeys"):
        phone.create(options)
    status, added = register(home, laptop.create(options), name="Laptop")
    assert status == 201 and added["passkey"]["name"] == "Laptop"
    status, added = register(home, key.create(register_options(home)), name="Key")
    assert status == 201
    listed = passkeys(home)
    assert [p["name"] for p in listed] == ["Phone", "Laptop", "Key"]
    assert all(p["deletable"] for p in listed)
    ids = {p["name"]: p["id"] for p in listed}

    renamed = home.put(f"/api/passkeys/{ids['Key']}/name", json={"name": "  Yellow\tkey "})
    assert renamed.status_code == 200 and renamed.json()["passkey"]["name"] == "Yellow key"
    for bad in ("", "   ", "x" * 65):
        refused = home.put(f"/api/passkeys/{ids['Key']}/name", json={"name": bad})
        assert (refused.status_code, code(refused.json())) == (400, "invalid_name")
    assert home.delete(f"/api/passkeys/{ids['Phone']}").json() == {"deleted": ids["Phone"]}
    assert home.delete(f"/api/passkeys/{ids['Key']}").status_code == 200
    last = home.delete(f"/api/passkeys/{ids['Laptop']}")
    assert (last.status_code, code(last.json())) == (409, "last_sign_in")
    [left] = passkeys(home)
    assert left["name"] == "Laptop" and not left["deletable"]

    browser = Guest(site)
    status, _ = sign_in(browser, phone.get(sign_in_options(browser)))
    assert status == 401, "a deleted passkey signs in no more"
    assert sign_in(browser, laptop.get(sign_in_options(browser)))[0] == 200


def test_an_account_with_a_password_may_delete_every_passkey(site: TestClient) -> None:
    home = Guest(site)
    keep(home, "Aki")
    device = Authenticator(ORIGIN)
    status, added = register(home, device.create(register_options(home)))
    assert status == 201
    browser = Guest(site)
    assert sign_in(browser, device.get(sign_in_options(browser)))[0] == 200
    assert added["passkey"]["deletable"], "the password is a way in too"
    assert home.delete(f"/api/passkeys/{added['passkey']['id']}").status_code == 200
    assert passkeys(home) == []


def test_another_accounts_passkeys_are_out_of_reach(site: TestClient) -> None:
    aki, ben = Guest(site), Guest(site)
    keep_with_passkey(aki, Authenticator(ORIGIN), "Aki")
    keep_with_passkey(ben, Authenticator(ORIGIN), "Ben")
    keep_with_passkey(Guest(site), Authenticator(ORIGIN), "Carl")
    [akis] = passkeys(aki)
    for response in (
        ben.put(f"/api/passkeys/{akis['id']}/name", json={"name": "mine"}),
        ben.delete(f"/api/passkeys/{akis['id']}"),
        ben.delete("/api/passkeys/99999999"),
    ):
        assert (response.status_code, code(response.json())) == (404, "unknown_passkey")
    assert passkeys(aki) == [akis]
    for path in ("/api/passkeys/0", "/api/passkeys/x", f"/api/passkeys/{2**40}"):
        assert ben.delete(path).status_code == 400
    guest = Guest(site)
    assert guest.get("/api/passkeys").status_code == 401
    assert guest.delete(f"/api/passkeys/{akis['id']}").status_code == 401


def test_a_bad_registration_is_refused_and_changes_nothing(site: TestClient) -> None:
    keep_with_passkey(Guest(site), Authenticator(ORIGIN), "Aki")
    browser = Guest(site)
    for body, expected in [
        ({"username": "AKI"}, (409, "username_taken")),
        ({"username": "a b/c"}, (400, "invalid_username")),
        ({}, (400, "invalid_username")),
        ({"username": "Ben", "extra": 1}, (400, "bad_request")),
    ]:
        response = browser.post("/api/passkeys/register/options", json=body)
        assert (response.status_code, code(response.json())) == expected, body
    options = register_options(browser, "Ben")
    for body, expected in [
        ({"credential": {"id": "x"}}, (400, "passkey_refused")),
        ({"credential": "no"}, (400, "bad_request")),
        ({"credential": Authenticator(ORIGIN).create(options), "name": ""}, (400, "invalid_name")),
    ]:
        response = browser.post("/api/passkeys/register/verify", json=body)
        assert (response.status_code, code(response.json())) == expected, body
    assert browser.get("/api/me").json()["account"] is None
    status, kept = register(browser, Authenticator(ORIGIN).create(options))  # still unanswered
    assert status == 201 and kept["account"] == {"username": "Ben"}


def test_a_name_taken_between_the_options_and_the_answer_is_refused(site: TestClient) -> None:
    first, second = Guest(site), Guest(site)
    late = register_options(second, "Aki")
    keep_with_passkey(first, Authenticator(ORIGIN), "Aki")
    status, refused = register(second, Authenticator(ORIGIN).create(late))
    assert (status, code(refused)) == (409, "username_taken")
    assert second.get("/api/me").json()["account"] is None


def test_passkey_sign_ins_count_against_the_limits(sqlite_url: str) -> None:
    with app_at(sqlite_url, signin_per_name=2, signin_per_address=4) as site:
        device = Authenticator(ORIGIN)
        keep_with_passkey(Guest(site), device, "Aki")  # an account made: one for the address
        for expected in (200, 200):
            browser = Guest(site)
            assert sign_in(browser, device.get(sign_in_options(browser)))[0] == expected
        browser = Guest(site)
        status, refused = sign_in(browser, device.get(sign_in_options(browser)))
        assert (status, code(refused)) == (429, "too_many_attempts"), "the account's two"
        unknown = Authenticator(ORIGIN)
        unknown.create(register_options(Guest(site), "Ben"))  # the address's fourth
        status, refused = sign_in(browser, unknown.get(sign_in_options(browser)))
        assert (status, code(refused)) == (429, "too_many_attempts"), "the address's four"


def test_the_configured_origin_is_the_only_one(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASOBIBA_PASSKEY_ORIGIN", "https://asobiba.example")
    with app_at(sqlite_url) as site:
        browser = Guest(site)
        options = register_options(browser, "Aki")
        assert options["rp"]["id"] == "asobiba.example"
        device = Authenticator("https://asobiba.example")
        status, refused = register(browser, device.create(options, origin=ORIGIN))
        assert (status, code(refused)) == (400, "passkey_refused")
        assert register(browser, device.create(register_options(browser, "Aki")))[0] == 201
        other = Guest(site)
        status, _ = sign_in(other, device.get(sign_in_options(other), origin=ORIGIN))
        assert status == 401
        assert sign_in(other, device.get(sign_in_options(other)))[0] == 200


def test_a_site_at_an_ip_address_offers_no_passkeys(sqlite_url: str) -> None:
    with app_at(sqlite_url) as site:
        browser = Guest(site)
        response = browser.post("/api/passkeys/sign-in/options", headers={"host": "127.0.0.1:8000"})
        assert (response.status_code, code(response.json())) == (409, "passkeys_unavailable")


def test_other_sites_cannot_use_the_passkey_routes(site: TestClient) -> None:
    device = Authenticator(ORIGIN)
    keep_with_passkey(Guest(site), device, "Aki")
    browser = Guest(site)
    answer = device.get(sign_in_options(browser))
    for headers in ({"sec-fetch-site": "cross-site"}, {"origin": "http://evil.example"}):
        response = browser.post(
            "/api/passkeys/sign-in/verify", json={"credential": answer}, headers=headers
        )
        assert (response.status_code, code(response.json())) == (403, "cross_site")
    response = browser.post(
        "/api/passkeys/sign-in/verify",
        content=json.dumps({"credential": answer}),
        headers={"content-type": "text/plain"},
    )
    assert (response.status_code, code(response.json())) == (415, "json_only")
    assert sign_in(browser, answer)[0] == 200, "the refusals left the challenge unspent"


def test_a_ceremony_in_memory_is_taken_once_and_expires() -> None:
    async def run() -> None:
        store = MemoryCeremonies(seconds=60, most=2)
        first, second, third = (Ceremony(f"c{n}", "sign_in", "p") for n in range(3))
        for ceremony in (first, second, third):
            await store.put(ceremony)
        assert await store.take("c0") is None, "the oldest made room"
        assert await store.take("c1") == second
        assert await store.take("c1") is None
        gone = MemoryCeremonies(seconds=0)
        await gone.put(first)
        assert await gone.take("c0") is None

    asyncio.run(run())
