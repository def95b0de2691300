"""Ratings through the real app and store (issue 33), on SQLite and PostgreSQL: a game between
people rates both, a casual table nobody, a game against the computer only the person (the bot
is a fixed anchor), a game a stand-in finished counts as its person's; a finish written again
rates nobody twice; stored ratings after known results equal the libraries' own computation;
the players API, the history and the leaderboard's filters."""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import glicko2
import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce
from sqlalchemy import func, insert, select
from starlette.testclient import WebSocketTestSession

from asobiba.core import ratings
from asobiba.core.game import rating_anchors
from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.app import create_app
from asobiba.server.settings import SocketLimits
from asobiba.server.store.db import Player, PlayerRating, RatingChange
from asobiba.server.store.ratings import RatedGame, rated_game
from asobiba.server.store.records import results_for
from asobiba.server.store.store import Event, Finish, Store
from tests.server.stored_games import store_of
from tests.server.tables import Guest, host_table, until

ME, OPEN = {"kind": "me"}, {"kind": "open"}
SHORT = {"seeds": 3}
"""Mancala with three stones a pit: a whole game in a few dozen moves."""


@pytest.fixture(params=["sqlite", "postgres"])
def site(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("ASOBIBA_STANDIN_SECONDS", "0.3")
    url = request.getfixturevalue(f"{request.param}_url")
    quiet = SocketLimits(ping_seconds=None)
    app = create_app(url, secret_key="test-secret", bot_workers=1, socket_limits=quiet, bot_pace=0)
    with TestClient(app) as client:
        yield client


def library(rating: float, rd: float, vol: float, them: tuple[float, float], score: float) -> Any:
    """One game through the ``glicko2`` package itself, with lichess's τ."""
    player = glicko2.Player(rating=rating, rd=rd, vol=vol)
    player._tau = 0.75
    player.update_player([them[0]], [them[1]], [score])
    return player


def is_event(message: dict[str, Any]) -> bool:
    return message["type"] == "event"


def play_out(sockets: dict[int, WebSocketTestSession], first: dict[int, Any]) -> dict[str, Any]:
    """Play a two-seat Mancala to its end: the seat with legal moves plays its first one; every
    connected seat then reads the event it makes. ``first``: each socket's first view (its
    sync). Returns the outcome."""
    views = dict(first)
    while True:
        for view in views.values():
            if view["obs"]["outcome"] is not None:
                outcome: dict[str, Any] = view["obs"]["outcome"]
                return outcome
        mover = next((seat for seat, view in views.items() if view["legal"]), None)
        if mover is None:  # a stand-in's move for an absent seat: wait for it
            seat, ws = next(iter(sockets.items()))
            views[seat], _ = until(ws, is_event)
            continue
        sockets[mover].send_json({"type": "act", "action": views[mover]["legal"][0]})
        for seat, ws in sockets.items():
            views[seat], _ = until(ws, is_event)


def playing(message: dict[str, Any]) -> bool:
    return message["type"] == "sync" and message["table"]["status"] == "playing"


def table_of_two(site: TestClient, **settings: Any) -> tuple[Guest, Guest, str]:
    host, friend = Guest(site, "Aki"), Guest(site, "Bea")
    table = host_table(host, "mancala", [ME, OPEN], options=SHORT, **settings)
    room = table["room_id"]
    assert friend.post(f"/api/rooms/{room}/join", json={}).status_code == 200
    return host, friend, room


def public_id(guest: Guest) -> str:
    found: str = guest.get("/api/me").json()["id"]
    return found


def profile(guest: Guest, of: Guest) -> dict[str, Any]:
    response = guest.get(f"/api/players/{public_id(of)}")
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_a_game_between_two_people_rates_both_as_the_library_does(site: TestClient) -> None:
    host, friend, room = table_of_two(site, public=True)
    with host.socket(room) as ws, friend.socket(room) as friend_ws:
        first = {0: until(ws, playing)[0], 1: until(friend_ws, playing)[0]}
        assert first[0]["table"]["rated"] is True  # rated by default between people
        outcome = play_out({0: ws, 1: friend_ws}, first)
    places = ratings.ranks(outcome, 2)
    score = 1.0 if places[0] < places[1] else 0.5 if places == [0, 0] else 0.0
    mine = library(1500, 350, 0.09, (1500, 350), score)
    theirs = library(1500, 350, 0.09, (1500, 350), 1 - score)
    for guest, expect in ((host, mine), (friend, theirs)):
        seen = profile(friend, guest)["ratings"]
        assert list(seen) == ["mancala/kalah"]
        assert seen["mancala/kalah"]["games"] == 1
        assert seen["mancala/kalah"]["provisional"] is True
        # As of now: a moment's inactivity grows the RD by far less than the API's tenth.
        assert seen["mancala/kalah"]["rating"] == round(expect.rating, 1)
        assert seen["mancala/kalah"]["rd"] == pytest.approx(expect.rd, abs=0.11)
    store = store_of(site)
    with store.sessions() as session:
        rows = session.scalars(select(PlayerRating)).all()
        assert len(rows) == 2
        for row in rows:
            expect = mine if row.player_id == _secret(store, host) else theirs
            assert (row.rating, row.rd, row.volatility) == (expect.rating, expect.rd, expect.vol)
        changes = session.scalars(select(RatingChange)).all()
        assert sorted(c.before for c in changes) == [1500, 1500]
        assert {c.room_id for c in changes} == {room}
    history = host.get(f"/api/players/{public_id(host)}/ratings/mancala/kalah").json()
    assert history["key"] == "mancala/kalah"
    assert [(h["before"], h["after"]) for h in history["history"]] == [
        (1500.0, round(mine.rating, 1))
    ]
    [game] = profile(host, host)["games"]
    assert game["url"] == f"/replay/{room}" and game["people"] == 2
    assert game["rating"] == {"before": 1500.0, "after": round(mine.rating, 1)}
    assert game["names"] == ["Aki", "Bea"] and game["key"] == "mancala/kalah"


def _secret(store: Store, guest: Guest) -> str:
    found = store.player_of(public_id(guest))
    assert found is not None
    return found


def test_a_casual_table_changes_no_rating(site: TestClient) -> None:
    host, friend, room = table_of_two(site, rated=False)
    with host.socket(room) as ws, friend.socket(room) as friend_ws:
        first = {0: until(ws, playing)[0], 1: until(friend_ws, playing)[0]}
        assert first[0]["table"]["rated"] is False
        play_out({0: ws, 1: friend_ws}, first)
    for guest in (host, friend):
        seen = profile(host, guest)
        assert seen["ratings"] == {}
        assert sum(seen["records"]["mancala"].values()) == 1, "it counts in the records"
        assert seen["games"] == [], "a private table's games are its people's"
    with store_of(site).sessions() as session:
        assert session.scalar(select(func.count()).select_from(PlayerRating)) == 0
        assert session.scalar(select(func.count()).select_from(RatingChange)) == 0


def test_a_game_against_the_computer_moves_only_the_person(site: TestClient) -> None:
    person = Guest(site)
    body = {"game": "mancala", "options": SHORT, "level": "strong", "order": "first"}
    answer = person.post("/api/rooms", json=body)
    assert answer.status_code == 201, answer.text
    room = answer.json()["room_id"]
    anchor = rating_anchors(get_game("mancala"), "kalah")["strong"]
    with person.socket(room) as ws:
        view, _ = until(ws, lambda m: m["type"] == "sync")
        assert view["table"]["rated"] is True
        while view["obs"]["outcome"] is None:
            if view["legal"]:
                ws.send_json({"type": "act", "action": view["legal"][0]})
            view, _ = until(ws, is_event)
        outcome = view["obs"]["outcome"]
    places = ratings.ranks(outcome, 2)
    score = 1.0 if places[0] < places[1] else 0.5 if places == [0, 0] else 0.0
    expect = library(1500, 350, 0.09, (anchor.rating, anchor.rd), score)
    seen = profile(person, person)["ratings"]["mancala/kalah"]
    assert seen["rating"] == round(expect.rating, 1) and seen["games"] == 1
    [game] = profile(person, person)["games"]  # a game against bots is anyone's to see
    assert game["url"] == f"/replay/{room}" and game["levels"] == [None, "strong"]
    assert game["rating"] == {"before": 1500.0, "after": round(expect.rating, 1)}
    with store_of(site).sessions() as session:
        rows = session.scalars(select(PlayerRating)).all()
        assert [row.rating for row in rows] == [expect.rating], "only the person has a rating"
    # The anchor is data: the next person meets it as it was.
    assert rating_anchors(get_game("mancala"), "kalah")["strong"] == anchor
    refused = person.post("/api/rooms", json={**body, "rated": False})
    assert refused.status_code == 400, "a game against bots is always rated"


def test_a_game_a_stand_in_finished_counts_as_its_persons(site: TestClient) -> None:
    """ASOBIBA_STANDIN_SECONDS is 0.3: the friend leaves after the first moves, the stand-in
    plays the rest of their moves, and the game rates them as any other."""
    host, friend, room = table_of_two(site, standin="beginner", public=True)
    with host.socket(room) as ws:
        with friend.socket(room) as friend_ws:
            first = {0: until(ws, playing)[0], 1: until(friend_ws, playing)[0]}
        until(ws, lambda m: m["type"] == "players" and m["players"][1]["standin"] == "beginner")
        outcome = play_out({0: ws}, {0: first[0]})
    assert outcome is not None
    store = store_of(site)
    stored = store.load_room(room)
    assert stored is not None and 1 in stored.stood_in
    friend_rating = profile(host, friend)["ratings"]["mancala/kalah"]
    assert friend_rating["games"] == 1
    assert profile(host, host)["ratings"]["mancala/kalah"]["games"] == 1
    [game] = profile(friend, friend)["games"]
    assert game["standin"] is True and game["rating"] is not None


# --- the store: known results ---------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest) -> Iterator[Store]:
    url = request.getfixturevalue(f"{request.param}_url")
    with TestClient(create_app(url, secret_key="test-secret", bot_workers=1)) as client:
        yield store_of(client)


def finished(
    store: Store,
    room_id: str,
    game_name: str,
    seats: list[dict[str, Any]],
    outcome: dict[str, Any],
    *,
    rated: bool = True,
) -> Finish:
    """A room whose log ends with one event carrying its finish: the results and the rating
    change a room would write (the move itself does not matter to the store)."""
    game = get_game(game_name)
    options = game.resolve_options({})
    for spec in seats:
        if "player" in spec:
            store.ensure_player(spec["player"])
    store.create_room(room_id, game_name, options, rule_key(options), 1, seats)
    results = results_for(room_id, game, options, seats, outcome)
    rating = rated_game(game, options, seats, outcome, rated=rated)
    return Finish(outcome, results, rating)


def test_stored_ratings_after_known_results_equal_the_libraries(store: Store) -> None:
    a, b, c = "aaaa", "bbbb", "cccc"
    two = [{"player": a}, {"player": b}]
    games = [
        (two, {"scores": [30, 6], "winners": [0]}),
        (two, {"scores": [18, 18], "winners": [0, 1]}),
        ([{"player": b}, {"player": a}], {"scores": [25, 11], "winners": [0]}),
        ([{"player": c}, {"bot": "expert"}], {"scores": [10, 26], "winners": [1]}),
    ]
    for n, (seats, outcome) in enumerate(games):
        end = finished(store, f"room{n}", "mancala", seats, outcome)
        store.append_event(f"room{n}", 0, 0, {"pit": 0}, 0.0, finish=end)
    # The same games through the glicko2 package, each person's RD grown by the time between
    # their games as stored (lichess's rating periods).
    with store.sessions() as session:
        stored = {
            (r.player_id, r.room_id): r
            for r in session.scalars(select(RatingChange).order_by(RatingChange.at)).all()
        }
        now = {r.player_id: r for r in session.scalars(select(PlayerRating)).all()}
    state: dict[str, tuple[float, float, float, datetime | None]] = {
        p: (1500.0, 350.0, 0.09, None) for p in (a, b, c)
    }

    def grown(person: str, at: datetime) -> tuple[float, float, float]:
        rating, rd, vol, last = state[person]
        if last is not None:
            periods = (at - last).total_seconds() / 86400 * 0.21436
            rd = min(350.0, math.sqrt(rd**2 + periods * (vol * 173.7178) ** 2))
        return rating, rd, vol

    expert = rating_anchors(get_game("mancala"), "kalah")["expert"]
    for n, (seats, outcome) in enumerate(games):
        first, second = seats
        at = stored[(first["player"], f"room{n}")].at
        score = 1.0 if outcome["winners"] == [0] else 0.5 if len(outcome["winners"]) == 2 else 0.0
        mine = grown(first["player"], at)
        theirs = (
            grown(second["player"], at) if "player" in second else (expert.rating, expert.rd, 0.0)
        )
        one = library(*mine, (theirs[0], theirs[1]), score)
        state[first["player"]] = (one.rating, one.rd, one.vol, at)
        if "player" in second:
            other = library(*theirs, (mine[0], mine[1]), 1 - score)
            state[second["player"]] = (other.rating, other.rd, other.vol, at)
    for person in (a, b, c):
        rating, rd, vol, _ = state[person]
        assert now[person].rating == pytest.approx(rating, abs=1e-6)
        assert now[person].rd == pytest.approx(rd, abs=1e-6)
        assert now[person].volatility == pytest.approx(vol, abs=1e-9)
    assert (now[a].games, now[b].games, now[c].games) == (3, 3, 1)


def test_three_people_and_a_bot_are_rated_by_openskill_as_the_library_does(
    store: Store,
) -> None:
    seats = [{"player": "p1"}, {"bot": "casual"}, {"player": "p2"}, {"player": "p3"}]
    outcome = {
        "scores": [900, 1200, 1000, 900],
        "winners": [1],
        "ranks": [3, 1, 2, 3],
        "best": [None, 300, 150, None],
    }
    end = finished(store, "table", "michikake", seats, outcome)
    assert end.rating is not None and end.rating.key == "michikake/4"
    store.append_event("table", 0, 0, {"discard": "C1"}, 0.0, finish=end)
    anchor = rating_anchors(get_game("michikake"), "4")["casual"]
    model = PlackettLuce(mu=1500, sigma=350, beta=400 / math.log(10) / 2, tau=3.5)  # 4 seats
    teams = [
        [model.rating()],
        [model.rating(mu=anchor.rating, sigma=anchor.rd)],
        [model.rating()],
        [model.rating()],
    ]
    expect = model.rate(teams, ranks=[2.0, 0.0, 1.0, 2.0])
    with store.sessions() as session:
        now = {r.player_id: r for r in session.scalars(select(PlayerRating)).all()}
    for person, [team] in (("p1", expect[0]), ("p2", expect[2]), ("p3", expect[3])):
        assert (now[person].rating, now[person].rd) == (team.mu, team.sigma)
        assert now[person].volatility is None and now[person].games == 1
    assert now["p1"].rating == now["p3"].rating, "level people share a place"


def test_a_finish_written_again_rates_nobody_twice(store: Store) -> None:
    seats = [{"player": "x1"}, {"player": "x2"}]
    outcome = {"scores": [20, 16], "winners": [0]}
    end = finished(store, "once", "mancala", seats, outcome)
    store.append_event("once", 0, 0, {"pit": 0}, 0.0, finish=end)
    assert store.finish_room("once", end) is False  # the repair of a crash meets it finished
    # A batch that fails (another room's event a second time) is written again one event at a
    # time: the finish is written once, and rates once.
    second = finished(store, "twice", "mancala", seats, outcome)
    store.append_event("once", 1, 1, {"pit": 1}, 1.0)
    batch = [
        Event("twice", 0, 0, {"pit": 0}, 0.0, finish=second),
        Event("once", 1, 1, {"pit": 1}, 1.0),  # already stored: the batch fails on it
    ]
    errors = store.write_events(batch)
    assert errors[0] is None and errors[1] is not None
    with store.sessions() as session:
        games = {r.player_id: r.games for r in session.scalars(select(PlayerRating)).all()}
        changes = session.scalars(select(RatingChange)).all()
    assert games == {"x1": 2, "x2": 2}
    assert sorted((c.room_id, c.player_id) for c in changes) == [
        ("once", "x1"),
        ("once", "x2"),
        ("twice", "x1"),
        ("twice", "x2"),
    ]


def test_what_a_finished_game_rates() -> None:
    mancala = get_game("mancala")
    outcome = {"scores": [20, 16], "winners": [0]}
    people = [{"player": "a"}, {"player": "b"}]
    assert rated_game(mancala, {}, people, outcome, rated=True) == RatedGame(
        "mancala/kalah", ("a", "b"), (0, 1)
    )
    assert rated_game(mancala, {}, people, outcome, rated=False) is None  # casual
    assert rated_game(mancala, {}, people, outcome, rated=True, hints=[0, 1]) is None
    bots = [{"bot": "casual"}, {"bot": "expert"}]
    assert rated_game(mancala, {}, bots, outcome, rated=True) is None  # nobody to rate
    alone = rated_game(mancala, {"variant": "basic"}, [{"bot": "casual"}, {"player": "a"}],
                       outcome, rated=True)  # fmt: skip
    assert alone is not None and alone.key == "mancala/basic"
    assert alone.seats == (rating_anchors(mancala, "basic")["casual"], "a")
    unknown = [{"player": "a"}, {"bot": "grandmaster"}]
    assert rated_game(mancala, {}, unknown, outcome, rated=True) is None  # no anchor for it


# --- the API -------------------------------------------------------------------------------


def test_unknown_players_and_families_are_404(site: TestClient) -> None:
    guest = Guest(site)
    for url in (
        "/api/players/nobody-at-all",
        "/api/players/" + "x" * 40,
        "/api/players/bad%20id",
        "/api/players/nobody/ratings/mancala/kalah",
    ):
        response = guest.get(url)
        assert response.status_code == 404, url
        assert response.json()["error"]["code"] == "unknown_player"
    me = public_id(guest)
    for url in (
        f"/api/players/{me}/ratings/mancala/3p",
        f"/api/players/{me}/ratings/chess/standard",
        "/api/leaderboard/mancala/chess",
        "/api/leaderboard/michikake/2",
    ):
        response = guest.get(url)
        assert response.status_code == 404, url
        assert response.json()["error"]["code"] == "unknown_rating"
    fresh = guest.get(f"/api/players/{me}").json()
    assert fresh == {"id": me, "name": fresh["name"], "ratings": {}, "games": [], "records": {}}
    assert fresh["name"].startswith("Guest") or fresh["name"]
    empty = guest.get(f"/api/players/{me}/ratings/mancala/kalah").json()
    assert empty == {"key": "mancala/kalah", "rating": None, "history": []}


def _board_row(
    store: Store, n: int, rating: float, rd: float, days: float, key: str = "momojan/momojan"
) -> str:
    """A player whose rating in ``key`` was last changed ``days`` ago."""
    person = f"board-{n}"
    at = datetime.now(UTC) - timedelta(days=days)
    with store.engine.begin() as connection:
        connection.execute(
            insert(Player).values(id=person, public_id=f"pub{n}", created_at=at, name=f"P{n}")
        )
        connection.execute(
            insert(PlayerRating).values(
                player_id=person, key=key, rating=rating, rd=rd, volatility=0.06, games=40,
                updated_at=at,
            )
        )  # fmt: skip
    return f"pub{n}"


def test_the_leaderboard_lists_established_active_players_best_first(site: TestClient) -> None:
    store = store_of(site)
    top = _board_row(store, 1, 1900.0, 60.0, days=1)
    second = _board_row(store, 2, 1800.0, 80.0, days=10)
    _board_row(store, 3, 2000.0, 150.0, days=1)  # provisional
    _board_row(store, 4, 1950.0, 60.0, days=31)  # not active in the last 30 days
    _board_row(store, 5, 1990.0, 109.0, days=29)  # provisional again: its RD grew past 110
    _board_row(store, 6, 2100.0, 50.0, days=1, key="momojan/other")  # another family
    board = site.get("/api/leaderboard/momojan/momojan").json()
    assert board["key"] == "momojan/momojan" and board["days"] == 30
    assert [(r["rank"], r["id"], r["name"]) for r in board["leaders"]] == [
        (1, top, "P1"),
        (2, second, "P2"),
    ]
    first = board["leaders"][0]
    assert first["provisional"] is False and first["games"] == 40
    assert 60 < first["rd"] < 61, "the RD as of now"
    assert "player_id" not in first and "board-1" not in str(board), "never the secret id"
    profile = site.get(f"/api/players/{top}").json()
    assert profile["ratings"]["momojan/momojan"]["provisional"] is False
    assert site.get("/api/players/pub3").json()["ratings"]["momojan/momojan"]["provisional"]


def test_the_leaderboard_shows_the_top_100(site: TestClient) -> None:
    store = store_of(site)
    for n in range(105):
        _board_row(store, n, 1500.0 + n, 70.0, days=2)
    leaders = site.get("/api/leaderboard/momojan/momojan").json()["leaders"]
    assert len(leaders) == 100
    assert leaders[0]["rating"] == 1604.0 and leaders[-1]["rating"] == 1505.0


# --- the pages -----------------------------------------------------------------------------


def test_the_profile_and_leaderboard_pages(site: TestClient) -> None:
    guest = Guest(site)
    me = public_id(guest)
    page = guest.get(f"/players/{me}")
    assert page.status_code == 200 and "/static/js/player.js" in page.text
    assert f'"id": "{me}"' in page.text
    for missing in ("/players/nobody", "/players/bad%20id", "/leaderboard/mancala/chess"):
        assert guest.get(missing).status_code == 404, missing
    index = guest.get("/leaderboard")
    assert index.status_code == 200
    for board in ("mancala/kalah", "mancala/basic", "momojan/momojan", "mokochaka/6p"):
        assert f'href="/leaderboard/{board}"' in index.text
    one = guest.get("/leaderboard/michikake/4")
    assert one.status_code == 200 and "/static/js/leaderboard.js" in one.text
    assert 'href="/leaderboard/michikake/4" aria-current="page"' in one.text
    records = guest.get("/records/mokochaka")
    assert 'id="profile-link"' in records.text
    assert 'href="/leaderboard/mokochaka/2p"' in records.text
