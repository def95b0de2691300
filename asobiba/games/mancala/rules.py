"""Mancala, Kalah and Basic, behind the game protocol.

Kalah: sow into your own store but not your opponent's; a last stone in your store gives another
move; a last stone in an empty pit of yours captures the opposite pit (option rules change this);
the game ends when either side is empty, leftovers go to their side's owner (unless the option
says they do not count) and more stones wins.

Basic: stones go into both stores, a last stone in either store gives another move, there is no
capture, and whoever empties their own side first wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from asobiba.core.bots import Bot, Pace
from asobiba.core.errors import IllegalAction, InvalidOptions
from asobiba.core.game import (
    Analysis,
    DesignedValue,
    Grade,
    Lesson,
    LessonVerdict,
    RecordField,
    designed_pace,
    designed_slowest,
    pace_rows,
)
from asobiba.core.options import OptionSpec, resolve_options
from asobiba.core.ratings import Ladder
from asobiba.games.mancala import analysis, lessons
from asobiba.games.mancala import board as kernel
from asobiba.games.mancala.board import Rules
from asobiba.games.mancala.data import GRADES, LADDERS, LEVELS, PACES, Grades, Level


@dataclass(frozen=True, slots=True)
class LastMove:
    """What the previous move did, for the board to animate and announce."""

    seat: int
    pit: int
    path: tuple[tuple[int, int], ...]
    """Each stone's landing place as ``(side, position)``; position ``n`` is that side's store."""
    extra_turn: bool
    captured: int
    capture_from: tuple[int, int] | None
    """The opposite pit emptied by a capture, as ``(side, position)``."""


@dataclass(frozen=True, slots=True)
class MancalaState:
    """The whole truth of a game; Mancala has no hidden information."""

    rules: Rules
    options: tuple[tuple[str, Any], ...]
    board: tuple[int, ...]
    player: int
    over: bool
    ply: int = 0
    last: LastMove | None = None


_VARIANT_LABELS = {
    "kalah": {"ja": "カラハ", "en": "Kalah"},
    "basic": {"ja": "ベーシック", "en": "Basic"},
}
_CAPTURE_LABELS = {
    "standard": {"ja": "横取りあり", "en": "Standard capture"},
    "empty": {"ja": "向かいが空でも横取り", "en": "Capture even when opposite is empty"},
    "none": {"ja": "横取りなし", "en": "No capture"},
}
_LEFTOVER_LABELS = {
    "true": {"ja": "残った石を数える", "en": "Leftover stones count"},
    "false": {"ja": "残った石を数えない", "en": "Leftover stones do not count"},
}

OPTIONS: list[OptionSpec] = [
    OptionSpec(
        "variant", ("kalah", "basic"), "kalah", {"ja": "ルール", "en": "Rules"}, _VARIANT_LABELS
    ),
    OptionSpec("seeds", (3, 4, 5, 6), 4, {"ja": "石の数", "en": "Stones per pit"}),
    OptionSpec(
        "capture",
        ("standard", "empty", "none"),
        "standard",
        {"ja": "横取り", "en": "Capture"},
        _CAPTURE_LABELS,
        only_when=("variant", "kalah"),
    ),
    OptionSpec(
        "count_leftovers",
        (True, False),
        True,
        {"ja": "残った石", "en": "Leftover stones"},
        _LEFTOVER_LABELS,
        only_when=("variant", "kalah"),
    ),
    OptionSpec("pits", (3, 4, 5, 6), 6, {"ja": "ポケット数", "en": "Pits per side"}, ui=False),
]


class Mancala:
    """The Mancala game module (see docs/ARCHITECTURE.md for the observation format)."""

    name = "mancala"
    min_seats = 2
    max_seats = 2

    def __init__(self) -> None:
        self.levels: list[str] = [level.id for level in LEVELS]

    def options_spec(self) -> list[OptionSpec]:
        return OPTIONS

    def resolve_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return resolve_options(OPTIONS, options)

    def level_names(self) -> dict[str, dict[str, str]]:
        return {level.id: {"ja": level.name_ja, "en": level.name_en} for level in LEVELS}

    def pace(self, level: str) -> Pace:
        """How long this level's bot seems to take before its move shows (data.toml
        ``[[pace]]``): the room shows its moves ``pace.draw(rng)`` seconds after asking it,
        never when its computation happens to finish, which could tell its cards."""
        return designed_pace(PACES, level, "mancala")

    def slowest(self, level: str) -> float:
        """This level's slowest decision measured on the development machine (data.toml
        ``[[pace]]`` ``slowest``)."""
        return designed_slowest(PACES, level, "mancala")

    def rating_family(self, options: Mapping[str, Any], seats: int) -> str:
        """Kalah and Basic are rated apart (``core.game.rating_key``): a race to empty one's
        side is another game than a count of stones, whatever the other options."""
        return str(self.resolve_options(options)["variant"])

    def rating_ladders(self) -> dict[str, Ladder]:
        """Every rule family rated, with its bot levels' arena ladder (data.toml
        ``[[ladders]]``)."""
        return LADDERS

    def record_fields(self) -> list[RecordField]:
        return []  # wins, streaks and the best margin (common to every game) say it all

    def record(self, outcome: dict[str, Any], seat: int) -> dict[str, float | None]:
        return {}

    def designed_values(self) -> list[DesignedValue]:
        return (
            [
                DesignedValue(
                    name={"ja": f"強さ：{level.name_ja}", "en": f"Strength: {level.name_en}"},
                    value=_level_in_words(level),
                    source=level.source,
                    reason={"ja": level.reason_ja, "en": level.reason},
                )
                for level in LEVELS
            ]
            + pace_rows(PACES, self.level_names())
            + [
                DesignedValue(
                    name={
                        "ja": f"振り返りの分類：{_VARIANT_LABELS[grades.variant]['ja']}",
                        "en": f"Review classes: {_VARIANT_LABELS[grades.variant]['en']}",
                    },
                    value=_grades_in_words(grades),
                    source=grades.source,
                    reason={"ja": grades.reason_ja, "en": grades.reason},
                )
                for grades in GRADES.values()
            ]
        )

    def grades(self, options: Mapping[str, Any]) -> tuple[Grade, ...]:
        """How many stones a move may lose against the best one for each class of a review
        (data.toml: Basic's race margins are smaller than Kalah's, so it has its own)."""
        grades = GRADES[self.resolve_options(options)["variant"]]
        return (
            Grade("best", 0.0),
            Grade("good", grades.good),
            Grade("inaccuracy", grades.inaccuracy),
            Grade("mistake", grades.mistake),
            Grade("blunder", None),
        )

    def new_state(self, options: Mapping[str, Any], seats: int = 2, seed: int = 0) -> MancalaState:
        if type(seats) is not int or seats != 2:
            raise InvalidOptions(f"mancala is played by exactly 2 seats, not {seats!r}")
        resolved = self.resolve_options(options)
        rules = Rules.from_options(resolved)
        return MancalaState(
            rules=rules,
            options=tuple(sorted(resolved.items())),
            board=tuple(kernel.initial_board(rules)),
            player=0,
            over=False,
        )

    def to_move(self, state: MancalaState) -> frozenset[int]:
        return frozenset() if state.over else frozenset((state.player,))

    def legal_actions(self, state: MancalaState, seat: int) -> list[dict[str, Any]]:
        if state.over or type(seat) is not int or seat != state.player:
            return []
        n = state.rules.pits
        start = seat * (n + 1)
        return [{"pit": i} for i in range(n) if state.board[start + i]]

    def apply(
        self, state: MancalaState, seat: int, action: Any, at: float | None = None
    ) -> MancalaState:
        pit = self._check(state, seat, action)
        rules = state.rules
        n = rules.pits
        board = list(state.board)
        start = kernel.pit_index(n, seat, pit)
        path = _path(rules, seat, start, board[start])
        last, extra, captured = kernel.sow(board, rules, seat, pit)
        # captured == 1 is a lone last stone stored under the "empty" rule: nothing was taken.
        opposite = 2 * n - last
        capture_from = (opposite // (n + 1), opposite % (n + 1)) if captured > 1 else None
        over = kernel.finish(board, rules)
        return MancalaState(
            rules=rules,
            options=state.options,
            board=tuple(board),
            player=seat if extra else 1 - seat,
            over=over,
            ply=state.ply + 1,
            last=LastMove(seat, pit, path, extra and not over, captured, capture_from),
        )

    def observe(self, state: MancalaState, seat: int | None = None) -> dict[str, Any]:
        if seat is not None and (type(seat) is not int or seat not in (0, 1)):
            raise IllegalAction(f"seat must be 0, 1 or None (a spectator), got {seat!r}")
        n = state.rules.pits
        b = state.board
        last = state.last
        return {
            "game": self.name,
            "options": dict(state.options),
            "pits": [list(b[0:n]), list(b[n + 1 : 2 * n + 1])],
            "stores": [b[n], b[2 * n + 1]],
            "to_move": None if state.over else state.player,
            "ply": state.ply,
            "seat": seat,
            "last": None
            if last is None
            else {
                "seat": last.seat,
                "pit": last.pit,
                "path": [list(step) for step in last.path],
                "extra_turn": last.extra_turn,
                "captured": last.captured,
                "capture_from": list(last.capture_from) if last.capture_from else None,
            },
            "outcome": self.outcome(state),
        }

    def outcome(self, state: MancalaState) -> dict[str, Any] | None:
        if not state.over:
            return None
        n = state.rules.pits
        b = state.board
        scores = [b[n], b[2 * n + 1]]
        if state.rules.basic:
            left = [kernel.side_total(list(b), n, p) for p in (0, 1)]
            winner = 0 if left[0] == 0 else 1
            return {
                "scores": scores,
                "winners": [winner],
                "win_by": "emptied_side",
                "left": left,
                "margin": left[1 - winner],
            }
        if scores[0] == scores[1]:
            return {"scores": scores, "winners": [], "win_by": "draw", "margin": 0}
        winner = 0 if scores[0] > scores[1] else 1
        return {
            "scores": scores,
            "winners": [winner],
            "win_by": "more_stones",
            "margin": abs(scores[0] - scores[1]),
        }

    def deadline(self, state: MancalaState) -> float | None:
        return None

    def advance(self, state: MancalaState, at: float) -> MancalaState:
        return state

    def make_bot(self, level: str, seed: int) -> Bot:
        from asobiba.games.mancala.bots import make_bot

        return make_bot(level, seed)

    def analyse(self, state: MancalaState, seconds: float, seat: int | None = None) -> Analysis:
        """Every legal move valued in stones of final margin (see analysis.py); ``seat``, if
        given, must be the player to move (only one seat ever decides)."""
        if state.over:
            raise IllegalAction("the game is over: there is no move to analyse")
        self._deciding(state, seat)
        return analysis.analyse(state.rules, list(state.board), state.player, seconds)

    def explain(self, state: MancalaState, action: Any, seat: int | None = None) -> dict[str, str]:
        self._deciding(state, seat)
        pit = self._check(state, state.player, action)
        return analysis.explain(state.rules, list(state.board), state.player, pit)

    def _deciding(self, state: MancalaState, seat: int | None) -> None:
        if seat is not None and seat != state.player:
            raise IllegalAction(f"seat {seat!r} is not to move; seat {state.player} is")

    def lessons(self) -> list[Lesson]:
        """The lessons of /learn/mancala (lessons.toml)."""
        return lessons.lessons(self)

    def check_lesson(self, lesson_id: str, actions: list[Any]) -> LessonVerdict:
        """Judge a learner's moves in a lesson with the engine (see lessons.py)."""
        return lessons.check(self, lesson_id, actions)

    def _check(self, state: MancalaState, seat: int, action: Any) -> int:
        if state.over:
            raise IllegalAction("the game is over")
        if type(seat) is not int or seat != state.player:
            raise IllegalAction(f"seat {seat!r} may not move now; seat {state.player} is to move")
        if not isinstance(action, dict) or set(action) != {"pit"}:
            raise IllegalAction(f'an action is {{"pit": i}}, got {action!r}')
        pit = action["pit"]
        n = state.rules.pits
        if type(pit) is not int or not 0 <= pit < n:
            raise IllegalAction(f"pit must be an integer 0..{n - 1}, got {pit!r}")
        if not state.board[kernel.pit_index(n, seat, pit)]:
            raise IllegalAction(f"pit {pit} is empty")
        return pit


