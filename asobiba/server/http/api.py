"""JSON API: games and their options, starting a room, records and replays."""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from asobiba.core.errors import InvalidOptions
from asobiba.core.game import Game, grades_of, revealed, reveals, reviews
from asobiba.core.options import offered_only
from asobiba.core.rng import SEED_BITS, new_seed
from asobiba.games import game_names, get_game
from asobiba.server.analysis.reviews import Job, ReviewBusy
from asobiba.server.http.identity import ensure_player_id, player_id
from asobiba.server.http.learn import progress
from asobiba.server.http.sharing import lets_see, share_link
from asobiba.server.http.throttle import throttle
from asobiba.server.logs import name_game
from asobiba.server.rooms.hub import Hub
from asobiba.server.rooms.recovery import states
from asobiba.server.social.names import default_name
from asobiba.server.social.tables import InvalidTable, TableSettings, check_clock, seat_table
from asobiba.server.store.db import Review
from asobiba.server.store.records import accuracy_by_rules, game_list, newest, summarize
from asobiba.server.store.seats import is_deleted
from asobiba.server.store.store import RoomBrief, StoredRoom

router = APIRouter(prefix="/api")


class SeatKind(BaseModel):
    """One seat of a table as its host sets it: ``me``, ``open`` (for a person) or a ``bot``."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["me", "open", "bot"]
    level: str | None = Field(default=None, max_length=32)


class NewRoom(BaseModel):
    """A game against bots (the person takes one seat, bots of ``level`` every other), or with
    ``seats`` a table between people (``social/tables.py``). Unknown fields are refused, not
    ignored."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=32)
    options: dict[str, Any] = Field(default_factory=dict)
    level: str | None = Field(default=None, max_length=32)
    seats: list[SeatKind] | None = Field(default=None, min_length=1, max_length=16)
    public: StrictBool = False
    clock: dict[str, Any] | None = None
    standin: str | None = Field(default=None, max_length=32)
    spectator_chat: StrictBool = False
    rated: StrictBool = True
    """A table's game changes its people's ratings (false: casual). A game against bots is
    always rated unless the person takes a hint (``server/store/ratings.py``)."""
    order: Literal["first", "second", "random"] = "first"
    players: StrictInt | None = Field(default=None, ge=1, le=16)
    """How many seats; the game's fewest if absent. An integer: ``"3"`` and ``3.0`` are refused."""
    seed: StrictInt | None = Field(default=None, ge=0, lt=2**SEED_BITS)
    """A fixed deal, only where the server allows it (``ASOBIBA_DEV_SEEDS=1``, for tests)."""


def offered_game(name: str) -> Game[Any]:
    """A game the site offers; an engine whose table is not built yet is unknown here."""
    if name not in game_names():
        message = f"unknown game {name!r}; known: {game_names()}"
        raise HTTPException(404, detail={"code": "unknown_game", "message": message})
    return get_game(name)


@router.get("/games")
def games() -> dict[str, Any]:
    listed = []
    for name in game_names():
        game = get_game(name)
        names = game.level_names()
        listed.append(
            {
                "name": name,
                "options": [spec.to_json() for spec in game.options_spec()],
                "levels": [{"id": level, "name": names[level]} for level in game.levels],
                "seats": [game.min_seats, game.max_seats],
            }
        )
    return {"games": listed}


@router.post("/rooms", status_code=201)
async def new_room(body: NewRoom, request: Request) -> dict[str, Any]:
    game = offered_game(body.game)
    if body.seats is not None:
        return await new_table(game, body, request)
    table_only = {"public", "clock", "standin", "spectator_chat", "rated"} & body.model_fields_set
    if table_only:
        message = f"{sorted(table_only)} are set only with 'seats' (a table between people)"
        raise HTTPException(400, detail={"code": "bad_request", "message": message})
    if body.level not in game.levels:
        raise HTTPException(
            400,
            detail={
                "code": "invalid_level",
                "message": f"unknown level {body.level!r}; known: {game.levels}",
            },
        )
    assert body.level is not None, "checked against the levels above"
    players = seat_count(game, body.players)
    seat = {"first": 0, "second": 1, "random": secrets.randbelow(players)}[body.order]
    person = ensure_player_id(request)
    resolved = _resolved(game, body, request)
    seats: list[dict[str, Any]] = [{"bot": body.level} for _ in range(players)]
    seats[seat] = {"player": person}
    hub = await _spend(request, person)
    room = await hub.create(body.game, resolved, seats, _seed(body))
    return {"room_id": room.id, "seat": seat, "ws": f"/ws/rooms/{room.id}"}


