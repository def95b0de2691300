"""Mancala through the real UI in headless Chromium: settings, a whole game against the weakest
bot, the result dialog, the records page and the replay viewer, in Japanese and in English.

The pages run with ``?speed=instant`` so the stones land at once and a game takes seconds.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from asobiba.games import get_game
from asobiba.server.http.pages import strings

JA = strings("ja")
EN = strings("en")
BEGINNER = get_game("mancala").level_names()["beginner"]

YOUR_MOVE_OR_OVER = """() => document.querySelector('#result[open]') !== null ||
  (document.querySelector('#play').dataset.turn === 'you' &&
   document.querySelector('button.mb-hit--pit[data-legal]') !== null)"""

BOARD_CONSISTENCY = """() => {
  // Every drawn stone lies in a pit or store, and each one holds as many as its label says.
  const holes = [...document.querySelectorAll('.mb-pit, .mb-store')].map((g) => {
    const box = g.querySelector('.mb-pit-hole, .mb-store-hole').getBBox();
    return {x0: box.x - 4, y0: box.y - 4, x1: box.x + box.width + 4, y1: box.y + box.height + 4,
            n: 0};
  });
  let outside = 0;
  for (const stone of document.querySelectorAll('.mb-stone')) {
    const m = stone.style.transform.match(/translate\\(([-\\d.]+)px, ([-\\d.]+)px\\)/);
    const [x, y] = [Number(m[1]), Number(m[2])];
    const hole = holes.find((h) => x >= h.x0 && x <= h.x1 && y >= h.y0 && y <= h.y1);
    if (hole) hole.n += 1; else outside += 1;
  }
  const labels = [...document.querySelectorAll('.mb-count text')].map((t) => Number(t.textContent));
  return {outside, drawn: holes.map((h) => h.n), labels};
}"""


def counts(page: Any) -> list[int]:
    return [int(text) for text in page.locator(".mb-count text").all_text_contents()]


def assert_board_consistent(page: Any) -> None:
    check = page.evaluate(BOARD_CONSISTENCY)
    assert check["outside"] == 0
    assert check["drawn"] == check["labels"]


def start(page: Any, *, variant: str = "kalah", seeds: int = 4, order: str = "first") -> None:
    page.goto("/games/mancala?speed=instant")
    page.check(f"input[name=variant][value={variant}]")
    page.check(f"input[name=seeds][value='{seeds}']")
    page.check("input[name=level][value=beginner]")
    page.check(f"input[name=order][value={order}]")
    page.click("#start")
    page.wait_for_selector("#play[data-state=playing]")


def play_to_the_end(page: Any, *, keys: bool = False) -> int:
    """Sow from the first legal pit each turn (by click or by its number key); return moves."""
    moves = 0
    while True:
        page.wait_for_function(YOUR_MOVE_OR_OVER)
        if page.locator("#result[open]").count():
            return moves
        pit = int(page.locator("button.mb-hit--pit[data-legal]").first.get_attribute("data-pit"))
        if keys:
            page.keyboard.press(str(pit + 1))
        else:
            page.click(f"button.mb-hit--pit[data-pit='{pit}']")
        moves += 1
        assert moves < 200, "a game of Mancala ends long before this"


def scores_in(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def test_kalah_against_the_beginner_in_japanese(new_page: Any) -> None:
    page = new_page(lang="ja")
    start(page)
    assert page.locator("html").get_attribute("lang") == "ja"
    # The third pit from the left ends in the store: もう1回!
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    page.keyboard.press("3")
    page.wait_for_selector(".mb-callout--extra")
    assert page.text_content(".mb-callout--extra") == JA["call.extra.you"], "says whose"
    moves = play_to_the_end(page, keys=True) + 1
    assert moves >= 3

    title = page.text_content("#result-title")
    assert title in {JA["result.win"], JA["result.loss"], JA["result.draw"]}
    you, them = scores_in(page.text_content("#result-score"))
    assert you + them == 48
    assert page.get_attribute("#turn", "data-turn") == "over"
    assert_board_consistent(page)

    # "View board": the result and the rematch stay beside the final board.
    page.click("#close-result")
    assert page.text_content("#turn-text") == title
    assert scores_in(page.text_content("#result-bar-score")) == [you, them]
    if you != them:
        won = JA["result.won_by"] if you > them else JA["result.lost_by"]
        words = won.replace("{n}", str(abs(you - them)))
        if abs(you - them) == 1:
            words = JA["result.won_by.one" if you > them else "result.lost_by.one"]
        assert page.text_content("#result-bar-detail") == words
    assert page.locator("#rematch-bar").is_visible()
    assert page.locator("#hint").is_hidden(), "no pit to press any more"

    page.click("#result-bar a[href='/records/mancala']")
    page.wait_for_selector(".stored-games")
    rule = "カラハ・石の数 4・横取りあり・残った石を数える"
    assert rule in page.text_content(".record-set-title")
    row = page.locator(".record-set tr:not(.record-set-head)").first
    assert row.locator("th").text_content() == BEGINNER["ja"]
    assert row.locator("td").nth(0).text_content() == JA["seat.first"]
    result = {JA["result.win"]: "wins", JA["result.loss"]: "losses", JA["result.draw"]: "draws"}
    column = {"wins": 2, "draws": 3, "losses": 4}[result[title]]
    assert row.locator("td").nth(1).text_content() == "1"
    assert row.locator("td").nth(column).text_content() == "1"
    games = page.locator(".stored-games tbody tr")
    assert games.count() == 1
    assert f"{you} – {them}" in games.first.text_content()

    games.first.locator("a").click()
    page.wait_for_selector("#replay:not([hidden])")
    assert "/replay/" in page.url
    assert page.text_content("#move-text") == JA["replay.start"]
    assert counts(page) == [4] * 6 + [0] + [4] * 6 + [0]
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => !document.querySelector('.is-animating')")
    assert "1 /" in page.text_content("#position")
    assert page.text_content("#move-text").startswith(JA["play.you"])
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelector('#next').disabled")
    board = counts(page)
    assert (board[6], board[13]) == (you, them), "stores of seat 0 (you) and seat 1"
    assert_board_consistent(page)
    page.keyboard.press("Home")
    page.wait_for_function("() => document.querySelector('#first').disabled")
    assert counts(page) == [4] * 6 + [0] + [4] * 6 + [0]


def test_kalah_against_the_beginner_in_english_moving_second(new_page: Any) -> None:
    page = new_page(lang="en", timezone_id="Asia/Tokyo")
    start(page, order="second")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.text_content("#rule-chip") == (
        "Kalah · Stones per pit: 4 · Standard capture · Leftover stones count"
    )
    # One name per seat (issue 31, point 11): the computer moving first sits at seat 1, "CPU 1".
    assert page.text_content("#name-them") == "CPU 1 (Beginner)"
    play_to_the_end(page)
    assert page.text_content("#result-title") in {
        EN["result.win"],
        EN["result.loss"],
        EN["result.draw"],
    }
    assert page.text_content("#result-score").startswith("Stones in stores: you ")
    you, them = scores_in(page.text_content("#result-score"))
    page.click("#to-records")
    page.wait_for_selector(".stored-games")
    row = page.locator(".record-set tr:not(.record-set-head)").first
    assert row.locator("th").text_content() == BEGINNER["en"]
    assert row.locator("td").first.text_content() == "Second"
    # Finished moments ago, shown in the browser's own time zone.
    recent = page.evaluate("""() => [0, 60, 120].map((ago) => new Intl.DateTimeFormat("en",
      {dateStyle: "medium", timeStyle: "short"}).format(new Date(Date.now() - ago * 1000)))""")
    assert page.locator(".stored-games tbody tr td").first.text_content() in recent
    assert f"{you} – {them}" in page.text_content(".stored-games tbody tr"), "yours first"
    page.locator(".stored-games tbody tr a").first.click()
    page.wait_for_selector("#replay:not([hidden])")
    assert page.text_content("#replay-meta").endswith(" · You moved second")
    page.click("#next")
    page.wait_for_function("() => !document.querySelector('.is-animating')")
    assert page.text_content("#move-text").startswith("CPU 1: pit ")
    page.click("#last")
    assert page.locator("#next").is_disabled()


def test_basic_with_three_stones_on_a_phone(new_page: Any) -> None:
    page = new_page(lang="en", width=375, height=740)
    page.goto("/games/mancala?speed=instant")
    page.check("input[name=variant][value=basic]")
    assert page.locator("fieldset[data-option=capture]").is_hidden()
    assert page.locator("fieldset[data-option=count_leftovers]").is_hidden()
    page.check("input[name=seeds][value='3']")
    assert counts(page) == [3] * 6 + [0] + [3] * 6 + [0], "the preview follows the settings"
    page.check("input[name=level][value=beginner]")
    page.click("#start")
    page.wait_for_selector("#play[data-state=playing]")
    assert page.text_content("#rule-chip") == "Basic · Stones per pit: 3"
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert page.locator(".mb-count--store").first.is_hidden(), "Basic stores decide nothing"
    assert page.locator(".mb-count").first.is_visible()
    play_to_the_end(page)
    score = page.text_content("#result-score")
    assert score in {EN["result.basic_you"], EN["result.basic_them"]}
    assert page.text_content("#result-detail").startswith("Stones left on each side:")
    you_left, them_left = scores_in(page.text_content("#result-detail"))
    won = score == EN["result.basic_you"]
    assert page.text_content("#result-title") == EN["result.win" if won else "result.loss"]
    assert_board_consistent(page)

    # Rematch: the same settings again, a new room.
    page.click("#rematch")
    page.wait_for_function("() => !document.querySelector('#result[open]')")
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    assert page.text_content("#rule-chip") == "Basic · Stones per pit: 3"

    page.goto("/records/mancala")
    page.wait_for_selector(".stored-games")
    assert "Basic · Stones per pit: 3" in page.text_content(".record-set-title")
    first_game = page.locator(".stored-games tbody tr").last
    assert f"Left {you_left} – {them_left}" in first_game.text_content()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def test_settings_are_remembered_and_a_reload_resumes_the_game(new_page: Any) -> None:
    page = new_page(lang="ja")
    start(page, variant="kalah", seeds=5)
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    page.keyboard.press("1")
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    before = counts(page)
    page.reload()
    page.wait_for_selector("#play[data-state=playing]")
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    assert counts(page) == before, "the socket's sync restores the same position"
    page.click("#new-game")
    page.click(".dialog--confirm [data-confirm]")
    page.wait_for_selector("#play[data-state=setup]")
    assert page.is_checked("input[name=seeds][value='5']")
    assert urlsplit(page.url).path == "/games/mancala", "the settings have their own address"


RECORD_SOCKETS = """
window.__sockets = [];
const NativeWebSocket = window.WebSocket;
window.WebSocket = class extends NativeWebSocket {
  constructor(...args) {
    super(...args);
    window.__sockets.push(this);
  }
};
"""


def test_a_dropped_socket_reconnects_and_server_errors_are_shown(new_page: Any) -> None:
    page = new_page(lang="ja")
    page.add_init_script(RECORD_SOCKETS)
    start(page)
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    page.keyboard.press("1")
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    before = counts(page)
    page.evaluate("window.__sockets.at(-1).close()")
    page.wait_for_function(
        "() => window.__sockets.length === 2 && window.__sockets[1].readyState === 1"
    )
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    assert counts(page) == before
    # An illegal action sent past the UI: the server's error appears as a toast.
    page.evaluate(
        """window.__sockets.at(-1).send(JSON.stringify({type: "act", action: {pit: 9}}))"""
    )
    page.wait_for_selector(".toast--error")
    assert page.text_content(".toast--error p") == JA["error.illegal_action"]
    play_to_the_end(page)


def test_reduced_motion_shows_moves_without_animation(new_page: Any) -> None:
    page = new_page(lang="en", reduced_motion="reduce")
    page.goto("/games/mancala?speed=slow")
    page.check("input[name=level][value=beginner]")
    page.check("input[name=order][value=first]")
    page.check("input[name=variant][value=kalah]")
    page.check("input[name=seeds][value='4']")
    page.click("#start")
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    page.evaluate("""() => {
      window.__animated = false;
      new MutationObserver(() => {
        if (document.querySelector('.is-animating')) window.__animated = true;
      }).observe(document.getElementById('board'), {attributes: true});
    }""")
    page.keyboard.press("3")
    page.wait_for_selector(".mb-callout--extra")
    page.wait_for_function(YOUR_MOVE_OR_OVER, timeout=1500)
    assert counts(page)[:7] == [4, 4, 0, 5, 5, 5, 1]
    assert page.evaluate("window.__animated") is False
    # Screen-reader labels count in words that fit the number.
    assert page.get_attribute(".mb-hit--store >> nth=0", "aria-label") == "Your store: 1 stone"
    assert page.get_attribute("button.mb-hit--pit >> nth=3", "aria-label") == "Your pit 4: 5 stones"


def test_room_socket_keeps_seq_order_and_asks_for_sync_on_a_gap(new_page: Any) -> None:
    page = new_page(lang="en")
    page.goto("/")
    result = page.evaluate("""async () => {
      const sent = [];
      let fake = null;
      window.WebSocket = class {
        static OPEN = 1;
        constructor() { fake = this; this.readyState = 1; this.listeners = {};
                        setTimeout(() => this.emit("open", {}), 0); }
        addEventListener(type, f) { (this.listeners[type] ??= []).push(f); }
        emit(type, event) { (this.listeners[type] ?? []).forEach((f) => f(event)); }
        send(text) { sent.push(JSON.parse(text)); }
        close() {}
      };
      const { RoomSocket, socketURL } = await import("/static/js/room-socket.js");
      const got = [];
      new RoomSocket("/ws/rooms/x", { onMessage: (m) => got.push(`${m.type}${m.seq ?? ""}`) });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const say = (m) => fake.emit("message", { data: JSON.stringify(m) });
      say({ type: "event", seq: 1 });
      say({ type: "sync", seq: 3 });
      say({ type: "event", seq: 4 });
      say({ type: "event", seq: 4 });
      say({ type: "event", seq: 6 });
      say({ type: "event", seq: 7 });
      say({ type: "sync", seq: 7 });
      say({ type: "event", seq: 8 });
      say({ type: "error", code: "not_your_turn" });
      return { got, sent, url: socketURL("/ws/rooms/x") };
    }""")
    assert result["got"] == ["sync3", "event4", "sync7", "event8", "error"]
    assert result["sent"] == [{"type": "sync"}]
    assert result["url"].startswith("ws://127.0.0.1:") and result["url"].endswith("/ws/rooms/x")


def test_pages_have_one_h1_and_named_controls(new_page: Any) -> None:
    page = new_page(lang="ja", width=375)
    for path in (
        "/",
        "/games",
        "/games/mancala",
        "/games/mancala/rules",
        "/records",
        "/records/mancala",
    ):
        page.goto(path)
        page.wait_for_load_state("networkidle")
        assert page.locator("h1").count() == 1, path
        unnamed = page.evaluate("""() => [...document.querySelectorAll('a, button, input, select')]
          .filter((el) => el.offsetParent !== null || el.type === 'radio')
          .filter((el) => !(el.getAttribute('aria-label') || el.textContent.trim() ||
                            el.closest('label') || el.labels?.length))
          .map((el) => el.outerHTML.slice(0, 80))""")
        assert unnamed == [], (path, unnamed)
        assert page.evaluate("document.documentElement.scrollWidth") <= 375, path


def test_the_page_answers_the_servers_pings_so_its_line_is_timed(new_page: Any) -> None:
    """Behind a proxy (here: a forwarded-for header, as a proxy on this machine would send)
    only the server's pings time the line; directly the kernel does and none are sent."""
    page = new_page(lang="en", extra_http_headers={"X-Forwarded-For": "203.0.113.9"})
    pongs: list[str] = []
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framesent", lambda payload: pongs.append(payload) if "pong" in payload else None
        ),
    )
    start(page)
    for _ in range(100):  # the first ping goes out at connect
        if pongs:
            break
        page.wait_for_timeout(100)
    assert pongs, "no pong was sent"
    assert '"type":"pong"' in pongs[0].replace(" ", "")
