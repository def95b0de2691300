"""Mokochaka through the real UI in headless Chromium.

- A whole game against two bots by keyboard: the test reads the showing cards from the table
  (``.mk-pile[data-card]``), asks ``asobiba.games.mokochaka.judge`` for the right call, types it
  (animal keys, then Enter; a special call's key grabs at once), takes piles and gives penalty
  cards with the keys and clicks the page offers, and sees the end screen.
- A late call is penalised: against test-only "patient" bots (they never call or grab, so only
  the 3-second timer ends a call phase) the test flips and waits past 3 s, then sees the penalty
  bubble over its own seat with the reason and gives its card by clicking a player.
- A phone (375 px, touch) plays a whole game with the touch buttons, without horizontal scroll.

The pages run with ``?speed=instant`` (no flip animation).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from asobiba.games import get_game
from asobiba.games.mokochaka import judge
from asobiba.games.mokochaka.cards import SPECIALS, parse_card
from asobiba.server.http.pages import strings
from tests.e2e.conftest import serve

JA = strings("ja")
EN = strings("en")
GAME = get_game("mokochaka")
ANIMAL_KEYS = {"moko": "1", "paka": "2", "pome": "3", "gabu": "4"}
SPECIAL_KEYS = {"mokochaka": "7", "chakamoko": "8", "chakamokochaka": "9"}

STATE = """() => {
  const play = document.querySelector('#play');
  return {act: play.dataset.act || '', phase: play.dataset.phase || '',
          flips: play.dataset.flips || '0', over: document.querySelector('#result[open]') !== null,
          turn: play.dataset.turn || '',
          cards: [...document.querySelectorAll('.mk-pile')].map((p) => p.dataset.card)
                   .filter(Boolean)};
}"""

# Something to do, or the end: wait for it rather than poll the page in a tight loop.
READY = """(done) => {
  const play = document.querySelector('#play');
  if (document.querySelector('#result[open]')) return true;
  const key = `${play.dataset.act}:${play.dataset.flips}:${play.dataset.phase}`;
  return Boolean(play.dataset.act) && !done.includes(key);
}"""

# Test-only bots for the late-call round, loaded into every process of that server (the bots
# run in worker processes) through sitecustomize: they flip and choose at once, never call.
PATIENT = """
import os
import re
if os.environ.get("ASOBIBA_E2E_PATIENT_BOTS"):
    from asobiba.core.bots import Timed
    from asobiba.games.mokochaka.rules import Mokochaka

    class PatientBot:
        def choose(self, observation, legal):
            return legal[0]

        def decide(self, observation, legal):
            if observation["phase"] == "call":
                return Timed(None)
            return Timed(legal[0])

    Mokochaka.make_bot = lambda self, level, seed: PatientBot()
