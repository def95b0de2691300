"""Layout in a real browser: no page is wider than a phone, the design system's focus ring, the
board's size on a phone and the replay's controls above the fold."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.e2e.test_mancala_ui import YOUR_MOVE_OR_OVER, play_to_the_end, start

PHONE = {"width": 375, "height": 812}


@pytest.fixture
def played(new_page: Any) -> Iterator[dict[str, str]]:
    """A finished and an unfinished game of one guest: their replay and game addresses."""
    page = new_page(lang="ja")
    start(page, variant="basic", seeds=3)
    play_to_the_end(page)
    finished = urlsplit(page.url).path.rsplit("/", 1)[1]
    page.click("#rematch")
    page.wait_for_function(f"() => !location.pathname.endsWith('{finished}')")
    yield {
        "replay": f"/replay/{finished}",
        "game": urlsplit(page.url).path,
        "cookies": page.context.cookies(),
    }


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_no_page_is_wider_than_a_phone(
    browser: Any, site: str, played: dict[str, Any], lang: str
) -> None:
    context = browser.new_context(viewport=PHONE, base_url=site)
    context.add_cookies([c for c in played["cookies"] if c["name"] != "lang"])
    context.add_cookies([{"name": "lang", "value": lang, "url": site}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        for path, ready in [
            ("/", "h1"),
            ("/games", "h1"),
            ("/games/mancala", ".mb-count"),
            (played["game"], "#play[data-turn]"),
            ("/games/mancala/rules", "#designed-heading"),
            ("/records", ".stored-games"),
            ("/records/mancala", ".unfinished-games"),
            ("/account", "#keep-form"),
            (played["replay"], "#replay:not([hidden])"),
            ("/no/such/page", ".message-page"),
            ("/replay/0123456789abcdef", ".message-page"),
            ("/replay/" + played["game"].rsplit("/", 1)[1], "#still-playing"),
        ]:
            page.goto(path)
            page.wait_for_selector(ready)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], (lang, path, width)
    finally:
        context.close()
    assert not errors, errors


def test_japanese_breaks_between_phrases(new_page: Any) -> None:
    page = new_page(lang="ja")
    page.goto("/games/mancala/rules")
    style = page.evaluate(
        "(() => { const s = getComputedStyle(document.querySelector('.prose td'));"
        " return [s.wordBreak, s.lineBreak]; })()"
    )
    assert style == ["auto-phrase", "strict"], "no 「ベーシッ/ク」, no line starting with 「ー」"


def test_keyboard_focus_shows_the_design_systems_ring(new_page: Any) -> None:
    page = new_page(lang="en", reduced_motion="reduce")  # no transition to wait for
    page.goto("/games/mancala")
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "start":
            break
    ring = page.evaluate("""() => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--focus)';
      document.body.append(probe);
      const focus = getComputedStyle(probe).color;
      probe.remove();
      const style = getComputedStyle(document.activeElement);
      return {id: document.activeElement.id, focus, style: style.outlineStyle,
              color: style.outlineColor, width: style.outlineWidth, shadow: style.boxShadow};
    }""")
    assert ring["id"] == "start"
    assert ring["style"] == "solid" and ring["width"] == "3px", ring
    assert ring["color"] == ring["focus"], ring
    # The halo: a 2 px ring in the page colour between the button and the outline (waited for,
    # as the button's own shadow hands over to it in the next frame).
    page.wait_for_function(
        "() => getComputedStyle(document.activeElement).boxShadow.endsWith('0px 0px 0px 2px')"
    )


def test_the_board_uses_a_phones_screen(new_page: Any) -> None:
    page = new_page(lang="ja", **PHONE, is_mobile=True, has_touch=True)
    start(page)
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    sizes = page.evaluate("""() => {
      const box = (el) => el.getBoundingClientRect();
      const board = box(document.querySelector('.mancala-board'));
      const pit = box(document.querySelector('button.mb-hit--pit'));
      const count = box(document.querySelector('.mb-count text'));
      return {board: [board.width, board.height], pit: [pit.width, pit.height],
              count: count.height};
    }""")
    assert sizes["board"][1] >= 220, sizes
    assert sizes["pit"][0] >= 44 and sizes["pit"][1] >= 88, sizes
    assert sizes["count"] >= 14, sizes
    assert page.locator(".hint-keys").is_hidden(), "no number keys on a touch screen"
    assert page.locator("#hint").is_visible()


def test_the_replay_controls_are_above_the_fold(new_page: Any, played: dict[str, Any]) -> None:
    page = new_page(lang="en", width=1280, height=900)
    page.goto(played["replay"])
    page.wait_for_selector("#replay:not([hidden])")
    bottoms = page.evaluate(
        "['#scrub', '#speed', '#next'].map((s) => document.querySelector(s)"
        ".getBoundingClientRect().bottom)"
    )
    assert max(bottoms) <= 900, bottoms


# A notice from the site's toast module, and the boxes of the notice and the site's header.
NOTICE = """async (message) => {
  const site = document.querySelector('script[src*="/static/js/site.js"]').src;
  const { toast } = await import(site.replace('/site.js', '/toast.js'));
  toast(message, { kind: 'error', timeout: 60000 });
  const node = document.querySelector('.toast');
  return {toast: node.getBoundingClientRect().toJSON(),
          header: document.querySelector('.site-header').getBoundingClientRect().toJSON(),
          taps: getComputedStyle(node).pointerEvents};
}"""


@pytest.mark.parametrize(
    "path", ["/games/mancala", "/games/momojan", "/games/michikake", "/tables"]
)
def test_notices_keep_to_the_headers_band(new_page: Any, path: str) -> None:
    """Issue 31: a notice at the foot of the screen lay over a game's controls and took their
    taps. On every page it lies within the site's sticky header (the band kept for notices, so it
    covers nothing of the page) and lets taps through, on a phone with a long message too."""
    page = new_page(lang="ja", **PHONE, is_mobile=True, has_touch=True)
    page.goto(path)
    page.wait_for_selector("h1")
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    laid = page.evaluate(NOTICE, "ネットワークにつながりません。もう一度お試しください。" * 2)
    box, band = laid["toast"], laid["header"]
    assert box["height"] > 0, laid
    assert box["top"] >= band["top"] - 1 and box["bottom"] <= band["bottom"] + 1, laid
    assert laid["taps"] == "none", laid
