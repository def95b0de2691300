"""MOMOJAN's course (``/learn/momojan``): the steps of lessons.toml on the real table, each
position a real ``MomojanState`` built for the lesson and every move judged by the engine
(rules.py, reached through the game object), never by the page.

A position. lessons.toml writes the learner's hand (seat 0, drawn at the bottom, "you") and
whatever of the table the lesson needs (open sets, rivers, the piles' top cards, the dora
indicator, points and the middle); the cards nobody is shown fill the computer player's hand,
the dead wall and the piles from what the deck has left, so a position always holds the 56 cards
of the real deck, each once (a picture four times).

The computer player (seat 1, "CPU 2") plays a fixed script (``cpu``: its moves in order), then
plainly: it draws from the tallest pile and throws the card it drew (with ``feed``, a card the
learner can win on if it holds one; with ``wins``, it takes a win whenever it has one), and lets
the round end when the piles are empty. So a lesson replays exactly from the learner's moves, as
the server needs: every answer is replayed from the lesson's position (``check``).

A move is refused ("wrong") when it misses the lesson's ``goal`` (lessons.toml explains each),
when it passes up a win a winning lesson asks for, when the computer player wins, or when the
learner's turns run out; the lesson is done ("right") once the goal is reached.
"""

from __future__ import annotations

import functools
import random
import tomllib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from asobiba.core.errors import IllegalAction
from asobiba.core.game import Covered, Demo, DemoFrame, Lesson, LessonVerdict
from asobiba.core.game import Game as CoreGame
from asobiba.games.momojan.cards import DECK, is_card, parse, sort_cards
from asobiba.games.momojan.data import BONUSES, NUMBERS
from asobiba.games.momojan.scoring import Meld
from asobiba.games.momojan.state import (
    CALLED,
    DRAWN,
    OVER,
    START,
    Discard,
    Event,
    MomojanState,
)
from asobiba.games.momojan.words import (
    Texts,
    card_text,
    final_text,
    join,
    move_text,
    result_text,
)

LEARNER = 0
"""The learner's seat in every lesson (drawn at the bottom of the table)."""
CPU = 1
"""The computer player's seat ("CPU 2")."""
Game = CoreGame[MomojanState]
GOALS = ("discard", "kai", "sets", "call", "riichi", "win", "wall", "match")
MAX_STEPS = 200
"""More computer moves than any lesson makes between two of the learner's (a guard, not a rule)."""


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
    """A section, a question or a worked example of the rulebook (rulebook.toml)."""

    id: str
    title: Texts
    applies: bool
    reason: Texts | None = None
    section: str | None = None
    """An example's section."""
    played: bool = False
    """An example the course plays out in a demo, which must end as ``expect`` says."""
    expect: Mapping[str, Any] = field(default_factory=dict)
    """What the rulebook says the example comes to (``how``, ``yaku``, ``dora``, ``bonus``,
    ``total``, or ``open_points`` and ``paid``)."""


_EXPECT = ("how", "yaku", "dora", "bonus", "total", "open_points", "paid")


def _parts() -> dict[str, Part]:
    data = _read("rulebook.toml")
    parts: dict[str, Part] = {}
    for entry in data["sections"]:
        texts = _texts(entry)
        parts[entry["id"]] = Part(
            entry["id"], texts["title"], entry["applies"], texts.get("reason")
        )
    for entry in data["examples"]:
        parts[entry["id"]] = Part(
            entry["id"],
            _texts(entry)["title"],
            True,
            section=entry["section"],
            played=bool(entry.get("played", False)),
            expect={key: entry[key] for key in _EXPECT if key in entry},
        )
    for part in parts.values():
        if part.section is not None and part.section not in parts:
            raise ValueError(f"rulebook.toml: {part.id} names no section {part.section!r}")
    return parts


PARTS: dict[str, Part] = _parts()
"""Every part of the rulebook by id, sections first, in the rulebook's order."""


# --- positions ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """A position and how its computer player plays (a lesson's), or every move (a demo's)."""

    state: MomojanState
    cpu: tuple[dict[str, Any], ...] = ()
    """The computer player's first moves, in order (a lesson's)."""
    moves: tuple[tuple[int, dict[str, Any]], ...] = ()
    """Every move of a demo, both seats', in order."""
    feed: bool = False
    """The computer player throws a card the learner can win on, when it holds one."""
    wins: bool = False
    """The computer player takes a win whenever it has one."""


