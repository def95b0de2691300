"""``GET /metrics`` (server/metrics.py, server/http/service.py): every family, values that move
under play on a real ``asobiba serve``, no room or guest in any line, and only for loopback and
the addresses of ``ASOBIBA_METRICS_FROM``."""

from __future__ import annotations

import asyncio
import base64
import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client import REGISTRY
from websockets.sync.client import ClientConnection

from asobiba.core.bots import Timed
from asobiba.server.app import create_app
from asobiba.server.metrics import exposition
from tests.server.cluster import REDIS_URL, Site
from tests.server.servers import Guest, ServerProcess, next_message, play_to_the_end
from tests.server.test_realtime_room import make_hub, wait_until

FAMILIES = [
    ("asobiba_rooms_live", "gauge"),
    ("asobiba_sockets_open", "gauge"),
    ("asobiba_moves_applied", "counter"),
    ("asobiba_action_seconds", "histogram"),
    ("asobiba_event_batch_size", "histogram"),
    ("asobiba_event_commit_seconds", "histogram"),
    ("asobiba_bot_decision_seconds", "histogram"),
    ("asobiba_timer_lateness_seconds", "histogram"),
    ("asobiba_lease_takeovers", "counter"),
    ("asobiba_fencing_refusals", "counter"),
    ("asobiba_relay_messages", "counter"),
    ("asobiba_rate_limit_refusals", "counter"),
]


def scrape(base: str, headers: dict[str, str] | None = None) -> str:
    request = urllib.request.Request(f"{base}/metrics", headers=headers or {})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.headers["content-type"].startswith("text/plain; version=")
        assert response.headers.get("set-cookie") is None
        return str(response.read().decode())


def value(text: str, series: str) -> float:
    """The value of one series (``name{labels}`` exactly as printed), 0 if absent."""
    for line in text.splitlines():
        name, _, number = line.rpartition(" ")
        if name == series:
            return float(number)
    return 0.0


def guest_id(guest: Guest) -> str:
    """The guest id inside the signed session cookie (its payload is base64 JSON)."""
    (cookie,) = [c.value for c in guest.cookies if c.name == "asobiba"]
    assert cookie is not None
    payload = cookie.split(".")[0]
    return str(json.loads(base64.b64decode(payload + "=" * (-len(payload) % 4)))["player"])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(
        tmp_path,
        f"sqlite:///{tmp_path / 'live.sqlite3'}",
        {
            "ASOBIBA_BOT_PACE": "0",
            "ASOBIBA_LIMIT_ROOMS_BURST": "2",
            "ASOBIBA_LIMIT_ROOMS_PER_MINUTE": "0.1",
        },
    )
    process.start()
    try:
        yield process
    finally:
        process.stop()


def first_view(ws: ClientConnection) -> dict[str, Any]:
    """The room's sync (the socket is counted open by then)."""
    sync = next_message(ws)
    assert sync["type"] == "sync", sync
    return sync


def test_metrics_has_every_family_and_counts_a_game_against_the_computer(
    server: ServerProcess,
) -> None:
    before = scrape(server.base)
    for name, kind in FAMILIES:
        printed = f"{name}_total" if kind == "counter" else name
        assert f"# HELP {printed} " in before, name
        assert f"# TYPE {printed} {kind}\n" in before, name
    assert value(before, 'asobiba_rooms_live{game="mancala"}') == 0

    guest = Guest(server.base)
    rooms = [guest.new_room(), guest.new_room()]
    status, refusal = guest.request(
        "POST", "/api/rooms", {"game": "mancala", "options": {}, "level": "beginner"}
    )
    assert status == 429, refusal
    with guest.socket(rooms[0]["ws"]) as ws:
        sync = first_view(ws)
        during = scrape(server.base)
        assert value(during, 'asobiba_sockets_open{kind="room"}') == 1
        assert value(during, 'asobiba_rooms_live{game="mancala"}') >= 1
        if sync["legal"]:  # our move first: play_to_the_end waits for the next view
            ws.send(json.dumps({"type": "act", "action": sync["legal"][0]}))
        play_to_the_end(ws)
    after = scrape(server.base)

    def grew(series: str) -> float:
        return value(after, series) - value(before, series)

    assert grew('asobiba_moves_applied_total{game="mancala"}') >= 2, "the person's and the bot's"
    assert grew('asobiba_action_seconds_count{game="mancala"}') >= 1
    assert grew('asobiba_action_seconds_bucket{game="mancala",le="+Inf"}') >= 1
    assert grew('asobiba_bot_decision_seconds_count{game="mancala",level="beginner"}') >= 1
    assert grew("asobiba_event_batch_size_count") >= 1
    assert grew("asobiba_event_commit_seconds_count") >= 1
    assert grew('asobiba_rate_limit_refusals_total{kind="rooms"}') == 1
    assert value(after, 'asobiba_sockets_open{kind="room"}') == 0

    # No line names a room or a guest: labels are games, levels and kinds only.
    for secret in [*(room["room_id"] for room in rooms), guest_id(guest)]:
        assert secret not in after
    labels = set(re.findall(r'(\w+)="', after))
    assert labels <= {"game", "level", "kind", "direction", "le", "generation", "version"} | {
        "implementation",
        "major",
        "minor",
        "patchlevel",
    }, labels


