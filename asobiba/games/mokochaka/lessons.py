"""Mokochaka's course (``/learn/mokochaka``): the steps of lessons.toml on the real table, each
position set up and every move judged by the engine (rules.py), never by the page.

Time in a lesson. Mokochaka is played against the clock, but a lesson is for thinking: the table
stands still until the learner acts. Each of the learner's moves is dated ``LEARNER_AFTER`` (1 s)
after its phase began (after the flip, for a call or a grab), well inside the 3 seconds, whatever
time the learner took. The computer players of a lesson act on a fixed script
(``lessons.toml``'s ``says`` and ``piles``, else ``_cpu_move``'s plain play: a flip onto the
first pile allowed, the right call or grab ``CPU_AFTER`` seconds after the flip, so slower than
the learner, the biggest piles, a penalty card to the left), and the engine's timers fire at
their times when nobody is to act before them. So a lesson replays exactly from its moves, as
the server needs: every answer is replayed from the lesson's position (``check``).

Where the learner is not the one who flipped, they may grab or let the call go by:
``{"wait": true}`` (``WAIT``), a move of the lessons only, says "I keep my hands off the token".

A learner's move is refused ("wrong") when the engine gives the learner a penalty, when the
learner let a special call go by that they could have grabbed, or when it misses the lesson's
``goal`` (lessons.toml explains each). The lesson is done ("right") once its goal is reached.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from asobiba.core.errors import IllegalAction
from asobiba.core.game import Covered, Demo, DemoFrame, Lesson, LessonVerdict
from asobiba.core.game import Game as CoreGame
from asobiba.games.mokochaka.cards import SPECIALS, Card, judge, parse_card
from asobiba.games.mokochaka.state import (
    MokochakaState,
    flip_choices,
    make_event,
    new_deck,
    showing,
    take_choices,
)
from asobiba.games.mokochaka.words import (
    REASONS,
    Texts,
    count_text,
    either,
    join,
    seat_text,
)

LEARNER = 0
"""The learner's seat in every lesson (drawn at the bottom of the table)."""
LEARNER_AFTER = 1.0
"""Seconds after its phase began at which a learner's move counts (the table stands still)."""
CPU_AFTER = 1.6
"""Seconds after the flip at which a lesson's computer player calls or grabs, plus
``CPU_STAGGER`` per seat after the first, so grabs never tie and the learner is always first."""
CPU_STAGGER = 0.1
CPU_CHOICE_AFTER = 0.8
"""Seconds after its phase began at which a lesson's computer player flips or chooses."""
WAIT = {"wait": True}
"""The lessons' own move: let a call window go by without grabbing (only for a learner who did
not flip)."""
Game = CoreGame[MokochakaState]
GOALS = ("cover", "settle", "token", "take", "give", "win", "game")
LONGEST = 30
"""The most moves a lesson takes: a whole game (goal "game") that is still going after this many
moves of the learner's without a mistake is done. A game can go on and on (a token won
brings cards back), and the server takes at most 32 moves an answer."""
MAX_STEPS = 400
"""More table moves than any lesson runs between two of the learner's (a guard, not a rule)."""


def _texts(entry: Mapping[str, Any]) -> dict[str, Texts]:
    texts: dict[str, Texts] = {}
    for key, value in entry.items():
        if isinstance(value, str) and key.endswith(("_ja", "_en")):
            texts.setdefault(key[:-3], {})[key[-2:]] = value
    return texts


def _read(name: str) -> dict[str, Any]:
    return tomllib.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))


# --- the rulebook's parts ---------------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """A section or a worked example of the rulebook (rulebook.toml)."""

    id: str
    title: Texts
    applies: bool
    reason: Texts | None = None
    section: str | None = None
    """An example's section."""
    cards: tuple[Card, ...] = ()
    """An example's showing cards, as asobiba deals them."""
    calls: frozenset[str] = frozenset()
    """An example's right calls, as the rulebook gives them."""


def _parts() -> dict[str, Part]:
    data = _read("rulebook.toml")
    parts: dict[str, Part] = {}
    for entry in data["sections"]:
        texts = _texts(entry)
        parts[entry["id"]] = Part(
            entry["id"], texts["title"], entry["applies"], texts.get("reason")
        )
    for entry in data["examples"]:
        texts = _texts(entry)
        parts[entry["id"]] = Part(
            entry["id"],
            texts["title"],
            True,
            section=entry["section"],
            cards=tuple(parse_card(card) for card in entry["cards"]),
            calls=frozenset(entry["calls"]),
        )
    return parts


