"""A finished Mancala game reviewed in headless Chromium: "Review" in the result dialog opens the
replay with the review started, a progress bar runs to the end while the moves valued so far
are drawn (the chart grows move by move), every decision of the person gets its class (the
computer's moves are the engine's own), the person a summary with the costliest decisions, the
margin chart is drawn, and a mistake in the list leads to the position where the best move is
marked on the board. The records page then shows the accuracy.

The site runs with a tiny engine time per position (ASOBIBA_REVIEW_SECONDS), so a review takes
seconds; Kalah with 3 stones a pit keeps the game short.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

import pytest

from asobiba.server.http.pages import strings
from tests.e2e.conftest import serve
from tests.e2e.test_mancala_ui import play_to_the_end, start

JA = strings("ja")
EN = strings("en")
NOTABLE = ("inaccuracy", "mistake", "blunder")


@pytest.fixture(scope="module")
def quick_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A site of its own whose reviews give the engine 0.05 s per position."""
    with serve(tmp_path_factory.mktemp("review-site"), {"ASOBIBA_REVIEW_SECONDS": "0.05"}) as base:
        yield base


def reviewed_game(page: Any, seeds: int = 3) -> dict[str, Any]:
    """Play Kalah (3 stones a pit unless ``seeds`` says) to the end from the first legal pit,
    open "Review" from the result dialog and wait for the review; returns the review the page
    shows (from the API)."""
    start(page, seeds=seeds)
    play_to_the_end(page)
    link = page.locator("#review-game")
    room = page.evaluate("() => location.pathname.split('/').pop()")
    assert link.get_attribute("href") == f"/replay/{room}?review=1"
    link.click()
    page.wait_for_url(re.compile(rf"/replay/{room}\?review=1$"))
    wait_for_the_review(page)
    assert page.locator("#review-progress").is_hidden()
    review: dict[str, Any] = page.evaluate(
        f"async () => (await fetch('/api/rooms/{room}/review')).json()"
    )
    assert review["state"] == "done" and review["done"] == review["total"] > 0
    return review


STEP = """(done) => document.querySelector('#review').dataset.state === 'done'
    || Number(document.querySelector('#review-bar').value) > done"""


def wait_for_the_review(page: Any) -> None:
    """Wait while the review keeps going: its cost grows with the machine's load, so there is no
    ceiling on the whole review, only on each position it values (the page's bar counts them)."""
    done = -1
    while page.get_attribute("#review", "data-state") != "done":
        page.wait_for_function(STEP, arg=done)
        done = int(page.evaluate("() => Number(document.querySelector('#review-bar').value)"))


def follow_a_blunder(page: Any, review: dict[str, Any], words: dict[str, str]) -> None:
    """Click the first blunder listed and check that the board shows the position before it
    with the best pit marked, apart from the pit played."""
    listed = page.locator("#review-list li")
    notable = [m for m in review["moves"] if m["grade"] in NOTABLE]
    assert listed.count() == len(notable)
    # Playing the first pit every turn blunders: no game in 40 simulated ones went without.
    move = next(m for m in notable if m["grade"] == "blunder")
    item = page.locator("#review-list li[data-grade=blunder]").first
    assert words[f"review.grade.{move['grade']}"] in item.inner_text()
    item.locator("button").click()
    before = move["event"] - 1  # frames step one move each in Mancala
    page.wait_for_function(f"() => document.querySelector('#scrub').value === '{before}'")
    side = "mb-hit--pit" if move["seat"] == review_seat(page) else "mb-hit--them"
    best = page.locator(f"#board .{side}[data-best]")
    assert best.count() == 1, "the best move is drawn on the board"
    assert page.locator("#board .mb-review--best").count() == 1
    hits = page.locator(f"#board .{side}")
    assert hits.nth(move["best"]["pit"]).get_attribute("data-best") == ""
    assert hits.nth(move["played"]["pit"]).get_attribute("data-played") == ""
    line = page.locator("#review-now [data-part=best]").inner_text()
    assert words["review.pit"].replace("{n}", str(move["best"]["pit"] + 1)) in line
    if move["seat"] == review_seat(page):  # spoken to the viewer, not about "You"
        assert words["review.best_here_you"].split("{move}")[0] in line
    # One step on, the move itself is shown with its class.
    page.click("#next")
    arrived = page.locator("#review-now [data-part=arrived] .grade")
    assert arrived.get_attribute("data-grade") == move["grade"]


