"""Accounts in headless Chromium (issue 33): a guest plays a game, keeps their games with a
username and a password on the account page, and another browser (a phone, by keyboard) signs
in and finds the same records; the first then signs the phone out from its list of sessions."""

from __future__ import annotations

import uuid
from typing import Any

from playwright.sync_api import expect

from asobiba.server.http.pages import strings
from tests.e2e.test_mancala_ui import play_to_the_end, start

EN = strings("en")
JA = strings("ja")
PASSWORD = "correct horse battery"


def stored_games(page: Any) -> list[str]:
    """The records page's stored games: each row's replay address."""
    page.goto("/records/mancala")
    page.wait_for_selector(".stored-games tbody tr")
    links = page.locator(".stored-games tbody tr a[href^='/replay/']")
    return [str(link.get_attribute("href")) for link in links.all()]


def test_kept_games_are_found_by_signing_in_on_another_browser(new_page: Any) -> None:
    username = f"Aki{uuid.uuid4().hex[:6]}"
    home = new_page(lang="en")
    start(home, variant="basic", seeds=3)
    play_to_the_end(home)
    games = stored_games(home)
    assert len(games) == 1
    link = home.locator("#account-link")
    assert link.inner_text().strip() == EN["nav.sign_in"]

    link.click()
    home.wait_for_selector("#keep-form")
    assert home.locator("#passkey-keep-slot").count() == 1  # where the passkey button will go
    home.fill("#keep-username", username)
    home.fill("#keep-password", PASSWORD)
    home.click("#keep-form button[type=submit]")
    home.wait_for_selector("#sessions li[data-current=true]")
    assert home.locator("#account-name").inner_text() == username
    assert home.locator("#account-link").inner_text().strip() == username
    assert stored_games(home) == games

    phone = new_page(lang="ja", width=375, height=812, is_mobile=True, has_touch=True)
    phone.goto("/account")
    assert phone.locator("#account-link").get_attribute("title") == JA["nav.sign_in"]
    phone.focus("#sign-in-username")  # by keyboard: type, Tab, type, Enter
    phone.keyboard.type(username.upper())
    phone.keyboard.press("Tab")
    phone.keyboard.type(PASSWORD)
    phone.keyboard.press("Enter")
    phone.wait_for_selector("#sessions li[data-current=true]")
    assert phone.locator("#sessions li").count() == 2
    assert phone.locator("#account-link").get_attribute("title") == username
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 375
    assert stored_games(phone) == games

    home.goto("/account")
    home.wait_for_selector("#sessions li")
    other = home.locator("#sessions li[data-current=false]")
    assert other.count() == 1
    other.locator("button").click()
    expect(home.locator("#sessions li")).to_have_count(1)
    assert home.locator("#sessions li").get_attribute("data-current") == "true"

    phone.goto("/account")  # signed out there: a guest again, with nothing of the account
    phone.wait_for_selector("#keep-form")
    assert phone.locator("#account-link").get_attribute("title") == JA["nav.sign_in"]
    phone.goto("/records/mancala")
    phone.wait_for_selector("#records:not(:has(.spinner))")
    assert phone.locator(".stored-games tbody tr").count() == 0
