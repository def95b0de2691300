"""Accessibility in headless Chromium (issue 31, points 20 and 21).

- axe-core (axe-playwright-python) over every kind of page, in Japanese and English, on a phone
  (375 x 812) and a desktop (1280 x 800): no violation of the WCAG 2.0/2.1 A and AA rules. One
  browser context per language and viewport visits them all: home, games, each game's play page
  with its settings, each rules page and the rules index, records, a replay, a player's profile
  and the leaderboards, the lobby, each game's lessons, a waiting table, and each game's table
  mid-game against the computer.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from asobiba.games import game_names
from asobiba.server.http.learn import teaching_games, trainer_game
from tests.e2e.conftest import serve
from tests.e2e.test_mancala_ui import start as start_mancala
from tests.e2e.test_michikake_ui import STEP as MICHIKAKE_STEP
from tests.e2e.test_michikake_ui import start as start_michikake
from tests.e2e.test_mokochaka_ui import start as start_mokochaka
from tests.e2e.test_momojan_ui import STEP as MOMOJAN_STEP
from tests.e2e.test_momojan_ui import start as start_momojan
from tests.e2e.test_tables_ui import moko_step, set_table

WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
VIEWPORTS = {"phone": (375, 812), "desktop": (1280, 800)}
LEGAL_PIT = "button.mb-hit--pit[data-legal]"


@pytest.fixture(scope="module")
def a11y_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Bots move at once, so the games reach their middle quickly."""
    with serve(tmp_path_factory.mktemp("a11y"), {"ASOBIBA_BOT_PACE": "0"}) as base:
        yield base


def steps(page: Any, step: str, count: int, limit: float = 60.0) -> None:
    """Run a game's one-step player (a page function, as in its UI test) until it has acted
    ``count`` times."""
    acted = 0
    deadline = time.monotonic() + limit
    while acted < count:
        assert time.monotonic() < deadline, f"{acted} of {count} steps within {limit} s"
        did = page.evaluate(step, False)
        if did not in ("wait", "over"):
            acted += 1
        # A person's pace: the room allows 10 messages a second.
        time.sleep(0.13 if did != "wait" else 0.05)


def mancala_midgame(page: Any) -> None:
    start_mancala(page, variant="basic", seeds=3)
    for _ in range(2):
        page.click(LEGAL_PIT)
        page.wait_for_selector(LEGAL_PIT)


def momojan_midgame(page: Any) -> None:
    start_momojan(page)
    steps(page, MOMOJAN_STEP, 4)


def michikake_midgame(page: Any) -> None:
    start_michikake(page, 3)
    steps(page, MICHIKAKE_STEP, 3)


def mokochaka_midgame(page: Any) -> None:
    start_mokochaka(page)
    done: list[str] = []
    deadline = time.monotonic() + 60
    while page.evaluate("() => Number(document.querySelector('#play').dataset.flips || 0)") < 3:
        assert time.monotonic() < deadline, "three flips within 60 s"
        moko_step(page, done)
        time.sleep(0.05)


MIDGAME: dict[str, Callable[[Any], None]] = {
    "mancala": mancala_midgame,
    "momojan": momojan_midgame,
    "michikake": michikake_midgame,
    "mokochaka": mokochaka_midgame,
}


@pytest.fixture(scope="module")
def finished_room(browser: Any, a11y_site: str) -> tuple[str, str]:
    """A Mancala game against the computer played to its end, for the replay page, and its
    player's public id, for a profile with a rating and its chart."""
    context = browser.new_context(base_url=a11y_site)
    page = context.new_page()
    start_mancala(page, variant="basic", seeds=3)
    deadline = time.monotonic() + 120
    while not page.locator("#result[open]").count():
        assert time.monotonic() < deadline, "the game did not end within 120 s"
        if page.locator(LEGAL_PIT).count():
            page.click(LEGAL_PIT)
        time.sleep(0.05)
    room = page.url.split("?")[0].rsplit("/", 1)[1]
    player: str = page.evaluate("async () => (await (await fetch('/api/me')).json()).id")
    context.close()
    return room, player


