"""Hints and lessons: the hints a player asked for in a game (beside its event log), how many a
result's player used (so records keep assisted games apart), and each guest's finished lessons.

Revision ID: 0005_hints
Revises: 0004_reviews
"""

import sqlalchemy as sa
from alembic import op

revision = "0005_hints"
down_revision = "0004_reviews"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("results") as batch:
        batch.add_column(
            sa.Column("hints", sa.Integer(), nullable=False, server_default=sa.text("0"))
        )
    op.create_table(
        "room_hints",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_table(
        "lesson_progress",
        sa.Column("player_id", sa.String(36), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("lesson", sa.String(64), primary_key=True),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("lesson_progress")
    op.drop_table("room_hints")
    with op.batch_alter_table("results") as batch:
        batch.drop_column("hints")
