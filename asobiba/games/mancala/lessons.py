"""The Mancala lessons (lessons.toml): positions to solve, judged by the engine.

A learner's move is accepted when the engine values it as high as the best move (every lesson
position is read to the end, so the values are exact) and the lesson's goal holds after it.
Wrong moves get what they did, what they cost against the best move, and the lesson's hint.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from asobiba.core.errors import IllegalAction
from asobiba.core.game import Analysis, Lesson, LessonVerdict
from asobiba.games.mancala import analysis
from asobiba.games.mancala.board import Rules

SEAT = 0
"""The learner sits at the bottom, seat 0, in every lesson."""
SECONDS = 10.0
"""The search's budget per lesson position: far more than any of them needs to be read to the
end (tests check they are), so a busy machine still gets exact values."""
EPSILON = 1e-9

Texts = dict[str, str]


@dataclass(frozen=True)
class LessonData:
    """One entry of lessons.toml (the file explains each field)."""

    id: str
    variant: str
    me: tuple[int, ...]
    them: tuple[int, ...]
    stores: tuple[int, int]
    goal: str
    answer: tuple[int, ...]
    """The expected pits, numbered from 1 as the learner sees them."""
    wrong: int
    texts: dict[str, Texts]
    """``title``, ``text``, ``task``, ``right``, ``hint`` and for a chain ``more``."""

    def say(self, key: str) -> Texts:
        return self.texts[key]


def _load() -> list[LessonData]:
    text = resources.files(__package__).joinpath("lessons.toml").read_text(encoding="utf-8")
    lessons = []
    for entry in tomllib.loads(text)["lessons"]:
        texts: dict[str, Texts] = {}
        for key, value in entry.items():
            if key.endswith(("_ja", "_en")):
                texts.setdefault(key[:-3], {})[key[-2:]] = value
        lessons.append(
            LessonData(
                id=entry["id"],
                variant=entry["variant"],
                me=tuple(entry["me"]),
                them=tuple(entry["them"]),
                stores=(entry["stores"][0], entry["stores"][1]),
                goal=entry["goal"],
                answer=tuple(entry["answer"]),
                wrong=entry["wrong"],
                texts=texts,
            )
        )
    return lessons


LESSONS: list[LessonData] = _load()
LESSON_BY_ID: dict[str, LessonData] = {lesson.id: lesson for lesson in LESSONS}


@dataclass(frozen=True)
class Move:
    """What one move did, for the goals and the feedback."""

    before: tuple[int, ...]
    after: tuple[int, ...]
    pit: int
    path: tuple[tuple[int, int], ...]
    extra_turn: bool
    captured: int
    over: bool


def _biggest_threat(rules: Rules, board: tuple[int, ...]) -> int:
    return analysis.biggest_capture(rules, list(board), 1 - SEAT)


GOALS: dict[str, Callable[[Rules, Move], bool]] = {
    "store": lambda rules, move: [SEAT, rules.pits] in [list(step) for step in move.path],
    "extra_turn": lambda rules, move: move.extra_turn,
    "chain": lambda rules, move: True,
    "capture": lambda rules, move: move.captured > 1,
    "defend": lambda rules, move: (
        _biggest_threat(rules, move.after) < _biggest_threat(rules, move.before)
    ),
    "end": lambda rules, move: move.over,
    "half": lambda rules, move: 2 * move.after[rules.pits] > sum(move.after),
    "keep": lambda rules, move: all(side == SEAT for side, _ in move.path),
}


def lessons(game: Any) -> list[Lesson]:
    """Every lesson with its starting position, as ``observe`` shows it to the learner."""
    listed = []
    for data in LESSONS:
        state = start(game, data)
        listed.append(
            Lesson(
                id=data.id,
                title=data.say("title"),
                text=data.say("text"),
                task=data.say("task"),
                seat=SEAT,
                view=game.observe(state, SEAT),
                legal=game.legal_actions(state, SEAT),
            )
        )
    return listed


def start(game: Any, data: LessonData) -> Any:
    """The lesson's position: a game of the lesson's rules with the board set as written."""
    state = game.new_state({"variant": data.variant})
    return dataclasses.replace(state, board=(*data.me, data.stores[0], *data.them, data.stores[1]))


def check(game: Any, lesson_id: str, actions: list[Any]) -> LessonVerdict:
    """Replay the learner's moves from the lesson's position and judge each (see the module)."""
    data = LESSON_BY_ID[lesson_id]
    state = start(game, data)
    if not actions:
        raise IllegalAction("send at least one move")
    for number, action in enumerate(actions, 1):
        if state.over or state.player != SEAT:
            raise IllegalAction(f"the lesson needs no move {number}: your turn is over")
        after = game.apply(state, SEAT, action)  # an illegal move raises, saying why
        values = _analyse(state.rules, state.board)
        move = Move(
            state.board,
            after.board,
            action["pit"],
            after.last.path,
            after.last.extra_turn,
            after.last.captured,
            after.over,
        )
        lost = values.best.value - values.value_of(action).value
        if lost > EPSILON or not GOALS[data.goal](state.rules, move):
            return LessonVerdict("wrong", _wrong(data, move, lost), game.observe(after, SEAT), [])
        state = after
    if data.goal == "chain" and not state.over and state.player == SEAT:
        return LessonVerdict(
            "continue", data.say("more"), game.observe(state, SEAT), game.legal_actions(state, SEAT)
        )
    return LessonVerdict("right", data.say("right"), game.observe(state, SEAT), [])


_EXACT: dict[tuple[Rules, tuple[int, ...]], Analysis] = {}
"""The lesson positions' exact values, worked out once per process (they are few and fixed)."""


