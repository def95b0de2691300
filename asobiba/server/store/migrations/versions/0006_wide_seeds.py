"""Wide seeds and a stopped clock.

A room's seed was a 31-bit integer that dealt through Mersenne Twister: a player could work it out
from their first hand. New rooms hold a 256-bit seed from ``secrets`` that keys a cryptographic
stream (``core/rng.py``); no integer column holds that, so ``seed`` becomes text (decimal digits),
and ``rng`` says which way a room deals: ``mt19937`` for every room stored before this migration
(they keep replaying exactly as they were dealt), ``blake2b`` for new ones.

``clock_at`` is the game time at which the room's clock was stopped (nobody there, or the server
shutting down), so a rebuilt room resumes its waits with what they had left.

Revision ID: 0006_wide_seeds
Revises: 0005_hints
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_wide_seeds"
down_revision = "0005_hints"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.alter_column(
            "seed",
            type_=sa.String(80),
            existing_type=sa.Integer(),
            existing_nullable=False,
            postgresql_using="seed::text",
        )
        batch.add_column(sa.Column("rng", sa.String(16), nullable=False, server_default="mt19937"))
        batch.add_column(sa.Column("clock_at", sa.Float(), nullable=True))
    # Every room stored so far dealt with Mersenne Twister; from here on a room must say how it
    # deals, so an insert that forgets cannot fall back to it.
    with op.batch_alter_table("rooms") as batch:
        batch.alter_column("rng", server_default=None, existing_type=sa.String(16))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("clock_at")
        batch.drop_column("rng")
        batch.alter_column(
            "seed",
            type_=sa.Integer(),
            existing_type=sa.String(80),
            existing_nullable=False,
            postgresql_using="seed::integer",
        )
