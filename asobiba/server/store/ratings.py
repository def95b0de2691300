"""Ratings in the store: which finished games change whose rating, and writing the change in the
transaction that finishes the room (``store._finish``), so a game is rated exactly when its
results are written, once.

A rated game (``rated_game``) is one finished at a rated table (``TableSettings.rated``) or
against the computer, with at least one person at it and no hint taken (an assisted game is kept
apart in the records and rates nobody), whose every bot level has an anchor in its rule family.
Every person seat counts as its person's, stand-in moves included: someone who left lets the
stand-in finish for them. Each bot seat is its level's fixed anchor (``core.ratings.anchors``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from asobiba.core import ratings
from asobiba.core.game import Game, rating_anchors, rating_family
from asobiba.core.ratings import Anchor, Contender, Rating
from asobiba.server.store.db import PlayerRating, RatingChange
from asobiba.server.store.seats import is_deleted

RATINGS = cast(Table, PlayerRating.__table__)
CHANGES = cast(Table, RatingChange.__table__)


@dataclass(frozen=True)
class RatedGame:
    """What a finished game does to ratings: its key, who sat where (a person's id or a bot's
    anchor) and each seat's place (``core.ratings.ranks``)."""

    key: str
    seats: tuple[str | Anchor, ...]
    places: tuple[int, ...]

    @property
    def people(self) -> list[str]:
        return [seat for seat in self.seats if isinstance(seat, str)]


def rated_game(
    game: Game[Any],
    options: dict[str, Any],
    seats: list[dict[str, Any]],
    outcome: dict[str, Any],
    *,
    rated: bool,
    hints: Sequence[int] = (),
) -> RatedGame | None:
    """The rating change a finished game makes, or None when it makes none: a casual table
    (``rated`` false), no person at it, a hint taken, a table size no system rates, a bot
    level its family has no anchor for, or a seat of a person who deleted their data (there is
    nobody left to rate against: the game counts as unrated for everyone, like a game a
    player's leaving voided)."""
    if not rated or any(hints) or any(is_deleted(spec) for spec in seats):
        return None
    players = len(seats)
    if not 2 <= players <= ratings.MOST_PLAYERS or not any("player" in s for s in seats):
        return None
    family = rating_family(game, options, players)
    anchors = rating_anchors(game, family)
    rated_seats: list[str | Anchor] = []
    for spec in seats:
        if "player" in spec:
            rated_seats.append(spec["player"])
        elif spec.get("bot") in anchors:
            rated_seats.append(anchors[spec["bot"]])
        else:
            return None
    return RatedGame(
        key=f"{game.name}/{family}",
        seats=tuple(rated_seats),
        places=tuple(ratings.ranks(outcome, players)),
    )


def rating_of(row: Any) -> Rating:
    """A ``ratings`` row as a ``core.ratings.Rating`` (as of its ``updated_at``)."""
    return Rating(row.rating, row.rd, row.volatility, row.games)


def now_rating(row: Any, at: datetime) -> Rating:
    """A ``ratings`` row's rating at ``at``: its RD grown by the time since its last game."""
    return ratings.decayed(rating_of(row), (at - row.updated_at).total_seconds() / 86400)


def apply(executor: Session | Connection, room_id: str, game: RatedGame, at: datetime) -> None:
    """Rate ``game`` (the room ``room_id``, finished at ``at``) in the caller's transaction.

    Each person's row is made first if missing (the start rating; a concurrent insert of the same
    row is let be) and then read locked (``FOR UPDATE`` on PostgreSQL), in the order of their
    ids, so two games finishing at once for the same person are rated one after the other and
    two writers never wait on each other's rows the other way round."""
    people = sorted(set(game.people))
    start = ratings.start(len(game.seats))
    _insert_missing(executor, game.key, people, start, at)
    rows = executor.execute(
        select(RATINGS)
        .where(RATINGS.c.key == game.key, RATINGS.c.player_id.in_(people))
        .order_by(RATINGS.c.player_id)
        .with_for_update()
    ).all()
    now = {row.player_id: now_rating(row, at) for row in rows}
    contenders: list[Contender] = [
        now[seat] if isinstance(seat, str) else seat for seat in game.seats
    ]
    for seat, before, after in zip(
        game.seats, contenders, ratings.rate(contenders, game.places), strict=True
    ):
        if not isinstance(seat, str) or after is None:
            continue
        executor.execute(
            RATINGS.update()
            .where(RATINGS.c.player_id == seat, RATINGS.c.key == game.key)
            .values(
                rating=after.rating,
                rd=after.rd,
                volatility=after.volatility,
                games=after.games,
                updated_at=at,
            )
        )
        executor.execute(
            CHANGES.insert().values(
                room_id=room_id,
                player_id=seat,
                key=game.key,
                before=before.rating,
                after=after.rating,
                rd=after.rd,
                at=at,
            )
        )


def _insert_missing(
    executor: Session | Connection, key: str, people: list[str], start: Rating, at: datetime
) -> None:
    bind = executor.get_bind() if isinstance(executor, Session) else executor
    dialect = bind.dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    for person in people:
        executor.execute(
            insert(RATINGS)
            .values(
                player_id=person,
                key=key,
                rating=start.rating,
                rd=start.rd,
                volatility=start.volatility,
                games=0,
                updated_at=at,
            )
            .on_conflict_do_nothing(index_elements=["player_id", "key"])
        )