PARTS: dict[str, Part] = _parts()
"""Every part of the rulebook by id, sections first, in the rulebook's order."""


# --- lessons.toml -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """A scripted word of a computer player: what it says on a flip, and when (or silence)."""

    word: str | None
    grab: bool
    at: float
    """Seconds after the flip."""


@dataclass(frozen=True)
class Table:
    """A position and its computer players' script (a lesson's, or a demo's)."""

    seats: int
    turn: int
    hands: tuple[tuple[Card, ...], ...]
    piles: tuple[tuple[Card, ...], ...]
    before: tuple[tuple[int, dict[str, Any], float | None], ...]
    """Moves made before the learner sees the position: (seat, action, seconds after its phase
    began or None for ``LEARNER_AFTER``)."""
    piles_of: Mapping[int, int]
    """The pile a computer player flips onto, by the table's flip number (1 = the first flip)."""
    says: Mapping[tuple[int, int], Line | None]
    """What a computer player says, by (the table's flip number, seat); None: silence."""
    start: bool
    """The position is a game's start: its first event says who starts."""


@dataclass(frozen=True)
class DemoData:
    table: Table
    example: str | None
    title: Texts


@dataclass(frozen=True)
class LessonData:
    """One lesson of lessons.toml (the file explains each field)."""

    id: str
    covers: tuple[str, ...]
    goal: str
    target: int | None
    table: Table
    answer: tuple[dict[str, Any], ...]
    wrong: tuple[dict[str, Any], ...]
    texts: dict[str, Texts]
    demo: DemoData | None

    def say(self, key: str) -> Texts:
        return self.texts[key]


def _cards(names: list[str]) -> tuple[Card, ...]:
    return tuple(parse_card(name) for name in names)


def _action(entry: Mapping[str, Any]) -> dict[str, Any]:
    keys = [key for key in ("flip", "call", "grab", "take", "give", "wait") if key in entry]
    if len(keys) != 1:
        raise ValueError(f"lessons.toml: a move has one of flip/call/grab/take/give/wait: {entry}")
    return {keys[0]: entry[keys[0]]}


def _table(entry: Mapping[str, Any]) -> Table:
    seats = int(entry["seats"])
    known = [_cards(hand) for hand in entry["hands"]]
    piles = [_cards(pile) for pile in entry["piles"]]
    sizes = entry.get("sizes", [len(hand) for hand in known])
    if len(known) != seats or len(sizes) != seats or len(piles) != 3:
        raise ValueError(f"lessons.toml: {seats} hands and sizes and 3 piles, got {entry}")
    # The cards nobody is shown fill the hands from what the deck has left, in its own order
    # (Gabu last), so every position holds cards of the real deck and no more of each.
    rest = new_deck()
    for card in [card for hand in known for card in hand] + [c for pile in piles for c in pile]:
        if card not in rest:
            raise ValueError(f"lessons.toml: more {card} cards than the deck has in {entry}")
        rest.remove(card)
    hands = []
    for hand, size in zip(known, sizes, strict=True):
        extra = size - len(hand)
        if extra < 0 or extra > len(rest):
            raise ValueError(f"lessons.toml: a hand of {size} cannot hold {hand} in {entry}")
        hands.append(hand + tuple(rest[:extra]))
        del rest[:extra]
    says: dict[tuple[int, int], Line | None] = {}
    for line in entry.get("says", []):
        key = (int(line["flip"]), int(line["seat"]))
        if line.get("silent"):
            says[key] = None
        else:
            grab = "grab" in line
            says[key] = Line(line["grab" if grab else "call"], grab, float(line["at"]))
    return Table(
        seats=seats,
        turn=int(entry["turn"]),
        hands=tuple(hands),
        piles=tuple(piles),
        before=tuple(
            (int(move["seat"]), _action(move), move.get("at")) for move in entry.get("before", [])
        ),
        piles_of={int(line["flip"]): int(line["pile"]) for line in entry.get("flips", [])},
        says=says,
        start=bool(entry.get("start", False)),
    )


