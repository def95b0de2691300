"""MICHIKAKE's course (``/learn/michikake``): the steps of lessons.toml on the real table, each
position a real MICHIKAKE state built for it and every move judged by the engine (rules.py),
never by the page.

Time in a lesson. Every discard opens a claim window of ``CLAIM_SECONDS`` (5 s), but a lesson
is for thinking: the table stands still until the learner acts. Each of the learner's moves is
dated ``LEARNER_AFTER`` (1 s) after its moment began (the discard that opened the window, or the
draw), well inside the window, however long the learner took. The computer players answer a
window ``CPU_CLAIM_AFTER`` (2 s) after the discard, after the learner, and the window closes once
everyone has answered (a lesson's table holds one person), so it never runs out on the learner.
Like a table, a lesson passes for the learner at once where pass is their only answer
(``Michikake.automatic``): they are asked only when they could claim.

The computer players act on a fixed script (lessons.toml's ``plays`` and ``claims``), else
plainly: they discard the card they drew, win whenever they can and otherwise pass. With the
pile laid out by the lesson (its first cards given, the rest of the deck in a fixed order), a
lesson replays exactly from its moves, as the server needs: every answer is replayed from the
lesson's position (``check``).

A learner's move is refused ("wrong") when it lets a win go by, when it steals where the lesson
wants a win, when its discard is not one the lesson asks for (``target``), or when it misses the
lesson's ``goal`` (lessons.toml explains each). The lesson is done ("right") once its goal is
reached.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
import tomllib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from asobiba.core.errors import IllegalAction
from asobiba.core.game import Covered, Demo, DemoFrame, Lesson, LessonVerdict, automatic
from asobiba.core.game import Game as CoreGame
from asobiba.games.michikake.cards import SUITS, Card, deck, is_card, sort_cards
from asobiba.games.michikake.data import BONUS_CARDS, CLAIM_SECONDS, CREST_SHIFT, HAND_SIZE
from asobiba.games.michikake.state import (
    BREAK,
    CLAIM,
    DISCARD,
    OVER,
    Event,
    MichikakeState,
    compact_json,
)
from asobiba.games.michikake.words import Texts, card_text, cards_text, join, seat_text, story

LEARNER = 0
"""The learner's seat in every lesson (drawn at the bottom of the table, "you")."""
LEARNER_AFTER = 1.0
"""Seconds after its moment began at which a learner's move counts (the table stands still)."""
CPU_PLAY_AFTER = 1.5
"""Seconds after its draw (or its steal) at which a computer player discards."""
CPU_CLAIM_AFTER = 2.0
"""Seconds after a discard at which a computer player answers its claim window: after the
learner, and long before the window's 5 seconds are up."""
GOALS = ("discard", "win", "steal", "session", "deal")
MAX_STEPS = 600
"""More table moves than any lesson runs between two of the learner's (a guard, not a rule)."""
Game = CoreGame[MichikakeState]
Action = dict[str, Any]


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
    example: Mapping[str, Any] | None = None
    """An example's win as the rulebook works it out (rulebook.toml explains the keys)."""


def _parts() -> dict[str, Part]:
    data = _read("rulebook.toml")
    parts: dict[str, Part] = {}
    for entry in data["sections"]:
        texts = _texts(entry)
        parts[entry["id"]] = Part(
            entry["id"], texts["title"], entry["applies"], texts.get("reason")
        )
    for entry in data["examples"]:
        worked = {key: value for key, value in entry.items() if not key.endswith(("_ja", "_en"))}
        parts[entry["id"]] = Part(
            entry["id"], _texts(entry)["title"], True, section=entry["section"], example=worked
        )
    return parts


PARTS: dict[str, Part] = _parts()
"""Every part of the rulebook by id, sections first, in the rulebook's order."""


# --- lessons.toml -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """A position and its computer players' script (a lesson's, or a demo's)."""

    players: int
    deal: int
    dealer: int
    passes: int
    points: tuple[int, ...]
    bonus: tuple[str, ...]
    hands: tuple[tuple[Card, ...], ...]
    """Every seat's cards, the turn seat's drawn card and shown cards included."""
    turn: int
    drawn: Card
    shown: tuple[tuple[Card, ...], ...]
    steals: tuple[int, ...]
    discards: tuple[tuple[tuple[Card, int | None], ...], ...]
    pile: tuple[Card, ...]
    aside: tuple[Card, ...]
    plays: Mapping[int, tuple[Card, ...]]
    """What a computer player discards, in order, on its turns of the lesson's deal (after that,
    or without an entry, the card it drew)."""
    claims: Mapping[tuple[int, int], str]
    """A computer player's answer to a claim window, by (the lesson's discard number from 1,
    seat); without an entry it wins if it can and else passes."""


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
    target: tuple[Card, ...]
    table: Table
    answer: tuple[Action, ...]
    wrong: tuple[Action, ...]
    texts: dict[str, Texts]
    demo: DemoData | None

    def say(self, key: str) -> Texts:
        return self.texts[key]


