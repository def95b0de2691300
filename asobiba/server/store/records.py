"""Records: what a finished game adds to each person's results, and the per-rule-set summary.

Results are kept per player × game × rule set × number of players × bot level × seat order
(0 = moved first), and games where the player took a hint in rows of their own, so assisted
wins never mix into the unassisted figures. Games with other people at the table (``people``
above 1) are rows of their own too, after every game against bots, split by how many people
played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from asobiba.core.game import Game, RecordField, RecordValue
from asobiba.core.options import rule_key
from asobiba.server.store.db import Result, Review
from asobiba.server.store.seats import is_deleted, is_person


def results_for(
    room_id: str,
    game: Game[Any],
    options: dict[str, Any],
    seats: list[dict[str, Any]],
    outcome: dict[str, Any],
    hints: list[int] | None = None,
    standins: Collection[int] = (),
) -> list[Result]:
    """One ``Result`` per person seat of a finished game, against bots or between people, but
    for a deleted player's seat (nobody to give it to): ``people`` is how many person seats
    the table had (a deleted player's too), ``level`` the bots' level ("" when no seat was a
    bot), ``hints`` says how many hints each seat asked for and ``standins`` the seats a
    stand-in bot played for (only those seats' results carry the mark: the others played all
    their own moves).

    A game where every seat ties at the top is a draw for everyone, whatever the outcome's
    ``winners`` says (a game may list every tied seat there): nobody beat anybody."""
    bots = [spec["bot"] for spec in seats if "bot" in spec]
    people = sum(1 for spec in seats if "player" in spec)
    resolved = game.resolve_options(options)
    results = []
    scores = outcome["scores"]
    winners = outcome["winners"]
    if len(winners) == len(seats):
        winners = []
    for seat, spec in enumerate(seats):
        if not is_person(spec):
            continue  # a bot, or a person who deleted their data (no one to give it to)
        if not winners:
            result, sign = "draw", 0
        elif seat in winners:
            result, sign = "win", 1
        else:
            result, sign = "loss", -1
        best_other = max(s for i, s in enumerate(scores) if i != seat)
        results.append(
            Result(
                room_id=room_id,
                player_id=spec["player"],
                game=game.name,
                rule_key=rule_key(resolved),
                options=resolved,
                level=bots[0] if bots else "",
                seat=seat,
                players=len(seats),
                stats=game.record(outcome, seat),
                result=result,
                score=scores[seat],
                opponent_score=best_other,
                margin=sign * outcome.get("margin", abs(scores[seat] - best_other)),
                hints=hints[seat] if hints else 0,
                people=people,
                standin=seat in standins,
            )
        )
    return results


@dataclass
class Row:
    rule_key: str
    options: dict[str, Any]
    players: int
    level: str
    seat: int
    hinted: bool = False
    """The row counts games where the player took hints (kept apart from unassisted play)."""
    people: int = 1
    """How many people sat at the row's tables: 1 for games against bots."""
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    best_margin: int | None = None
    streak_kind: str | None = None
    streak_length: int = 0
    values: dict[str, list[RecordValue]] = field(default_factory=dict)
    """Each record field's values over the row's games (missing ones left out)."""

    def add(self, result: Result) -> None:
        self.games += 1
        if result.result == "win":
            self.wins += 1
        elif result.result == "draw":
            self.draws += 1
        else:
            self.losses += 1
        if result.result == "win" and (
            self.best_margin is None or result.margin > self.best_margin
        ):
            self.best_margin = result.margin
        for key, value in result.stats.items():
            if value is not None:
                self.values.setdefault(key, []).append(value)
        if result.result == self.streak_kind:
            self.streak_length += 1
        else:
            self.streak_kind, self.streak_length = result.result, 1

    def to_json(self, fields: list[RecordField]) -> dict[str, Any]:
        return {
            "rule_key": self.rule_key,
            "options": self.options,
            "players": self.players,
            "level": self.level,
            "seat": self.seat,
            "hinted": self.hinted,
            "people": self.people,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": round(self.wins / self.games, 4) if self.games else 0.0,
            "best_margin": self.best_margin,
            "streak": {"kind": self.streak_kind, "length": self.streak_length},
            "stats": {f.key: _combine(f, self.values.get(f.key, [])) for f in fields},
        }


def _combine(spec: RecordField, values: list[RecordValue]) -> float | list[list[Any]] | None:
    """A row's figure: a number, or for a "tally" ``[[label, times], ...]`` in the order of the
    field's ``names`` (labels it does not name after them, sorted)."""
    if not values:
        return None
    if spec.how == "tally":
        seen = Counter(label for labels in values if isinstance(labels, list) for label in labels)
        order = list(spec.names) + sorted(label for label in seen if label not in spec.names)
        return [[label, seen[label]] for label in order if seen[label]]
    numbers = [v for v in values if isinstance(v, int | float)]
    if not numbers:
        return None
    if spec.how == "mean":
        return round(sum(numbers) / len(numbers), spec.digits)
    return min(numbers) if spec.how == "min" else max(numbers)


def _people(result: Result) -> int:
    """How many people sat at the result's table (a row made before ``people`` existed: 1)."""
    return result.people or 1


def summarize(
    results: Iterable[Result], level_order: list[str], fields: list[RecordField] | None = None
) -> list[dict[str, Any]]:
    """Aggregate results (oldest first) into rows: number of people at the table, rule set,
    number of players, strength, seat, and whether the player took hints. Games against bots
    come first (the hinted rows after the unassisted ones), then the games with people, fewest
    people first, so no game with people ever counts in a row against the computer."""
    rows: dict[tuple[int, bool, str, int, str, int], Row] = {}
    for result in results:
        hinted = bool(result.hints)
        people = _people(result)
        key = (people, hinted, result.rule_key, result.players, result.level, result.seat)
        if key not in rows:
            rows[key] = Row(
                result.rule_key,
                result.options,
                result.players,
                result.level,
                result.seat,
                hinted,
                people,
            )
        rows[key].add(result)

    def order(key: tuple[int, bool, str, int, str, int]) -> tuple[int, bool, str, int, int, int]:
        people, hinted, rule, players, level, seat = key
        rank = level_order.index(level) if level in level_order else len(level_order)
        return people, hinted, rule, players, rank, seat

    return [rows[key].to_json(fields or []) for key in sorted(rows, key=order)]


def newest(results: Iterable[Result], limit: int = 50) -> list[Result]:
    """The newest ``limit`` results, newest first: the games ``game_list`` lists."""
    return sorted(results, key=lambda r: (r.finished_at, r.id), reverse=True)[:limit]


def seat_names(seats: list[dict[str, Any]]) -> list[str | None]:
    """Per seat, the name a person took it with; None for a bot or a seat stored without one."""
    return [spec.get("name") if "player" in spec else None for spec in seats]


def seat_kinds(seats: list[dict[str, Any]]) -> list[str | None]:
    """Per seat, "human", "bot" or "deleted" (a person who deleted their data; None for a seat
    of none of these): the page names a bot's seat "CPU n" (``names.cpu_name``), a deleted
    player's "Deleted player", and a person's by ``seat_names``."""
    return [_kind(spec) for spec in seats]


def _kind(spec: dict[str, Any]) -> str | None:
    if is_deleted(spec):
        return "deleted"
    return "human" if "player" in spec else "bot" if "bot" in spec else None


def game_list(
    results: Iterable[Result],
    limit: int = 50,
    seats: Mapping[str, list[dict[str, Any]]] | None = None,
) -> list[dict[str, Any]]:
    """The newest stored games, newest first, each with what the replay link needs: also how
    many ``people`` played, whether a ``standin`` played for the player (their own seat, not
    someone else's) and, from ``seats`` (each room's seats by id, ``Store.room_seats``),
    ``names``: per seat, the person's name or None (a bot, or a seat stored without a name),
    and ``kinds`` (``seat_kinds``). Names are data: pages set them as text."""
    seats = seats or {}
    return [
        {
            "room_id": r.room_id,
            "finished_at": r.finished_at.isoformat(),
            "options": r.options,
            "rule_key": r.rule_key,
            "level": r.level,
            "players": r.players,
            "seat": r.seat,
            "result": r.result,
            "scores": [r.score, r.opponent_score],
            "margin": r.margin,
            "hints": r.hints,
            "people": _people(r),
            "standin": bool(r.standin),
            "names": seat_names(seats.get(r.room_id, [])) or [None] * r.players,
            "kinds": seat_kinds(seats.get(r.room_id, [])) or [None] * r.players,
            "stats": r.stats,
        }
        for r in newest(results, limit)
    ]


def accuracy_by_rules(reviewed: Iterable[tuple[Result, Review]]) -> list[dict[str, Any]]:
    """Per rule set, the player's average accuracy (share of best moves, ``reviews.summarize``)
    over their reviewed games against bots, each game counting once whatever its length. A game
    where the player took a hint, or where a stand-in played for them, is left out: its best
    moves are not all the player's own; so is a game with other people, which the figures
    against the computer never count."""
    by_rules: dict[str, tuple[dict[str, Any], list[float]]] = {}
    for result, review in reviewed:
        if result.hints or result.standin or _people(result) > 1:
            continue
        accuracy = review.players[result.seat]["accuracy"]
        if accuracy is not None:
            by_rules.setdefault(result.rule_key, (result.options, []))[1].append(accuracy)
    return [
        {
            "rule_key": key,
            "options": options,
            "games": len(values),
            "accuracy": round(sum(values) / len(values), 4),
        }
        for key, (options, values) in sorted(by_rules.items())
    ]
