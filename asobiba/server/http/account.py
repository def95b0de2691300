"""Accounts' JSON API: keep a guest's games under a username and password, sign in (a guest's
history on the device joins the account), sign out, and the account's signed-in sessions
(docs/ARCHITECTURE.md, "Accounts"). Every route here refuses requests from other sites
(``csrf.py``)."""

from __future__ import annotations

import asyncio
import re
import secrets
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field
from redis.exceptions import RedisError

from asobiba.server.accounts import devices
from asobiba.server.accounts.attempts import Attempts, name_key
from asobiba.server.accounts.passwords import (
    MAX_BYTES,
    BadPassword,
    Passwords,
    new_password,
    normal,
)
from asobiba.server.http.csrf import refuse_cross_site
from asobiba.server.http.identity import (
    KnownGuests,
    ensure_player_id,
    identity,
    player_id,
    sign_in,
    sign_out,
)
from asobiba.server.limits import client_address
from asobiba.server.metrics import count_refusal
from asobiba.server.rooms.hub import Hub
from asobiba.server.social.names import InvalidName, clean_username, fold_name
from asobiba.server.sockets.signed import SignedSockets
from asobiba.server.store.accounts import Accounts, AlreadyAccount, NameTaken, token_hash

router = APIRouter(prefix="/api", dependencies=[Depends(refuse_cross_site)])

SESSION_ID = re.compile(r"[0-9a-f]{16}")
WRONG = {
    "code": "wrong_credentials",
    "message": "that username and password do not match an account",
}
"""The one answer to every failed sign-in: a name that is nobody's and a wrong password read
alike (and take as long: ``Passwords.verify``)."""


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(max_length=200)
    password: str = Field(max_length=MAX_BYTES)


def _accounts(request: Request) -> Accounts:
    hub: Hub = request.app.state.hub
    return hub.store.accounts


def _refused(status: int, code: str, message: str) -> HTTPException:
    return HTTPException(status, detail={"code": code, "message": message})


async def _attempt(request: Request, name: str | None) -> None:
    """Count a sign-in (``name``: its ``name_key``) or a new account (None) against the limits
    (``accounts/attempts.py``), or refuse it: 429 ``too_many_attempts`` with ``Retry-After``;
    503 when the counts cannot be reached (nothing is checked unlimited)."""
    attempts: Attempts = request.app.state.attempts
    try:
        wait = await attempts.spend(name, client_address(request))
    except RedisError:
        raise _refused(
            503, "unavailable", "sign-in cannot be checked just now; try again"
        ) from None
    if wait:
        count_refusal("signin")
        raise HTTPException(
            429,
            detail={
                "code": "too_many_attempts",
                "message": f"too many sign-in attempts; try again in {wait} s",
            },
            headers={"Retry-After": str(wait)},
        )


def _signed_out(request: Request, key: str) -> None:
    """The session ``key`` was signed out: its room sockets close, here and on every other
    process of the site."""
    signed: SignedSockets = request.app.state.signed_sockets
    signed.end(key)
    hub: Hub = request.app.state.hub
    if hub.switchboard is not None:
        hub.switchboard.relay.broadcast({"k": "signed_out", "session": key})


async def _start_session(request: Request, player: str, username: str) -> None:
    """Store a new session of ``player``'s account and give the browser its cookie."""
    token = secrets.token_urlsafe(32)
    label = await asyncio.to_thread(devices.label, request.headers.get("user-agent"))
    await asyncio.to_thread(_accounts(request).start_session, player, token_hash(token), label)
    sign_in(request, token, player, username)


async def _answer(request: Request, username: str, **extra: Any) -> dict[str, Any]:
    person = player_id(request)
    assert person is not None, "signed in"
    public = await asyncio.to_thread(request.app.state.hub.store.public_id, person)
    return {"id": public, "account": {"username": username}, **extra}


@router.post("/account", status_code=201)
async def keep_games(body: Credentials, request: Request) -> dict[str, Any]:
    """The caller's guest becomes an account under ``username`` and ``password``: the same
    player, so every game, record, replay, lesson, name and open table stays theirs. The
    browser is signed in to it at once."""
    try:
        username = clean_username(body.username)
    except InvalidName as error:
        raise _refused(400, "invalid_username", str(error)) from None
    try:
        password = new_password(body.password)
    except BadPassword as error:
        raise _refused(400, error.code, error.message) from None
    if identity(request).session is not None:
        raise _refused(409, "already_account", "this browser is signed in to an account")
    await _attempt(request, None)
    guest = ensure_player_id(request)
    passwords: Passwords = request.app.state.passwords
    hashed = await passwords.hash(password)
    try:
        await asyncio.to_thread(
            _accounts(request).create, guest, username, fold_name(username), hashed
        )
    except AlreadyAccount:
        raise _refused(409, "already_account", "these games are kept by an account") from None
    except NameTaken:
        message = f"the username {username!r} is taken; choose another"
        raise _refused(409, "username_taken", message) from None
    known: KnownGuests = request.app.state.known_guests
    known.forget(guest)  # a copy of its guest cookie is a stranger from now on
    await _start_session(request, guest, username)
    return await _answer(request, username)