def _load() -> list[LessonData]:
    lessons = []
    for entry in _read("lessons.toml")["lessons"]:
        demo = entry.get("demo")
        lessons.append(
            LessonData(
                id=entry["id"],
                covers=tuple(entry["covers"]),
                goal=entry["goal"],
                target=entry.get("target"),
                table=_table(entry),
                answer=tuple(_action(move) for move in entry["answer"]),
                wrong=tuple(_action(move) for move in entry["wrong"]),
                texts=_texts(entry),
                demo=None
                if demo is None
                else DemoData(_table(demo), demo.get("example"), _texts(demo)["title"]),
            )
        )
    for lesson in lessons:
        unknown = [part for part in lesson.covers if part not in PARTS]
        if lesson.goal not in GOALS or unknown:
            raise ValueError(f"lessons.toml: {lesson.id}: goal {lesson.goal!r}, unknown {unknown}")
    return lessons


LESSONS: list[LessonData] = _load()
LESSON_BY_ID: dict[str, LessonData] = {lesson.id: lesson for lesson in LESSONS}


# --- the table, played by the script -------------------------------------------------------------


def position(table: Table) -> MokochakaState:
    """The table as written, its clock at 0, before any move."""
    return MokochakaState(
        options=(),
        seats=table.seats,
        hands=table.hands,
        piles=table.piles,
        start_player=table.turn,
        turn=table.turn,
        phase="flip",
        since=0.0,
        now=0.0,
        resume=table.turn,
        fastest=(None,) * table.seats,
        events=(make_event("start", 1, {"seat": table.turn}),) if table.start else (),
        serial=1 if table.start else 0,
    )


def _since(state: MokochakaState) -> float:
    return 0.0 if state.since is None else state.since


def learner_time(state: MokochakaState) -> float:
    """When a move of the learner counts: ``LEARNER_AFTER`` into its phase."""
    return _since(state) + LEARNER_AFTER


def _cpu_move(
    game: Game, state: MokochakaState, seat: int, table: Table
) -> tuple[float, dict[str, Any]] | None:
    """A lesson's computer player's next move in this phase, and when; None: it stays silent."""
    since = _since(state)
    if state.phase == "flip":
        slots = flip_choices(state.piles)
        pile = table.piles_of.get(state.flips + 1, slots[0])
        return since + CPU_CHOICE_AFTER, {"flip": pile if pile in slots else slots[0]}
    if state.phase == "take":
        sets = take_choices(state.piles, state.seats)
        best = max(sets, key=lambda piles: sum(len(state.piles[i]) for i in piles))
        return since + CPU_CHOICE_AFTER, {"take": list(best)}
    if state.phase == "give":
        return since + CPU_CHOICE_AFTER, {"give": (seat + 1) % state.seats}
    key = (state.flips, seat)
    if key in table.says:
        line = table.says[key]
        if line is None:
            return None
        return since + line.at, {("grab" if line.grab else "call"): line.word}
    correct = judge(showing(state.piles))
    specials = sorted(correct & set(SPECIALS))
    grabs = [said for said in state.said if said.grab]
    if specials:
        if any(said.word in correct for said in grabs):
            return None  # the token is in someone's hand already
        return since + CPU_AFTER + CPU_STAGGER * max(0, seat - 1), {"grab": specials[0]}
    if seat == state.turn and not grabs:
        return since + CPU_AFTER, {"call": min(correct)}
    return None


def is_wait(action: Any) -> bool:
    """Whether ``action`` is the lessons' own ``{"wait": true}`` (exactly: 1 is not true)."""
    return isinstance(action, dict) and list(action) == ["wait"] and action["wait"] is True


def learner_acts(game: Game, state: MokochakaState, learner: int, waited: int) -> bool:
    """Whether the table waits for the learner: their seat may act and, in someone else's call
    window, they have not let this flip go by (``waited`` is the flip they last waited on)."""
    if learner not in game.to_move(state):
        return False
    return not (state.phase == "call" and state.turn != learner and waited == state.flips)


def learner_legal(game: Game, state: MokochakaState, learner: int) -> list[dict[str, Any]]:
    """The learner's moves: the engine's, and ``WAIT`` in someone else's call window."""
    legal = game.legal_actions(state, learner)
    if legal and state.phase == "call" and state.turn != learner:
        legal.append(dict(WAIT))
    return legal


