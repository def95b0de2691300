"""A room owned by another process, played through this one: the switchboard joins sockets to
rooms across processes (``relay``) and carries table commands (join a seat, start) to the owner.

On the owner, a socket of another process is a ``RemoteConnection``: the room treats it like a
socket of its own (it gets its seat's view and nothing else, built by the owner), and its frames
are handled one at a time in arrival order, as a local socket's are, and each is acknowledged
(``done``) once handled. On the socket's process, a ``Link`` forwards the frames and hands back
what the owner sends. Either side ends the pairing when the other process is gone (nobody
listens on its channel, or it stopped renewing its liveness key) or the relay lost messages; a
socket whose owner is gone gets ``unavailable`` for every frame the owner did not acknowledge,
then a close that sends its page to the room's next owner. So every frame a client sends is
answered, or its socket closed, within about a lease of the owner's death.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from asobiba.server.cluster.leases import Ownership, Unavailable
from asobiba.server.cluster.relay import Relay
from asobiba.server.logs import room_context
from asobiba.server.metrics import count_refusal
from asobiba.server.rooms.errors import RoomError
from asobiba.server.settings import GuestLimits
from asobiba.server.sockets.dispatch import dispatch
from asobiba.server.sockets.messages import error_message, parse_client_message

if TYPE_CHECKING:
    from asobiba.server.rooms.room import Room

log = logging.getLogger(__name__)

JOIN_SECONDS = 2.0
"""How long a socket waits for the owner to answer its join before asking who owns the room
again (the owner may have died with its lease still running)."""
CALL_SECONDS = 5.0
"""How long a table command waits for the owner's answer."""
INBOX = 128
"""Frames of one remote socket waiting at the owner; one more ends it (its process floods)."""
CLOSE_MOVED = 1012
"""Close code for a socket whose room moved to another process: its page reconnects."""
CLOSE_UNAVAILABLE = 1013
"""Close code for a socket that cannot be served now (try again later): its page reconnects."""
UNANSWERED = "the game's server stopped before answering; reconnecting to show the game as it is"
"""The ``unavailable`` error for a frame the room's owner never acknowledged (an owner that was
only frozen may still have taken it: the sync after the reconnect shows what stands)."""


Message = dict[str, Any] | tuple[int, str]
"""What a socket is handed: a message to send, or ``(code, reason)`` to close with."""


class Socket(Protocol):
    """A socket open on this process, as a join to another process's room needs it."""

    player: str | None
    address: str | None

    def send(self, message: Message) -> None: ...


@dataclass(frozen=True)
class Elsewhere:
    """A room owned by another process."""

    owner: str


class Rooms(Protocol):
    """What the switchboard asks of this process's rooms: ``rooms/hub.py``'s ``Hub``, which
    holds a switchboard; named here so that neither module imports the other back."""

    stopping: bool

    def lobby_changed_elsewhere(self) -> None: ...

    async def locate(self, room_id: str) -> Room | Elsewhere | None: ...

    async def command_on(
        self, room: Room | None, room_id: str, player: str, name: str, args: dict[str, Any]
    ) -> dict[str, Any]: ...

    async def release(self, room: Room) -> None: ...


class RemoteConnection:
    """On the owner: a watcher whose socket is open on ``process``."""

    def __init__(
        self, board: Switchboard, process: str, conn: str, player: str | None, address: str | None
    ) -> None:
        self.board = board
        self.process = process
        self.conn = conn
        self.player = player
        self.address = address
        """The socket's network address, as its process read it (``limits.address_key``)."""
        self.seat: int | None = None
        self.inbox: asyncio.Queue[tuple[str, float]] = asyncio.Queue(INBOX)
        self.worker: asyncio.Task[None] | None = None

    def send(self, message: dict[str, Any]) -> None:
        self.board.relay.push(self.process, {"k": "send", "conn": self.conn, "msg": message})

    def end(self, code: int, reason: str) -> None:
        self.board.relay.push(
            self.process, {"k": "close", "conn": self.conn, "code": code, "reason": reason}
        )

    async def work(self, room: Room) -> None:
        """Handle the socket's frames in order, like ``SocketConnection._read``, and say when
        each is done (its answers went out before)."""
        with room_context(room.id, room.game.name):
            while True:
                text, at = await self.inbox.get()
                try:
                    message = parse_client_message(text)
                except RoomError as error:
                    self.send(error_message(error.code, error.message))
                else:
                    await dispatch(room, self, message, at)
                self.board.relay.push(self.process, {"k": "done", "conn": self.conn})