def canon(action: Any) -> dict[str, Any]:
    """An action as the engine lists it: cards sorted, a discard's ``riichi`` written out (a
    malformed action is returned as it is: the engine refuses it)."""
    if not isinstance(action, dict):
        return {"bad": action}
    out = dict(action)
    if isinstance(out.get("cards"), list) and all(map(is_card, out["cards"])):
        out["cards"] = sort_cards(out["cards"])
    if out.get("type") == "discard":
        out.setdefault("riichi", False)
    return out


def _meld(spec: str) -> Meld:
    """``"pon: dog dog dog"``, ``"chi: L7 M8* L9"`` (``*`` marks the card called: by default
    the first), ``"kai: L1 L2 L3"``."""
    kind, _, text = spec.partition(":")
    kind = kind.strip()
    marked = [card.rstrip("*") for card in text.split() if card.endswith("*")]
    cards = tuple(sort_cards(parse(text.replace("*", ""))))
    if kind not in ("kai", "pon", "chi") or len(cards) != 3:
        raise ValueError(f"lessons.toml: not an open set {spec!r}")
    if kind == "kai":
        return Meld(kind, cards)
    return Meld(kind, cards, claimed=marked[0] if marked else cards[0])


def _river(text: str) -> tuple[Discard, ...]:
    """``"sun L9 O1!"``: ``!`` a riichi discard (sideways), ``^`` one the other player called."""
    river = []
    for token in text.split():
        card = token.rstrip("!^")
        parse(card)
        river.append(Discard(card, riichi="!" in token, called="^" in token))
    return tuple(river)


def position(entry: Mapping[str, Any]) -> MomojanState:
    """The table lessons.toml writes, every card of the deck in it once (see the module)."""
    where = entry.get("id") or entry.get("example") or "a demo"
    turn = int(entry["turn"])
    phase = entry.get("phase", START)
    hands = [parse(text) for text in entry["hands"]]
    sizes = entry.get("sizes", [len(hand) for hand in hands])
    melds = [tuple(_meld(spec) for spec in specs) for specs in entry.get("melds", [[], []])]
    rivers = [_river(text) for text in entry.get("rivers", ["", ""])]
    known = [parse(text) for text in entry.get("piles", ["", "", ""])]
    pile_sizes = entry.get("pile_sizes", [len(pile) for pile in known])
    indicator = entry["dora"]
    placed = [indicator, *(c for hand in hands for c in hand), *(c for pile in known for c in pile)]
    placed += [c for seat in melds for meld in seat for c in meld.cards]
    # A called discard stays in its river (marked) and lies in the caller's open set: once.
    placed += [d.card for river in rivers for d in river if not d.called]
    left = Counter(DECK)
    left.subtract(placed)
    if -left:
        raise ValueError(f"lessons.toml: more {sorted(-left)} than the deck holds in {where}")
    rest = [card for card in dict.fromkeys(DECK) for _ in range(left[card])]
    # The cards nobody is shown, in an order of the position's own: hands that look dealt.
    random.Random(int(entry.get("seed", 1))).shuffle(rest)
    size = sizes[CPU] - len(hands[CPU])
    hands[CPU] += rest[:size]
    del rest[:size]
    dead = (indicator, *rest[: NUMBERS.dead_wall - 1])
    del rest[: NUMBERS.dead_wall - 1]
    piles = []
    for pile, want in zip(known, pile_sizes, strict=True):
        extra = want - len(pile)
        if extra < 0:
            raise ValueError(f"lessons.toml: a pile of {want} cannot hold {pile}")
        piles.append(tuple(rest[:extra]) + tuple(pile))
        del rest[:extra]
    # Whatever is left lies in the rivers, older than the discards written (the computer
    # player's first, up to ``river_sizes``).
    for seat in (CPU, LEARNER):
        want = entry.get("river_sizes", [len(river) for river in rivers])[seat]
        extra = want - len(rivers[seat])
        if extra < 0:
            raise ValueError(f"lessons.toml: a river of {want} cannot hold {rivers[seat]}")
        rivers[seat] = tuple(Discard(card) for card in rest[:extra]) + rivers[seat]
        del rest[:extra]
    if rest or len(hands[LEARNER]) != sizes[LEARNER] or len(hands[CPU]) != sizes[CPU]:
        raise ValueError(f"lessons.toml: {len(rest)} cards left over or short in {where}")
    offer = entry.get("offer")
    drawn = tuple(parse(entry.get("drawn", "")))
    riichi = tuple(entry.get("riichi", [False, False]))
    last: Event | None = None
    round_no = int(entry.get("round", 1))
    if offer is not None:
        river = rivers[1 - turn]
        if not river or river[-1].card != offer:
            raise ValueError(f"lessons.toml: the offer {offer} is not the last discard in {where}")
        last = Event(round_no, 1 - turn, "discard", card=offer, riichi=river[-1].riichi)
    elif phase == DRAWN:
        last = Event(round_no, turn, "draw", pile=int(entry.get("drew_from", 0)), secret=drawn)
    elif phase == CALLED:
        meld = melds[turn][-1]
        last = Event(round_no, turn, meld.kind, card=meld.claimed, cards=meld.cards)
    points = entry.get("points", [NUMBERS.start_points, NUMBERS.start_points - NUMBERS.stake])
    return MomojanState(
        options=(("dealerships", 2),),
        seed=int(entry.get("seed", 1)),
        points=(int(points[0]), int(points[1])),
        middle=int(entry.get("middle", NUMBERS.stake)),
        dealer=int(entry.get("dealer", 0)),
        streak=int(entry.get("streak", 0)),
        terms=int(entry.get("deal", 1)),
        round_no=round_no,
        stake=int(entry.get("stake", NUMBERS.stake)),
        hands=(tuple(sort_cards(hands[0])), tuple(sort_cards(hands[1]))),
        melds=(melds[0], melds[1]),
        rivers=(rivers[0], rivers[1]),
        riichi=(bool(riichi[0]), bool(riichi[1])),
        ippatsu=(False, False),
        piles=tuple(piles),
        dead=dead,
        turn=turn,
        phase=phase,
        drawn=drawn,
        offer=offer,
        last=last,
        results=(),
    )


