"""The HTML page routes (asobiba/server/http/pages.py) on a tiny app: status codes, language choice,
the language cookie, 404s, and the UI strings shared by templates and ES modules."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from markupsafe import escape

from asobiba.games import COMING, game_names, get_game
from asobiba.server.http import pages

I18N = pages.I18N_DIR
STATIC = pages.STATIC_DIR
TEMPLATES = pages.TEMPLATES_DIR


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = FastAPI()
    app.include_router(pages.router)
    pages.mount_static(app)
    with TestClient(app) as client:
        yield client


def with_cookie(client: TestClient, lang: str) -> TestClient:
    client.cookies.set("lang", lang)
    return client


def html_lang(text: str) -> str:
    match = re.search(r'<html lang="(\w+)"', text)
    assert match, "every page declares <html lang>"
    return match.group(1)


def embedded(text: str, element_id: str) -> object:
    match = re.search(
        rf'<script type="application/json" id="{element_id}">(.*?)</script>', text, re.S
    )
    assert match, f"no #{element_id} data in the page"
    return json.loads(match.group(1))


# --- pages ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/", "/games/mancala", "/games/mancala/rules", "/records/mancala"],
)
def test_pages_render_with_header_language_switch_and_strings(
    client: TestClient, path: str
) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    text = response.text
    assert "遊び場" in text and "asobiba" in text
    assert f'href="/lang/en?next={path}"' in text
    assert "/lang/ja?next=" in text
    assert embedded(text, "i18n") == pages.strings(html_lang(text))
    assert 'name="viewport"' in text


def test_home_lists_the_playable_game_and_the_coming_ones(client: TestClient) -> None:
    text = client.get("/", headers={"Accept-Language": "ja"}).text
    ja = pages.strings("ja")
    for name in game_names():
        assert ja[f"game.{name}.name"] in text
        assert f'href="/games/{name}"' in text
    for name in COMING:
        assert ja[f"game.{name}.name"] in text
    assert (ja["home.coming"] in text) == bool(COMING), "the coming section only while one is"
    assert "モコチャカ" in text and "桃雀" in text and "満ち欠け" in text


def test_home_lists_a_coming_game_as_coming(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pages, "COMING", ["michikake"])
    text = client.get("/", headers={"Accept-Language": "en"}).text
    en = pages.strings("en")
    assert en["home.coming"] in text and en["game.coming.blurb"] in text


def test_play_page_offers_the_ui_options_and_every_level(client: TestClient) -> None:
    text = client.get("/games/mancala", headers={"Accept-Language": "en"}).text
    data = embedded(text, "page-data")
    assert isinstance(data, dict)
    specs = get_game("mancala").options_spec()
    offered = {spec.key for spec in specs if spec.ui}
    assert {option["key"] for option in data["options"]} == offered
    assert {"variant", "seeds", "capture", "count_leftovers"} <= offered
    for key in offered:
        assert f'data-option="{key}"' in text
    assert 'name="pits"' not in text, "options with ui=False are not offered"
    assert [level["id"] for level in data["levels"]] == get_game("mancala").levels
    for names in get_game("mancala").level_names().values():
        assert names["en"] in text
    for order in ("first", "second", "random"):
        assert f'name="order" value="{order}"' in text
    assert 'name="count_leftovers" value="true"' in text
    assert "data-only-when" in text


def test_coming_game_has_a_coming_soon_page(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every game is offered today: a name announced as coming shows the coming-soon page.
    monkeypatch.setattr(pages, "COMING", [*COMING, "michikake"])
    for name in pages.COMING:
        response = client.get(f"/games/{name}")
        assert response.status_code == 200
        assert pages.strings(html_lang(response.text))["coming.lead"] in response.text


@pytest.mark.parametrize(
    "path",
    [
        "/games/nope",
        "/games/nope/rules",
        "/records/nope",
        "/lang/fr",
        "/lang/",
    ],
)
def test_unknown_things_are_a_404_page(client: TestClient, path: str) -> None:
    response = client.get(path, follow_redirects=False)
    assert response.status_code == 404
    if path != "/lang/":
        assert response.headers["content-type"].startswith("text/html")
        lang = html_lang(response.text)
        assert pages.strings(lang)["notfound.title"] in response.text


# --- rule pages ------------------------------------------------------------------------------


def test_rule_page_renders_markdown_tables_and_level_names(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "mancala").mkdir()
    (tmp_path / "mancala" / "rules.en.md").write_text(
        "# Mancala rules\n\n## Setup\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<b>raw</b>\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(pages, "GAMES_DIR", tmp_path)
    response = with_cookie(client, "en").get("/games/mancala/rules")
    assert response.status_code == 200
    text = response.text
    assert "<h1>Mancala rules</h1>" in text
    assert '<h2 id="s' in text, "h2s get anchors for the table of contents"
    assert '<table class="table" tabindex="0">' in text and "<td>1</td>" in text
    assert "<b>raw</b>" not in text, "raw HTML in a rule file is escaped"
    for names in get_game("mancala").level_names().values():
        assert names["en"] in text


def test_rule_page_is_a_404_while_its_file_is_missing(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pages, "GAMES_DIR", tmp_path)
    assert client.get("/games/mancala/rules").status_code == 404
    assert client.get("/games/momojan/rules").status_code == 404


def test_rule_page_uses_the_chosen_language_file(client: TestClient) -> None:
    for lang in pages.LANGS:
        path = pages.GAMES_DIR / "mancala" / f"rules.{lang}.md"
        if not path.is_file():
            pytest.skip(f"{path} not written yet")
        response = with_cookie(client, lang).get("/games/mancala/rules")
        assert response.status_code == 200
        first_heading = path.read_text(encoding="utf-8").splitlines()[0].lstrip("# ").strip()
        assert first_heading in response.text


def test_render_rules_shows_source_marks_in_the_pages_words_but_in_code() -> None:
    text = (
        "| a | source |\n|---|---|\n| x | rulebook |\n| y | designed |\n\n(designed) `designed`\n"
    )
    words = pages.source_words("ja")
    html, _ = pages.render_rules(text, words)
    assert f"<td>{words['rulebook']}</td>" in html and f"<td>{words['designed']}</td>" in html
    assert f"({words['designed']}) <code>designed</code>" in html
    assert pages.source_words("en") == {}
    assert pages.render_rules(text, pages.source_words("en")) == pages.render_rules(text)


def test_japanese_rule_pages_are_in_japanese(client: TestClient) -> None:
    """The source marks of the rule files ("rulebook", "designed") and card names are in
    Japanese on a Japanese page. What stays in Latin letters: code (the cards' notation), the
    site's and the games' Latin names, the levels' English names given beside theirs, and
    "CPU", a computer's seat's name in both languages ("CPU 3", issue 31, point 11)."""
    ja = pages.strings("ja")
    for game in game_names():
        page = with_cookie(client, "ja").get(f"/games/{game}/rules").text
        article = page[page.index('<article class="prose rules-text">') : page.index("</article>")]
        prose = re.sub(r"<code>.*?</code>|<[^>]+>", " ", article, flags=re.S)
        allowed = {"asobiba", "CPU", game.upper()} | {
            word for names in get_game(game).level_names().values() for word in names["en"].split()
        }
        english = set(re.findall(r"[A-Za-z]{2,}", prose)) - allowed
        assert not english, f"{game}: English on the Japanese rule page: {sorted(english)}"
        assert f">{ja['rules.source.designed']}</td>" in article


def test_render_rules_builds_a_table_of_contents() -> None:
    html, toc = pages.render_rules("# T\n\n## One\n\ntext\n\n### Sub\n\n## Two\n")
    assert [title for _, title in toc] == ["One", "Two"]
    for anchor, _ in toc:
        assert f'id="{anchor}"' in html


# --- language ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "ja"),
        ("ja", "ja"),
        ("ja-JP,ja;q=0.9,en-US;q=0.8,en;q=0.7", "ja"),
        ("en-US,en;q=0.9", "en"),
        ("en-GB,en;q=0.9,ja;q=0.8", "en"),
        ("fr-FR,fr;q=0.9", "en"),
        ("en;q=0.5,ja;q=0.8", "ja"),
        ("*", "en"),
        ("ja;q=0", "en"),
        ("ja;q=abc,en", "en"),
    ],
)
def test_language_from_accept_language(client: TestClient, header: str | None, lang: str) -> None:
    headers = {"Accept-Language": header} if header is not None else {}
    response = client.get("/", headers=headers)
    assert html_lang(response.text) == lang
    assert response.headers["content-language"] == lang


def test_the_lang_cookie_wins_over_accept_language(client: TestClient) -> None:
    response = with_cookie(client, "en").get("/", headers={"Accept-Language": "ja"})
    assert html_lang(response.text) == "en"
    assert pages.strings("en")["home.lead"] in response.text
    response = with_cookie(client, "xx").get("/", headers={"Accept-Language": "en"})
    assert html_lang(response.text) == "en", "an invalid cookie is ignored"


def test_lang_route_sets_the_cookie_for_a_year_and_goes_back(client: TestClient) -> None:
    response = client.get("/lang/en?next=/games/mancala%3Fspeed%3Dfast", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/games/mancala?speed=fast"
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("lang=en;")
    assert "Max-Age=31536000" in cookie
    assert "SameSite=lax" in cookie
    assert "Path=/" in cookie
    follow = client.get("/lang/en?next=/records/mancala")
    assert follow.status_code == 200
    assert html_lang(follow.text) == "en"
    assert html_lang(client.get("/").text) == "en", "the choice is remembered"
    client.get("/lang/ja")
    assert html_lang(client.get("/", headers={"Accept-Language": "en"}).text) == "ja"


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example/",
        "https://evil.example/",
        "evil",
        "/\\evil.example",
        "",
        "/%0d%0aX:1",
        "\\\\evil.example",
        "/\t/evil.example",
        "/\r\n//evil.example",
        " //evil.example",
        "https:evil.example",
        "javascript:alert(1)",
        "///evil.example",
    ],
)
def test_lang_route_redirects_only_to_local_paths(client: TestClient, target: str) -> None:
    response = client.get("/lang/ja", params={"next": target}, follow_redirects=False)
    assert response.status_code == 303
    location = response.headers["location"]
    assert location == "/" or (location.startswith("/") and not location.startswith("//"))
    assert "evil" not in location and "\n" not in location


@pytest.mark.parametrize(
    "path", ["/games/mancala/0123abcd?speed=fast", "/replay/0123abcd?review=1&x=%2F"]
)
def test_lang_route_comes_back_to_the_same_address_query_kept(
    client: TestClient, path: str
) -> None:
    response = client.get("/lang/en", params={"next": path}, follow_redirects=False)
    assert response.headers["location"] == path


def test_the_language_switch_carries_the_path_and_the_query(client: TestClient) -> None:
    text = with_cookie(client, "ja").get("/records/mancala?from=home").text
    assert 'href="/lang/en?next=/records/mancala%3Ffrom%3Dhome"' in text
    assert 'href="/lang/ja?next=/records/mancala%3Ffrom%3Dhome"' in text
    # A play page pushes its game's address after the server drew it: the switch reads the
    # address bar when it is used (site.js; tests/e2e/test_game_address.py plays it).
    assert "location.pathname + location.search" in (STATIC / "js" / "site.js").read_text()


def test_safe_next() -> None:
    assert pages.safe_next("/games/mancala") == "/games/mancala"
    assert pages.safe_next("/records/mancala?x=1#y") == "/records/mancala?x=1#y"
    for bad in (None, "", "//x", "http://x", "x/y", "/\\x", "/a\nb", "/a\tb"):
        assert pages.safe_next(bad) == "/"


def test_lang_from_accept_language_examples() -> None:
    assert pages.lang_from_accept_language("ja-JP,ja;q=0.9,en;q=0.8") == "ja"
    assert pages.lang_from_accept_language("en-US,en;q=0.9,ja;q=0.5") == "en"
    assert pages.lang_from_accept_language("fr-FR") == "en"


# --- UI strings ----------------------------------------------------------------------------


def load(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def test_every_language_has_the_same_keys_and_placeholders() -> None:
    languages = {lang: load(lang) for lang in pages.LANGS}
    keys = {lang: set(strings) for lang, strings in languages.items()}
    ja, en = keys["ja"], keys["en"]
    assert ja == en, f"only in ja: {sorted(ja - en)}; only in en: {sorted(en - ja)}"
    for key in ja:
        holes = {lang: set(re.findall(r"\{(\w+)\}", s[key])) for lang, s in languages.items()}
        assert holes["ja"] == holes["en"], f"{key}: placeholders differ: {holes}"
        for lang, strings in languages.items():
            assert isinstance(strings[key], str) and strings[key].strip(), f"{lang} {key} empty"


def test_every_string_the_templates_and_modules_name_exists() -> None:
    known = set(load("ja"))
    used: set[str] = set()
    for path in TEMPLATES.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\bt\[\s*["']([\w.]+)["']\s*\]""", text))
    for path in STATIC.rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\bt\(\s*["']([\w.]+)["']""", text))
    assert used, "the scan found the strings"
    assert used - known == set(), f"strings used but not defined: {sorted(used - known)}"
    for name in [*game_names(), *COMING]:
        assert f"game.{name}.name" in known


def test_every_game_names_its_own_score_on_the_records_page() -> None:
    """The stored games' score column is headed ``records.col.score.<game>`` (records.js): every
    game has one, so none borrows another game's word."""
    for lang in pages.LANGS:
        strings = load(lang)
        for name in game_names():
            assert strings.get(f"records.col.score.{name}"), f"{lang}: no score word for {name}"
    assert "records.col.score" not in load("ja"), "no word shared by games that count apart"
    assert load("ja")["records.col.score.mokochaka"] != load("ja")["records.col.score.mancala"]


def test_static_files_are_served(client: TestClient) -> None:
    for path in (
        "/static/css/tokens.css",
        "/static/js/site.js",
        "/static/js/mancala/board.js",
        "/static/svg/logo.svg",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
    assert "javascript" in client.get("/static/js/site.js").headers["content-type"]


def test_every_referenced_static_file_exists() -> None:
    referenced: set[str] = set()
    for path in TEMPLATES.rglob("*.html"):
        referenced |= set(re.findall(r'"/static/([^"?]+)', path.read_text(encoding="utf-8")))
    for path in STATIC.rglob("*.js"):
        for module in re.findall(r"""from\s+["'](\.{1,2}/[^"']+)["']""", path.read_text("utf-8")):
            assert (path.parent / module).resolve().is_file(), f"{path.name} imports {module}"
    assert referenced
    for name in referenced:
        assert (STATIC / name).is_file(), name


def test_embedded_json_cannot_close_its_script(client: TestClient) -> None:
    text = client.get("/games/mancala").text
    for block in re.findall(
        r'<script type="application/json" id="[\w-]+">(.*?)</script>', text, re.S
    ):
        assert "<" not in block, "tojson escapes < so no string can end the script early"


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_rule_page_shows_the_designed_values_from_the_data_file(
    client: TestClient, lang: str
) -> None:
    from asobiba.games.mancala.data import GRADES, LEVELS, PACES

    page = with_cookie(client, lang).get("/games/mancala/rules").text
    assert 'id="designed-heading"' in page
    for level in LEVELS:
        reason = level.reason_ja if lang == "ja" else level.reason
        assert str(escape(reason)) in page
        assert f"{level.nodes:,}" in page or level.nodes == 0
    for grades in GRADES.values():  # the review's classes
        reason = grades.reason_ja if lang == "ja" else grades.reason
        assert str(escape(reason)) in page
    start = page.index('id="designed-heading"')
    table = page[start : page.index("</table>", start)]
    source = pages.strings(lang)["rules.source.designed"]
    designed = len(LEVELS) + len(PACES) + len(GRADES)
    assert table.count(f'">{escape(source)}</td>') == designed, "the source in plain words"
    assert "<code>" not in table
    for note in ("OpenSpiel", "2-core", "2コア", "clock", "時計", "temperature", "温度"):
        assert note not in table, f"an engineering note on a player's page: {note}"
