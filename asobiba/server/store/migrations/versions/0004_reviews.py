"""Reviews of finished games: every move valued by the game's engine, computed once and kept.

Revision ID: 0004_reviews
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_reviews"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reviews")