@router.post("/session")
async def start_session(body: Credentials, request: Request) -> dict[str, Any]:
    """Sign in. A guest's history on this browser (its games, records, lessons, name, open
    tables) joins the account, nothing lost or doubled (``merged`` says what moved); a session
    of another account this browser had is signed out. Every failure is the same 401."""
    folded = fold_name(body.username.strip())
    try:
        password = normal(body.password)
    except BadPassword as error:
        raise _refused(400, error.code, error.message) from None
    await _attempt(request, name_key(folded))
    accounts = _accounts(request)
    found = await asyncio.to_thread(accounts.credentials, folded) if folded else None
    passwords: Passwords = request.app.state.passwords
    verdict = await passwords.verify(None if found is None else found.password_hash, password)
    if found is None or not verdict.right:
        raise HTTPException(401, detail=WRONG)
    if verdict.rehashed is not None:
        await asyncio.to_thread(accounts.set_password_hash, found.player, verdict.rehashed)
    merged = await enter(request, found.player, found.username)
    return await _answer(request, found.username, merged=merged)


async def enter(request: Request, player: str, username: str) -> dict[str, int]:
    """Sign this browser in to the account ``player`` (proven by a password or a passkey):
    the guest history it holds joins the account, or the session of another account it had
    is signed out; a new session starts. What moved."""
    accounts = _accounts(request)
    before = identity(request)
    merged = {"rooms": 0, "results": 0, "lessons": 0}
    if before.session is not None:
        assert before.player is not None
        await asyncio.to_thread(accounts.revoke, before.player, before.session)
        _signed_out(request, before.session)
    elif before.player is not None and await asyncio.to_thread(accounts.is_known, before.player):
        hub: Hub = request.app.state.hub
        moved, left = await hub.adopt(before.player, player)
        done = await asyncio.to_thread(accounts.merge, before.player, player, left)
        merged = {"rooms": moved + done.rooms, "results": done.results, "lessons": done.lessons}
    await _start_session(request, player, username)
    return merged


@router.delete("/session")
async def end_session(request: Request) -> dict[str, Any]:
    """Sign out: this session ends, and the browser is a new guest."""
    who = identity(request)
    if who.session is not None and who.player is not None:
        await asyncio.to_thread(_accounts(request).revoke, who.player, who.session)
        _signed_out(request, who.session)
        sign_out(request)
    return {"account": None}


def _signed_in(request: Request) -> tuple[str, str]:
    """The account's player id and this session's key, or 401 ``not_signed_in``."""
    who = identity(request)
    if who.session is None or who.player is None:
        raise _refused(401, "not_signed_in", "sign in to an account first")
    return who.player, who.session


@router.get("/sessions")
async def sessions(request: Request) -> dict[str, Any]:
    """The account's signed-in sessions, the latest seen first; ``current`` is this one."""
    player, key = _signed_in(request)
    rows = await asyncio.to_thread(_accounts(request).sessions, player)
    return {
        "sessions": [
            {
                "id": row.public_id,
                "label": row.label,
                "created_at": row.created_at.isoformat(),
                "seen_at": row.seen_at.isoformat(),
                "current": row.key == key,
            }
            for row in rows
        ]
    }


@router.delete("/sessions/{session_id}")
async def revoke(session_id: str, request: Request) -> dict[str, Any]:
    """Sign one of the account's sessions out (``id`` from ``GET /api/sessions``): its
    browser is a stranger at its next request. Revoking this one signs this browser out."""
    player, key = _signed_in(request)
    revoked = None
    if SESSION_ID.fullmatch(session_id):
        revoked = await asyncio.to_thread(_accounts(request).revoke_listed, player, session_id)
    if revoked is None:
        raise _refused(404, "unknown_session", "this account has no such session signed in")
    _signed_out(request, revoked)
    if revoked == key:
        sign_out(request)
    return {"revoked": session_id, "signed_out": revoked == key}
