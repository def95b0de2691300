"""Passkeys in headless Chromium (issue 33), with Chromium's own virtual authenticator (the
DevTools protocol's WebAuthn domain: CTAP2, internal, resident keys, user verified): a guest
plays a game and keeps their games with a passkey; a second browser (a phone, by touch), given
a copy of that passkey, signs in with it (no username) and finds the same records, and cannot
add the same passkey twice; the first names its passkey and is told it cannot delete its only
way in; a browser with no passkeys says so. Both states of the page pass axe's WCAG A/AA
rules.

Pages are opened at ``localhost``: browsers make passkeys for a site's name, never for an IP
address, and ``http://localhost`` is a secure context."""

from __future__ import annotations

import uuid
from typing import Any

from asobiba.server.http.pages import strings
from tests.e2e.test_accessibility import violations
from tests.e2e.test_accounts_ui import stored_games
from tests.e2e.test_mancala_ui import play_to_the_end, start

EN = strings("en")
JA = strings("ja")


def virtual_authenticator(page: Any) -> tuple[Any, str]:
    """A platform authenticator for ``page``'s browser: the DevTools session and its id."""
    devtools = page.context.new_cdp_session(page)
    devtools.send("WebAuthn.enable")
    found = devtools.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
            }
        },
    )
    return devtools, str(found["authenticatorId"])


def local(site: str) -> str:
    return site.replace("127.0.0.1", "localhost")


def test_a_passkey_keeps_the_games_and_signs_in_on_another_browser(
    new_page: Any, site: str
) -> None:
    username = f"Pk{uuid.uuid4().hex[:6]}"
    home = new_page(lang="en", site_url=local(site))
    devtools, authenticator = virtual_authenticator(home)
    start(home, variant="basic", seeds=3)
    play_to_the_end(home)
    games = stored_games(home)
    assert len(games) == 1

    home.goto("/account")
    home.wait_for_selector("#passkey-keep:visible")
    assert violations(home) == []
    home.fill("#keep-username", username)
    home.click("#passkey-keep")
    home.wait_for_selector("#passkeys li.passkey")
    assert home.locator("#account-name").inner_text() == username
    assert stored_games(home) == games
    [made] = devtools.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})[
        "credentials"
    ]
    assert made["isResidentCredential"] and made["rpId"] == "localhost"

    phone = new_page(
        lang="ja", width=375, height=812, is_mobile=True, has_touch=True, site_url=local(site)
    )
    phone_tools, phone_authenticator = virtual_authenticator(phone)
    phone_tools.send(
        "WebAuthn.addCredential", {"authenticatorId": phone_authenticator, "credential": made}
    )
    phone.goto("/account")
    phone.wait_for_selector("#passkey-sign-in:visible")
    assert (
        phone.locator("#sign-in-form .passkey-or").inner_text()
        == JA["passkeys.or_password_sign_in"]
    )
    phone.tap("#passkey-sign-in")
    phone.wait_for_selector("#passkeys li.passkey")
    assert phone.locator("#account-name").inner_text() == username
    assert phone.locator("#account-link").get_attribute("title") == username
    assert phone.locator("#sessions li").count() == 2
    assert "まだ使っていません" not in phone.locator("#passkeys li.passkey").inner_text()
    phone.tap("#passkey-add")  # this device keeps the account's passkey already
    error = phone.locator("#passkey-error")
    error.wait_for(state="visible")
    assert error.inner_text() == JA["passkeys.error.exists"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
    assert violations(phone) == []
    assert stored_games(phone) == games

    home.goto("/account")
    home.wait_for_selector("#passkeys li.passkey")
    row = home.locator("#passkeys li.passkey")
    row.get_by_role("button", name=EN["passkeys.rename"]).click()
    home.fill("#prompt-input", "Work laptop")
    home.keyboard.press("Enter")
    home.wait_for_selector("#passkeys .passkey-name:text-is('Work laptop')")
    row.get_by_role("button", name=EN["passkeys.delete"]).click()  # nothing asked, nothing sent
    home.wait_for_selector(f".toast:has-text('{EN['passkeys.error.last_sign_in']}')")
    assert home.locator("#passkeys li.passkey").count() == 1, "the only way in is kept"


def test_a_browser_without_passkeys_says_so(new_page: Any, site: str) -> None:
    page = new_page(lang="en", site_url=local(site))
    page.add_init_script("delete window.PublicKeyCredential")
    page.goto("/account")
    notes = page.locator("[data-passkey-unsupported]:visible")
    notes.first.wait_for()
    assert notes.count() == 2 and notes.first.inner_text() == EN["passkeys.unsupported"]
    assert page.locator(".passkey-button:visible").count() == 0
    assert page.locator("#keep-password").is_visible(), "the password way stays"
