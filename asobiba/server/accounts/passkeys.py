"""Passkeys (WebAuthn) through the ``webauthn`` package: the site as a relying party, the
options a browser passes to ``navigator.credentials.create`` and ``.get``, and the checks of
what it answers. Knows no HTTP and no storage.

Choices, for every passkey ceremony:

- Discoverable credentials (``residentKey: required``): a sign-in asks for no username, and
  the browser offers the passkeys it holds for this site.
- User verification required (a fingerprint, a face, the device's PIN): a passkey is the only
  thing a sign-in asks for, so it must prove the person, not just a touch.
- Attestation ``none``: the site does not ask which make of authenticator it is (it would
  only refuse some; any authenticator is as good as the person's device).
- The signature counter must rise at each sign-in, unless the authenticator keeps none (0,
  as synced passkeys do): a counter that stands still or falls means a copy of the key
  (the package checks it).
"""

from __future__ import annotations

import ipaddress
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from cryptography.exceptions import InvalidSignature
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    base64url_to_bytes,
    bytes_to_base64url,
    options_to_json_dict,
    parse_authentication_credential_json,
    parse_client_data_json,
    parse_registration_credential_json,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticationCredential,
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    RegistrationCredential,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from asobiba.server.accounts.ceremonies import CEREMONY_SECONDS

SITE_NAME = "asobiba"
"""What the browser calls the site when it asks for a passkey."""
MAX_CREDENTIAL_BYTES = 1023
"""The longest credential id WebAuthn allows."""
MAX_NAME = 64
"""The longest name a person gives a passkey, in characters."""
USER_HANDLE_BYTES = 32
CHALLENGE_BYTES = 32

UNREADABLE = (WebAuthnException, InvalidSignature, ValueError, TypeError, KeyError)
"""What the package (and the CBOR and key decoders under it) raise on an answer it cannot read
or cannot verify: each is a refusal, never a server error."""


class Refused(Exception):
    """A browser's answer that does not prove what it claims (the reason, for the logs)."""


class BadName(ValueError):
    """A passkey's name that is empty or too long."""


@dataclass(frozen=True)
class RelyingParty:
    """The site as WebAuthn sees it: ``id``, the host name passkeys are made for, and
    ``origin``, the scheme, host and port pages using them come from."""

    id: str
    origin: str

    @classmethod
    def of(cls, origin: str) -> RelyingParty:
        """The relying party of a site served at ``origin`` (``https://asobiba.example``):
        its id is the origin's host name. Raises ``ValueError`` for anything but an origin."""
        parts = urlsplit(origin)
        if (
            parts.scheme not in ("http", "https")
            or not parts.hostname
            or parts.path not in ("", "/")
        ):
            raise ValueError(f"not a site's origin (https://host[:port]): {origin!r}")
        if parts.query or parts.fragment or parts.username or parts.password:
            raise ValueError(f"not a site's origin (https://host[:port]): {origin!r}")
        return cls(parts.hostname, f"{parts.scheme}://{parts.netloc.lower()}")

    @property
    def usable(self) -> bool:
        """Whether browsers make passkeys for it: a relying party's id is a domain name
        (``localhost`` too), never an IP address."""
        try:
            ipaddress.ip_address(self.id)
        except ValueError:
            return True
        return False


@dataclass(frozen=True)
class Proven:
    """A new passkey a registration proved."""

    credential_id: str
    """base64url."""
    public_key: bytes
    sign_count: int
    transports: tuple[str, ...]


def new_challenge() -> str:
    """A random challenge, base64url (as the options carry it and ``Ceremonies`` key it)."""
    return bytes_to_base64url(secrets.token_bytes(CHALLENGE_BYTES))


def new_user_handle() -> str:
    """A random WebAuthn user handle for an account, base64url: it names no one (WebAuthn asks
    that it hold nothing that identifies the person)."""
    return bytes_to_base64url(secrets.token_bytes(USER_HANDLE_BYTES))


def passkey_name(raw: str) -> str:
    """A name given to a passkey, as kept: NFKC, runs of blanks and control characters made one
    space, trimmed. Raises ``BadName`` when nothing is left or it is longer than
    ``MAX_NAME``."""
    text = unicodedata.normalize("NFKC", raw)
    words = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in text).split()
    name = " ".join(words)
    if not name:
        raise BadName("a passkey's name cannot be empty")
    if len(name) > MAX_NAME:
        raise BadName(f"a passkey's name has at most {MAX_NAME} characters")
    return name