def test_metrics_behind_the_sites_own_proxy_counts_as_its_client(server: ServerProcess) -> None:
    """uvicorn trusts ``X-Forwarded-For`` from 127.0.0.1 (a proxy on this machine): a public
    request relayed by that proxy is its client's, not loopback's, and gets the site's 404."""
    assert "asobiba_moves_applied" in scrape(server.base), "loopback itself is answered"
    try:
        scrape(server.base, {"X-Forwarded-For": "203.0.113.9"})
    except urllib.error.HTTPError as error:
        with error:
            assert error.code == 404
            assert error.headers["content-type"].startswith("text/html")
    else:
        raise AssertionError("/metrics answered a request relayed for 203.0.113.9")


@pytest.fixture
def app_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("ASOBIBA_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("ASOBIBA_METRICS_FROM", raising=False)
    return tmp_path


def metrics_status(url: str, client: tuple[str, int], headers: dict[str, str] | None = None) -> int:
    with TestClient(create_app(url, secret_key="s"), client=client) as http:
        response = http.get("/metrics", headers=headers or {})
        if response.status_code == 200:
            assert "asobiba_moves_applied" in response.text
        return response.status_code


def test_metrics_answer_loopback_and_the_listed_addresses_only(
    app_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{app_env / 'a.sqlite3'}"
    assert metrics_status(url, ("127.0.0.1", 5000)) == 200
    assert metrics_status(url, ("::1", 5000)) == 200
    assert metrics_status(url, ("10.0.0.7", 5000)) == 404
    assert metrics_status(url, ("10.0.0.7", 5000), {"X-Forwarded-For": "127.0.0.1"}) == 404, (
        "a header never opens it: only uvicorn's trusted proxies change the client address"
    )
    monkeypatch.setenv("ASOBIBA_METRICS_FROM", "10.0.0.0/24, 192.0.2.5")
    assert metrics_status(url, ("10.0.0.7", 5000)) == 200
    assert metrics_status(url, ("192.0.2.5", 5000)) == 200
    assert metrics_status(url, ("192.0.2.6", 5000)) == 404
    assert metrics_status(url, ("127.0.0.1", 5000)) == 200


def test_a_takeover_is_counted_by_the_process_that_took_the_room(
    tmp_path: Path, postgres_url: str
) -> None:
    """The owner dies holding a room; the other process takes it over once its lease lapses
    and counts one takeover; the relay's messages were counted by kind meanwhile."""
    site = Site(tmp_path, postgres_url, REDIS_URL)
    try:
        owner, other = site.start(2)
        guest = Guest(owner.base)
        room = guest.new_room()
        with guest.socket(room["ws"], base=other.base) as ws:  # relayed to the owner
            first_view(ws)
        relayed = scrape(other.base)
        assert value(relayed, 'asobiba_relay_messages_total{direction="sent",kind="join"}') == 1
        assert (
            value(relayed, 'asobiba_relay_messages_total{direction="received",kind="joined"}') == 1
        )
        assert value(scrape(other.base), "asobiba_lease_takeovers_total") == 0
        with guest.socket(room["ws"], base=owner.base) as ws:
            first_view(ws)
            owner.kill()
        with guest.socket(room["ws"], base=other.base) as ws:
            first_view(ws)  # served here once the dead owner's lease ran out
        assert value(scrape(other.base), "asobiba_lease_takeovers_total") == 1
    finally:
        site.stop()
        site.forget()


def test_a_timed_event_counts_its_lateness_and_the_room_its_moves(tmp_path: Path) -> None:
    """The tiny real-time game of test_realtime_room.py: a person's action, then the rules' own
    deadline ends the game (the bot never answers). Counted at the room and its timers, for
    any game, by its name."""
    never = asyncio.Event()

    async def choose(game: str, level: str, seed: int, obs: Any, legal: Any) -> Timed:
        await never.wait()
        return Timed(legal[0])

    def sample(name: str, labels: dict[str, str]) -> float:
        return REGISTRY.get_sample_value(name, labels) or 0.0

    late = ("asobiba_timer_lateness_seconds_count", {"kind": "deadline"})
    moves = ("asobiba_moves_applied_total", {"game": "grab"})
    acts = ("asobiba_action_seconds_count", {"game": "grab"})
    before = [sample(*late), sample(*moves), sample(*acts)]

    async def scenario() -> None:
        hub, _ = make_hub(tmp_path, choose)
        room = await hub.create("grab", {}, [{"player": "p"}, {"bot": "quick"}], seed=5)
        assert 'asobiba_rooms_live{game="grab"} 1.0' in exposition().decode()
        await room.act(0, {"ring": True})
        await wait_until(lambda: room.over)
        await hub.close()

    asyncio.run(scenario())
    after = [sample(*late), sample(*moves), sample(*acts)]
    assert [b - a for a, b in zip(before, after, strict=True)] == [1, 2, 1]