def violations(page: Any) -> list[str]:
    """The WCAG A/AA rules the page breaks now, one line each with the nodes' selectors."""
    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": WCAG_AA}})
    return [
        f"{rule['id']}: {[node['target'] for node in rule['nodes']][:4]}"
        for rule in results.response["violations"]
    ]


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_no_page_breaks_a_wcag_a_or_aa_rule(
    browser: Any, a11y_site: str, finished_room: tuple[str, str], lang: str, viewport: str
) -> None:
    width, height = VIEWPORTS[viewport]
    phone = viewport == "phone"
    context = browser.new_context(
        viewport={"width": width, "height": height},
        base_url=a11y_site,
        locale="ja-JP" if lang == "ja" else "en-US",
        has_touch=phone,
        is_mobile=phone,
    )
    context.add_cookies([{"name": "lang", "value": lang, "url": a11y_site}])
    page = context.new_page()
    page.set_default_timeout(30_000)
    found: dict[str, list[str]] = {}

    def check(name: str) -> None:
        page.wait_for_load_state("networkidle")
        broken = violations(page)
        if broken:
            found[name] = broken

    room, player = finished_room
    paths = ["/", "/games", "/rules", "/tables", "/records", "/account", f"/replay/{room}"]
    paths += ["/me/data", f"/players/{player}", "/leaderboard", "/leaderboard/mancala/basic"]
    for game in game_names():
        paths += [f"/games/{game}", f"/games/{game}/rules", f"/records/{game}"]
    paths += [f"/learn/{game}" for game in teaching_games()]
    paths += [f"/learn/{game}/trainer" for game in game_names() if trainer_game(game)]
    for path in paths:
        page.goto(path)
        check(path)
    set_table(page, "mancala", name="Aki", seats=["me", "open"])
    check("a waiting table")
    for game, midgame in MIDGAME.items():
        midgame(page)
        check(f"{game} mid-game")
    context.close()
    assert not found, "\n".join(
        f"{name}: {rule}" for name, rules in found.items() for rule in rules
    )


# --- keyboard only, live regions, reduced motion (point 21) ---------------------------------

ANNOUNCE = "#announce"


def said(page: Any) -> str:
    """The polite live region's text, read from the accessibility tree's side: the region
    must be polite and in the page from the start for a screen reader to say its changes."""
    assert page.get_attribute(ANNOUNCE, "aria-live") == "polite"
    return str(page.locator(ANNOUNCE).text_content())


SAYS = """(word) => {
  const text = document.getElementById('announce').textContent;
  return text.includes(word) && text;
}"""
"""The live region's text once it says ``word`` (read in the same instant: the next move empties
it and fills it again on the following frame)."""


LISTEN = """() => {
  window.__said = [];
  const region = document.getElementById('announce');
  new MutationObserver(() => window.__said.push(region.textContent)).observe(region, {
    childList: true, characterData: true, subtree: true,
  });
}"""
"""Keep every text the live region says from now on in ``window.__said``: what was said once
stays heard when later words replace it (the round's result, a prompt)."""

HEARD = """(word) => window.__said.find((text) => text.includes(word)) || false"""


def keyboard_page(browser: Any, site: str, lang: str, **options: Any) -> Any:
    context = browser.new_context(
        viewport={"width": 1280, "height": 800},
        base_url=site,
        locale="ja-JP" if lang == "ja" else "en-US",
        **options,
    )
    context.add_cookies([{"name": "lang", "value": lang, "url": site}])
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


