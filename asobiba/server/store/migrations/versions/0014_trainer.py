"""The trainers' best figures per guest (issue 32): per game, per kind of question and in all,
the best share of right answers, the best mean time and the strongest computer level matched.

Revision ID: 0014_trainer
Revises: 0013_passkeys
"""

import sqlalchemy as sa
from alembic import op

revision = "0014_trainer"
down_revision = "0013_passkeys"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "trainer_bests",
        sa.Column("player_id", sa.String(36), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(32), primary_key=True),
        sa.Column("sessions", sa.Integer(), nullable=False),
        sa.Column("accuracy", sa.Float(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=True),
        sa.Column("level", sa.String(32), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("trainer_bests")