def _table(entry: Mapping[str, Any]) -> Table:
    return Table(
        state=position(entry),
        cpu=tuple(canon(move) for move in entry.get("cpu", [])),
        moves=tuple(
            (int(move.pop("seat")), canon(move)) for move in map(dict, entry.get("moves", []))
        ),
        feed=bool(entry.get("feed", False)),
        wins=bool(entry.get("wins", False)),
    )


# --- lessons.toml -------------------------------------------------------------------------------


@dataclass(frozen=True)
class DemoData:
    table: Table
    example: str | None
    title: Texts
    notes: Mapping[int, Texts]
    """What to see in a frame, by its number (0: the position before any move)."""


@dataclass(frozen=True)
class LessonData:
    """One lesson of lessons.toml (the file explains each field)."""

    id: str
    covers: tuple[str, ...]
    goal: str
    params: Mapping[str, Any]
    """The goal's own fields: ``cards``, ``kind``, ``target``, ``how``, ``sets``, ``yaku``."""
    turns: int
    table: Table
    answer: tuple[dict[str, Any], ...]
    wrong: tuple[dict[str, Any], ...]
    texts: dict[str, Texts]
    demo: DemoData | None

    def say(self, key: str) -> Texts:
        return self.texts[key]


_PARAMS = ("cards", "kind", "target", "how", "sets", "yaku", "declare")


def _demo(entry: Mapping[str, Any]) -> DemoData:
    texts = _texts(entry)
    notes = {int(note["frame"]): _texts(note)["note"] for note in entry.get("notes", [])}
    return DemoData(_table(entry), entry.get("example"), texts["title"], notes)


def _load() -> list[LessonData]:
    lessons = []
    for entry in _read("lessons.toml")["lessons"]:
        demo = entry.get("demo")
        lessons.append(
            LessonData(
                id=entry["id"],
                covers=tuple(entry["covers"]),
                goal=entry["goal"],
                params={key: entry[key] for key in _PARAMS if key in entry},
                turns=int(entry.get("turns", 1)),
                table=_table(entry),
                answer=tuple(canon(move) for move in entry["answer"]),
                wrong=tuple(canon(move) for move in entry["wrong"]),
                texts=_texts(entry),
                demo=None if demo is None else _demo(demo),
            )
        )
    for lesson in lessons:
        unknown = [part for part in lesson.covers if part not in PARTS]
        if lesson.goal not in GOALS or unknown:
            raise ValueError(f"lessons.toml: {lesson.id}: goal {lesson.goal!r}, unknown {unknown}")
    return lessons