def run(
    game: Game,
    state: MokochakaState,
    table: Table,
    learner: int | None,
    waited: int = -1,
    *,
    watching: int | None = None,
    until_turn: bool = False,
) -> list[MokochakaState]:
    """Play the table on from ``state`` until the learner must act (or the game is over):
    the computer players' moves and the engine's timers, each at its time. Every state
    passed through is returned, the last one where it stopped.

    For a demo ``learner`` is None: every seat plays by the script but ``watching``, the seat
    drawn as the viewer's, which never acts (a demo that needs it to is refused); with
    ``until_turn`` it stops when the turn is over (the next flip is awaited)."""
    states = [state]
    flips = state.flips
    for _ in range(MAX_STEPS):
        if state.phase == "over" or (until_turn and state.phase == "flip" and state.flips > flips):
            return states
        moves = []
        for seat in sorted(game.to_move(state)):
            if seat == learner:
                continue
            if seat == watching:
                if state.phase != "call":
                    raise ValueError(f"a demo would need its viewer, seat {seat}, to act")
                continue
            move = _cpu_move(game, state, seat, table)
            if move is not None:
                moves.append((move[0], seat, move[1]))
        stop = None
        if learner is not None and learner_acts(game, state, learner, waited):
            stop = learner_time(state)
        due = game.deadline(state)
        moves.sort(key=lambda move: (move[0], move[1]))
        first = moves[0] if moves else None
        if first and (stop is None or first[0] < stop) and (due is None or first[0] < due):
            state = game.apply(state, first[1], first[2], at=first[0])
        elif due is not None and (stop is None or due < stop):
            state = game.advance(state, due)
        else:
            return states
        states.append(state)
    raise ValueError("a lesson's table kept playing without the learner")


def _before(game: Game, table: Table) -> tuple[MokochakaState, int]:
    """The lesson's position with its ``before`` moves made (computer players answering in
    between), the table played on until the learner must act; and the flip last waited on."""
    state = position(table)
    for seat, action, after in table.before:
        if seat != LEARNER:
            state = run(game, state, table, None, watching=LEARNER)[-1]
        at = learner_time(state) if after is None else _since(state) + float(after)
        state = game.apply(state, seat, action, at=at)
    return run(game, state, table, LEARNER)[-1], -1


# --- judging the learner ------------------------------------------------------------------------


def _fresh(state: MokochakaState, serial: int) -> list[dict[str, Any]]:
    """The events after event number ``serial`` (a lesson step never makes more than a state
    keeps)."""
    events = [dict(event) for event in state.events]
    fresh = [event for event in events if event["n"] > serial]
    if events and state.serial - serial > len(fresh):
        raise ValueError("a lesson step made more events than a state keeps")
    return fresh