def review_seat(page: Any) -> int:
    seat: int = page.evaluate(
        "async () => (await (await fetch(`/api/rooms/${location.pathname.split('/').pop()}"
        "/replay`)).json()).seat"
    )
    return seat


def test_a_finished_game_is_reviewed_and_a_blunder_leads_to_its_best_move_in_english(
    new_page: Any, quick_site: str
) -> None:
    page = new_page(lang="en", site_url=quick_site)
    review = reviewed_game(page)
    players = page.locator(".review-player")
    assert players.count() == 1, "the person's decisions: the computer's are the engine's own"
    you = review["players"][0]
    assert players.first.locator(".review-player-name").inner_text() == EN["play.you"]
    pct = math.floor(you["accuracy"] * 100 + 0.5)  # as the page rounds (half up)
    assert players.first.locator(".review-accuracy").inner_text() == f"{pct}% best moves"
    assert page.locator(".review-chart-svg polyline").count() == 1
    assert page.locator("#review-legend").inner_text().startswith("Each move is classed")
    follow_a_blunder(page, review, EN)
    # A click on the chart's far left goes back to the start.
    page.locator(".review-chart-svg").click(position={"x": 2, "y": 40})
    page.wait_for_function("() => document.querySelector('#scrub').value === '0'")
    # The records page gives the average accuracy over the reviewed games of the rule set.
    page.goto("/records/mancala")
    line = page.locator(".record-set-accuracy")
    line.wait_for()
    assert line.inner_text() == f"Reviewed games: 1, {pct}% best moves"


def test_the_review_in_japanese_on_a_phone(new_page: Any, quick_site: str) -> None:
    page = new_page(lang="ja", width=360, height=740, site_url=quick_site)
    review = reviewed_game(page)
    assert page.locator(".review-player").first.inner_text().startswith(JA["play.you"])
    follow_a_blunder(page, review, JA)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, "nothing is wider than the phone"
    # A second visit shows the stored review at once, without a Review button.
    page.reload()
    page.wait_for_selector("#review[data-state=done]")
    assert page.locator("#review-start").is_hidden()


SAMPLER = """window.__samples = [];
window.__sample = () => {
  const review = document.querySelector('#review');
  if (!review || review.hidden) return;
  const line = document.querySelector('.review-chart-svg polyline');
  window.__samples.push({
    state: review.dataset.state ?? '',
    points: line ? line.getAttribute('points').trim().split(/\\s+/).length : 0,
    listed: document.querySelectorAll('#review-list li').length,
  });
};
setInterval(window.__sample, 50);"""


@pytest.fixture(scope="module")
def slow_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A site whose reviews give the engine 0.5 s per decision on one worker: a review of a
    few seconds (the person's decisions in a game of 4 stones a pit, too many stones to solve
    at once), as a real one of about ten, to watch it fill in."""
    slow = {"ASOBIBA_REVIEW_SECONDS": "0.5", "ASOBIBA_REVIEW_WORKERS": "1"}
    with serve(tmp_path_factory.mktemp("slow-review"), slow) as base:
        yield base


def test_the_review_fills_in_move_by_move_while_it_runs(new_page: Any, slow_site: str) -> None:
    page = new_page(lang="en", site_url=slow_site)
    page.add_init_script(SAMPLER)
    review = reviewed_game(page, seeds=4)
    samples: list[dict[str, Any]] = page.evaluate("() => (window.__sample(), window.__samples)")
    running = [sample for sample in samples if sample["state"] == "running"]
    drawn = sorted({sample["points"] for sample in running})
    final = len(review["moves"]) + 1  # the start, then one point a move
    assert len(drawn) >= 3 and drawn[0] >= 2 and drawn[-1] < final, drawn
    points = [sample["points"] for sample in samples]
    assert points == sorted(points), "the chart only grows"
    assert points[-1] == final
    listed = [sample["listed"] for sample in samples]
    assert listed == sorted(listed), "moves to look at are added, never taken back"
