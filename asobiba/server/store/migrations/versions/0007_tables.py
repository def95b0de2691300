"""Tables between people: names, waiting rooms, short codes, stand-ins and chat.

- ``players.name``: the display name a guest chose the first time they joined a table.
- ``rooms.status``: ``waiting`` (a table whose open seats are still being taken: no state, no
  events yet) or ``playing`` (started; finished rooms keep it and set ``finished_at``). Every
  room stored before is ``playing``.
- ``rooms.code``: the table's short code to type (unique; none for games against bots).
- ``rooms.public``: listed in the lobby (``/tables``) or reachable by its link only.
- ``rooms.host``: the guest who set the table (only they start it or remove a seat).
- ``rooms.settings``: the table's settings (``social/tables.py``: turn clock, stand-in level,
  whether spectators may chat) and the game time it started at.
- ``room_events.standin``: the level of the stand-in bot that played this event for a person
  who was away or out of time (records mark such games).
- ``room_chat``: the table's chat, kept with the room and shown in its replay.
- ``results.people`` / ``results.standin``: how many people sat at the table (records keep games
  with people apart from games against bots) and whether a stand-in played in the game.

Revision ID: 0007_tables
Revises: 0006_wide_seeds
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_tables"
down_revision = "0006_wide_seeds"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("name", sa.String(24), nullable=True))
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(
            sa.Column("status", sa.String(16), nullable=False, server_default="playing")
        )
        batch.add_column(sa.Column("code", sa.String(8), nullable=True))
        batch.add_column(
            sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("host", sa.String(36), nullable=True))
        batch.add_column(sa.Column("settings", sa.JSON(), nullable=True))
        batch.create_index("ix_rooms_code", ["code"], unique=True)
        batch.create_index("ix_rooms_status", ["status", "public"])
    with op.batch_alter_table("room_events") as batch:
        batch.add_column(sa.Column("standin", sa.String(32), nullable=True))
    op.create_table(
        "room_chat",
        sa.Column("room_id", sa.String(32), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("n", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("player_id", sa.String(36), nullable=False),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("text", sa.String(400), nullable=True),
        sa.Column("stamp", sa.String(16), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
    )
    with op.batch_alter_table("results") as batch:
        batch.add_column(
            sa.Column("people", sa.Integer(), nullable=False, server_default=sa.text("1"))
        )
        batch.add_column(
            sa.Column("standin", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("results") as batch:
        batch.drop_column("standin")
        batch.drop_column("people")
    op.drop_table("room_chat")
    with op.batch_alter_table("room_events") as batch:
        batch.drop_column("standin")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_index("ix_rooms_status")
        batch.drop_index("ix_rooms_code")
        batch.drop_column("settings")
        batch.drop_column("host")
        batch.drop_column("public")
        batch.drop_column("code")
        batch.drop_column("status")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("name")
