"""Passkeys (issue 33): the WebAuthn credentials an account signs in with, several per account.

- ``passkeys``: one per credential a browser or device made for an account: its id as the
  authenticator gave it (base64url, unique), the public key (COSE, as the authenticator sent
  it), the signature counter last seen, the transports the browser reported, the WebAuthn user
  handle given to the authenticator (random, the same for every passkey of one account), a name
  the person gives it, when it was made and last used. No private key, no biometric, nothing
  of the device beyond those: the private key never leaves the authenticator.

No row stored before changes.

Revision ID: 0013_passkeys
Revises: 0012_ratings
"""

import sqlalchemy as sa
from alembic import op

revision = "0013_passkeys"
down_revision = "0012_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "passkeys",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("credential_id", sa.String(1400), nullable=False),
        sa.Column(
            "player_id",
            sa.String(36),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("transports", sa.JSON, nullable=False),
        sa.Column("user_handle", sa.String(88), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_passkeys_credential", "passkeys", ["credential_id"], unique=True)
    op.create_index("ix_passkeys_player", "passkeys", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_passkeys_player", table_name="passkeys")
    op.drop_index("ix_passkeys_credential", table_name="passkeys")
    op.drop_table("passkeys")