def seat_count(game: Game[Any], players: int | None) -> int:
    """How many seats a game of ``players`` has (None: the game's fewest); outside the game's
    range, 400 ``invalid_players``."""
    count = players or game.min_seats
    if not game.min_seats <= count <= game.max_seats:
        span = (
            f"{game.min_seats}"
            if game.min_seats == game.max_seats
            else f"{game.min_seats} to {game.max_seats}"
        )
        message = f"{game.name} is played by {span} players, not {count}"
        raise HTTPException(400, detail={"code": "invalid_players", "message": message})
    return count


def offered_options(game: Game[Any], options: dict[str, Any]) -> dict[str, Any]:
    """``options`` resolved, every one offered and valid; else 400 with the options' code."""
    try:
        offered_only(game.options_spec(), options)
        return game.resolve_options(options)
    except InvalidOptions as error:
        raise HTTPException(400, detail={"code": error.code, "message": str(error)}) from None


def _resolved(game: Game[Any], body: NewRoom, request: Request) -> dict[str, Any]:
    """The room's options, every one offered and valid; and a fixed seed only where allowed."""
    if body.seed is not None and not getattr(request.app.state, "dev_seeds", False):
        message = "a fixed seed is only taken by a development server (ASOBIBA_DEV_SEEDS=1)"
        raise HTTPException(400, detail={"code": "seed_refused", "message": message})
    return offered_options(game, body.options)


def _seed(body: NewRoom) -> int:
    return new_seed() if body.seed is None else body.seed


async def _spend(request: Request, person: str) -> Hub:
    """Count a new room against the guest (429 past the limits) and end their oldest games
    beyond what they may hold; the hub to create it in."""
    _spend_a_room(request, person)
    hub: Hub = request.app.state.hub
    await hub.make_room_for(person, request.app.state.guest_limits.unfinished - 1)
    return hub


async def new_table(game: Game[Any], body: NewRoom, request: Request) -> dict[str, Any]:
    """A table between people: the host's seat, open seats and bots, its settings."""
    assert body.seats is not None
    other = {"level", "order", "players"} & body.model_fields_set
    if other:
        message = f"{sorted(other)} are not taken with 'seats': each seat says what it is"
        raise HTTPException(400, detail={"code": "bad_request", "message": message})
    person = ensure_player_id(request)
    resolved = _resolved(game, body, request)
    host_name = await asyncio.to_thread(request.app.state.hub.store.player_name, person)
    try:
        seats, seat = seat_table(
            [kind.model_dump() for kind in body.seats],
            person,
            host_name or default_name(person),
            game.levels,
            (game.min_seats, game.max_seats),
        )
        standin = body.standin or game.levels[0]
        if standin not in game.levels:
            raise InvalidTable("invalid_level", f"unknown level {standin!r}; known: {game.levels}")
        settings = TableSettings(
            standin, check_clock(body.clock), body.spectator_chat, rated=body.rated
        )
    except InvalidTable as error:
        raise HTTPException(400, detail={"code": error.code, "message": error.message}) from None
    hub = await _spend(request, person)
    room = await hub.create(
        game.name, resolved, seats, _seed(body), table=settings, host=person, public=body.public
    )
    return {"room_id": room.id, "seat": seat, "ws": f"/ws/rooms/{room.id}", "code": room.code}


def _spend_a_room(request: Request, person: str) -> None:
    """Count a new room against the guest and its address, or refuse it: 429 ``too_many_rooms``."""
    state = request.app.state
    limits = state.rooms_per_guest, state.rooms_per_address
    throttle(request, person, limits, "too_many_rooms", "new games")


@router.get("/rooms")
async def my_rooms(
    request: Request, game: str = Query(max_length=32), mine: Literal["unfinished"] = "unfinished"
) -> dict[str, Any]:
    """The visitor's unfinished games of ``game``, newest first, each with its address."""
    offered_game(game)
    person = player_id(request)
    if person is None:
        return {"mine": mine, "rooms": []}
    store = request.app.state.hub.store
    rooms = await asyncio.to_thread(store.unfinished_rooms, person, game)
    listed = []
    for room in rooms:
        seat = next(i for i, spec in enumerate(room.seats) if spec.get("player") == person)
        listed.append(
            {
                "room_id": room.id,
                "game": room.game,
                "url": f"/games/{room.game}/{room.id}",
                "options": room.options,
                "level": next((spec["bot"] for spec in room.seats if "bot" in spec), None),
                "seat": seat,
                "players": len(room.seats),
                "created_at": room.created_at.isoformat(),
            }
        )
    return {"mine": mine, "rooms": listed}


