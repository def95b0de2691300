"""A public id per player (issue 33): what a profile's link, ``GET /api/me`` and
``GET /api/players/{id}`` show, so the secret id in the signed cookie is never shown.

Existing players get a random one each; new ones get theirs when they are first stored.

Revision ID: 0010_public_ids
Revises: 0009_room_paused
"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0010_public_ids"
down_revision = "0009_room_paused"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("public_id", sa.String(16), nullable=True))
    players = sa.table("players", sa.column("id", sa.String), sa.column("public_id", sa.String))
    connection = op.get_bind()
    ids = connection.execute(sa.select(players.c.id)).scalars().all()
    for player_id in ids:
        connection.execute(
            players.update()
            .where(players.c.id == player_id)
            .values(public_id=secrets.token_urlsafe(9))
        )
    with op.batch_alter_table("players") as batch:
        batch.alter_column("public_id", existing_type=sa.String(16), nullable=False)
        batch.create_index("ix_players_public_id", ["public_id"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_index("ix_players_public_id")
        batch.drop_column("public_id")