def _card(value: Any, where: str) -> Card:
    if not is_card(value):
        raise ValueError(f"lessons.toml: {where}: {value!r} is not a card")
    card: Card = value
    return card


def _row(row: list[str], where: str) -> tuple[tuple[Card, int | None], ...]:
    """A discard row, oldest first: ``"W5"``, or ``"W5>1"`` for one seat 1 took."""
    entries: list[tuple[Card, int | None]] = []
    for item in row:
        card, _, taker = item.partition(">")
        entries.append((_card(card, where), int(taker) if taker else None))
    return tuple(entries)


def _table(entry: Mapping[str, Any], name: str) -> Table:
    n = int(entry["players"])
    hands = [tuple(_card(c, name) for c in hand) for hand in entry["hands"]]
    turn = int(entry["turn"])
    drawn = _card(entry["drawn"], name)
    if len(hands) != n or any(len(hand) != HAND_SIZE for hand in hands):
        raise ValueError(f"lessons.toml: {name}: {n} hands of {HAND_SIZE} cards, got {hands}")
    hands[turn] = (*hands[turn], drawn)
    rows = [list(_row(row, name)) for row in entry.get("discards", [[]] * n)]
    prefix = [_card(c, name) for c in entry.get("pile", [])]
    # A discard someone took is in the taker's hand: count it once.
    lying = [c for r in rows for c, taker in r if taker is None]
    used = Counter([c for hand in hands for c in hand] + lying + prefix)
    full = Counter(deck(n))
    if used - full:
        raise ValueError(f"lessons.toml: {name}: more cards than the deck has: {used - full}")
    # The cards nobody is shown come from what the deck has left, in an order fixed per lesson.
    rest = list((full - used).elements())
    random.Random(f"michikake-lesson/{name}").shuffle(rest)
    keep = {_card(c, name) for c in entry.get("keep", [])}
    if "rows" in entry:
        for seat, row in enumerate(rows):
            # The learner's own row takes the kept cards first: a card the learner threw away
            # bars nobody else.
            order = sorted(rest, key=lambda c: c not in keep) if seat == LEARNER else rest
            fill = [c for c in order if seat == LEARNER or c not in keep]
            for card in fill[: max(0, int(entry["rows"]) - len(row))]:
                rest.remove(card)
                row.insert(0, (card, None))
    pile = prefix + rest
    size = int(entry.get("pile_size", len(pile)))
    shown = [tuple(_card(c, name) for c in cards) for cards in entry.get("shown", [[]] * n)]
    for seat, cards in enumerate(shown):
        if Counter(cards) - Counter(hands[seat]):
            raise ValueError(f"lessons.toml: {name}: seat {seat} shows cards it does not hold")
    bonus = tuple(entry["bonus"])
    if len(bonus) != n or not set(bonus) <= set(BONUS_CARDS):
        raise ValueError(f"lessons.toml: {name}: one known bonus card per seat, got {bonus}")
    return Table(
        players=n,
        deal=int(entry.get("deal", 0)),
        dealer=int(entry["dealer"]),
        passes=int(entry.get("passes", 0)),
        points=tuple(entry.get("points", [1000] * n)),
        bonus=bonus,
        hands=tuple(sort_cards(hand) for hand in hands),
        turn=turn,
        drawn=drawn,
        shown=tuple(sort_cards(cards) for cards in shown),
        steals=tuple(entry.get("steals", [0] * n)),
        discards=tuple(tuple(row) for row in rows),
        pile=tuple(pile[:size]),
        aside=tuple(pile[size:]),
        plays={
            int(line["seat"]): tuple(_card(c, name) for c in line["cards"])
            for line in entry.get("plays", [])
        },
        claims={
            (int(line["discard"]), int(line["seat"])): str(line["answer"])
            for line in entry.get("claims", [])
        },
    )


def _action(entry: Mapping[str, Any]) -> Action:
    if len(entry) != 1:
        raise ValueError(f"lessons.toml: a move is one of discard/win/steal/pass: {entry}")
    return dict(entry)


