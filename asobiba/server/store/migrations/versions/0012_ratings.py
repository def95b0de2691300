"""Ratings (issue 33): each person's rating per game and rule family, and its history.

``ratings`` holds the rating now (Glicko-2's rating, RD and volatility, or OpenSkill's mu and
sigma with no volatility), ``rating_changes`` one row per rated person of each rated game
(before, after, the RD after), which the profile's charts draw. A room rates a person once:
``(room_id, player_id)`` is the key. A player's rows go with the player.

Revision ID: 0012_ratings
Revises: 0011_accounts
"""

import sqlalchemy as sa
from alembic import op

revision = "0012_ratings"
down_revision = "0011_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column(
            "player_id",
            sa.String(36),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["key", "updated_at"])
    op.create_table(
        "rating_changes",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column(
            "player_id",
            sa.String(36),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("before", sa.Float(), nullable=False),
        sa.Column("after", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_changes_player", "rating_changes", ["player_id", "key", "at"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_player", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_board", "ratings")
    op.drop_table("ratings")
