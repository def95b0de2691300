"""The site's HTML pages: home, play, rules, records, replay, the lobby, the account, the
visitor's own data and the language switch.

The pages are thin shells: templates in ``asobiba/web/templates`` get the UI strings of the
visitor's language (``asobiba/web/i18n/<lang>.json``) and the game's declared options and levels;
the ES modules in ``asobiba/web/static`` talk to the JSON API and the room WebSocket.

The app that includes ``router`` must also serve ``STATIC_DIR`` at ``/static`` (``mount_static``).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import PlainTextResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from markdown_it import MarkdownIt

from asobiba.core.game import analyses, rating_families
from asobiba.games import COMING, game_names, get_game
from asobiba.server.http.identity import ensure_player_id, identity, player_id
from asobiba.server.http.learn import teaching_game, teaching_games, trainer_game
from asobiba.server.http.sharing import lets_see
from asobiba.server.http.tables import table_of_code
from asobiba.server.social.chat import STAMPS
from asobiba.server.social.names import default_name
from asobiba.server.social.pairing import Schedule, designed_schedule
from asobiba.server.store.seats import is_deleted
from asobiba.server.store.store import RoomBrief, Store

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
TEMPLATES_DIR = WEB_DIR / "templates"
STATIC_DIR = WEB_DIR / "static"
PLAY_LAYOUT = "/static/css/mancala.css"
"""The sheet holding the play and replay pages' shared layout (the first game's, for now)."""
I18N_DIR = WEB_DIR / "i18n"
GAMES_DIR = Path(__file__).resolve().parents[2] / "games"

LANGS: tuple[str, ...] = ("ja", "en")
DEFAULT_LANG = "ja"
"""The language of a visitor who sends neither a ``lang`` cookie nor an Accept-Language header."""
LANG_COOKIE = "lang"
LANG_COOKIE_MAX_AGE = 365 * 24 * 60 * 60

_ROOM_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")
"""A player's public id (``db.new_public_id``)."""
_TABLE_CODE = re.compile(r"[A-Za-z0-9]{4,8}")
"""A table's short code as a visitor may type it (``social/tables.py`` ``new_code`` makes 6)."""

router = APIRouter()
templates = Jinja2Templates(directory=TEMPLATES_DIR)