def _frames(
    game: Game[Any], stored: StoredRoom, viewer: int | None, reveal: bool = False
) -> tuple[list[dict[str, Any]], list[int], list[int]]:
    """Every view ``viewer`` had, in order, each once: an event that changed nothing it may see
    (a secret pass in a claim window) adds no frame, so the frames do not count those either.
    With ``reveal`` (a finished game only) each frame is the same moment with nothing hidden,
    so the two lists step alike. Also, per frame, how many events had happened (a review names
    moves by event), and for each state (the start, then after each event) the frame that shows
    it. Run off the event loop: a long game takes a while to replay."""
    frames: list[dict[str, Any]] = []
    events: list[int] = []
    shown: list[int] = []
    last: dict[str, Any] | None = None
    for n, state in enumerate(states(game, stored)):
        seen = game.observe(state, viewer)
        if seen != last:
            last = seen
            frames.append(revealed(game, state, viewer) if reveal else seen)
            events.append(n)
        shown.append(len(frames) - 1)
    return frames, events, shown


def _hints(stored: StoredRoom, shown: list[int], viewer: int | None) -> list[dict[str, Any]]:
    """The hints taken, each on the frame it was asked at; the move shown only to the seat that
    asked (everyone may see that a hint was used: the records keep such games apart)."""
    return [
        {"frame": shown[hint.seq], "seat": hint.seat}
        | ({"action": hint.action} if hint.seat == viewer else {})
        for hint in stored.hints
    ]


def _replay_seat(spec: dict[str, Any]) -> dict[str, Any]:
    """A seat as the replay names it: a bot and its level, a person who deleted their data
    (``deleted``: pages say "Deleted player"), or a person and the name they took the seat
    with (None for a seat stored without one). Never the guest's id."""
    if "bot" in spec:
        return {"kind": "bot", "name": None, "level": spec["bot"]}
    if is_deleted(spec):
        return {"kind": "deleted", "name": None}
    return {"kind": "human", "name": spec.get("name")}


def _standins(stored: StoredRoom, shown: list[int]) -> list[dict[str, Any]]:
    """The moves a stand-in bot played for a person: one entry per frame and seat, on the frame
    showing the position after the move (as hints are placed), with the stand-in's level."""
    marks: dict[tuple[int, int], dict[str, Any]] = {}
    for n, ((seat, _, _), level) in enumerate(zip(stored.events, stored.standins, strict=False)):
        if level is not None and seat is not None:
            frame = shown[n + 1]
            marks.setdefault((frame, seat), {"frame": frame, "seat": seat, "level": level})
    return list(marks.values())


@router.get("/records/{game_name}")
async def records(game_name: str, request: Request) -> dict[str, Any]:
    """The guest's rows (people at the table × rule set × players × strength × seat: games with
    other people apart from games against bots) and stored games (with how many people played,
    whether a stand-in played, and each seat's name); ``fields`` are the game's own figures
    each row's ``stats`` holds (``Game.record_fields``); ``learning``, the guest's course and
    trainer progress in the game (``learn.progress``)."""
    game = offered_game(game_name)
    fields = game.record_fields()
    described = [dataclasses.asdict(spec) for spec in fields]
    person = player_id(request)
    if person is None:
        learning = await asyncio.to_thread(progress, request.app.state.hub.store, None, game_name)
        return {"fields": described, "rows": [], "games": [], "accuracy": [], "learning": learning}
    store = request.app.state.hub.store
    results = await asyncio.to_thread(store.results, person, game_name)
    rows = summarize(results, game.levels, fields)
    seats = await asyncio.to_thread(store.room_seats, [r.room_id for r in newest(results)])
    reviewed = await asyncio.to_thread(store.reviewed, person, game_name)
    learning = await asyncio.to_thread(progress, store, person, game_name)
    return {
        "fields": described,
        "rows": rows,
        "games": game_list(results, seats=seats),
        "accuracy": accuracy_by_rules(reviewed),
        "learning": learning,
    }


def _no_game() -> HTTPException:
    return HTTPException(
        404, detail={"code": "unknown_game", "message": "no finished game with that id"}
    )


