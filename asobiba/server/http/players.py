"""Players' public face: their ratings, rating histories, recent games and records, and the
leaderboards. A player is named here only by their public id (``Player.public_id``), never by the
secret id in their cookie; a private table's games stay off their profile."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, HTTPException, Request

from asobiba.core import ratings
from asobiba.core.game import Game, rating_families, rating_key
from asobiba.games import game_names, get_game
from asobiba.server.social.names import default_name
from asobiba.server.store.ratings import now_rating
from asobiba.server.store.records import seat_kinds, seat_names
from asobiba.server.store.store import Leader, ShownGame, Store

router = APIRouter(prefix="/api")

PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")
"""What a public id may look like (``db.new_public_id``: 12 URL-safe characters)."""
BOARD_DAYS = 30.0
"""A leaderboard lists players whose last rated game in its family is at most this old."""
BOARD_SIZE = 100
RECENT_GAMES = 20
"""Games a profile lists, newest first."""


def rating_json(rating: ratings.Rating) -> dict[str, Any]:
    """A rating as the API gives it: ``rating`` and ``rd`` to a tenth, ``provisional``, games."""
    return {
        "rating": round(rating.rating, 1),
        "rd": round(rating.rd, 1),
        "provisional": rating.provisional,
        "games": rating.games,
    }


def _unknown_player() -> HTTPException:
    return HTTPException(404, detail={"code": "unknown_player", "message": "no such player"})


async def _player(store: Store, public_id: str) -> str:
    """The player behind a public id, or 404 (a malformed id is unknown too)."""
    found = await asyncio.to_thread(store.player_of, public_id) if _valid(public_id) else None
    if found is None:
        raise _unknown_player()
    return found


def _valid(public_id: str) -> bool:
    return PUBLIC_ID.fullmatch(public_id) is not None


def _family(game_name: str, family: str) -> Game[Any]:
    """The game of a rated family, or 404 ``unknown_rating``."""
    if game_name not in game_names() or family not in rating_families(get_game(game_name)):
        message = f"no ratings for {game_name}/{family}"
        raise HTTPException(404, detail={"code": "unknown_rating", "message": message})
    return get_game(game_name)


def _game_json(shown: ShownGame) -> dict[str, Any]:
    """A profile's game: what the replay link and one line of the list need."""
    result, change = shown.result, shown.change
    game = get_game(result.game)
    return {
        "room_id": result.room_id,
        "game": result.game,
        "key": rating_key(game, result.options, result.players),
        "url": f"/replay/{result.room_id}",
        "finished_at": result.finished_at.isoformat(),
        "options": result.options,
        "level": result.level or None,
        "players": result.players,
        "people": result.people,
        "seat": result.seat,
        "result": result.result,
        "standin": result.standin,
        "names": seat_names(shown.seats),
        "kinds": seat_kinds(shown.seats),
        "levels": [spec.get("bot") for spec in shown.seats],
        "rating": None
        if change is None
        else {"before": round(change.before, 1), "after": round(change.after, 1)},
    }


@router.get("/players/{public_id}")
async def player(public_id: str, request: Request) -> dict[str, Any]:
    """A player's profile: name, every rating (``"<game>/<family>"``: rating, RD, provisional,
    games; the RD as of now, grown since their last game), their newest games anyone may see
    (with the rating change of each rated one and a link to its replay) and their wins, draws
    and losses per game."""
    store: Store = request.app.state.hub.store
    person = await _player(store, public_id)
    name, rows, shown, totals = await asyncio.gather(
        asyncio.to_thread(store.player_name, person),
        asyncio.to_thread(store.player_ratings, person),
        asyncio.to_thread(store.shown_games, person, RECENT_GAMES),
        asyncio.to_thread(store.totals, person),
    )
    at = datetime.now(UTC)
    offered = set(game_names())
    return {
        "id": public_id,
        "name": name or default_name(person),
        "ratings": {
            row.key: rating_json(now_rating(row, at))
            for row in rows
            if row.key.split("/", 1)[0] in offered
        },
        "games": [_game_json(game) for game in shown if game.result.game in offered],
        "records": {game: totals[game] for game in game_names() if game in totals},
    }


@router.get("/players/{public_id}/ratings/{game_name}/{family}")
async def history(public_id: str, game_name: str, family: str, request: Request) -> dict[str, Any]:
    """A player's rating in one family now, and what each rated game did to it, oldest first
    (``at``, ``before``, ``after``, ``rd`` after): the profile's chart."""
    _family(game_name, family)
    store: Store = request.app.state.hub.store
    person = await _player(store, public_id)
    key = f"{game_name}/{family}"
    changes, rows = await asyncio.gather(
        asyncio.to_thread(store.rating_history, person, key),
        asyncio.to_thread(store.player_ratings, person),
    )
    at = datetime.now(UTC)
    now = next((now_rating(row, at) for row in rows if row.key == key), None)
    return {
        "key": key,
        "rating": None if now is None else rating_json(now),
        "history": [
            {
                "at": change.at.isoformat(),
                "before": round(change.before, 1),
                "after": round(change.after, 1),
                "rd": round(change.rd, 1),
            }
            for change in changes
        ],
    }


def _leader_json(rank: int, leader: Leader) -> dict[str, Any]:
    return {
        "rank": rank,
        "id": leader.public_id,
        "name": leader.name or default_name(leader.player_id),
        **rating_json(leader.rating),
        "played_at": leader.played_at.isoformat(),
    }


@router.get("/leaderboard/{game_name}/{family}")
async def leaderboard(game_name: str, family: str, request: Request) -> dict[str, Any]:
    """The best established ratings of a family (not provisional, as of now) among players
    who played a rated game of it in the last ``BOARD_DAYS`` days, at most ``BOARD_SIZE``."""
    _family(game_name, family)
    store: Store = request.app.state.hub.store
    key = f"{game_name}/{family}"
    leaders = await asyncio.to_thread(
        store.leaderboard, key, datetime.now(UTC), BOARD_DAYS, BOARD_SIZE
    )
    return {
        "key": key,
        "game": game_name,
        "family": family,
        "days": BOARD_DAYS,
        "leaders": [_leader_json(rank, leader) for rank, leader in enumerate(leaders, 1)],
    }