def _level_in_words(level: Level) -> dict[str, str]:
    """A level's parameters from data.toml, said in both languages for the rule page: what a
    player can picture (reading ahead, slips), not the machine's figures (the clock, the softmax
    temperature), which docs/STRENGTH.md gives."""
    if level.depth == 0:
        return {
            "ja": f"読まない。もう1回は必ず取り、横取りに気づくのは{level.sight:.0%}、"
            f"{level.blunder:.0%}の手はうっかり",
            "en": f"No look-ahead: always takes an extra turn, notices {level.sight:.0%} of "
            f"captures, slips on {level.blunder:.0%} of moves",
        }
    if level.nodes:
        return {
            "ja": f"1手に最大{level.nodes:,}局面を読む。石が少なければ終局まで読み切る",
            "en": f"Looks at up to {level.nodes:,} positions a move; "
            "reads to the end when few stones remain",
        }
    words = {"ja": f"{level.depth}手先まで読む", "en": f"Reads {level.depth} moves ahead"}
    if level.blunder:
        words["ja"] += f"。{level.blunder:.0%}の手は感覚で選ぶ"
        words["en"] += f"; picks {level.blunder:.0%} of moves by feel"
    return words


def _path(rules: Rules, seat: int, start: int, stones: int) -> tuple[tuple[int, int], ...]:
    n = rules.pits
    size = 2 * n + 2
    skip = -1 if rules.basic else kernel.store(n, 1 - seat)
    steps = []
    idx = start
    while stones:
        idx = (idx + 1) % size
        if idx == skip:
            continue
        steps.append((idx // (n + 1), idx % (n + 1)))
        stones -= 1
    return tuple(steps)


def _grades_in_words(grades: Grades) -> dict[str, str]:
    """A variant's review classes in both languages, for the rule page's designed values."""
    g, i, m = (f"{value:g}" for value in (grades.good, grades.inaccuracy, grades.mistake))
    return {
        "ja": f"最善：損0個、好手：{g}個まで、緩手：{i}個まで、悪手：{m}個まで、大悪手：それ以上",
        "en": f"best: loses nothing; good: up to {g}; inaccuracy: up to {i}; "
        f"mistake: up to {m}; blunder: more (stones of final margin)",
    }
