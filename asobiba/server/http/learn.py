"""Lessons (``/api/learn``): a game's lessons with the guest's done marks, and the engine's
verdict on a learner's moves. Any game that declares lessons (``core.game.teaches``) has them;
progress is kept per guest in ``lesson_progress``. A game with a trainer (``core.game.drills``)
also answers ``GET /api/learn/<game>/trainer`` with its kinds of question and the guest's best
figures (the sessions themselves run on ``sockets/trainer_socket.py``)."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from asobiba.core.errors import GameError
from asobiba.core.game import Game, drills, teaches
from asobiba.games import game_names, get_game
from asobiba.server.http.identity import ensure_player_id, player_id
from asobiba.server.store.store import Store

router = APIRouter(prefix="/api/learn")

MAX_MOVES = 32
"""More moves than any lesson takes (a whole turn of extra moves fits many times)."""


class Answer(BaseModel):
    """The learner's moves from the lesson's position, in order (the server replays them all:
    nothing the browser says about earlier steps is taken on trust)."""

    model_config = ConfigDict(extra="forbid")
    moves: list[dict[str, Any]] = Field(min_length=1, max_length=MAX_MOVES)


def teaching_games() -> list[str]:
    """The offered games that have lessons (pages link to their /learn page)."""
    return [name for name in game_names() if teaches(get_game(name))]


def teaching_game(name: str) -> Game[Any] | None:
    """The game named, if the site offers it and it has lessons."""
    if name not in game_names():
        return None
    game = get_game(name)
    return game if teaches(game) else None


def trainer_game(name: str) -> Game[Any] | None:
    """The game named, if the site offers it and it has a trainer."""
    if name not in game_names():
        return None
    game = get_game(name)
    return game if drills(game) else None


def progress(store: Store, person: str | None, name: str) -> dict[str, Any]:
    """A guest's learning in a game, for the records page: lessons done of the course's
    (``lessons``) and the trainer's best figures with what names them (``trainer``); each only
    when the game has it. Blocking reads: call it in a thread."""
    game = get_game(name)
    learning: dict[str, Any] = {}
    if teaches(game):
        listed = {lesson.id for lesson in game.lessons()}  # type: ignore[attr-defined]
        done = store.lessons_done(person, name) if person else {}
        learning["lessons"] = {"done": len(listed & done.keys()), "total": len(listed)}
    if drills(game):
        learning["trainer"] = {
            "kinds": game.drill_kinds(),  # type: ignore[attr-defined]
            "levels": [{"id": level, "name": text} for level, text in game.level_names().items()],
            "best": store.drill_bests(person, name) if person else {},
        }
    return learning


def _game(name: str) -> Game[Any]:
    game = teaching_game(name)
    if game is None:
        message = f"no lessons for {name!r}"
        raise HTTPException(404, detail={"code": "no_lessons", "message": message})
    return game


@router.get("/{game_name}")
async def lessons(game_name: str, request: Request) -> dict[str, Any]:
    """Every lesson (position, texts, legal moves) and whether this guest has done it."""
    game = _game(game_name)
    person = player_id(request)
    store = request.app.state.hub.store
    done = await asyncio.to_thread(store.lessons_done, person, game_name) if person else {}
    listed = game.lessons()  # type: ignore[attr-defined]
    return {
        "game": game_name,
        "lessons": [dataclasses.asdict(lesson) | {"done": lesson.id in done} for lesson in listed],
    }


@router.get("/{game_name}/trainer")
async def trainer(game_name: str, request: Request) -> dict[str, Any]:
    """The trainer's kinds of question, the game's levels and this guest's best figures."""
    game = trainer_game(game_name)
    if game is None:
        message = f"no trainer for {game_name!r}"
        raise HTTPException(404, detail={"code": "no_trainer", "message": message})
    person = player_id(request)
    store = request.app.state.hub.store
    best = await asyncio.to_thread(store.drill_bests, person, game_name) if person else {}
    return {
        "game": game_name,
        "kinds": game.drill_kinds(),  # type: ignore[attr-defined]
        "levels": [{"id": level, "name": name} for level, name in game.level_names().items()],
        "best": best,
    }


@router.post("/{game_name}/{lesson_id}")
async def answer(game_name: str, lesson_id: str, body: Answer, request: Request) -> dict[str, Any]:
    """The engine's verdict on the moves; a right answer marks the lesson done for this guest."""
    game = _game(game_name)
    known = {lesson.id for lesson in game.lessons()}  # type: ignore[attr-defined]
    if lesson_id not in known:
        message = f"no lesson {lesson_id!r}; known: {sorted(known)}"
        raise HTTPException(404, detail={"code": "unknown_lesson", "message": message})
    try:
        # The engine reads the position to the end: CPU work, off the event loop.
        verdict = await asyncio.to_thread(game.check_lesson, lesson_id, body.moves)  # type: ignore[attr-defined]
    except GameError as error:
        raise HTTPException(400, detail={"code": error.code, "message": str(error)}) from None
    if verdict.status == "right":
        person = ensure_player_id(request)
        await asyncio.to_thread(
            request.app.state.hub.store.mark_lesson_done, person, game_name, lesson_id
        )
    return dataclasses.asdict(verdict)