def _load() -> list[LessonData]:
    lessons = []
    for entry in _read("lessons.toml")["lessons"]:
        demo = entry.get("demo")
        lessons.append(
            LessonData(
                id=entry["id"],
                covers=tuple(entry["covers"]),
                goal=entry["goal"],
                target=tuple(_card(c, entry["id"]) for c in entry.get("target", [])),
                table=_table(entry, entry["id"]),
                answer=tuple(_action(move) for move in entry["answer"]),
                wrong=tuple(_action(move) for move in entry["wrong"]),
                texts=_texts(entry),
                demo=None
                if demo is None
                else DemoData(
                    _table(demo, f"{entry['id']}/demo"), demo.get("example"), _texts(demo)["title"]
                ),
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


def position(table: Table) -> MichikakeState:
    """The table as written: the turn seat has just drawn, its clock at 0."""
    n = table.players
    suits = SUITS[:n]
    return MichikakeState(
        players=n,
        options=(("short_pile", 0),),
        seed=0,
        points=table.points,
        deal=table.deal,
        passes=table.passes,
        dealer=table.dealer,
        crests=tuple(suits[(seat - table.deal * CREST_SHIFT) % n] for seat in range(n)),
        bonus=table.bonus,
        pile=table.pile,
        aside=table.aside,
        hands=table.hands,
        shown=table.shown,
        discards=table.discards,
        barred=tuple(frozenset(card for card, _ in row) for row in table.discards),
        steals=table.steals,
        turn=table.turn,
        phase=DISCARD,
        drawn=table.drawn,
        window=None,
        now=0.0,
        ply=0,
        last=(
            Event(
                "draw",
                compact_json({"seat": table.turn, "pile": len(table.pile)}),
                table.turn,
                table.drawn,
            ),
        ),
        results=(),
    )


def _opened(state: MichikakeState) -> float:
    """When the state's moment began: the discard that opened its window, else its draw."""
    if state.window is not None:
        return state.window.closes_at - CLAIM_SECONDS
    return state.now


def learner_time(state: MichikakeState) -> float:
    """When a move of the learner counts: ``LEARNER_AFTER`` into its moment."""
    return _opened(state) + LEARNER_AFTER


def learner_acts(game: Game, state: MichikakeState) -> bool:
    """Whether the table waits for the learner: their seat is asked to discard, win, steal or
    pass (a pass that is their only answer is given for them, as at a table)."""
    if state.phase not in (DISCARD, CLAIM) or LEARNER not in game.to_move(state):
        return False
    return automatic(game, state, LEARNER) is None


def _lesson_discards(state: MichikakeState, table: Table) -> int | None:
    """How many discards the table has seen since the lesson's position (None in a later deal,
    which the script does not reach)."""
    if state.deal != table.deal:
        return None
    return sum(map(len, state.discards)) - sum(map(len, table.discards))


def _cpu_move(game: Game, state: MichikakeState, seat: int, table: Table) -> tuple[float, Action]:
    """A lesson's computer player's next move, and when."""
    legal = game.legal_actions(state, seat)
    if state.phase == CLAIM:
        made = _lesson_discards(state, table)
        answer = None if made is None else table.claims.get((made, seat))
        if answer is None:
            answer = "win" if {"win": True} in legal else "pass"
        return _opened(state) + CPU_CLAIM_AFTER, {answer: True}
    if state.phase == BREAK:
        return state.now + CPU_PLAY_AFTER, {"next": True}
    if legal == [{"win": True}]:
        return state.now + CPU_PLAY_AFTER, {"win": True}
    plays = table.plays.get(seat, ())
    done = len(state.discards[seat]) - len(table.discards[seat])
    if state.deal == table.deal and done < len(plays):
        card = plays[done]
    elif state.drawn is not None:
        card = state.drawn
    else:
        raise ValueError(f"a lesson's script must say what seat {seat} discards after its steal")
    return state.now + CPU_PLAY_AFTER, {"discard": card}


def run(
    game: Game, state: MichikakeState, table: Table, learner: int | None
) -> list[MichikakeState]:
    """Play the table on from ``state`` until the learner must act, or the deal is over: the
    computer players' moves and the engine's timers, each at its time. Every state passed
    through is returned, the last one where it stopped. For a demo ``learner`` is None and every
    seat plays by the script, the viewer's too."""
    states = [state]
    for _ in range(MAX_STEPS):
        if state.phase in (BREAK, OVER):
            return states
        moves: list[tuple[float, int, Action]] = []
        waiting = False
        for seat in sorted(game.to_move(state)):
            if seat == learner:
                given = automatic(game, state, seat)
                if given is None:
                    waiting = True
                else:
                    moves.append((learner_time(state), seat, given))
            else:
                at, action = _cpu_move(game, state, seat, table)
                moves.append((at, seat, action))
        stop = learner_time(state) if waiting else None
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


def _start(game: Game, table: Table) -> MichikakeState:
    """The lesson's position, played on until the learner must act."""
    return run(game, position(table), table, LEARNER)[-1]


def events(states: list[MichikakeState], viewer: int | None = LEARNER) -> list[dict[str, Any]]:
    """The public events of every transition from ``states[0]`` on, as ``viewer`` sees them
    (its own draws with their card)."""
    seen: list[dict[str, Any]] = []
    for previous, state in itertools.pairwise(states):
        if state.ply == previous.ply:
            continue  # a secret claim answer: nothing public happened
        for event in state.last:
            told = {"type": event.kind, **json.loads(event.data)}
            if event.secret is not None and viewer is not None and event.seat == viewer:
                told["card"] = event.secret
            seen.append(told)
    return seen


# --- judging the learner ------------------------------------------------------------------------


def _first(happened: list[dict[str, Any]], kind: str) -> dict[str, Any] | None:
    return next((event for event in happened if event["type"] == kind), None)


def _refusal(data: LessonData, legal: list[Action], action: Action) -> Texts | None:
    """Why the move is refused before the goal is looked at (None: it is not)."""
    key = next(iter(action))
    if key == "pass" and {"win": True} in legal and data.goal != "steal":
        return {
            "ja": "上がれるカードを見送りました。",
            "en": "That card would have won, and you let it go by.",
        }
    if key == "pass" and {"steal": True} in legal and data.goal == "steal":
        return {"ja": "奪取せずに見送りました。", "en": "You let it go without stealing."}
    if key == "steal" and data.goal != "steal":
        if {"win": True} in legal:
            return {
                "ja": "奪取はカードを取るだけで、取ったあとは必ず1枚捨てます。"
                "その6枚では上がれません。",
                "en": "A steal only takes the card, and a stealer must then discard: those six "
                "cards cannot win. Claim the win instead.",
            }
        return {"ja": "ここで奪取する必要はありません。", "en": "This lesson needs no steal."}
    if key == "discard" and data.target and action["discard"] not in data.target:
        card = card_text(action["discard"])
        return {"ja": f"{card['ja']}を捨てました。", "en": f"You discarded {card['en']}."}
    return None


def _goal(
    game: Game,
    data: LessonData,
    action: Action,
    after: MichikakeState,
    happened: list[dict[str, Any]],
    stole: bool,
) -> tuple[str, Texts] | None:
    """("right" | "wrong", what to say) when the move decides the lesson, else None."""
    key = next(iter(action))
    win = _first(happened, "win")
    over = after.phase in (BREAK, OVER)
    if data.goal in ("win", "deal"):
        if win is not None and win["seat"] == LEARNER:
            return "right", data.say("right")
        if over:
            return "wrong", {"ja": "", "en": ""}
        drew = after.phase == DISCARD and after.turn == LEARNER and after.drawn is not None
        if data.goal == "win" and drew and {"win": True} not in game.legal_actions(after, LEARNER):
            return "wrong", {
                "ja": "引いたカードで組がふたつになりませんでした。",
                "en": "Your draw does not make two sets.",
            }
        return None
    if data.goal == "discard" and key == "discard":
        return "right", data.say("right")
    if data.goal == "steal" and key == "discard" and stole:
        return "right", data.say("right")
    if data.goal == "session" and after.phase == OVER:
        outcome = game.outcome(after)
        assert outcome is not None
        if outcome["winners"] == [LEARNER]:
            return "right", data.say("right")
        return "wrong", {"ja": "", "en": ""}
    if over:
        return "wrong", {"ja": "", "en": ""}
    return None


def _prompt(game: Game, state: MichikakeState) -> Texts:
    """What the table waits for from the learner."""
    legal = game.legal_actions(state, LEARNER)
    if {"win": True} in legal and state.phase == DISCARD:
        return {"ja": "組がふたつ揃いました。上がりましょう。", "en": "Two sets: win!"}
    if state.phase == CLAIM:
        assert state.window is not None
        card = card_text(state.window.card)
        return {
            "ja": f"{card['ja']}が捨てられました。どうしますか?",
            "en": f"{card['en']} was discarded. What do you do?",
        }
    return {"ja": "あなたの番です。1枚捨てましょう。", "en": "Your turn: discard a card."}


# --- the game protocol's lesson methods -----------------------------------------------------------


@functools.cache
def lessons(game: Game) -> list[Lesson]:
    """Every lesson with its starting position (as the learner's seat sees it) and its demo:
    fixed, so worked out once per process (the pages and every answer ask for them)."""
    listed = []
    for data in LESSONS:
        state = _start(game, data.table)
        listed.append(
            Lesson(
                id=data.id,
                title=data.say("title"),
                text=data.say("text"),
                task=data.say("task"),
                seat=LEARNER,
                view=game.observe(state, LEARNER),
                legal=game.legal_actions(state, LEARNER),
                covers=tuple(Covered(part, PARTS[part].title) for part in data.covers),
                demo=None if data.demo is None else demo(game, data.demo),
            )
        )
    return listed


def demo(game: Game, data: DemoData) -> Demo:
    """A worked example played out: the table as seat 0 sees it after every public move of the
    script, to the deal's end; each frame's note says what happened, a win broken down."""
    states = run(game, position(data.table), data.table, None)
    first = states[0]
    mover = seat_text(first.turn, LEARNER)
    hand = cards_text(first.hands[LEARNER])
    frames = [
        DemoFrame(
            game.observe(first, LEARNER),
            {
                "ja": f"{mover['ja']}の番です。あなたの手札は{hand['ja']}。",
                "en": f"It is {mover['en']}’s turn. You hold {hand['en']}.",
            },
        )
    ]
    for previous, state in itertools.pairwise(states):
        view = game.observe(state, LEARNER)
        if state.ply == previous.ply:
            # A claim answer, secret: only the viewer's own shows, and a pass (the table gives
            # it for a seat that cannot claim) is not worth a frame.
            answer = view["window"]["answer"] if view["window"] else None
            if answer in (None, "pass") or view == frames[-1].view:
                continue
            frames.append(DemoFrame(view, ANSWERS[answer]))
            continue
        told = story(events([previous, state]), LEARNER)
        frames.append(DemoFrame(view, told if told["en"] else None))
    return Demo(data.title, tuple(frames), LEARNER)


ANSWERS: dict[str, Texts] = {
    "win": {"ja": "あなたは上がりを申し出ました。", "en": "You claim the win."},
    "steal": {"ja": "あなたは奪取を申し出ました。", "en": "You ask to steal it."},
}
"""The viewer's own claim in a demo, in words (nobody else sees it until it is settled)."""


def check(game: Game, lesson_id: str, actions: list[Any]) -> LessonVerdict:
    """Replay the learner's moves from the lesson's position and judge each (see the module)."""
    data = LESSON_BY_ID[lesson_id]
    if not actions:
        raise IllegalAction("send at least one move")
    state = _start(game, data.table)
    stole = False
    for number, action in enumerate(actions, 1):
        if not learner_acts(game, state):
            raise IllegalAction(f"the lesson needs no move {number}: it is over")
        legal = game.legal_actions(state, LEARNER)
        # The engine says what is wrong with a move it refuses (a card not held, a claim it
        # cannot make, a value that is not true).
        after = game.apply(state, LEARNER, action, at=learner_time(state))
        states = run(game, after, data.table, LEARNER)
        happened = events([state, *states])
        state = states[-1]
        stole = stole or action == {"steal": True}
        view = game.observe(state, LEARNER)
        told = story(happened, LEARNER)
        refused = _refusal(data, legal, action)
        decided = (
            ("wrong", refused)
            if refused is not None
            else _goal(game, data, action, state, happened, stole)
        )
        if decided is None and not learner_acts(game, state):
            decided = ("wrong", {"ja": "", "en": ""})
        if decided is not None:
            if number != len(actions):
                raise IllegalAction(f"the lesson needs no move {number + 1}: it was decided")
            status, words = decided
            said = join(words, told, data.say("hint")) if status == "wrong" else join(told, words)
            return LessonVerdict(status, said, view, [])
        if number == len(actions):
            more = data.texts.get("more") or _prompt(game, state)
            return LessonVerdict(
                "continue", join(told, more), view, game.legal_actions(state, LEARNER)
            )
    raise AssertionError("unreachable: the last move always returns")