def start_by_keyboard(page: Any, game: str) -> None:
    """The settings' defaults, and the start button taken with Tab and Enter."""
    page.goto(f"/games/{game}?speed=instant")
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement?.id") == "start":
            break
    else:
        raise AssertionError("Tab never reached the start button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#play[data-state=playing]")


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_mancala_is_played_to_its_end_by_keys_and_each_move_and_the_result_are_said(
    browser: Any, a11y_site: str, lang: str
) -> None:
    page = keyboard_page(browser, a11y_site, lang)
    start_by_keyboard(page, "mancala")
    moves = 0
    deadline = time.monotonic() + 180
    computer_said = False
    while not page.locator("#result[open]").count():
        assert time.monotonic() < deadline, f"the game did not end by keys ({moves} moves)"
        pits = page.locator(LEGAL_PIT)
        if pits.count():
            page.keyboard.press(str(int(pits.first.get_attribute("data-pit") or 0) + 1))
            moves += 1
            if moves == 3:
                # By the third move the computer has answered: its move is said. The region is
                # emptied and filled again on the next frame (PlayPage.say), so wait for it.
                word = "ポケット" if lang == "ja" else "pit"
                text = page.wait_for_function(SAYS, arg=word).json_value()
                assert page.get_attribute(ANNOUNCE, "aria-live") == "polite"
                assert word in text, text
                computer_said = True
        time.sleep(0.05)
    assert computer_said
    title = page.locator("#result-title").inner_text()
    page.wait_for_function(
        "(title) => document.getElementById('announce').textContent.includes(title)", arg=title
    )
    page.context.close()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_momojan_by_keys_says_the_opponents_discards(
    browser: Any, a11y_site: str, lang: str
) -> None:
    page = keyboard_page(browser, a11y_site, lang)
    start_by_keyboard(page, "momojan")
    page.evaluate(LISTEN)
    discards = 0
    deadline = time.monotonic() + 90
    while discards < 6:
        assert time.monotonic() < deadline, f"{discards} discards by keys within 90 s"
        if page.locator("#round-result[open], #result[open]").count():
            break
        if page.locator("#prompts [data-action=pass]").count():
            page.keyboard.press("n")
        elif page.locator(".mj-pile.is-legal").count():
            page.keyboard.press("d")
        else:
            legal = page.locator(".mj-hand--mine .mj-hand-card")
            count = legal.count()
            if count and "is-legal" in (legal.nth(count - 1).get_attribute("class") or ""):
                page.keyboard.press(str(count))
                discards += 1
        time.sleep(0.15)
    word = "捨てました" if lang == "ja" else "discarded"
    text = page.wait_for_function(HEARD, arg=word).json_value()
    assert page.get_attribute(ANNOUNCE, "aria-live") == "polite"
    assert word in text, text
    page.context.close()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_michikake_by_keys_says_the_others_discards(
    browser: Any, a11y_site: str, lang: str
) -> None:
    page = keyboard_page(browser, a11y_site, lang)
    start_by_keyboard(page, "michikake")
    word = "捨てました" if lang == "ja" else "discarded"
    heard: set[str] = set()
    deadline = time.monotonic() + 90
    while len(heard) < 3:
        assert time.monotonic() < deadline, f"heard {heard} within 90 s"
        if page.locator("#deal-result[open], #result[open]").count():
            break
        text = said(page)
        if word in text:
            heard.add(text)
        for key, action in (("w", "win"), ("p", "pass")):
            if page.locator(f"#prompts [data-action={action}]").count():
                page.keyboard.press(key)
                break
        else:
            cards = page.locator(".mk-hand .mk-hand-card.is-legal")
            if cards.count():
                page.keyboard.press(str(page.locator(".mk-hand .mk-hand-card").count()))
        time.sleep(0.15)
    assert heard
    page.context.close()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_mokochaka_by_keys_says_the_call_window_and_logs_the_flips(
    browser: Any, a11y_site: str, lang: str
) -> None:
    page = keyboard_page(browser, a11y_site, lang)
    start_by_keyboard(page, "mokochaka")
    done: list[str] = []
    deadline = time.monotonic() + 90
    call = "コール" if lang == "ja" else "Call it"
    while call not in said(page):
        assert time.monotonic() < deadline, "no call window said within 90 s"
        moko_step(page, done)
        time.sleep(0.05)
    assert page.get_attribute("#log", "aria-live") == "polite"
    assert page.locator("#log li").count() >= 1
    page.context.close()


@pytest.mark.parametrize("game", list(MIDGAME))
def test_reduced_motion_stills_every_moving_piece(browser: Any, a11y_site: str, game: str) -> None:
    page = keyboard_page(browser, a11y_site, "en", reduced_motion="reduce")
    MIDGAME[game](page)
    moving = page.evaluate(
        """() => [...document.querySelectorAll('#table *')].filter((node) => {
          const style = getComputedStyle(node);
          const most = (value) => Math.max(...value.split(',').map((s) => parseFloat(s) || 0));
          return Math.max(most(style.transitionDuration), most(style.animationDuration)) > 0.01;
        }).map((node) => node.className?.baseVal ?? node.className).slice(0, 8)"""
    )
    assert moving == [], moving
    page.context.close()