def creation_options(
    party: RelyingParty,
    challenge: str,
    user_handle: str,
    username: str,
    exclude: list[tuple[str, tuple[str, ...]]],
) -> dict[str, Any]:
    """The options of ``navigator.credentials.create`` (JSON, binary fields in base64url) for a
    passkey of the account ``username``; ``exclude``: the account's passkeys (credential id,
    transports), so an authenticator holding one makes no second."""
    options = generate_registration_options(
        rp_id=party.id,
        rp_name=SITE_NAME,
        user_name=username,
        user_id=base64url_to_bytes(user_handle),
        user_display_name=username,
        challenge=base64url_to_bytes(challenge),
        timeout=CEREMONY_SECONDS * 1000,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.REQUIRED,
        ),
        exclude_credentials=[_descriptor(key, transports) for key, transports in exclude],
    )
    return options_to_json_dict(options)


def request_options(party: RelyingParty, challenge: str) -> dict[str, Any]:
    """The options of ``navigator.credentials.get`` for a sign-in: no credentials listed, so
    the browser offers every passkey it holds for the site."""
    options = generate_authentication_options(
        rp_id=party.id,
        challenge=base64url_to_bytes(challenge),
        timeout=CEREMONY_SECONDS * 1000,
        user_verification=UserVerificationRequirement.REQUIRED,
    )
    return options_to_json_dict(options)


def read_creation(answer: dict[str, Any]) -> tuple[RegistrationCredential, str]:
    """A registration answer (``PublicKeyCredential`` as JSON) and the challenge it claims to
    answer (base64url). Raises ``Refused`` when it cannot be read."""
    try:
        credential = parse_registration_credential_json(answer)
        return credential, _challenge(credential.response.client_data_json)
    except UNREADABLE as error:
        raise Refused(f"unreadable: {error}") from None


def read_assertion(answer: dict[str, Any]) -> tuple[AuthenticationCredential, str]:
    """A sign-in answer and the challenge it claims to answer. Raises ``Refused``."""
    try:
        credential = parse_authentication_credential_json(answer)
        return credential, _challenge(credential.response.client_data_json)
    except UNREADABLE as error:
        raise Refused(f"unreadable: {error}") from None


def credential_id(credential: AuthenticationCredential) -> str | None:
    """The id of the passkey a sign-in answer names (base64url), or None when it is longer
    than any credential id (nothing is looked up for it)."""
    if len(credential.raw_id) > MAX_CREDENTIAL_BYTES:
        return None
    return bytes_to_base64url(credential.raw_id)


def verify_creation(
    party: RelyingParty, credential: RegistrationCredential, challenge: str
) -> Proven:
    """Check a registration answer against the challenge given, this site's origin and id
    (``webauthn.verify_registration_response``, user verified). Raises ``Refused``."""
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=party.id,
            expected_origin=party.origin,
            require_user_verification=True,
        )
    except UNREADABLE as error:
        raise Refused(str(error)) from None
    if len(verified.credential_id) > MAX_CREDENTIAL_BYTES:
        raise Refused("credential id too long")
    transports = credential.response.transports or []
    return Proven(
        bytes_to_base64url(verified.credential_id),
        verified.credential_public_key,
        verified.sign_count,
        tuple(sorted({transport.value for transport in transports})),
    )


def verify_assertion(
    party: RelyingParty,
    credential: AuthenticationCredential,
    challenge: str,
    public_key: bytes,
    sign_count: int,
    user_handle: str,
) -> int:
    """Check a sign-in answer with the stored passkey (its public key, counter and account's
    user handle) against the challenge given, this site's origin and id
    (``webauthn.verify_authentication_response``, user verified); the passkey's new counter.
    Raises ``Refused``."""
    handle = credential.response.user_handle
    if handle is not None and bytes_to_base64url(handle) != user_handle:
        raise Refused("the passkey names another user")
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=party.id,
            expected_origin=party.origin,
            credential_public_key=public_key,
            credential_current_sign_count=sign_count,
            require_user_verification=True,
        )
    except UNREADABLE as error:
        raise Refused(str(error)) from None
    return verified.new_sign_count


def _challenge(client_data_json: bytes) -> str:
    return bytes_to_base64url(parse_client_data_json(client_data_json).challenge)


def _descriptor(key: str, transports: tuple[str, ...]) -> PublicKeyCredentialDescriptor:
    known = {item.value for item in AuthenticatorTransport}
    return PublicKeyCredentialDescriptor(
        id=base64url_to_bytes(key),
        transports=[AuthenticatorTransport(item) for item in transports if item in known],
    )
