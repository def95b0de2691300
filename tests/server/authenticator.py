"""A software WebAuthn authenticator and the browser around it, for the passkey tests: it
answers the options the site sends as ``navigator.credentials.create`` and ``.get`` would,
with P-256 keys (ES256, COSE -7), "none" attestation and discoverable credentials, built from
the WebAuthn Level 2 byte layouts with ``cryptography`` (CBOR written by the ``webauthn``
package's encoder; nothing of the site's own code).

Every answer can be bent the ways an attacker or a broken device would: another origin,
another relying party, another challenge, no user verification, a counter sent back.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import struct
from base64 import urlsafe_b64decode, urlsafe_b64encode
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import encode_cbor

UP, UV, AT = 0x01, 0x04, 0x40
"""Authenticator data flags: user present, user verified, attested credential data."""
AAGUID = bytes(16)


def b64(data: bytes) -> str:
    return urlsafe_b64encode(data).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Credential:
    """One passkey the authenticator holds (a discoverable credential)."""

    id: bytes
    key: ec.EllipticCurvePrivateKey
    rp_id: str
    user_handle: bytes
    sign_count: int = 0

    def cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return encode_cbor(
            {
                1: 2,  # kty: EC2
                3: -7,  # alg: ES256
                -1: 1,  # crv: P-256
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )


class Authenticator:
    """A platform authenticator that counts its signatures (``counting=False``: one that
    keeps no counter, as synced passkeys do) behind a browser at ``origin``."""

    def __init__(self, origin: str, counting: bool = True) -> None:
        self.origin = origin
        self.counting = counting
        self.credentials: list[Credential] = []

    def create(
        self,
        options: dict[str, Any],
        *,
        origin: str | None = None,
        rp_id: str | None = None,
        challenge: str | None = None,
        verified: bool = True,
    ) -> dict[str, Any]:
        """``navigator.credentials.create(options)`` as JSON (``PublicKeyCredential.toJSON``);
        the keyword arguments bend what the answer says."""
        rp = rp_id or options["rp"]["id"]
        excluded = {item["id"] for item in options.get("excludeCredentials", [])}
        assert not excluded & {b64(c.id) for c in self.credentials if c.rp_id == rp}, (
            "the browser refuses: this authenticator holds one of the account's passkeys"
        )
        credential = Credential(
            secrets.token_bytes(16),
            ec.generate_private_key(ec.SECP256R1()),
            rp,
            unb64(options["user"]["id"]),
        )
        self.credentials.append(credential)
        client_data = self._client_data(
            "webauthn.create", challenge or options["challenge"], origin
        )
        attested = AAGUID + struct.pack(">H", len(credential.id)) + credential.id
        auth_data = self._auth_data(rp, UP | AT | (UV if verified else 0), credential.sign_count)
        attestation = encode_cbor(
            {"fmt": "none", "attStmt": {}, "authData": auth_data + attested + credential.cose_key()}
        )
        return {
            "id": b64(credential.id),
            "rawId": b64(credential.id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client_data),
                "attestationObject": b64(attestation),
                "transports": ["internal", "hybrid"],
            },
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
        }

    def get(
        self,
        options: dict[str, Any],
        *,
        credential: Credential | None = None,
        origin: str | None = None,
        rp_id: str | None = None,
        challenge: str | None = None,
        verified: bool = True,
        sign_count: int | None = None,
    ) -> dict[str, Any]:
        """``navigator.credentials.get(options)`` as JSON, signed by ``credential`` (by default
        the newest this authenticator holds for the options' relying party)."""
        rp = options["rpId"]
        if credential is None:
            credential = [c for c in self.credentials if c.rp_id == rp][-1]
        if sign_count is None:
            if self.counting:
                credential.sign_count += 1
            sign_count = credential.sign_count
        client_data = self._client_data("webauthn.get", challenge or options["challenge"], origin)
        auth_data = self._auth_data(rp_id or rp, UP | (UV if verified else 0), sign_count)
        signed = auth_data + hashlib.sha256(client_data).digest()
        signature = credential.key.sign(signed, ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64(credential.id),
            "rawId": b64(credential.id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client_data),
                "authenticatorData": b64(auth_data),
                "signature": b64(signature),
                "userHandle": b64(credential.user_handle),
            },
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
        }

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin or self.origin}
        return json.dumps({**data, "crossOrigin": False}).encode()

    @staticmethod
    def _auth_data(rp_id: str, flags: int, sign_count: int) -> bytes:
        return (
            hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) + struct.pack(">I", sign_count)
        )