def page(path: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A page route answering GET and HEAD (FastAPI's ``get`` alone refuses HEAD with 405)."""
    return router.api_route(path, methods=["GET", "HEAD"], include_in_schema=False)


def fill(text: str, **params: object) -> str:
    """Fill the ``{name}`` holes of a UI string: ``"{game}のルール"`` → ``"マンカラのルール"``."""
    for name, value in params.items():
        text = text.replace("{" + name + "}", str(value))
    return text


templates.env.filters["fill"] = fill
templates.env.globals["stamps"] = STAMPS


def mount_static(app: FastAPI) -> None:
    """Serve the front end's CSS, ES modules and SVG at ``/static`` (route name ``static``)."""
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")


@cache
def strings(lang: str) -> dict[str, str]:
    """The UI strings of one language: a flat ``{key: text}`` dict."""
    data: dict[str, str] = json.loads((I18N_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    return data


@cache
def asset_version() -> str:
    """A short hash of the static files, appended to asset URLs so a deploy busts caches."""
    digest = hashlib.sha256()
    for path in sorted(STATIC_DIR.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(STATIC_DIR).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


def choose_lang(request: Request) -> str:
    """The ``lang`` cookie if valid, else the best of Accept-Language, else ``DEFAULT_LANG``."""
    cookie = request.cookies.get(LANG_COOKIE)
    if cookie in LANGS:
        return cookie
    header = request.headers.get("accept-language")
    if not header:
        return DEFAULT_LANG
    return lang_from_accept_language(header)


def lang_from_accept_language(header: str) -> str:
    """Japanese if the header prefers it over English, else English.

    >>> lang_from_accept_language("ja-JP,ja;q=0.9,en;q=0.8")
    'ja'
    >>> lang_from_accept_language("en-US,en;q=0.9,ja;q=0.5")
    'en'
    >>> lang_from_accept_language("fr-FR")
    'en'
    """
    best: dict[str, float] = {}
    for part in header.split(","):
        fields = part.strip().split(";")
        tag = fields[0].strip().lower()
        quality = 1.0
        for param in fields[1:]:
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        primary = tag.split("-")[0]
        if primary in LANGS and quality > best.get(primary, -1.0):
            best[primary] = quality
    ja, en = best.get("ja", 0.0), best.get("en", 0.0)
    return "ja" if ja > 0 and ja >= en else "en"


def safe_next(target: str | None) -> str:
    """A local path to go back to: starts with one "/", never "//" (another host) or a scheme."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return "/"
    if "\\" in target or any(ord(ch) < 0x20 for ch in target):
        return "/"
    return target


def _context(request: Request, page: str, **extra: Any) -> dict[str, Any]:
    lang = choose_lang(request)
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return {
        "request": request,
        "lang": lang,
        "other_lang": "en" if lang == "ja" else "ja",
        "t": strings(lang),
        "page": page,
        "here": here,
        "v": asset_version(),
        "playable": game_names(),
        "teaching": teaching_games(),
        "coming": COMING,
        "signed_in": identity(request).username,
        **extra,
    }


def _render(
    request: Request, template: str, page: str, status_code: int = 200, **extra: Any
) -> Response:
    context = _context(request, page, **extra)
    response = templates.TemplateResponse(request, template, context, status_code=status_code)
    response.headers["Content-Language"] = context["lang"]
    response.headers.setdefault("Vary", "Cookie, Accept-Language")
    return response


def not_found_page(request: Request) -> Response:
    """The site's 404 page, in the visitor's language (usable from an exception handler)."""
    return _render(request, "404.html", "404", status_code=404)


def _options_json(game: str) -> list[dict[str, Any]]:
    return [spec.to_json() for spec in get_game(game).options_spec() if spec.ui]


def _levels_json(game: str) -> list[dict[str, Any]]:
    return [{"id": level, "name": names} for level, names in get_game(game).level_names().items()]


def _seats_json(game: str) -> dict[str, int]:
    """How many players the game takes: ``{"min", "max"}`` (the settings' player count)."""
    engine = get_game(game)
    return {"min": engine.min_seats, "max": engine.max_seats}


@page("/")
def home(request: Request) -> Response:
    return _render(request, "home.html", "home")


@page("/games")
def games(request: Request) -> Response:
    return _render(request, "games.html", "games")


def _pairing(request: Request) -> Schedule:
    """The schedule the app pairs people by (``create_app``'s; tests may shorten it), else the
    designed one (a bare app of these pages alone, as their tests mount them)."""
    schedule: Schedule | None = getattr(request.app.state, "pairing_schedule", None)
    return schedule or designed_schedule()


def _table(request: Request, game: str) -> dict[str, Any]:
    """What a game's play page needs to draw its settings and table, new game or room; and how
    "Play someone now" widens its search and when it offers computers (shown while waiting)."""
    return {
        "pairing": _pairing(request).to_json(),
        "game": game,
        "options": _options_json(game),
        "levels": _levels_json(game),
        "seats": _seats_json(game),
        "hints": analyses(get_game(game)),
        "played": _played(request, game),
    }


@page("/games/{game}")
def play(request: Request, game: str) -> Response:
    if game in COMING:
        return _render(request, "coming.html", "play", game=game)
    if game not in game_names():
        return not_found_page(request)
    if not (TEMPLATES_DIR / f"play_{game}.html").is_file():
        return _render(request, "coming.html", "play", game=game)
    return _render(
        request,
        f"play_{game}.html",
        "play",
        **(table := _table(request, game)),
        newcomer=teaching_game(game) is not None and not table["played"],
    )


def _played(request: Request, game: str) -> bool:
    """Whether the visitor has finished a game of ``game``: until then the page offers its
    course (when it has one) and its coach starts switched on (coach.js)."""
    # A page served without the guest cookie's middleware (a bare router) knows nobody.
    person = player_id(request) if "session" in request.scope else None
    if person is None:
        return False
    store: Store = request.app.state.hub.store
    return store.has_results(person, game)


def _rules_markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
    return md


def _slug(index: int) -> str:
    return f"s{index}"


SOURCES = ("rulebook", "designed")
"""The words a rule file marks where a value comes from, as the games' data files spell them
(and their tests read them in the rule files, in both languages)."""
_SOURCE_WORD = re.compile(r"\b(" + "|".join(SOURCES) + r")\b")


def source_words(lang: str) -> dict[str, str]:
    """How a page in ``lang`` shows the source marks: the designed-values table's own words
    (``rules.source.*``), or nothing to change on an English page, where they are words."""
    if lang == "en":
        return {}
    return {source: strings(lang)[f"rules.source.{source}"] for source in SOURCES}


def render_rules(
    text: str, words: Mapping[str, str] | None = None
) -> tuple[str, list[tuple[str, str]]]:
    """The rule page's HTML and its table of contents (``[(anchor, title)]`` of the h2s).
    ``words`` replaces source marks in the text, never in code (``source_words``)."""
    md = _rules_markdown()
    tokens = md.parse(text)
    toc: list[tuple[str, str]] = []
    marks = dict(words or {})
    for token in tokens:
        for child in token.children or []:
            if marks and child.type == "text":
                child.content = _SOURCE_WORD.sub(lambda m: marks[m[1]], child.content)
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag in ("h2", "h3"):
            anchor = _slug(index)
            token.attrSet("id", anchor)
            if token.tag == "h2":
                inline = tokens[index + 1]
                toc.append((anchor, inline.content))
        elif token.type == "table_open":
            token.attrSet("class", "table")
            # A table wider than the text scrolls in its own box (.prose table): a keyboard
            # reaches and scrolls it only if it takes the focus (WCAG 2.1.1).
            token.attrSet("tabindex", "0")
    html = md.renderer.render(tokens, md.options, {})
    return html, toc


@page("/rules")
def rules_index(request: Request) -> Response:
    """Every playable game's rule page, for the menu's Rules link on a page about no game."""
    return _render(request, "rules_index.html", "rules")


@page("/games/{game}/rules")
def rules(request: Request, game: str) -> Response:
    if game not in game_names() and game not in COMING:
        return not_found_page(request)
    lang = choose_lang(request)
    path = GAMES_DIR / game / f"rules.{lang}.md"
    if not path.is_file():
        return not_found_page(request)
    html, toc = render_rules(path.read_text(encoding="utf-8"), source_words(lang))
    playable = game in game_names()
    return _render(
        request,
        "rules.html",
        "rules",
        game=game,
        rules_html=html,
        toc=toc,
        levels=_levels_json(game) if playable else [],
        designed=get_game(game).designed_values() if playable else [],
    )


@page("/games/{game}/{room_id}")
def room(request: Request, game: str, room_id: str) -> Response:
    """One game's own address. The seat comes from the signed guest cookie, never from the
    browser: the seated guest gets the board to play on, anyone else a spectator's view."""
    if game not in game_names() or not (TEMPLATES_DIR / f"play_{game}.html").is_file():
        return not_found_page(request)
    brief = _room_brief(request, room_id)
    if brief is None or brief.game != game or not lets_see(request, brief):
        return not_found_page(request)
    person = player_id(request)
    seat = next(
        (i for i, spec in enumerate(brief.seats) if person and spec.get("player") == person), None
    )
    level = next((spec["bot"] for spec in brief.seats if "bot" in spec), None)
    # Two players choose first or second; a bigger table seats the person at random.
    two = get_game(game).max_seats == 2
    order = (
        None if seat is None else ("second" if two and seat == 1 else "first" if two else "random")
    )
    # A rematch starts from these settings: only the options the site offers (the resolved
    # options also hold engine-only ones, which POST /api/rooms refuses).
    offered = {spec.key for spec in get_game(game).options_spec() if spec.ui}
    options = {key: value for key, value in brief.options.items() if key in offered}
    return _render(
        request,
        f"play_{game}.html",
        "play",
        **_table(request, game),
        room={
            "room_id": brief.id,
            "seat": seat,
            "ws": f"/ws/rooms/{brief.id}",
            "players": [_seat_json(spec) for spec in brief.seats],
            "settings": {
                "options": options,
                "level": level,
                "order": order,
                "players": len(brief.seats),
            },
        },
    )


@page("/tables")
def tables(request: Request) -> Response:
    """The lobby: public tables waiting for people and being played (``static/js/lobby.js``
    reads ``GET /api/tables``, then ``WS /ws/lobby``), and a box for a table's code."""
    return _render(
        request,
        "tables.html",
        "tables",
        games={name: {"options": _options_json(name)} for name in game_names()},
    )


@page("/t")
def table_code_form(request: Request, code: str = "") -> Response:
    """The lobby's code box without scripts (a GET form): on to ``/t/{code}``."""
    code = code.strip()
    if not _TABLE_CODE.fullmatch(code):
        return not_found_page(request)
    return RedirectResponse(f"/t/{code.upper()}", status_code=303)


@page("/t/{code}")
async def table_code(request: Request, code: str) -> Response:
    """A table's short code (any case) leads to the table's own address; an unknown or
    malformed code is the 404 page, and too many look-ups a plain 429 (``table_of_code``)."""
    try:
        brief = await table_of_code(request, code)
    except HTTPException as refused:
        message = refused.detail["message"] if isinstance(refused.detail, dict) else ""
        return PlainTextResponse(message, refused.status_code, refused.headers)
    if brief is None:
        return not_found_page(request)
    return RedirectResponse(f"/games/{brief.game}/{brief.id}", status_code=303)


def _seat_json(spec: dict[str, Any]) -> dict[str, Any]:
    """A seat as the page draws it before its socket says more: never a guest's id."""
    if "bot" in spec:
        return {"kind": "bot", "level": spec["bot"], "name": None}
    if spec.get("open"):
        return {"kind": "open", "name": None}
    if is_deleted(spec):
        return {"kind": "deleted", "name": None}
    return {"kind": "human", "name": spec.get("name")}


def _room_brief(request: Request, room_id: str) -> RoomBrief | None:
    if not _ROOM_ID.fullmatch(room_id):
        return None
    store: Store = request.app.state.hub.store
    return store.room_brief(room_id)


def _records_page(request: Request, shown: list[str], game: str | None) -> Response:
    return _render(
        request,
        "records.html",
        "records",
        game=game,
        boards={name: rating_families(get_game(name))[0] for name in shown},
        games=[
            {
                "game": name,
                "options": _options_json(name),
                "levels": _levels_json(name),
                "seats": [get_game(name).min_seats, get_game(name).max_seats],
            }
            for name in shown
        ],
    )


@page("/records")
def all_records(request: Request) -> Response:
    return _records_page(request, game_names(), None)


@page("/records/{game}")
def records(request: Request, game: str) -> Response:
    if game not in game_names():
        return not_found_page(request)
    return _records_page(request, [game], game)


@page("/replay/{room_id}")
def replay(request: Request, room_id: str, share: str | None = None) -> Response:
    """A stored game's replay. A game still being played has none yet: a page says so and
    links to its own address; an unknown or abandoned one is a 404 with the friendly page, and
    so is a private table's for anyone but its people and holders of its ``share`` link."""
    brief = _room_brief(request, room_id)
    if brief is not None and brief.playing:
        return _render(request, "replay_playing.html", "replay", game=brief.game, room_id=brief.id)
    if brief is None or not brief.finished or not lets_see(request, brief, share):
        return not_found_page(request)
    games = {
        name: {"options": _options_json(name), "levels": _levels_json(name)}
        for name in game_names()
    }
    # The play and replay layout lives in PLAY_LAYOUT; a game with its own sheet adds it.
    sheets = [PLAY_LAYOUT, "/static/css/review.css", *_sheets(brief.game)[1:]]
    return _render(
        request,
        "replay.html",
        "replay",
        game=brief.game,
        room_id=room_id,
        share=share,
        games=games,
        stylesheets=sheets,
    )


@page("/me/data")
def my_data(request: Request, deleted: bool = False) -> Response:
    """The visitor's own data (``static/js/my-data.js``): what the site keeps about them,
    "Download my data" (a link to their export, ``http/personal.py``) and "Delete my data"
    (``DELETE /api/account`` behind the site's confirming dialog). ``?deleted=1``: the page
    the deletion leads to, which says it is done (the visitor is a new guest by then)."""
    person = ensure_player_id(request)
    store: Store = request.app.state.hub.store
    name = store.player_name(person)
    return _render(
        request,
        "my_data.html",
        "my_data",
        public_id=store.public_id(person),
        name=name,
        default_name=default_name(person),
        deleted=deleted,
    )


def _sheets(game: str) -> list[str]:
    """A game's table's stylesheets: the shared play layout, then the game's own sheet if any."""
    sheets = [PLAY_LAYOUT]
    own = f"/static/css/{game}.css"
    if own not in sheets and (STATIC_DIR / "css" / f"{game}.css").is_file():
        sheets.append(own)
    return sheets


def _rated_games() -> list[dict[str, Any]]:
    """Every offered game with its rated families, for the profile and leaderboard pages."""
    return [
        {
            "game": name,
            "families": rating_families(get_game(name)),
            "options": _options_json(name),
            "levels": _levels_json(name),
            "seats": [get_game(name).min_seats, get_game(name).max_seats],
        }
        for name in game_names()
    ]


@page("/players/{public_id}")
def player(request: Request, public_id: str) -> Response:
    """A player's profile (``static/js/player.js`` reads ``GET /api/players/{id}``): their
    ratings with a chart each, recent games and records. An unknown id is the 404 page."""
    store: Store = request.app.state.hub.store
    if not _PUBLIC_ID.fullmatch(public_id) or store.player_of(public_id) is None:
        return not_found_page(request)
    return _render(request, "player.html", "player", public_id=public_id, games=_rated_games())


@page("/leaderboard")
def leaderboards(request: Request) -> Response:
    """Every game's leaderboards, one per rated family."""
    return _render(request, "leaderboard.html", "leaderboard", board=None, games=_rated_games())


@page("/leaderboard/{game}/{family}")
def leaderboard(request: Request, game: str, family: str) -> Response:
    """One family's leaderboard (``static/js/leaderboard.js`` reads ``GET /api/leaderboard``)."""
    if game not in game_names() or family not in rating_families(get_game(game)):
        return not_found_page(request)
    board = {"game": game, "family": family}
    return _render(
        request, "leaderboard.html", "leaderboard", game=game, board=board, games=_rated_games()
    )


@page("/learn/{game}")
def learn(request: Request, game: str) -> Response:
    """A game's lessons; a game without any (``core.game.teaches``) has no such page. Its
    positions are drawn by the game's lesson module, ``/static/js/<game>/lesson.js``."""
    engine = teaching_game(game)
    if engine is None:
        return not_found_page(request)
    module = f"/static/js/{game}/lesson.js?v={asset_version()}"
    return _render(
        request,
        "learn.html",
        "learn",
        game=game,
        module=module,
        stylesheets=_sheets(game),
        trainer=trainer_game(game) is not None,
    )


@page("/learn/{game}/trainer")
def trainer(request: Request, game: str) -> Response:
    """A game's trainer (``core.game.drills``): its questions and verdicts come over the
    trainer socket, drawn on the game's own table by ``/static/js/<game>/trainer.js``."""
    if trainer_game(game) is None:
        return not_found_page(request)
    module = f"/static/js/{game}/trainer.js?v={asset_version()}"
    return _render(
        request,
        "trainer.html",
        "learn",
        game=game,
        module=module,
        stylesheets=_sheets(game),
        lessons=teaching_game(game) is not None,
    )


@page("/account")
def account(request: Request) -> Response:
    """The account page: a guest keeps their games or signs in; a signed-in browser signs out
    and sees its account's sessions (``static/js/account.js``, the accounts' JSON API)."""
    username = identity(request).username
    return _render(
        request,
        "account.html",
        "account",
        account=None if username is None else {"username": username},
    )


@page("/lang/{code}")
def set_lang(request: Request, code: str, next: str | None = None) -> Response:
    if code not in LANGS:
        return not_found_page(request)
    response = RedirectResponse(safe_next(next), status_code=303)
    response.set_cookie(
        LANG_COOKIE, code, max_age=LANG_COOKIE_MAX_AGE, samesite="lax", path="/", httponly=False
    )
    return response
