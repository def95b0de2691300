"""Accounts (issue 33): a guest who keeps their games becomes an account with the same player
id, so nothing stored before moves; and the browsers signed in to it.

- ``accounts``: one per player who made one: the username as typed and folded (NFKC and case
  folded: unique, so "Aki" and "ａｋｉ" are one name), the Argon2id hash of the password (none
  for an account with passkeys only).
- ``account_sessions``: one per signed-in browser: the SHA-256 of the random token its signed
  cookie carries (never the token), when it started and was last seen, what browser it is, and
  when it was signed out or revoked.

No row stored before changes: every guest stays a guest until they keep their games.

Revision ID: 0011_accounts
Revises: 0010_public_ids
"""

import sqlalchemy as sa
from alembic import op

revision = "0011_accounts"
down_revision = "0010_public_ids"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column(
            "player_id",
            sa.String(36),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("username", sa.String(24), nullable=False),
        sa.Column("folded", sa.String(96), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_accounts_folded", "accounts", ["folded"], unique=True)
    op.create_table(
        "account_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column(
            "player_id",
            sa.String(36),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_account_sessions_player", "account_sessions", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_account_sessions_player", table_name="account_sessions")
    op.drop_table("account_sessions")
    op.drop_index("ix_accounts_folded", table_name="accounts")
    op.drop_table("accounts")
