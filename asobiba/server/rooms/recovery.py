"""Rebuilding a game from its stored log, and finishing games a crash left unfinished.

Since the final event, the room's finish and its results are written in one transaction
(``Store.append_event``), a crash can no longer split them; older versions wrote them in two
steps, so a database may hold logs that end the game in a room never marked finished. Those are
repaired whenever such a room is rebuilt, and the hub rebuilds every unfinished room at start-up
(``Hub.recover``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any

from asobiba.core.game import Game, first_state
from asobiba.server.social.tables import TableSettings
from asobiba.server.store.ratings import rated_game
from asobiba.server.store.records import results_for
from asobiba.server.store.store import Finish, Store, StoredRoom


def states(game: Game[Any], stored: StoredRoom) -> Iterator[Any]:
    """The start, then the state after each stored event: timed events through ``advance``, the
    rest through ``apply``, each at the time it happened. A table starts for the people it
    started with (``TableSettings.people``); a game against bots has one at most."""
    table = None if stored.settings is None else TableSettings.from_json(stored.settings)
    seated = sum("player" in spec for spec in stored.seats)
    people = seated if table is None else table.people or 0
    state = first_state(game, stored.options, len(stored.seats), stored.seed, people)
    yield state
    for seat, action, at in stored.events:
        if action is None:
            state = game.advance(state, at)
        else:
            assert seat is not None, "only timed events have no seat"
            state = game.apply(state, seat, action, at)
        yield state


def replay(game: Game[Any], stored: StoredRoom) -> Any:
    """The state after every stored event."""
    return deque(states(game, stored), maxlen=1)[0]


def finish_if_over(store: Store, game: Game[Any], stored: StoredRoom, state: Any) -> bool:
    """Write the finish of a room whose log ends the game but which is not marked finished."""
    outcome = game.outcome(state)
    if stored.finished or outcome is None:
        return False
    hints = stored.hints_per_seat()
    results = results_for(
        stored.id, game, stored.options, stored.seats, outcome, hints, stored.stood_in
    )
    table = None if stored.settings is None else TableSettings.from_json(stored.settings)
    rated = table is None or table.rated
    rating = rated_game(game, stored.options, stored.seats, outcome, rated=rated, hints=hints)
    return store.finish_room(stored.id, Finish(outcome, results, rating))
