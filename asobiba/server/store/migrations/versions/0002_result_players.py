"""Results remember how many seats the game had, so records split by number of players.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("results") as batch:
        batch.add_column(
            sa.Column("players", sa.Integer(), nullable=False, server_default=sa.text("2"))
        )


def downgrade() -> None:
    with op.batch_alter_table("results") as batch:
        batch.drop_column("players")
