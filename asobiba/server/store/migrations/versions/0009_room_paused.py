"""A game nobody is at leaves the lobby's "being played" (issue 31, point 10).

- ``rooms.paused``: the room's clock stands still because no seated person is at it (written
  whenever its clock stops, and again when a person comes back and it runs: ``Room.pause``,
  ``Room.close``, ``Room._start_clock``). The lobby lists a started table only while it is
  false, and a process reads the lobby from the database when another changed it, so every
  process lists the same. Rooms stored before are paused: the upgrade restarted the site, and
  a restarted room's clock stands still until a person is back.

Revision ID: 0009_room_paused
Revises: 0008_room_activity
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_room_paused"
down_revision = "0008_room_activity"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(
            sa.Column("paused", sa.Boolean(), nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("paused")