@router.get("/rooms/{room_id}/replay")
async def replay(
    room_id: str, request: Request, reveal: bool = False, share: str | None = None
) -> dict[str, Any]:
    """A finished game, move by move, as the viewer's seat saw it (a spectator's view for anyone
    who did not play): every frame is an observation, so a hidden hand stays hidden. With
    ``?reveal=true``, the same frames with every hand shown (``Game.reveal``; ``can_reveal``
    says whether the game hides anything): only a finished game has a replay at all, so no
    seat of a game still being played can see what it may not. A private table's replay is
    its people's and its ``share`` link holders' only (404 to anyone else); its people get
    that link in ``share`` (null for every other game and viewer)."""
    hub = request.app.state.hub
    stored = await asyncio.to_thread(hub.store.load_room, room_id)
    if (
        stored is None
        or not stored.finished
        or stored.abandoned
        or not lets_see(request, stored, share)
    ):
        raise _no_game()
    person = player_id(request)
    seat_of_viewer = next(
        (i for i, spec in enumerate(stored.seats) if spec.get("player") == person), None
    )
    name_game(stored.game)
    game = get_game(stored.game)
    frames, events, shown = await asyncio.to_thread(_frames, game, stored, seat_of_viewer, reveal)
    level = next((spec["bot"] for spec in stored.seats if "bot" in spec), None)
    return {
        "game": stored.game,
        "options": stored.options,
        "level": level,
        "seat": seat_of_viewer,
        "seats": [_replay_seat(spec) for spec in stored.seats],
        "frames": frames,
        "frame_events": events,
        "hints": _hints(stored, shown, seat_of_viewer),
        "standins": _standins(stored, shown),
        "chat": [line.to_json() for line in stored.chat],
        "revealed": reveal and reveals(game),
        "can_reveal": reveals(game),
        "can_review": reviews(game),
        "outcome": stored.outcome,
        "share": share_link(request, stored),
    }


async def _reviewable(
    request: Request, room_id: str, share: str | None
) -> tuple[Game[Any], RoomBrief]:
    """The game of a finished stored game that can be reviewed, seen by whom its replay is
    (``share`` as there); else a clear error."""
    brief = await asyncio.to_thread(request.app.state.hub.store.room_brief, room_id)
    if brief is None or not brief.finished or not lets_see(request, brief, share):
        raise _no_game()
    name_game(brief.game)
    game = get_game(brief.game)
    if not reviews(game):
        message = f"{brief.game} games cannot be reviewed: its engine does not value moves"
        raise HTTPException(400, detail={"code": "no_review", "message": message})
    return game, brief


def _grades_json(game: Game[Any], options: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"key": g.key, "most": g.most} for g in grades_of(game, options)]


def _review_json(game: Game[Any], review: Review, options: dict[str, Any]) -> dict[str, Any]:
    return {
        "state": "done",
        "done": len(review.moves),
        "total": len(review.moves),
        "seconds": review.seconds,
        "grades": _grades_json(game, options),
        "moves": review.moves,
        "players": review.players,
    }


def _job_json(game: Game[Any], job: Job, options: dict[str, Any]) -> dict[str, Any]:
    """A running (or failed) review: its progress and the moves valued so far, classed."""
    return {**job.to_json(), "grades": _grades_json(game, options)}


@router.post("/rooms/{room_id}/review")
async def start_review(
    room_id: str, request: Request, response: Response, share: str | None = None
) -> dict[str, Any]:
    """Start the review of a finished game, or join the one running (202 with progress); a
    game reviewed before answers its stored review at once. Too many reviews running: 503
    ``busy``, nothing started."""
    game, brief = await _reviewable(request, room_id, share)
    store = request.app.state.hub.store
    review = await asyncio.to_thread(store.load_review, room_id)
    if review is not None:
        return _review_json(game, review, brief.options)
    stored = await asyncio.to_thread(store.load_room, room_id)
    assert stored is not None, "rooms are never deleted"
    try:
        job = request.app.state.reviewer.start(stored)
    except ReviewBusy as error:
        raise HTTPException(503, detail={"code": "busy", "message": str(error)}) from None
    response.status_code = 202
    return _job_json(game, job, brief.options)


@router.get("/rooms/{room_id}/review")
async def review(room_id: str, request: Request, share: str | None = None) -> dict[str, Any]:
    """A game's review: ``state`` "none" (never asked), "running" or "failed" (``done`` of
    ``total`` positions valued, and the moves valued so far from the start), or "done" with
    every reviewed move (``event``: how many events had happened after it, as the replay's
    ``frame_events`` count them); with moves, each seat's summary of them and the game's
    ``grades`` (the most a move of each class may lose)."""
    game, brief = await _reviewable(request, room_id, share)
    job = request.app.state.reviewer.job(room_id)
    if job is not None:
        return _job_json(game, job, brief.options)
    store = request.app.state.hub.store
    review = await asyncio.to_thread(store.load_review, room_id)
    if review is None:
        return {"state": "none", "done": 0, "total": 0}
    return _review_json(game, review, brief.options)
