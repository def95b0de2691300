"""Passkeys' JSON API (``/api/passkeys/...``): each WebAuthn ceremony is two requests, the
options the browser passes to ``navigator.credentials`` and the browser's answer
(``accounts/passkeys.py`` checks it with the ``webauthn`` package; ``accounts/ceremonies.py``
keeps each challenge until it is answered, once).

- ``POST /register/options`` then ``POST /register/verify``: a guest keeps their games with a
  passkey under a chosen username (the account is made with no password, the browser signed
  in to it), or a signed-in account adds one more passkey.
- ``POST /sign-in/options`` then ``POST /sign-in/verify``: sign in with whatever passkey the
  browser offers (no username asked); the guest history on the browser joins the account as a
  password's sign-in does (``account.enter``), within the same limits (``account._attempt``).
- ``GET /api/passkeys``, ``PUT /api/passkeys/{id}/name``, ``DELETE /api/passkeys/{id}``: the
  account's passkeys; the last way to sign in to an account is never deleted (each listed
  passkey says whether it may be: ``deletable``).

Every route refuses requests from other sites (``csrf.py``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Path, Request
from pydantic import BaseModel, ConfigDict, Field
from redis.exceptions import RedisError

from asobiba.server.accounts import devices
from asobiba.server.accounts.attempts import name_key
from asobiba.server.accounts.ceremonies import Ceremonies, Ceremony, Purpose
from asobiba.server.accounts.passkeys import (
    BadName,
    Refused,
    RelyingParty,
    creation_options,
    credential_id,
    new_challenge,
    new_user_handle,
    passkey_name,
    read_assertion,
    read_creation,
    request_options,
    verify_assertion,
    verify_creation,
)
from asobiba.server.http.account import (
    _accounts,
    _answer,
    _attempt,
    _refused,
    _signed_in,
    _start_session,
    enter,
)
from asobiba.server.http.csrf import refuse_cross_site
from asobiba.server.http.identity import KnownGuests, ensure_player_id, identity
from asobiba.server.social.names import InvalidName, clean_username, fold_name
from asobiba.server.store.accounts import AlreadyAccount, NameTaken
from asobiba.server.store.passkeys import (
    MAX_PER_ACCOUNT,
    CredentialTaken,
    Deleted,
    NewPasskey,
    Passkeys,
    TooMany,
)

router = APIRouter(prefix="/api/passkeys", dependencies=[Depends(refuse_cross_site)])

log = logging.getLogger(__name__)

REFUSED = {"code": "passkey_refused", "message": "that passkey does not sign in to an account"}
"""The one answer to every sign-in a passkey does not prove: a passkey nobody has, a
signature that does not verify, a counter that went back, all alike."""
EXPIRED = (
    400,
    "passkey_expired",
    "this passkey request is over (answered, timed out or never made here); start again",
)
PASSKEY_ID = Path(ge=1, le=2**31 - 1)


class Username(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str | None = Field(default=None, max_length=200)
    """The account's username when a guest keeps their games; a signed-in account's own is
    used for it."""


class Registration(BaseModel):
    model_config = ConfigDict(extra="forbid")
    credential: dict[str, Any]
    """What ``navigator.credentials.create`` gave, as JSON (binary fields in base64url)."""
    name: str | None = Field(default=None, max_length=200)
    """What the person calls the passkey; by default, what the browser is."""


class Assertion(BaseModel):
    model_config = ConfigDict(extra="forbid")
    credential: dict[str, Any]
    """What ``navigator.credentials.get`` gave, as JSON."""


class Name(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200)


def _passkeys(request: Request) -> Passkeys:
    found: Passkeys = request.app.state.passkeys
    return found


def _party(request: Request) -> RelyingParty:
    """The site as a relying party: the configured origin (``ASOBIBA_PASSKEY_ORIGIN``), else
    this request's own. 409 ``passkeys_unavailable`` at an address browsers make no passkeys
    for (an IP address)."""
    configured: RelyingParty | None = request.app.state.relying_party
    if configured is not None:
        party = configured
    else:
        try:
            party = RelyingParty.of(f"{request.url.scheme}://{request.headers.get('host', '')}")
        except ValueError:
            raise _refused(400, "bad_host", "the request names no host") from None
    if not party.usable:
        message = "browsers make passkeys only for a site's name (localhost too), not an address"
        raise _refused(409, "passkeys_unavailable", message)
    return party


async def _keep(request: Request, ceremony: Ceremony) -> None:
    store: Ceremonies = request.app.state.ceremonies
    try:
        await store.put(ceremony)
    except RedisError:
        raise _refused(503, "unavailable", "passkeys cannot be used just now; try again") from None


async def _take(request: Request, challenge: str, purposes: set[Purpose]) -> Ceremony:
    """The ceremony this browser started for ``challenge``, one of ``purposes``, removed as it
    is read; else 400 ``passkey_expired`` (another browser's challenge is never taken)."""
    store: Ceremonies = request.app.state.ceremonies
    try:
        ceremony = await store.take(challenge)
    except RedisError:
        raise _refused(503, "unavailable", "passkeys cannot be used just now; try again") from None
    if (
        ceremony is None
        or ceremony.purpose not in purposes
        or ceremony.player != identity(request).player
    ):
        raise _refused(*EXPIRED)
    return ceremony


async def _listed(request: Request, player: str) -> list[dict[str, Any]]:
    """The account's passkeys as the page shows them; ``deletable``: not its last way to sign
    in (a page need not send a deletion bound to be refused)."""
    passkeys = _passkeys(request)
    rows = await asyncio.to_thread(passkeys.listed, player)
    deletable = len(rows) > 1 or await asyncio.to_thread(passkeys.has_password, player)
    return [
        {
            "id": row.id,
            "name": row.name,
            "created_at": row.created_at.isoformat(),
            "last_used_at": None if row.last_used_at is None else row.last_used_at.isoformat(),
            "deletable": deletable,
        }
        for row in rows
    ]


async def _one(request: Request, player: str, passkey_id: int) -> dict[str, Any]:
    return next(row for row in await _listed(request, player) if row["id"] == passkey_id)


@router.post("/register/options")
async def register_options(request: Request, body: Username | None = None) -> dict[str, Any]:
    """The options of ``navigator.credentials.create``: for a guest, a passkey of the account
    their games will be kept under (``username``, checked now and again when it is made); for
    a signed-in browser, one more passkey of its account."""
    party = _party(request)
    who = identity(request)
    passkeys = _passkeys(request)
    purpose: Purpose
    if who.session is not None:
        player, _ = _signed_in(request)
        assert who.username is not None
        username = who.username
        exclude = await asyncio.to_thread(passkeys.credentials, player)
        if len(exclude) >= MAX_PER_ACCOUNT:
            message = f"an account holds at most {MAX_PER_ACCOUNT} passkeys; delete one first"
            raise _refused(409, "too_many_passkeys", message)
        handle = await asyncio.to_thread(passkeys.user_handle, player) or new_user_handle()
        purpose = "add"
    else:
        try:
            username = clean_username(body.username if body and body.username else "")
        except InvalidName as error:
            raise _refused(400, "invalid_username", str(error)) from None
        await _attempt(request, None)
        if await asyncio.to_thread(_accounts(request).credentials, fold_name(username)):
            message = f"the username {username!r} is taken; choose another"
            raise _refused(409, "username_taken", message)
        player = ensure_player_id(request)
        exclude, handle, purpose = [], new_user_handle(), "create"
    challenge = new_challenge()
    await _keep(request, Ceremony(challenge, purpose, player, username, handle))
    return creation_options(party, challenge, handle, username, exclude)


@router.post("/register/verify", status_code=201)
async def register_verify(body: Registration, request: Request) -> dict[str, Any]:
    """The browser's new passkey, checked against the options it was given: a guest's games
    are kept by a new account signed in at once (as ``POST /api/account`` answers, with
    ``passkey``), or the signed-in account holds one more passkey (``{"passkey"}``)."""
    party = _party(request)
    try:
        chosen = None if body.name is None else passkey_name(body.name)
        credential, challenge = read_creation(body.credential)
    except BadName as error:
        raise _refused(400, "invalid_name", str(error)) from None
    except Refused as error:
        log.info("passkey registration refused: %s", error)
        raise _refused(400, "passkey_refused", "the browser's passkey could not be read") from None
    ceremony = await _take(request, challenge, {"create", "add"})
    who = identity(request)
    if (ceremony.purpose == "add") != (who.session is not None):
        raise _refused(*EXPIRED)  # signed in or out since the options
    assert ceremony.username is not None and ceremony.user_handle is not None
    try:
        proven = verify_creation(party, credential, challenge)
    except Refused as error:
        log.info("passkey registration refused: %s", error)
        message = "the browser's passkey was not made for this site or this request"
        raise _refused(400, "passkey_refused", message) from None
    name = chosen
    if name is None:
        name = await asyncio.to_thread(devices.label, request.headers.get("user-agent"))
    key = NewPasskey(
        proven.credential_id,
        proven.public_key,
        proven.sign_count,
        proven.transports,
        ceremony.user_handle,
        name,
    )
    passkeys = _passkeys(request)
    try:
        if ceremony.purpose == "add":
            passkey_id = await asyncio.to_thread(passkeys.add, ceremony.player, key)
            return {"passkey": await _one(request, ceremony.player, passkey_id)}
        passkey_id = await asyncio.to_thread(
            passkeys.create_account,
            ceremony.player,
            ceremony.username,
            fold_name(ceremony.username),
            key,
        )
    except AlreadyAccount:
        raise _refused(409, "already_account", "these games are kept by an account") from None
    except NameTaken:
        message = f"the username {ceremony.username!r} is taken; choose another"
        raise _refused(409, "username_taken", message) from None
    except CredentialTaken:
        raise _refused(409, "passkey_taken", "this passkey is kept already") from None
    except TooMany:
        message = f"an account holds at most {MAX_PER_ACCOUNT} passkeys; delete one first"
        raise _refused(409, "too_many_passkeys", message) from None
    known: KnownGuests = request.app.state.known_guests
    known.forget(ceremony.player)  # a copy of its guest cookie is a stranger from now on
    await _start_session(request, ceremony.player, ceremony.username)
    passkey = await _one(request, ceremony.player, passkey_id)
    return await _answer(request, ceremony.username, passkey=passkey)


@router.post("/sign-in/options")
async def sign_in_options(request: Request) -> dict[str, Any]:
    """The options of ``navigator.credentials.get``: any passkey of this site's accounts the
    browser holds may answer."""
    party = _party(request)
    challenge = new_challenge()
    await _keep(request, Ceremony(challenge, "sign_in", ensure_player_id(request)))
    return request_options(party, challenge)


@router.post("/sign-in/verify")
async def sign_in_verify(body: Assertion, request: Request) -> dict[str, Any]:
    """Sign in with the passkey the browser chose, as ``POST /api/session`` does (``merged``
    says what of the browser's guest history joined the account). Every passkey that does not
    prove an account is the same 401; the attempt counts against the address and, when the
    passkey is an account's, against that account's name."""
    party = _party(request)
    try:
        credential, challenge = read_assertion(body.credential)
    except Refused as error:
        log.info("passkey sign-in refused: %s", error)
        raise _refused(400, "passkey_refused", "the browser's passkey could not be read") from None
    await _take(request, challenge, {"sign_in"})
    passkeys = _passkeys(request)
    key = credential_id(credential)
    found = None if key is None else await asyncio.to_thread(passkeys.find, key)
    await _attempt(request, None if found is None else name_key(found.folded))
    if found is None:
        raise HTTPException(401, detail=REFUSED)
    try:
        count = verify_assertion(
            party, credential, challenge, found.public_key, found.sign_count, found.user_handle
        )
    except Refused as error:
        log.info("passkey sign-in refused: %s", error)
        raise HTTPException(401, detail=REFUSED) from None
    if not await asyncio.to_thread(passkeys.used, found.id, found.sign_count, count):
        log.info("passkey sign-in refused: its counter moved meanwhile")
        raise HTTPException(401, detail=REFUSED)
    merged = await enter(request, found.player, found.username)
    return await _answer(request, found.username, merged=merged)


@router.get("")
async def listed(request: Request) -> dict[str, Any]:
    """The account's passkeys, the oldest first."""
    player, _ = _signed_in(request)
    return {"passkeys": await _listed(request, player)}


@router.put("/{passkey_id}/name")
async def rename(body: Name, request: Request, passkey_id: int = PASSKEY_ID) -> dict[str, Any]:
    """Name one of the account's passkeys."""
    player, _ = _signed_in(request)
    try:
        name = passkey_name(body.name)
    except BadName as error:
        raise _refused(400, "invalid_name", str(error)) from None
    if not await asyncio.to_thread(_passkeys(request).rename, player, passkey_id, name):
        raise _refused(404, "unknown_passkey", "this account has no such passkey")
    return {"passkey": await _one(request, player, passkey_id)}


@router.delete("/{passkey_id}")
async def forget(request: Request, passkey_id: int = PASSKEY_ID) -> dict[str, Any]:
    """Forget one of the account's passkeys (it signs in no more; the device may still list it
    until the person removes it there). Refused for the account's last way to sign in."""
    player, _ = _signed_in(request)
    done = await asyncio.to_thread(_passkeys(request).delete, player, passkey_id)
    if done is Deleted.UNKNOWN:
        raise _refused(404, "unknown_passkey", "this account has no such passkey")
    if done is Deleted.LAST:
        message = "this passkey is the account's only way to sign in; add another first"
        raise _refused(409, "last_sign_in", message)
    return {"deleted": passkey_id}