class Link:
    """On the socket's process: a socket whose room ``owner`` holds."""

    def __init__(self, conn: str, owner: str, deliver: Callable[[Message], None]) -> None:
        self.conn = conn
        self.owner = owner
        self.deliver = deliver
        """Takes each message the owner sends, and ``(code, reason)`` to close the socket."""
        self.answer: asyncio.Future[dict[str, Any] | None] = (
            asyncio.get_running_loop().create_future()
        )
        """The owner's answer to the join: None (joined) or why not."""
        self.unanswered = 0
        """Frames forwarded that the owner has not acknowledged yet."""
        self.ended = False
        """The socket has been handed its close: nothing more goes to the owner."""

    def stop(self, reason: str) -> None:
        """The owner is gone: a joined socket's unacknowledged frames are answered
        ``unavailable`` and it is sent off to reconnect; a joining one looks for the room's
        owner again."""
        if not self.answer.done():
            self.answer.set_result({"close": CLOSE_MOVED, "reason": reason})
        elif not self.ended:
            for _ in range(self.unanswered):
                self.deliver(error_message("unavailable", UNANSWERED))
            self.unanswered = 0
            self.end(CLOSE_MOVED, reason)

    def end(self, code: int, reason: str) -> None:
        self.ended = True
        self.deliver((code, reason))