"""


@pytest.fixture(scope="module")
def patient_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("patient")
    hooks = data / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(PATIENT)
    path = os.pathsep.join(filter(None, [str(hooks), os.environ.get("PYTHONPATH")]))
    with serve(data, {"PYTHONPATH": path, "ASOBIBA_E2E_PATIENT_BOTS": "1"}) as base:
        yield base


def start(page: Any, *, players: int = 3) -> None:
    page.goto("/games/mokochaka?speed=instant")
    page.check(f"input[name=players][value='{players}']")
    page.check(f"input[name=level][value={GAME.levels[-1]}]")  # the quickest bots: short games
    page.click("#start")
    page.wait_for_selector("#play[data-state=playing]")
    page.wait_for_url("**/games/mokochaka/*")


def right_calls(cards: list[str]) -> frozenset[str]:
    return judge([tuple(parse_card(card)) for card in cards])  # type: ignore[misc]


def syllables(word: str) -> list[str]:
    return [word[i : i + 4] for i in range(0, len(word), 4)]


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    viewport = page.viewport_size["width"]
    assert width <= viewport, f"the page is {width} px wide on a {viewport} px screen"


def tap_if_enabled(page: Any, selector: str) -> None:
    """Tap a pad button unless the turn moved on meanwhile (a bot's grab settles a race fast)."""
    button = page.locator(selector)
    if button.is_enabled():
        try:
            button.tap(timeout=3_000)
        except PlaywrightTimeout:
            assert button.is_disabled(), f"{selector} stayed enabled but could not be tapped"


# A table that shows all its columns inside its scrolling box.
TABLE_FITS = """(selector) => {
  const table = document.querySelector(selector);
  const box = table.closest('.table-wrap') ?? table.parentElement;
  return table.scrollWidth <= box.clientWidth + 1
    && table.getBoundingClientRect().right <= window.innerWidth;
}"""

# Text laid out on a single line.
ONE_LINE = """(selector) => {
  const node = document.querySelector(selector);
  const line = parseFloat(getComputedStyle(node).lineHeight) || 20;
  return node.getClientRects().length === 1 && node.getBoundingClientRect().height < 1.6 * line;
}"""

# Every seat's bubble shown with the longest words a bubble says, then measured: the boxes of
# the bubbles, the seats, the turn line and the site's header, as the page lays them out.
BUBBLES = """(text) => {
  for (const node of document.querySelectorAll('.mk-bubble')) {
    node.hidden = false;
    node.className = 'mk-bubble mk-bubble--penalty';
    const words = document.createElement('span');
    words.className = 'mk-bubble-text';
    words.textContent = text;
    node.replaceChildren(words);
  }
  const box = (node) => node.getBoundingClientRect().toJSON();
  return {
    bubbles: [...document.querySelectorAll('.mk-seat')].map((seat) =>
      ({seat: seat.dataset.seat, box: box(seat.querySelector('.mk-bubble'))})),
    seats: [...document.querySelectorAll('.mk-seat')].map((seat) =>
      ({seat: seat.dataset.seat, box: box(seat.querySelector('.mk-seat-body'))})),
    turn: box(document.getElementById('turn')),
    header: box(document.querySelector('.site-header')),
    width: window.innerWidth,
  };
}"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["right"] - 1
        and b["left"] < a["right"] - 1
        and a["top"] < b["bottom"] - 1
        and b["top"] < a["bottom"] - 1
    )


def play_to_the_end(page: Any, *, touch: bool = False, seconds: float = 150) -> dict[str, int]:
    """Play whatever the page asks of this seat until the result shows; count what was done."""
    done: list[str] = []
    did = {"flip": 0, "call": 0, "grab": 0, "take": 0, "give": 0}
    until = time.monotonic() + seconds
    press = page.tap if touch else page.click
    while True:
        try:
            page.wait_for_function(READY, arg=done, timeout=30_000)
        except PlaywrightTimeout as error:
            log = page.locator(".mk-log li").all_text_contents()[:8]
            raise AssertionError(
                f"nothing to do for 30 s: {page.evaluate(STATE)}, log {log}"
            ) from error
        state = page.evaluate(STATE)
        if state["over"]:
            return did
        assert time.monotonic() < until, f"the game did not end within {seconds} s"
        act = state["act"]
        done.append(f"{act}:{state['flips']}:{state['phase']}")
        if act == "flip":
            pile = page.locator("button.mk-pile").first.get_attribute("data-pile")
            if touch:
                page.tap(f"button.mk-pile[data-pile='{pile}']")
            else:
                page.keyboard.press(str(int(pile) + 1))
            did["flip"] += 1
        elif act in ("call", "grab"):
            right = right_calls(state["cards"])
            specials = sorted(right & set(SPECIALS))
            if specials:
                if touch:
                    page.tap(f"button[data-grab='{specials[0]}']")
                else:
                    page.keyboard.press(SPECIAL_KEYS[specials[0]])
                did["grab"] += 1
            elif act == "call":
                (word,) = right
                for animal in syllables(word):
                    if touch:
                        tap_if_enabled(page, f"button[data-animal='{animal}']")
                    else:
                        page.keyboard.press(ANIMAL_KEYS[animal])
                shown = page.locator("#assembled").get_attribute("data-word")
                if touch:
                    tap_if_enabled(page, "#send")
                else:
                    page.keyboard.press("Enter")
                # The race may have settled the turn meanwhile; else the word was assembled.
                assert shown in (word, ""), (shown, word)
                did["call"] += 1
        elif act == "take":
            for _ in range(2):
                if page.locator("#play[data-act=take]").count() == 0:
                    break
                press("button.mk-pile:not(.mk-pile--chosen)", timeout=3_000)
            did["take"] += 1
        elif act == "give":
            press("button.mk-seat-pick", timeout=3_000)
            did["give"] += 1
        if touch:
            no_sideways_scroll(page)


def test_a_whole_game_against_two_bots_by_keyboard(new_page: Any) -> None:
    page = new_page(lang="ja")
    start(page, players=3)
    assert page.locator(".mk-seat").count() == 3
    assert page.locator(".mk-pile[data-card]").count() == 3
    did = play_to_the_end(page)
    assert did["flip"] >= 1, did
    # The end screen: who won, and every seat's cards.
    assert page.locator("#result[open]").count() == 1
    rows = page.locator("#result-table tbody tr")
    assert rows.count() == 3
    # Every column, "Fastest call" too, fits the dialog at 1280 px (issue 20).
    assert page.evaluate(TABLE_FITS, "#result-table"), "the result table is cut off"
    assert page.locator("#result-table .badge--win").count() >= 1
    assert page.locator("#rematch").is_visible()
    # Every call and penalty was told in the log, and the game ended there too.
    assert page.locator(".mk-log-line--flip").count() >= 1
    assert page.locator(".mk-log-line--end").count() == 1
    # The rematch starts a new game at a new address.
    first = page.url
    page.click("#rematch")
    page.wait_for_function(f"() => window.location.href !== {first!r}")
    page.wait_for_selector(".mk-pile[data-card]")
    # The records: the game's own figures as columns, the rule set named by its players.
    page.goto("/records/mokochaka")
    table = page.locator("#record-sets-mokochaka")
    table.wait_for()
    for field in GAME.record_fields():
        assert field.label["ja"] in table.locator("thead").text_content()
    assert JA["records.players"].replace("{n}", "3") in table.text_content()
    assert table.locator("tbody tr:not(.record-set-head)").count() == 1


def test_a_late_call_is_penalized(new_page: Any, patient_site: str) -> None:
    page = new_page(lang="en", site_url=patient_site)
    start(page, players=3)
    # Wait for our own flip (the patient bots each take a penalty for their silence first).
    page.wait_for_selector("#play[data-act=flip]", timeout=30_000)
    pile = int(page.locator("button.mk-pile").first.get_attribute("data-pile") or 0)
    page.keyboard.press(str(pile + 1))
    page.wait_for_selector("#play[data-act=call]")
    ring = page.locator(".mk-seat--you.mk-seat--calling .mk-ring")
    assert ring.is_visible(), "the 3-second ring shows on the flipper"
    page.wait_for_timeout(3_300)  # past the 3 seconds
    # The penalty is ours and says why, and the give choice is offered.
    page.wait_for_selector("#play[data-act=give]", timeout=10_000)
    bubble = page.locator(".mk-seat--you .mk-bubble--penalty")
    assert EN["moko.reason.too_slow"] in bubble.text_content()
    penalty = page.locator(".mk-log-line--penalty").first.text_content()
    assert penalty == f"Penalty for you: {EN['moko.reason.too_slow']}.", penalty
    assert page.locator("#turn-text").text_content().startswith("Penalty")
    picks = page.locator("button.mk-seat-pick")
    assert picks.count() == 2
    name = picks.first.locator(".mk-seat-name").text_content()
    picks.first.click()
    # The line of our give (a computer's penalty earlier may have a give line of its own).
    page.locator(".mk-log-line--give", has_text=f"to {name}").first.wait_for()


def test_a_phone_plays_a_whole_game_by_touch(new_page: Any) -> None:
    page = new_page(lang="ja", width=375, height=812, has_touch=True, is_mobile=True)
    start(page, players=3)
    no_sideways_scroll(page)
    for button in page.locator(".mk-pad button").all():
        box = button.bounding_box()
        assert box and box["height"] >= 44 and box["width"] >= 44, box
    # A special call's name stays on one line: チャカモコチャカ never leaves its last カ alone.
    assert page.evaluate(ONE_LINE, "[data-grab=chakamokochaka] .mk-key-name")
    play_to_the_end(page, touch=True)
    assert page.locator("#result[open]").count() == 1
    no_sideways_scroll(page)
    # On a phone the result table's rows are cards: every figure in sight (issue 20).
    assert page.evaluate(TABLE_FITS, "#result-table")
    display = page.eval_on_selector("#result-table tbody tr", "r => getComputedStyle(r).display")
    assert display == "grid", display


# The seconds from the flip that a replay puts after a call, a grab, the token or a penalty.
TIMED_LINE = r"\[(\d+\.\d\d) s\]"


def test_the_replay_shows_the_calls_with_their_times(new_page: Any) -> None:
    """A whole game (six seats: the shortest hands) and its replay from the records page: the
    table of every frame, the end on the last one, and stepping back, a call with its seconds."""
    page = new_page(lang="en")
    start(page, players=GAME.max_seats)
    play_to_the_end(page)
    page.click("#to-records")
    page.locator(".stored-games tbody tr a").first.click()
    page.wait_for_selector("#replay:not([hidden])")
    assert "/replay/" in page.url
    assert page.text_content("#replay-meta").startswith(f"{GAME.max_seats} players · ")
    # The first frame: the table dealt, the starting seat's words, the slider at its start.
    assert page.locator(".mk-seat").count() == GAME.max_seats
    assert page.locator(".mk-seats--you .mk-seat--you").count() == 1
    # "… and starts." or, when the seat drawn is yours, "You … and start."
    assert "slept least lately and start" in page.text_content("#move-text")
    assert page.locator(".mk-bubble--start:not([hidden])").count() == 1
    # The end: the last frame says who won and marks them.
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelector('#next').disabled")
    said = page.text_content("#move-text")
    assert "game over" in said and " won" in said, said
    assert page.locator(".mk-seat--winner").count() >= 1
    # Back, frame by frame, to a call or grab: its line carries the seconds since the flip.
    for _ in range(40):
        page.keyboard.press("ArrowLeft")
        lines = page.locator("#move-text .replay-line").all_text_contents()
        timed = [line for line in lines if re.search(TIMED_LINE, line)]
        if timed:
            break
    else:
        raise AssertionError("no timed call in the last 40 frames")
    seconds = float(re.search(TIMED_LINE, timed[0]).group(1))  # type: ignore[union-attr]
    assert 0 <= seconds <= 3.5, timed
    assert page.locator(".mk-bubble:not([hidden])").count() >= 1, "the call as a bubble too"
    # Forward again with the button: one frame on.
    position = page.text_content("#position")
    page.click("#next")
    page.wait_for_function(
        f"() => document.querySelector('#position').textContent !== {position!r}"
    )
    # In Japanese on a phone: the same replay without sideways scroll.
    site = "{0.scheme}://{0.netloc}".format(urlsplit(page.url))
    page.context.add_cookies([{"name": "lang", "value": "ja", "url": site}])
    page.set_viewport_size({"width": 375, "height": 812})
    page.reload()
    page.wait_for_selector("#replay:not([hidden])")
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelector('#next').disabled")
    assert JA["moko.result.seat_won"].split("{names}")[1] in page.text_content("#move-text")
    no_sideways_scroll(page)


def test_bubbles_cover_no_seat_nor_the_call_prompt_at_six_players_on_a_phone(
    new_page: Any, patient_site: str
) -> None:
    """Issue 20: speech bubbles hid what matters: the player's own bubble covered "Call it!"
    exactly when calling, at six players on a phone bubbles covered names, counts and a whole
    seat, and the top seat's bubble slid under the site's header."""
    page = new_page(lang="en", width=375, height=812, has_touch=True, is_mobile=True)
    page.goto(f"{patient_site}/games/mokochaka?speed=instant")
    page.check("input[name=players][value='6']")
    page.click("#start")
    page.wait_for_selector("#play[data-act=flip]", timeout=40_000)
    pile = page.locator("button.mk-pile").first.get_attribute("data-pile")
    page.tap(f"button.mk-pile[data-pile='{pile}']")
    page.wait_for_selector("#play[data-act=call]")
    assert page.locator("#turn-text").text_content() == EN["moko.turn.call_you"]
    words = EN["moko.bubble.penalty"].replace(
        "{reason}", EN["moko.reason.wrong_special"].replace("{right}", "“Chakamokochaka”")
    )
    laid = page.evaluate(BUBBLES, words)
    for bubble in laid["bubbles"]:
        box = bubble["box"]
        assert box["top"] >= laid["header"]["bottom"] - 1, ("under the header", bubble)
        assert box["left"] >= 0 and box["right"] <= laid["width"], ("off the screen", bubble)
        assert not overlap(box, laid["turn"]), ("covers the turn line", bubble)
        for seat in laid["seats"]:
            assert not overlap(box, seat["box"]), ("covers a seat", bubble, seat)


def test_the_table_says_only_what_is_current_and_its_keys_are_readable(
    new_page: Any, patient_site: str
) -> None:
    """Issue 20: the pile keys were white digits on white; the last flip's "Right call" stayed up
    while the new card waited for its call; the call box said "Waiting for your call" while the
    player chose a pile."""
    page = new_page(lang="en", width=1280, height=900)
    page.goto(f"{patient_site}/games/mokochaka?speed=instant")
    page.check("input[name=players][value='3']")
    page.click("#start")
    # Both patient bots are judged (their silence) before our flip comes round at the latest.
    page.wait_for_selector("#play[data-act=flip]", timeout=30_000)
    assert page.locator("#assembled-text").text_content() == EN["moko.pad_idle"]
    contrast = page.evaluate(CONTRAST, ".mk-pile-key")
    assert contrast >= 4.5, f"pile key contrast {contrast:.2f}"
    # Our flip, left uncalled: judged after 3 seconds; we give our penalty card.
    page.keyboard.press(page.locator("button.mk-pile .mk-pile-key").first.text_content() or "1")
    page.wait_for_selector("#play[data-act=give]", timeout=10_000)
    page.locator("button.mk-seat-pick").first.click()
    # Both bots are judged in turn; the second judgement is still on the felt as our next flip
    # comes round, and must go as soon as our new card waits for its call.
    page.wait_for_selector("#play[data-act=flip]", timeout=30_000)
    assert page.locator("#judge").is_visible()
    page.keyboard.press(page.locator("button.mk-pile .mk-pile-key").first.text_content() or "1")
    page.wait_for_selector("#play[data-act=call]")
    assert page.locator("#judge").is_hidden(), page.locator("#judge").text_content()


# The contrast ratio (WCAG) of an element's text colour on its background colour.
CONTRAST = """(selector) => {
  const node = document.querySelector(selector);
  const style = getComputedStyle(node);
  const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => {
    const c = [r, g, b].map((v) => v / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


# Everything a call needs, as the page shows it: each pile, each key of the call pad and the Call
# button lies inside the window below the site's sticky header, and is what is on top at its
# centre (nothing docked or fixed covers it). Returns the ones that are not, with their boxes.
OUT_OF_SIGHT = """() => {
  const header = document.querySelector('.site-header').getBoundingClientRect().bottom;
  const nodes = [...document.querySelectorAll('.mk-pile, #pad button')];
  const out = [];
  for (const node of nodes) {
    const box = node.getBoundingClientRect();
    const inside = box.top >= header - 1 && box.bottom <= innerHeight + 1
      && box.left >= -1 && box.right <= innerWidth + 1;
    const top = document.elementFromPoint((box.left + box.right) / 2, (box.top + box.bottom) / 2);
    if (!inside || !top || !node.contains(top)) {
      const name = node.id || node.dataset.animal || node.dataset.grab || node.dataset.pile;
      out.push({name, box: box.toJSON(), covered_by: top ? top.className || top.tagName : null});
    }
  }
  return {out, count: nodes.length, header, height: innerHeight, scrolled: scrollY};
}"""

PHONE = {"width": 375, "height": 812, "has_touch": True, "is_mobile": True}
DESKTOP = {"width": 1280, "height": 800}


def to_our_call(page: Any, site_url: str, players: int) -> None:
    """Start a game against patient bots and flip when our turn comes: a call window is open."""
    page.goto(f"{site_url}/games/mokochaka?speed=instant")
    page.check(f"input[name=players][value='{players}']")
    page.click("#start")
    # Every patient bot before us is judged for its silence (3 s each) before our flip comes.
    page.wait_for_selector("#play[data-act=flip]", timeout=60_000)
    pile = page.locator("button.mk-pile").first.get_attribute("data-pile")
    page.locator(f"button.mk-pile[data-pile='{pile}']").dispatch_event("click")
    page.wait_for_selector("#play[data-act=call]")


@pytest.mark.parametrize("players", [2, GAME.max_seats])
@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("screen", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_piles_and_the_call_pad_are_in_sight_at_once_during_a_call(
    new_page: Any, patient_site: str, screen: dict[str, Any], lang: str, players: int
) -> None:
    """Issue 31: on a phone the Call and special-call buttons were below the fold during the
    3-second call window, and scrolling down to them hid the piles. Measured where the page itself
    puts them: the test never scrolls."""
    page = new_page(lang=lang, **screen)
    to_our_call(page, patient_site, players)
    laid = page.evaluate(OUT_OF_SIGHT)
    assert laid["count"] >= 3 + 4 + 3 + 2, laid
    assert not laid["out"], laid
    no_sideways_scroll(page)


SHOW_TOAST = """async (message) => {
  const site = document.querySelector('script[src*="/static/js/site.js"]').src;
  const { toast } = await import(site.replace('/site.js', '/toast.js'));
  toast(message, { timeout: 60000 });
}"""

# The boxes of the notices and of the call pad's buttons, and whether the top element at each
# button's centre (where a tap lands) is that button.
NOTICE_AND_PAD = """() => {
  const box = (node) => node.getBoundingClientRect().toJSON();
  return {
    toasts: [...document.querySelectorAll('.toast')].map(box),
    keys: [...document.querySelectorAll('#pad button')].map((node) => {
      const b = node.getBoundingClientRect();
      const top = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
      return {key: node.id || node.dataset.animal || node.dataset.grab, box: b.toJSON(),
              reached: Boolean(top && node.contains(top))};
    }),
  };
}"""


@pytest.mark.parametrize(
    ("lang", "screen"), [("ja", PHONE), ("en", DESKTOP)], ids=["phone", "desktop"]
)
def test_a_notice_covers_no_key_of_the_call_pad(
    new_page: Any, patient_site: str, lang: str, screen: dict[str, Any]
) -> None:
    """Issue 31: the "X is away: a stand-in plays" notice lay over the animal keys for 4 s and
    ate the taps meant for them. Shown through the site's toast module while a call window is
    open, it overlaps no button of the pad, and a tap on an animal key reaches the key."""
    page = new_page(lang=lang, **screen)
    words = (JA if lang == "ja" else EN)["table.away"].replace("{name}", "Aki")
    page.goto(f"{patient_site}/games/mokochaka?speed=instant")
    page.check("input[name=players][value='3']")
    page.click("#start")
    page.wait_for_selector("#play[data-act=flip]", timeout=60_000)
    page.evaluate(SHOW_TOAST, words)
    page.locator(".toast").filter(has_text=words).wait_for()
    pile = page.locator("button.mk-pile").first.get_attribute("data-pile")
    page.locator(f"button.mk-pile[data-pile='{pile}']").dispatch_event("click")
    page.wait_for_selector("#play[data-act=call]")
    laid = page.evaluate(NOTICE_AND_PAD)
    assert laid["toasts"], "the notice is up"
    for key in laid["keys"]:
        for notice in laid["toasts"]:
            assert not overlap(notice, key["box"]), (key, notice)
        assert key["reached"], key
    # A tap at an animal key's centre, while the notice shows, adds that animal to the call.
    animal = page.locator("#animals button:not([disabled])").first
    name = animal.get_attribute("data-animal")
    box = animal.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if screen is PHONE:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)
    page.wait_for_selector(f"#assembled[data-word='{name}']")
    assert page.locator(".toast").filter(has_text=words).is_visible(), "still up at the tap"