def _analyse(rules: Rules, board: tuple[int, ...]) -> Analysis:
    known = _EXACT.get((rules, board))
    if known is None:
        known = analysis.analyse(rules, list(board), SEAT, SECONDS)
        if all(move.exact for move in known.moves):  # a starved search is not kept
            _EXACT[(rules, board)] = known
    return known


def _wrong(data: LessonData, move: Move, lost: float) -> Texts:
    """What the refused move did, what it costs, and the lesson's hint."""
    if move.over:
        did = {"ja": "この手でゲームが終わります。", "en": "This move ends the game."}
    elif move.captured > 1:
        did = {
            "ja": f"{move.captured}個を横取りします。",
            "en": f"It captures {move.captured} stones.",
        }
    elif move.extra_turn:
        did = {"ja": "もう1回打てます。", "en": "It gives you another turn."}
    else:
        side, pos = move.path[-1]
        if side == SEAT:
            did = {
                "ja": f"最後の石はあなたの{pos + 1}番目の穴に入り、相手の番になります。",
                "en": f"Your last stone stops in your pit {pos + 1} and the turn passes.",
            }
        else:
            did = {
                "ja": "最後の石は相手の列に入り、相手の番になります。",
                "en": "Your last stone ends in your opponent's row and the turn passes.",
            }
    if lost > EPSILON:
        worse = round(lost) if data.variant == "kalah" else None
        cost = (
            {
                "ja": f"いちばん良い手と比べると、最後に{worse}個損をします。",
                "en": f"Against the best move it costs {worse} stones by the end.",
            }
            if worse
            else {"ja": "もっと良い手があります。", "en": "There is a better move."}
        )
    else:
        cost = {"ja": "この課題の狙いとは違います。", "en": "It is not what this task asks."}
    hint = data.say("hint")
    return {lang: f"{did[lang]}{_sp(lang)}{cost[lang]}{_sp(lang)}{hint[lang]}" for lang in did}


def _sp(lang: str) -> str:
    """Japanese sentences follow each other without a space."""
    return "" if lang == "ja" else " "