LESSONS: list[LessonData] = _load()
LESSON_BY_ID: dict[str, LessonData] = {lesson.id: lesson for lesson in LESSONS}


# --- the computer player ------------------------------------------------------------------------


@dataclass
class Script:
    """The computer player's scripted moves not yet made. ``strict``: a scripted move that is
    not legal when its turn comes is an error (the tests play the right lines so), else it is
    dropped and the plain play takes over (a learner who went another way)."""

    moves: list[dict[str, Any]]
    strict: bool = False


def _wins_for(game: Game, state: MomojanState, seat: int) -> bool:
    """Whether ``seat`` may win now (ツモ or ロン)."""
    return any(a["type"] in ("tsumo", "ron") for a in game.legal_actions(state, seat))


def _feed(game: Game, state: MomojanState, discards: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A discard of the computer player's that the learner can win on, if it has one."""
    for action in discards:
        after = game.apply(state, CPU, action)
        if any(a["type"] == "ron" for a in game.legal_actions(after, LEARNER)):
            return action
    return None


def cpu_move(game: Game, state: MomojanState, table: Table, script: Script) -> dict[str, Any]:
    """The computer player's next move (see the module)."""
    legal = game.legal_actions(state, CPU)
    while script.moves:
        move = script.moves.pop(0)
        if move in legal:
            return move
        if script.strict:
            raise ValueError(f"the computer player's scripted {move} is not legal now")
    if table.wins:
        won = [a for a in legal if a["type"] in ("tsumo", "ron")]
        if won:
            return won[0]
    if state.phase == START:
        draws = [a for a in legal if a["type"] == "draw"]
        if not draws:
            return {"type": "pass"}
        return max(draws, key=lambda a: (len(state.piles[a["pile"]]), -a["pile"]))
    discards = [a for a in legal if a["type"] == "discard" and not a["riichi"]]
    if table.feed:
        fed = _feed(game, state, discards)
        if fed is not None:
            return fed
    drawn = [a for a in discards if state.drawn and a["card"] == state.drawn[-1]]
    return (drawn or discards)[0]


def run(
    game: Game, state: MomojanState, table: Table, script: Script
) -> tuple[MomojanState, list[tuple[int, dict[str, Any]]]]:
    """Play the computer player on from ``state`` until the learner is to move, the round has
    ended or the game is over; the state then and the moves made."""
    moves: list[tuple[int, dict[str, Any]]] = []
    rounds = len(state.results)
    for _ in range(MAX_STEPS):
        if state.phase == OVER or len(state.results) > rounds or state.turn == LEARNER:
            return state, moves
        action = cpu_move(game, state, table, script)
        moves.append((CPU, action))
        state = game.apply(state, CPU, action)
    raise ValueError("a lesson's computer player kept playing without the learner")


# --- judging the learner ------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One move of the learner's, with the table before it and after the computer's answer."""

    before: MomojanState
    move: dict[str, Any]
    moved: MomojanState
    """Right after the learner's move."""
    after: MomojanState
    """After the computer player's moves."""
    cpu: list[tuple[int, dict[str, Any]]]
    turns: int
    """The learner's turns ended so far (by a discard), this move's included."""


def _wrong(*parts: Texts) -> tuple[str, Texts]:
    return "wrong", join(*parts)


def _round_end(game: Game, data: LessonData, step: Step) -> tuple[str, Texts] | None:
    """The verdict when the move (or the computer's answer) ended the round."""
    if len(step.after.results) == len(step.before.results):
        return None
    result = step.after.results[-1]
    said = result_text(result, LEARNER)
    outcome = game.outcome(step.after)
    if outcome is not None:
        said = join(said, final_text(outcome["scores"], outcome["winners"], LEARNER))
    goal, params = data.goal, data.params
    if goal == "match":
        if outcome is not None and outcome["winners"] == [LEARNER]:
            return "right", join(data.say("right"), said)
        return _wrong(said)
    if goal == "wall":
        if result.end == "exhausted" and result.winner == LEARNER:
            return "right", join(data.say("right"), said)
        return _wrong(said)
    if goal == "win" and result.winner == LEARNER and result.end != "exhausted":
        score = result.score
        assert score is not None
        missing = [y for y in params.get("yaku", []) if y not in dict(score.yaku)]
        if params.get("how", result.end) != result.end:
            return _wrong(said, _how_asked(params["how"]))
        if score.sets < params.get("sets", 0):
            return _wrong(said, _sets_asked(params["sets"]))
        if missing:
            return _wrong(said)
        return "right", join(data.say("right"), said)
    return _wrong(said)


_WIN_WORDS: dict[str, Texts] = {
    "tsumo": {"ja": "ツモ", "en": "Tsumo"},
    "ron": {"ja": "ロン", "en": "Ron"},
}


def _how_asked(how: str) -> Texts:
    word = _WIN_WORDS[how]
    return {
        "ja": f"このレッスンは{word['ja']}でのアガリです。",
        "en": f"This lesson asks for a win by {word['en']}.",
    }


def _sets_asked(sets: int) -> Texts:
    bonus = next(b for b in BONUSES if b.sets == sets)
    return {
        "ja": f"このレッスンは{sets}セットの{bonus.ja}をつけてアガることです。",
        "en": f"This lesson asks for a win with {sets} sets, for {bonus.ja} {bonus.en}.",
    }


def _judge(game: Game, data: LessonData, step: Step) -> tuple[str, Texts] | None:
    """("right" | "wrong", what to say) when the move decides the lesson, else None."""
    ended = _round_end(game, data, step)
    if ended is not None:
        return ended
    goal, params, move = data.goal, data.params, step.move
    kind = move["type"]
    if goal in ("win", "match") and _wins_for(game, step.before, LEARNER):
        word = _WIN_WORDS["ron" if step.before.phase == START else "tsumo"]
        return _wrong(
            {
                "ja": f"ここは{word['ja']}でアガれました。",
                "en": f"You could have won here with {word['en']}.",
            }
        )
    if goal == "call" and kind != "ron":
        if kind == params["kind"] and _cards_asked(params, move):
            return "right", data.say("right")
        return _wrong(_what_you_did(move))
    if goal == "kai" and kind in ("kai", "discard"):
        if kind == "kai" and _cards_asked(params, move):
            return "right", data.say("right")
        return _wrong(_what_you_did(move))
    if kind != "discard":
        return None
    if goal == "discard":
        declared = params.get("declare", move["riichi"])
        if move["card"] in params["cards"] and move["riichi"] == declared:
            return "right", data.say("right")
        return _wrong(_what_you_did(move))
    if goal == "sets":
        opened = len(step.moved.melds[LEARNER])
        if opened >= params["target"]:
            return "right", data.say("right")
        return _wrong(
            {
                "ja": f"公開したセットが{opened}つのまま、手番が終わりました。",
                "en": f"Your turn ended with {opened} open set{'' if opened == 1 else 's'}.",
            }
        )
    if goal == "riichi":
        if move["riichi"]:
            return "right", data.say("right")
        return _wrong(_what_you_did(move))
    if step.turns >= data.turns:
        return _wrong(
            {
                "ja": "レッスンの手番はここまで。ねらいに届かないまま、ラウンドは続きます。",
                "en": "That was the lesson's last turn: the round goes on without what it asked.",
            }
        )
    return None


def _cards_asked(params: Mapping[str, Any], move: dict[str, Any]) -> bool:
    """Whether a call or 開 is of the cards the lesson asks for (any, when it names none)."""
    return "cards" not in params or move["cards"] == sort_cards(params["cards"])


def _what_you_did(move: dict[str, Any]) -> Texts:
    """The learner's move in words, to open a refusal."""
    said = move_text(LEARNER, move, LEARNER)
    return {"ja": said["ja"].replace("あなたが", "あなたは"), "en": said["en"]}


def _continue(game: Game, data: LessonData, step: Step) -> Texts:
    """What to say while the lesson goes on: what the computer player did, then the lesson's
    own words for the next step (``more``), else what the table waits for."""
    said = [move_text(seat, action, LEARNER) for seat, action in step.cpu]
    legal = game.legal_actions(step.after, LEARNER)
    more = data.texts.get("more") or _prompt(step.after, legal)
    return join(*said, more)


def _prompt(state: MomojanState, legal: list[dict[str, Any]]) -> Texts:
    """What the table waits for from the learner, from the moves they have."""
    kinds = {action["type"] for action in legal}
    if state.phase == START:
        said = {"ja": "あなたの番です。山から1枚引きましょう", "en": "Your turn: draw from a pile"}
        if kinds & {"pon", "chi"} and state.offer is not None:
            card = card_text(state.offer)
            said = {
                "ja": f"あなたの番です。山から引くか、{card['ja']}を鳴きましょう",
                "en": f"Your turn: draw from a pile, or call the {card['en']}",
            }
    elif "draw3" in kinds:
        said = {"ja": "3枚引くか、1枚捨てましょう", "en": "Draw three, or discard a card"}
    elif "kai" in kinds:
        said = {"ja": "開するか、1枚捨てましょう", "en": "Kai a set, or discard a card"}
    else:
        said = {"ja": "1枚捨てて手番を終えましょう", "en": "Discard a card to end your turn"}
    if kinds & {"tsumo", "ron"}:
        said = {"ja": said["ja"] + "（アガることもできます）", "en": said["en"] + " (or win)"}
    return {"ja": said["ja"] + "。", "en": said["en"] + "."}


# --- the game protocol's lesson methods -----------------------------------------------------------


def start(game: Game, data: LessonData, script: Script) -> MomojanState:
    """The lesson's position, played on until the learner is to move."""
    state, _ = run(game, data.table.state, data.table, script)
    if state.turn != LEARNER or state.phase == OVER:
        raise ValueError(f"lessons.toml: {data.id} does not wait for the learner")
    return state


@functools.cache
def lessons(game: Game) -> list[Lesson]:
    """Every lesson with its starting position (as the learner's seat sees it) and its demo:
    fixed, so worked out once per process (the pages and every answer ask for them)."""
    listed = []
    for data in LESSONS:
        state = start(game, data, Script(list(data.table.cpu)))
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


def demo_states(game: Game, data: DemoData) -> list[MomojanState]:
    """A worked example's states: the position, then after each of its moves."""
    states = [data.table.state]
    for seat, action in data.table.moves:
        states.append(game.apply(states[-1], seat, action))
    return states


def demo(game: Game, data: DemoData) -> Demo:
    """A worked example played out: the table as seat 0 sees it after every move; a frame's
    note says what to see, and the frame that ends the round gives what it paid."""
    frames = []
    states = demo_states(game, data)
    for number, state in enumerate(states):
        note = data.notes.get(number)
        if number and len(state.results) > len(states[number - 1].results):
            ended = result_text(state.results[-1], LEARNER)
            note = ended if note is None else join(note, ended)
        frames.append(DemoFrame(game.observe(state, LEARNER), note))
    return Demo(data.title, tuple(frames), LEARNER)


def check(game: Game, lesson_id: str, actions: list[Any], *, strict: bool = False) -> LessonVerdict:
    """Replay the learner's moves from the lesson's position and judge each (see the module).
    ``strict``: the computer player's script must be followed as written (the tests)."""
    data = LESSON_BY_ID[lesson_id]
    if not isinstance(actions, list) or not actions:
        raise IllegalAction("send at least one move")
    script = Script(list(data.table.cpu), strict)
    state = start(game, data, script)
    turns = 0
    for number, action in enumerate(actions, 1):
        if state.phase == OVER or state.turn != LEARNER:
            raise IllegalAction(f"the lesson needs no move {number}: it is over")
        moved = game.apply(state, LEARNER, action)  # the engine refuses what is not legal
        move = canon(action)
        turns += move["type"] == "discard"
        after, cpu = run(game, moved, data.table, script)
        step = Step(state, move, moved, after, cpu, turns)
        decided = _judge(game, data, step)
        view = game.observe(after, LEARNER)
        if decided is not None:
            if number != len(actions):
                raise IllegalAction(f"the lesson needs no move {number + 1}: it was decided")
            status, words = decided
            if status == "wrong":
                words = join(words, data.say("hint"))
            return LessonVerdict(status, words, view, [])
        if after.phase == OVER or after.turn != LEARNER:
            raise ValueError(f"lessons.toml: {data.id} stopped without a verdict")
        state = after
    return LessonVerdict(
        "continue", _continue(game, data, step), view, game.legal_actions(state, LEARNER)
    )