def _judgement(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((event for event in events if event["type"] == "judgement"), None)


def _mistake(events: list[dict[str, Any]], waited: bool) -> Texts | None:
    """The learner's penalty, or a special call they let go by; None when neither."""
    judgement = _judgement(events)
    right = judgement["correct"] if judgement else []
    count = count_text([parse_card(card) for card in judgement["top"]]) if judgement else None
    for event in events:
        if event["type"] == "penalty" and event["seat"] == LEARNER:
            reason = REASONS[event["reason"]]
            said = {
                "ja": f"ペナルティです（{reason['ja']}）。",
                "en": f"That is a penalty ({reason['en']}).",
            }
            return join(said, count) if count else said
    token = next((event for event in events if event["type"] == "token"), None)
    specials = [word for word in right if word in SPECIALS]
    if waited and specials and (token is None or token["seat"] != LEARNER):
        said = {
            "ja": f"特殊コールでした。だれでも{either(specials)['ja']}と言いながらトークンを"
            "取れます。",
            "en": f"A special call was on: anyone may grab the token saying "
            f"{either(specials)['en']}.",
        }
        return join(said, count) if count else said
    return None


def _goal(
    game: Game,
    data: LessonData,
    before: MokochakaState,
    after: MokochakaState,
    action: dict[str, Any],
    events: list[dict[str, Any]],
) -> tuple[str, Texts] | None:
    """("right" | "wrong", what to say) when the move decides the lesson, else None."""
    goal = data.goal
    if goal == "cover":
        if action.get("flip") == data.target:
            return "right", data.say("right")
        return "wrong", {
            "ja": f"あなたのカードは山{action.get('flip', 0) + 1}に重なりました。",
            "en": f"Your card went onto pile {action.get('flip', 0) + 1}.",
        }
    if goal == "take" and "take" in action:
        sizes = [len(pile) for pile in before.piles]
        best = max(
            sum(sizes[i] for i in piles) for piles in take_choices(before.piles, before.seats)
        )
        got = sum(sizes[i] for i in action["take"])
        if got == best:
            return "right", data.say("right")
        return "wrong", {
            "ja": f"もらったのは{got}枚。もっと多くもらえる山があります。",
            "en": f"That gave you {got} cards; other piles hold more.",
        }
    if goal == "give" and "give" in action:
        hands = [len(hand) for hand in before.hands]
        fewest = min(hands[seat] for seat in range(before.seats) if seat != LEARNER)
        if hands[action["give"]] == fewest:
            return "right", data.say("right")
        to = seat_text(action["give"], LEARNER)
        return "wrong", {
            "ja": f"{to['ja']}は手札が{hands[action['give']]}枚。もっと少ない人がいます。",
            "en": f"{to['en']} had {hands[action['give']]} cards; someone else has fewer.",
        }
    token = next((event for event in events if event["type"] == "token"), None)
    if goal == "token" and token is not None:
        if token["seat"] == LEARNER:
            return "right", data.say("right")
        who = seat_text(token["seat"], LEARNER)
        return "wrong", {
            "ja": f"{who['ja']}が先にトークンを取りました。",
            "en": f"{who['en']} got the token first.",
        }
    if goal == "settle" and _judgement(events):
        return "right", data.say("right")
    outcome = after.phase == "over"
    if goal in ("win", "game") and outcome:
        result = game.outcome(after)
        assert result is not None
        if goal == "game" or result["winners"] == [LEARNER]:
            return "right", join(data.say("right"), _result(result))
        return "wrong", _result(result)
    if goal == "token" and _judgement(events):
        return "wrong", {"ja": "トークンは取れませんでした。", "en": "Nobody won the token."}
    return None


def _result(outcome: dict[str, Any]) -> Texts:
    scores = outcome["scores"]
    listed = [
        {"ja": f"{seat_text(i, LEARNER)['ja']} {n}枚", "en": f"{seat_text(i, LEARNER)['en']} {n}"}
        for i, n in enumerate(scores)
    ]
    won = [seat_text(i, LEARNER) for i in outcome["winners"]]
    return {
        "ja": "ガブを除いた手札: "
        + "、".join(x["ja"] for x in listed)
        + "。"
        + "・".join(x["ja"] for x in won)
        + "の勝ち。",
        "en": "Cards without Gabu: "
        + ", ".join(x["en"] for x in listed)
        + ". "
        + _capital(" and ".join(x["en"] for x in won))
        + (" win." if len(won) > 1 or won[0]["en"] == "you" else " wins."),
    }


_LONG: Texts = {
    "ja": "（長くなったのでここまで。本当のゲームは、だれかの手札がなくなるまで続きます。）",
    "en": "(That is long enough: a real game goes on until someone's hand runs out.)",
}


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _continue(data: LessonData, state: MokochakaState, events: list[dict[str, Any]]) -> Texts:
    """What to say while the lesson goes on: the right call of a turn just judged, then the
    lesson's own words for the next step, else what the table waits for."""
    judgement = _judgement(events)
    more = data.texts.get("more") or _prompt(state)
    if judgement is None:
        return more
    return join(count_text([parse_card(card) for card in judgement["top"]]), more)


def _prompt(state: MokochakaState) -> Texts:
    """What the table waits for from the learner."""
    if state.phase == "flip":
        return {"ja": "あなたの番です。札をめくりましょう。", "en": "Your turn: turn a card over."}
    if state.phase == "take":
        return {
            "ja": "トークンはあなたのもの。もらう山を選びましょう。",
            "en": "The token is yours: pick your piles.",
        }
    if state.phase == "give":
        return {"ja": "カードを渡す相手を選びましょう。", "en": "Pick whom to give your card to."}
    if state.turn == LEARNER:
        return {"ja": "コールしましょう。", "en": "Make your call."}
    who = seat_text(state.turn, LEARNER)
    return {
        "ja": f"{who['ja']}が札をめくりました。取る? それとも見送る?",
        "en": f"{who['en']} turned a card. Grab, or let it go by?",
    }


# --- the game protocol's lesson methods -----------------------------------------------------------


@functools.cache
def lessons(game: Game) -> list[Lesson]:
    """Every lesson with its starting position (as the learner's seat sees it) and its demo:
    fixed, so worked out once per process (the pages and every answer ask for them)."""
    listed = []
    for data in LESSONS:
        state, _ = _before(game, data.table)
        listed.append(
            Lesson(
                id=data.id,
                title=data.say("title"),
                text=data.say("text"),
                task=data.say("task"),
                seat=LEARNER,
                view=game.observe(state, LEARNER),
                legal=learner_legal(game, state, LEARNER),
                covers=tuple(Covered(part, PARTS[part].title) for part in data.covers),
                demo=None if data.demo is None else demo(game, data.demo),
            )
        )
    return listed


def demo(game: Game, data: DemoData) -> Demo:
    """A worked example played out: the table as seat 0 sees it after every move of the script
    until the turn is over. A flip's frame asks the watcher to count; the frame where the call
    is judged gives the count behind the right call."""
    states = run(game, position(data.table), data.table, None, watching=LEARNER, until_turn=True)
    frames = []
    for previous, state in zip([None, *states], states, strict=False):
        fresh = [] if previous is None else _fresh(state, previous.serial)
        judgement = _judgement(fresh)
        note = None
        if judgement is not None:
            note = count_text([parse_card(card) for card in judgement["top"]])
        elif any(event["type"] == "flip" for event in fresh):
            who = seat_text(state.turn, LEARNER)
            note = {
                "ja": f"{who['ja']}が札をめくりました。上の3枚の動物を数えてみましょう。",
                "en": f"{who['en']} turned a card. Count the animals on the top cards.",
            }
        frames.append(DemoFrame(game.observe(state, LEARNER), note))
    return Demo(data.title, tuple(frames), LEARNER)


def check(game: Game, lesson_id: str, actions: list[Any]) -> LessonVerdict:
    """Replay the learner's moves from the lesson's position and judge each (see the module)."""
    data = LESSON_BY_ID[lesson_id]
    if not actions:
        raise IllegalAction("send at least one move")
    state, waited = _before(game, data.table)
    for number, action in enumerate(actions, 1):
        if not learner_acts(game, state, LEARNER, waited):
            raise IllegalAction(f"the lesson needs no move {number}: it is over")
        waits = is_wait(action)
        legal = learner_legal(game, state, LEARNER)
        if waits and WAIT not in legal:
            raise IllegalAction("you may let a call go by only when someone else turned the card")
        if not waits:
            # The engine says what is wrong with a move it refuses (1 is not True, nor 0.0 a pile).
            game.apply(state, LEARNER, action, at=learner_time(state))
        before = state
        if waits:
            waited = state.flips
        else:
            state = game.apply(state, LEARNER, action, at=learner_time(state))
        state = run(game, state, data.table, LEARNER, waited)[-1]
        events = _fresh(state, before.serial)
        view = game.observe(state, LEARNER)
        verdict = None
        mistake = _mistake(events, waits)
        if mistake is not None:
            verdict = LessonVerdict("wrong", join(mistake, data.say("hint")), view, [])
        else:
            decided = _goal(game, data, before, state, action, events)
            if decided is not None:
                status, words = decided
                if status == "wrong":
                    words = join(words, data.say("hint"))
                verdict = LessonVerdict(status, words, view, [])
            elif not learner_acts(game, state, LEARNER, waited):
                verdict = LessonVerdict("wrong", data.say("hint"), view, [])
            elif data.goal == "game" and number >= LONGEST:
                verdict = LessonVerdict("right", join(data.say("right"), _LONG), view, [])
        if verdict is not None:
            if number != len(actions):
                raise IllegalAction(f"the lesson needs no move {number + 1}: it was decided")
            return verdict
    return LessonVerdict(
        "continue", _continue(data, state, events), view, learner_legal(game, state, LEARNER)
    )
