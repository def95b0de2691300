"""Players, rooms with their event logs, and results.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("rule_key", sa.String(200), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("outcome", sa.JSON(), nullable=True),
    )
    op.create_index("ix_rooms_unfinished", "rooms", ["finished_at"])
    op.create_table(
        "room_events",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.JSON(), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_table(
        "results",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("player_id", sa.String(36), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rule_key", sa.String(200), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("level", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("opponent_score", sa.Integer(), nullable=False),
        sa.Column("margin", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_results_player_game", "results", ["player_id", "game", "finished_at"])


def downgrade() -> None:
    op.drop_index("ix_results_player_game", "results")
    op.drop_table("results")
    op.drop_table("room_events")
    op.drop_index("ix_rooms_unfinished", "rooms")
    op.drop_table("rooms")
    op.drop_table("players")
