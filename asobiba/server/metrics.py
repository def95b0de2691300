"""What a process counts for Prometheus (``GET /metrics``, ``http/service.py``), through
``prometheus-client``: every family is defined here, once, and counted at the shared places
(the room's one writer, the hub, the store's event writer, the bot pool, the timers, the
leases, the relay, the limits), never in a game's code.

Labels are bounded: a game's name, a bot's level, a kind from a fixed list; never a room id, a
guest, an address or anything a client chooses. Each process keeps its own numbers in memory
(the library's default registry) and answers for itself: a site of several processes is
scraped process by process, and Prometheus sums them.

Like ``limits.py``, every layer uses it, so it lives beside ``settings.py``, below all of them.
"""

from __future__ import annotations

import weakref
from collections import Counter as Tally
from collections.abc import Iterator
from typing import Protocol

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from asobiba.games import engine_names

disable_created_metrics()  # no ``_created`` series beside every counter and histogram

SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Buckets of the quick timings (an action, a commit, a timer's lateness): 150 ms is one, so an
alert on a p99 over 150 ms reads it from a bucket boundary."""

MOVES_APPLIED = Counter(
    "asobiba_moves_applied",
    "Events written to a room's log and shown (a person's or a bot's move, a timed event).",
    ["game"],
)
ACTION_SECONDS = Histogram(
    "asobiba_action_seconds",
    "A person's action, from its receipt by the room's owner to its broadcast to every watcher "
    "(the lock, the rules, the durable write and the views).",
    ["game"],
    buckets=SECONDS,
)
EVENT_BATCH_SIZE = Histogram(
    "asobiba_event_batch_size",
    "Events committed together by the event writer (group commit) in one transaction.",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256, 512),
)
EVENT_COMMIT_SECONDS = Histogram(
    "asobiba_event_commit_seconds",
    "Time the event writer took to commit one batch of events.",
    buckets=SECONDS,
)
BOT_DECISION_SECONDS = Histogram(
    "asobiba_bot_decision_seconds",
    "A bot's decision, from asking the bot pool to its answer (waiting for a worker included; "
    "the human pace it then waits is not).",
    ["game", "level"],
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0),
)
TIMER_LATENESS_SECONDS = Histogram(
    "asobiba_timer_lateness_seconds",
    "How long after its due time a room's timer acted (holding the room's lock): kind "
    "'deadline' (the rules' own timed event) or 'turn_clock' (a person's time ran out).",
    ["kind"],
    buckets=SECONDS,
)
LEASE_TAKEOVERS = Counter(
    "asobiba_lease_takeovers",
    "Rooms this process claimed whose lease another process had let lapse without releasing "
    "it (that process died, stalled or lost Redis).",
)
FENCING_REFUSALS = Counter(
    "asobiba_fencing_refusals",
    "Writes of a room's log refused to keep one writer: kind 'lease' (this process's leases "
    "were not known valid) or 'log' (another process had written that event: the room moved).",
    ["kind"],
)
RELAY_MESSAGES = Counter(
    "asobiba_relay_messages",
    "Messages between processes through Redis, by kind (join, msg, send, lobby, ...) and "
    "direction (sent, received).",
    ["kind", "direction"],
)
RATE_LIMIT_REFUSALS = Counter(
    "asobiba_rate_limit_refusals",
    "Requests, frames and sockets refused by a limit, by kind (rooms, lookups, commands, "
    "chat, socket_messages, lobby_messages, pairing_messages, room_sockets, lobby_sockets, "
    "pairing_sockets, trainer_sockets, signin, requests: exports and deletions).",
    ["kind"],
)
SOCKETS_OPEN = Gauge(
    "asobiba_sockets_open",
    "WebSockets open on this process: kind 'room' (a room's, played here or relayed to its "
    "owner), 'lobby', 'pairing' (a page waiting for someone to play with) or 'trainer' (a "
    "game's trainer).",
    ["kind"],
)

RELAY_KINDS = frozenset(
    {"lobby", "join", "joined", "msg", "send", "leave", "done", "close", "call", "reply"}
)
"""The relay's message kinds (``cluster/switchboard.py``); any other is counted as 'other'."""


def relay_message(kind: object, direction: str) -> None:
    """Count one relay message of ``kind`` (its ``k``) going ``direction``."""
    label = kind if isinstance(kind, str) and kind in RELAY_KINDS else "other"
    RELAY_MESSAGES.labels(label, direction).inc()


def count_refusal(kind: str) -> None:
    """Count one refusal by a limit of ``kind``."""
    RATE_LIMIT_REFUSALS.labels(kind).inc()


class RoomHolder(Protocol):
    """What ``asobiba_rooms_live`` reads of a hub: its rooms, counted by game."""

    def rooms_by_game(self) -> Tally[str]: ...


class RoomsLive(Collector):
    """``asobiba_rooms_live``, read from the hubs at each scrape (always the truth, with no
    count to keep in step with every place a room is loaded or dropped)."""

    def __init__(self) -> None:
        self._hubs: weakref.WeakSet[RoomHolder] = weakref.WeakSet()

    def watch(self, hub: RoomHolder) -> None:
        self._hubs.add(hub)

    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily(
            "asobiba_rooms_live", "Rooms held in memory by this process, by game.", labels=["game"]
        )
        counts: Tally[str] = Tally()
        for hub in list(self._hubs):
            counts.update(hub.rooms_by_game())
        for game in sorted(set(engine_names()) | set(counts)):
            family.add_metric([game], counts[game])
        yield family


ROOMS_LIVE = RoomsLive()
REGISTRY.register(ROOMS_LIVE)


CONTENT_TYPE = CONTENT_TYPE_LATEST
"""Prometheus' text format."""


def exposition() -> bytes:
    """Every family of this process (and the library's process and runtime ones), in
    Prometheus' text format."""
    return generate_latest(REGISTRY)
