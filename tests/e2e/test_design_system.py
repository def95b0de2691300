"""The design system in a real browser: both themes keep text readable (WCAG AA contrast)."""

from __future__ import annotations

from typing import Any

import pytest

# Resolved colours of text and the surface behind it, as the browser paints them.
PAIRS_SCRIPT = """
() => {
  const rgb = (el, prop) => getComputedStyle(el)[prop];
  const bgOf = (el) => {
    for (let node = el; node; node = node.parentElement) {
      const c = getComputedStyle(node).backgroundColor;
      if (c && c !== "rgba(0, 0, 0, 0)" && c !== "transparent") return c;
    }
    return getComputedStyle(document.documentElement).backgroundColor;
  };
  const pick = (selector) => {
    const el = document.querySelector(selector);
    return el ? [selector, rgb(el, "color"), bgOf(el)] : null;
  };
  return ["body", "h1", ".btn--primary", ".muted, .lead, p", "footer"].map(pick).filter(Boolean);
}
"""


def luminance(css: str) -> float:
    parts = [float(x) for x in css[css.index("(") + 1 : css.index(")")].split(",")[:3]]

    def channel(value: float) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in parts)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_meets_aa_contrast_in_both_themes(new_page: Any, scheme: str) -> None:
    page = new_page(lang="ja", color_scheme=scheme)
    page.goto("/")
    pairs = page.evaluate(PAIRS_SCRIPT)
    assert len(pairs) >= 4
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert (luminance(background) < 0.2) == (scheme == "dark")  # the theme really switched
    for selector, color, behind in pairs:
        assert contrast(color, behind) >= 4.5, (scheme, selector, color, behind)