class Switchboard:
    def __init__(
        self,
        hub: Rooms,
        ownership: Ownership,
        relay: Callable[[Switchboard], Relay],
        limits: GuestLimits,
        signed_out: Callable[[str], object] | None = None,
    ) -> None:
        """``relay``: makes the relay that hands this switchboard what arrives;
        ``signed_out``: told the key of an account's session another process signed out (this
        process closes the session's sockets: ``sockets/signed.py``)."""
        self.hub = hub
        self.signed_out = signed_out
        self.ownership = ownership
        self.relay = relay(self)
        self.limits = limits
        self._remote: dict[str, tuple[RemoteConnection, Room]] = {}
        self._joining: set[str] = set()
        self._left: set[str] = set()
        """Sockets that left while their join was still being answered."""
        self._links: dict[str, Link] = {}
        self._calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    # --- what arrives ----------------------------------------------------------------------------

    def receive(self, message: dict[str, Any]) -> None:
        kind = message.get("k")
        if kind == "lobby":
            self.hub.lobby_changed_elsewhere()
        elif kind == "join":
            self._joining.add(message["conn"])
            with room_context(str(message["room"])):
                self._spawn(self._join_here(message))
        elif kind == "msg":
            self._frame(message)
        elif kind == "leave":
            self._leave_here(message["conn"])
        elif kind == "call":
            with room_context(str(message["room"])):
                self._spawn(self._call_here(message))
        elif kind in {"joined", "send", "done", "close"}:
            self._to_link(message)
        elif kind == "reply":
            future = self._calls.pop(message["id"], None)
            if future is not None and not future.done():
                future.set_result(message)
        elif kind == "signed_out" and self.signed_out is not None:
            self.signed_out(str(message["session"]))

    def broken(self) -> None:
        """The subscription was lost: messages both ways may be missing, so every pairing ends
        and its sockets start again."""
        for conn in list(self._remote):
            remote, _ = self._remote[conn]
            remote.end(CLOSE_MOVED, "the server lost touch with the game; reconnecting")
            self._leave_here(conn)
        for link in list(self._links.values()):
            link.stop("the server lost touch with the game; reconnecting")

    def unheard(self, process: str) -> None:
        """Nothing sent to ``process`` reached anyone: it died (or lost its subscription, and
        then ends its side of every pairing itself); end ours at once rather than wait for its
        liveness key to lapse."""
        self._gone({process})

    # --- the owner's side ------------------------------------------------------------------------

    async def _join_here(self, message: dict[str, Any]) -> None:
        conn, process = message["conn"], message["from"]
        try:
            answer = await self._admit(message)
        finally:
            self._joining.discard(conn)
        if answer is not None:
            self.relay.push(process, {"k": "joined", "conn": conn, "refused": answer})

    async def _admit(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """Join the remote socket to the room here; answer why not, or None once joined (the
        ``joined`` answer has then been sent, ahead of the room's sync)."""
        conn, process, player = message["conn"], message["from"], message["player"]
        address = message.get("address")
        if self.hub.stopping:
            # This process is handing its rooms over: the socket's process asks who owns the
            # room again (soon nobody: it then loads the room itself), its page none the wiser.
            return {"close": CLOSE_MOVED, "reason": "moved"}
        try:
            place = await self.hub.locate(message["room"])
        except Unavailable:
            return {"close": CLOSE_UNAVAILABLE, "reason": "room ownership is unknown now"}
        if isinstance(place, Elsewhere):
            return {"close": CLOSE_MOVED, "reason": "moved"}
        if place is None:
            error = error_message("unknown_room", f"no room {message['room']!r}")
            return {"close": 4404, "reason": "unknown room", "error": error}
        room = place
        if conn in self._left:
            self._left.discard(conn)
            await self.hub.release(room)
            return None
        remote = RemoteConnection(self, process, conn, player, address)
        remote.seat = room.seat_of(player)
        if room.kept_private and remote.seat is None:  # only its people see it now
            await self.hub.release(room)
            error = error_message("unknown_room", f"no room {message['room']!r}")
            return {"close": 4404, "reason": "unknown room", "error": error}
        crowded = room.crowded(
            remote.seat, self.limits.sockets_per_seat, self.limits.sockets_per_room
        )
        if crowded is not None:
            count_refusal("room_sockets")
            await self.hub.release(room)
            return {
                "close": 4409,
                "reason": "too many sockets",
                "error": error_message("too_many_sockets", crowded),
            }
        self._remote[conn] = (remote, room)
        self.relay.push(process, {"k": "joined", "conn": conn, "refused": None})
        room.join(remote)
        remote.worker = self._spawn(remote.work(room))
        return None

    def _frame(self, message: dict[str, Any]) -> None:
        conn = message["conn"]
        entry = self._remote.get(conn)
        if entry is None:
            # Its room moved or its pairing ended here (its process seemed dead for a while):
            # the socket may not know yet, so it is told, or the frame would go unanswered.
            reason = "this game is not played here; reconnecting"
            close = {"k": "close", "conn": conn, "code": CLOSE_MOVED, "reason": reason}
            self.relay.push(message["from"], close)
            return
        remote, _ = entry
        try:
            remote.inbox.put_nowait((message["text"], message["at"]))
        except asyncio.QueueFull:
            remote.end(4408, "too many frames waiting")
            self._leave_here(conn)

    def _leave_here(self, conn: str) -> None:
        entry = self._remote.pop(conn, None)
        if entry is None:
            if conn in self._joining:
                self._left.add(conn)
            return
        remote, room = entry
        if remote.worker is not None:
            remote.worker.cancel()
        room.leave(remote)
        self._spawn(self.hub.release(room))

    def forsake(self, room: Room) -> None:
        """``room`` is no longer ours: forget its remote sockets (the room ends them itself)."""
        for conn, (remote, held) in list(self._remote.items()):
            if held is room:
                self._remote.pop(conn)
                if remote.worker is not None:
                    remote.worker.cancel()

    async def _call_here(self, message: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"k": "reply", "id": message["id"]}
        try:
            place = await self.hub.locate(message["room"])
            if isinstance(place, Elsewhere):
                raise RoomError("moved", "the table moved to another server")
            reply["result"] = await self.hub.command_on(
                place, message["room"], message["player"], message["name"], message["args"]
            )
        except RoomError as error:
            reply["error"] = {"code": error.code, "message": error.message}
        except Unavailable:
            reply["error"] = {"code": "unavailable", "message": "try again in a moment"}
        self.relay.push(message["from"], reply)

    # --- the socket's side -----------------------------------------------------------------------

    async def join(
        self, owner: str, room_id: str, socket: Socket
    ) -> tuple[Link | None, dict[str, Any] | None]:
        """Ask ``owner`` to join ``socket`` to ``room_id``: the link (joined), or None and why
        not (None too when the owner did not answer in time). The owner learns the socket's
        guest and address, which its seat and its chat lines' limits go by."""
        link = Link(secrets.token_hex(8), owner, socket.send)
        self._links[link.conn] = link
        message = {"k": "join", "conn": link.conn, "from": self.relay.me, "room": room_id}
        self.relay.push(owner, message | {"player": socket.player, "address": socket.address})
        try:
            refused = await asyncio.wait_for(asyncio.shield(link.answer), JOIN_SECONDS)
        except TimeoutError:
            self.unlink(link)
            return None, None
        if refused is not None:
            self._links.pop(link.conn, None)
            return None, refused
        return link, None

    def forward(self, link: Link, text: str, at: float) -> None:
        """Send a frame to the owner; none once the socket has its close (the close answers it,
        and the owner may be gone)."""
        if link.ended:
            return
        link.unanswered += 1
        frame = {"k": "msg", "conn": link.conn, "from": self.relay.me, "text": text, "at": at}
        self.relay.push(link.owner, frame)

    def unlink(self, link: Link) -> None:
        """The socket closed (or gave up joining): the owner forgets it."""
        if self._links.pop(link.conn, None) is not None:
            self.relay.push(link.owner, {"k": "leave", "conn": link.conn})

    def _to_link(self, message: dict[str, Any]) -> None:
        link = self._links.get(message["conn"])
        if link is None:
            return
        kind = message["k"]
        if kind == "joined":
            if not link.answer.done():
                link.answer.set_result(message["refused"])
        elif kind == "send":
            link.deliver(message["msg"])
        elif kind == "done":
            link.unanswered = max(0, link.unanswered - 1)
        elif not link.ended:
            link.end(message["code"], message["reason"])

    async def call(
        self, owner: str, room_id: str, player: str, name: str, args: dict[str, Any]
    ) -> dict[str, Any]:
        """Run a table command on the room's owner; raises its ``RoomError``."""
        ask = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[ask] = future
        message = {"k": "call", "id": ask, "from": self.relay.me, "room": room_id}
        self.relay.push(owner, message | {"player": player, "name": name, "args": args})
        try:
            reply = await asyncio.wait_for(future, CALL_SECONDS)
        except TimeoutError:
            raise RoomError("unavailable", "the table's server did not answer; try again") from None
        finally:
            self._calls.pop(ask, None)
        if "error" in reply:
            raise RoomError(reply["error"]["code"], reply["error"]["message"])
        result: dict[str, Any] = reply["result"]
        return result

    # --- liveness ------------------------------------------------------------------------------

    async def check_peers(self) -> None:
        """End the pairings with processes that stopped renewing their liveness (they died)."""
        peers = {remote.process for remote, _ in self._remote.values()}
        peers |= {link.owner for link in self._links.values()}
        if not peers:
            return
        self._gone(peers - await self.ownership.alive(peers))

    def _gone(self, processes: set[str]) -> None:
        """End the pairings with ``processes``, which are gone."""
        for conn, (remote, _) in list(self._remote.items()):
            if remote.process in processes:
                self._leave_here(conn)
        for link in list(self._links.values()):
            if link.owner in processes:
                link.stop("the game's server stopped; reconnecting")

    def _spawn(self, coroutine: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self) -> None:
        for conn in list(self._remote):
            remote, _ = self._remote[conn]
            remote.end(CLOSE_MOVED, "the server is stopping; reconnecting")
            self._leave_here(conn)
        for task in list(self._tasks):
            task.cancel()
