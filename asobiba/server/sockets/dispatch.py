"""What a room does with one message from a watcher, wherever its socket is open: on this
process (``room_socket``) or on another one that relays it here (``cluster/switchboard.py``)."""

from __future__ import annotations

import logging

from sqlalchemy.exc import SQLAlchemyError

from asobiba.core.errors import GameError
from asobiba.server.cluster.leases import Unavailable
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.room import UNAVAILABLE, Room
from asobiba.server.rooms.room_core import Connection
from asobiba.server.sockets.messages import (
    Act,
    AskHint,
    Back,
    ClientMessage,
    Say,
    error_message,
)

log = logging.getLogger(__name__)


async def dispatch(room: Room, connection: Connection, message: ClientMessage, at: float) -> None:
    """Act, chat, hint, back or sync for ``connection``; anything refused is answered with an
    error to it alone. ``at``: the wall-clock moment the action reached its player's socket less
    the player's round trip (``server/sockets/latency.py``)."""
    try:
        if isinstance(message, Act):
            await room.act(connection.seat, message.action, at)
        elif isinstance(message, Back):
            await room.back(connection.seat)
        elif isinstance(message, Say):
            await room.say(connection, message.text, message.stamp)
        elif isinstance(message, AskHint):
            # To this connection alone: no other seat or watcher learns of it.
            hint = await room.hint(connection.seat)
            connection.send(hint.message())
        else:
            async with room.lock:
                connection.send(room.sync_message(connection))
    except RoomError as error:
        if room.handed_over:
            # The process stopped as the frame came (``Room.hand_over``): the socket's close
            # (1012) answers it, and the sync after the page's reconnect shows what stands (an
            # action not taken can be made again). No error reaches the page.
            return
        connection.send(error_message(error.code, error.message))
    except GameError as error:
        connection.send(error_message(error.code, str(error)))
    except (SQLAlchemyError, Unavailable) as error:
        log.warning("room %s: %s not done, storage unavailable (%s)", room.id, message, error)
        connection.send(error_message("unavailable", UNAVAILABLE))
