"""Reaping abandoned games and a start-up that looks only at rooms waiting on their clock.

- ``rooms.touched_at``: when someone last did something in the room (made it, moved, took or
  left a seat, or left it: its clock stopped), wall-clock UTC. Rooms nobody came back to for
  ``GuestLimits.abandon_seconds`` are ended as abandoned (``Hub.reap``). Rooms stored before
  get the moment of this migration: none is ended sooner than the designed time after it.
- ``rooms.timed``: after its last event the game may wait on its own clock (a claim or call
  window), so start-up rebuilds it (``Hub.recover``). Rooms stored before are marked: the first
  start-up looks at each once (finishing any whose log ends the game) and clears the mark of
  those that do not wait.

Revision ID: 0008_room_activity
Revises: 0007_tables
"""

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0008_room_activity"
down_revision = "0007_tables"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("touched_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("timed", sa.Boolean(), nullable=False, server_default=sa.true()))
    rooms = sa.table("rooms", sa.column("touched_at", sa.DateTime(timezone=True)))
    op.execute(rooms.update().values(touched_at=datetime.now(UTC)))
    with op.batch_alter_table("rooms") as batch:
        batch.alter_column("touched_at", existing_type=sa.DateTime(timezone=True), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("timed")
        batch.drop_column("touched_at")
