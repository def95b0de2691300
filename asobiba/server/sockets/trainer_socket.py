"""The trainer socket (``/ws/learn/{game}/trainer``): one learner's sessions of a game's trainer
(``core.game.drills``, Mokochaka's call trainer), each seeded and timed by the server.

A session: the client says ``{"type": "start"}``; the server draws a seed (``core.rng``), asks
the game for the session's questions (``drill``), and for each one waits its ``pause``, sends
``{"type": "card", "n", "view", "legal", "limit"}``, waits for ``{"type": "answer", "n",
"action"}`` and sends the game's verdict, ``{"type": "judged", "n", "right", "kind", "correct",
"said", "seconds", "feedback"}``. After the last one it sends ``{"type": "done", "summary",
"best"}`` (the game's ``drill_summary``; the guest's best figures, which it has just updated) and
waits for the next ``start``.

What the server measures, and nothing else: an answer's ``seconds`` are the moment its frame
reached the server, less the moment the server wrote the card to the socket, less the line's
round trip as ``sockets/latency.py`` measures it (the kernel's TCP estimate of this very socket,
else the server's own pings, trusted up to 5 ms): so from when the card reached the learner to
when the answer left them, as the room dates a call in a game. Nothing the browser says about
time is read. A card is judged unanswered once ``limit`` seconds and the round trip have passed
since it was written; a later answer gets ``too_late``. The game judges the word
(``judge_drill``); an answer too slow by the server's measure is wrong.

Bad input costs a bounded amount: every frame but a pong gets an answer (an ``error`` with a
code) or moves the session on; more than ``SocketLimits`` allow get ``rate_limited`` and a close
(4429); one address holds at most ``GuestLimits.trainer_sockets_per_address`` (4409).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import anyio
from fastapi import APIRouter, WebSocket
from starlette.responses import PlainTextResponse
from starlette.websockets import WebSocketDisconnect, WebSocketDisconnected

from asobiba.core.game import DrillAnswer, DrillPrompt, Game
from asobiba.core.rng import new_seed
from asobiba.server.http.identity import player_id
from asobiba.server.http.learn import trainer_game
from asobiba.server.limits import TokenBucket
from asobiba.server.metrics import count_refusal
from asobiba.server.settings import MAX_MESSAGE_BYTES, SocketLimits
from asobiba.server.sockets.capped import serve_capped
from asobiba.server.sockets.latency import Latency
from asobiba.server.sockets.messages import (
    CLOSE_RATE_LIMITED,
    encode,
    error_message,
)
from asobiba.server.sockets.room_socket import kernel_reader, refuse, same_origin
from asobiba.server.store.store import Store

router = APIRouter()

CLOSE_NO_TRAINER = 4404
"""Close code for a socket to a game without a trainer."""

Arrival = tuple[float, dict[str, Any]]
"""A client message and the monotonic moment its frame reached the server."""


class Refused(Exception):
    """A frame the session answers with an error (``code``, ``message``) and otherwise ignores."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse(text: str | None) -> dict[str, Any]:
    """One client frame: ``start``, ``answer`` or ``pong``, checked; ``Refused`` otherwise."""
    if text is None:
        raise Refused("bad_message", "messages are JSON text frames, not binary")
    if len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise Refused("too_large", f"messages are limited to {MAX_MESSAGE_BYTES} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise Refused("bad_json", "not JSON this server reads") from None
    if isinstance(data, dict):
        kind = data.get("type")
        if kind == "start" and set(data) == {"type"}:
            return data
        if kind == "pong" and set(data) == {"type", "id"} and type(data["id"]) is int:
            return data
        if (
            kind == "answer"
            and set(data) == {"type", "n", "action"}
            and type(data["n"]) is int
            and isinstance(data["action"], dict)
        ):
            return data
    raise Refused(
        "bad_message",
        'expected {"type": "start"}, {"type": "answer", "n": card, "action": {...}} or '
        '{"type": "pong", "id": n}',
    )


class TrainerSession:
    """One socket's trainer sessions: a reader (frames, pongs, limits) and a driver (cards,
    verdicts) sharing a queue of the client's messages, each stamped with its arrival."""

    def __init__(
        self,
        websocket: WebSocket,
        name: str,
        game: Game[Any],
        player: str | None,
        store: Store,
        limits: SocketLimits,
        pause: float = 1.0,
    ) -> None:
        self.websocket = websocket
        self.name = name
        self.game = game
        self.player = player
        self.store = store
        self.limits = limits
        self.pause = pause
        """Multiplies each card's pause (``Settings.trainer_pause``: 1, or 0 in tests)."""
        self.latency = Latency(kernel_reader(websocket))
        self.bucket = TokenBucket(limits.per_second, limits.burst)
        self.inbox: asyncio.Queue[Arrival] = asyncio.Queue()
        self.writing = asyncio.Lock()

    async def send(self, message: dict[str, Any]) -> float:
        """Write ``message``; the monotonic moment it was handed to the socket."""
        async with self.writing:
            sent = time.monotonic()
            await self.websocket.send_text(encode(message))
            return sent

    async def error(self, code: str, message: str) -> None:
        await self.send(error_message(code, message))

    async def serve(self) -> None:
        async with anyio.create_task_group() as group:
            if self.limits.ping_seconds is not None and self.latency.needs_pings:
                group.start_soon(self._ping, self.limits.ping_seconds)
            group.start_soon(self._drive)
            await self._read()
            group.cancel_scope.cancel()

    async def _ping(self, every: float) -> None:
        while True:
            async with self.writing:
                await self.websocket.send_text(encode({"type": "ping", "id": self.latency.ping()}))
            await anyio.sleep(every)

    async def _read(self) -> None:
        """Read frames until the client leaves or sends too fast (then close with 4429)."""
        while True:
            frame = await self.websocket.receive()
            arrived = time.monotonic()
            if frame["type"] == "websocket.disconnect":
                return
            if not self.bucket.take():
                count_refusal("socket_messages")
                limit = f"more than {self.bucket.per_second:g} messages a second; closing"
                await self.error("rate_limited", limit)
                await self.websocket.close(CLOSE_RATE_LIMITED, "rate limited")
                return
            try:
                message = parse(frame.get("text"))
            except Refused as refused:
                await self.error(refused.code, refused.message)
                continue
            if message["type"] == "pong":
                self.latency.pong(message["id"])
            else:
                self.inbox.put_nowait((arrived, message))

    async def _drive(self) -> None:
        await self.send({"type": "ready", "kinds": self.game.drill_kinds()})  # type: ignore[attr-defined]
        while True:
            _, message = await self.inbox.get()
            if message["type"] == "start":
                await self._session()
            else:
                await self.error("no_card", "no card is waiting for an answer; send start")

    async def _session(self) -> None:
        # Drawing a session searches for its cards: CPU work, off the event loop.
        prompts: list[DrillPrompt] = await asyncio.to_thread(self.game.drill, new_seed())  # type: ignore[attr-defined]
        await self.send({"type": "session", "cards": len(prompts)})
        answers = []
        for n, prompt in enumerate(prompts, 1):
            await self._between(prompt.pause * self.pause)
            sent = await self.send(
                {
                    "type": "card",
                    "n": n,
                    "view": prompt.view,
                    "legal": prompt.legal,
                    "limit": prompt.limit,
                }
            )
            action, seconds = await self._answer(n, prompt, sent)
            verdict = self.game.judge_drill(prompt, action, seconds)  # type: ignore[attr-defined]
            answers.append(DrillAnswer(prompt, verdict, seconds))
            await self.send(
                {
                    "type": "judged",
                    "n": n,
                    "right": verdict.right,
                    "kind": verdict.kind,
                    "correct": verdict.correct,
                    "said": action,
                    "seconds": seconds,
                    "feedback": verdict.feedback,
                }
            )
        summary = self.game.drill_summary(answers)  # type: ignore[attr-defined]
        best: dict[str, Any] = {}
        if self.player is not None:
            await asyncio.to_thread(
                self.store.record_drill, self.player, self.name, summary, self.game.levels
            )
            best = await asyncio.to_thread(self.store.drill_bests, self.player, self.name)
        await self.send({"type": "done", "summary": summary, "best": best})

    async def _between(self, seconds: float) -> None:
        """Wait before the next card; whatever comes meanwhile is answered, not kept."""
        until = time.monotonic() + seconds
        while (left := until - time.monotonic()) > 0:
            try:
                _, message = await asyncio.wait_for(self.inbox.get(), left)
            except TimeoutError:
                return
            await self._stray(message, None)

    async def _stray(self, message: dict[str, Any], current: int | None) -> None:
        if message["type"] == "start":
            await self.error("busy", "a session is running; answer its cards")
        elif current is not None and message["n"] > current:
            await self.error("no_card", f"card {message['n']} has not been turned")
        else:
            await self.error("too_late", "that card has been judged already")

    async def _answer(
        self, n: int, prompt: DrillPrompt, sent: float
    ) -> tuple[dict[str, Any] | None, float | None]:
        """The answer to card ``n`` and its seconds as measured (see the module), or (None,
        None) when none came in time. An answer the game refuses gets ``illegal_action`` and
        the card stays open."""
        while True:
            deadline = sent + prompt.limit + self.latency.round_trip()
            try:
                arrived, message = await asyncio.wait_for(
                    self.inbox.get(), max(0.0, deadline - time.monotonic())
                )
            except TimeoutError:
                return None, None
            if message["type"] != "answer" or message["n"] != n:
                await self._stray(message, n)
                continue
            if arrived > deadline:
                return None, None
            action = message["action"]
            if action not in prompt.legal:
                await self.error("illegal_action", f"{action!r} is not an answer to this card")
                continue
            seconds = max(0.0, arrived - sent - self.latency.round_trip())
            return action, round(seconds, 3)


@router.websocket("/ws/learn/{game_name}/trainer")
async def trainer_socket(websocket: WebSocket, game_name: str) -> None:
    if not same_origin(websocket):
        refusal = PlainTextResponse("cross-origin socket refused", status_code=403)
        await websocket.send_denial_response(refusal)
        return
    game = trainer_game(game_name)
    if game is None:
        await websocket.accept()
        with contextlib.suppress(WebSocketDisconnect, WebSocketDisconnected):
            error = error_message("no_trainer", f"no trainer for {game_name!r}")
            await refuse(websocket, error, CLOSE_NO_TRAINER)
        return
    state = websocket.app.state

    async def serve() -> None:
        store, limits, pause = state.hub.store, state.socket_limits, state.trainer_pause
        player = player_id(websocket)
        await TrainerSession(websocket, game_name, game, player, store, limits, pause).serve()

    await serve_capped(websocket, "trainer", state.trainer_sockets, serve)
