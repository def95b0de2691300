"""What a signed-in browser is called in the list of an account's sessions: "Chrome on
Android", "Safari on iPhone", read from its User-Agent by ua-parser (the uap-core rules).

A label is a hint to recognise one's own devices, never a proof of anything: a User-Agent is
whatever the browser says."""

from __future__ import annotations

from ua_parser import parse

MAX_LABEL = 64
UNKNOWN = ""
"""The label of a browser that sends no User-Agent, or one the rules do not know at all: the
page says so in its own language."""
HANDHELD = {"iPhone", "iPad", "iPod"}
"""Devices named for themselves: "Safari on iPhone" says more than "Safari on iOS"."""
SYSTEMS = {"Mac OS X": "macOS", "Chrome OS": "ChromeOS"}
"""The rules' names of systems, as people call them now."""
NOISE = {"Mobile", "iOS", "WebView"}
"""Words of the rules' browser names that the system already says ("Chrome Mobile iOS" is
Chrome)."""


def label(user_agent: str | None) -> str:
    """The browser and the system it runs on (the system alone when the browser is not
    known; ``UNKNOWN`` when neither is).

    >>> label("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 "
    ...       "(KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1")
    'Safari on iPhone'
    """
    if not user_agent:
        return UNKNOWN
    found = parse(user_agent[:512])
    browser = found.user_agent.family if found.user_agent else "Other"
    browser = " ".join(word for word in browser.split() if word not in NOISE) or browser
    device = found.device.family if found.device else None
    system = found.os.family if found.os else "Other"
    where = device if device in HANDHELD else SYSTEMS.get(system, system)
    if browser == "Other":
        return UNKNOWN if where == "Other" else where[:MAX_LABEL]
    return (browser if where == "Other" else f"{browser} on {where}")[:MAX_LABEL]
