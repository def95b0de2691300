"""The protocol every game keeps, and the errors it raises.

The server, the bots, the arena and the tests drive a game only through this surface, so a new
game plugs in by implementing it and adding a registry line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from asobiba.core.bots import Bot, Pace
from asobiba.core.errors import GameError, IllegalAction, InvalidOptions
from asobiba.core.options import OptionSpec
from asobiba.core.ratings import Anchor, Ladder, anchors

Action = dict[str, Any]
"""A JSON-safe move, e.g. ``{"pit": 2}``."""
Observation = dict[str, Any]
"""A JSON-safe view of a state: exactly what one seat (or a spectator) may know."""
Outcome = dict[str, Any]
"""A finished game's result: at least ``scores`` (one per seat) and ``winners`` (seat numbers)."""
RecordValue = float | list[str] | None
"""One game's value for a record field: a number, the labels a "tally" field counts, or None
(nothing to count this game)."""

S = TypeVar("S")


@dataclass(frozen=True)
class DesignedValue:
    """One row of a game's designed-values table (read from the game's one data file)."""

    name: dict[str, str]
    """``{"ja", "en"}``: what the value is for."""
    value: dict[str, str]
    """``{"ja", "en"}``: the value, in words."""
    source: str
    """"rulebook" or "designed"."""
    reason: dict[str, str]
    """``{"ja", "en"}``: one line on why."""


@dataclass(frozen=True)
class MoveValue:
    """One legal move's value in an analysed position."""

    action: Action
    value: float
    """What the deciding seat can expect after this move, in the game's own unit: Mancala's
    final margin in stones with best play by both sides (the mover's store minus the
    opponent's); a card game's points won or lost by the end of the deal, averaged over the
    hidden cards dealt again from the seat's view."""
    exact: bool
    """True when the value was searched to the end of the game: it is the true result."""


@dataclass(frozen=True)
class Analysis:
    """Every legal move of the player to move, valued by the game's engine: the review, the hint
    and the lessons read positions through this."""

    seat: int
    moves: tuple[MoveValue, ...]
    """Best first; ties keep the engine's order."""

    @property
    def best(self) -> MoveValue:
        return self.moves[0]

    def value_of(self, action: Action) -> MoveValue:
        for move in self.moves:
            if move.action == action:
                return move
        raise IllegalAction(f"{action!r} is not a legal move in the analysed position")


@dataclass(frozen=True)
class Grade:
    """One class of move in a review, by the value it lost against the best move."""

    key: str
    """"best", "good", "inaccuracy", "mistake" or "blunder" (the pages name them)."""
    most: float | None
    """The largest loss, in the game's unit, that still counts as this class; None: any loss."""


GRADE_KEYS = ("best", "good", "inaccuracy", "mistake", "blunder")
"""The classes of a review, best first: a game's ``grades`` gives each its threshold."""


@dataclass(frozen=True)
class ReviewDesign:
    """A game's data file's ``[review]`` table: how much a decision may lose for each class of
    a review, and the engine's time per decision there (``review_seconds``)."""

    grades: tuple[Grade, ...]
    """Best first, the last with ``most=None``."""
    seconds: float
    unit: dict[str, str]
    """``{"ja", "en"}``: what a loss is counted in ("points")."""
    source: str
    reason: dict[str, str]
    """``{"ja", "en"}``: one line on why, for the rule page."""

    def row(self) -> DesignedValue:
        """The rule page's row for the classes."""
        most = {g.key: g.most for g in self.grades}
        words = {
            "ja": ("最善", "好手", "緩手", "悪手", "大悪手"),
            "en": ("best", "good", "inaccuracy", "mistake", "blunder"),
        }
        value = {}
        for lang, names in words.items():
            unit = self.unit[lang]
            parts = []
            for key, name in zip(GRADE_KEYS, names, strict=True):
                limit = most[key]
                if limit is None:
                    parts.append(f"{name}：それ以上" if lang == "ja" else f"{name}: more")
                elif lang == "ja":
                    parts.append(f"{name}：損{limit:g}{unit}まで")
                else:
                    parts.append(f"{name}: loses up to {limit:g} {unit}")
            value[lang] = ("、" if lang == "ja" else "; ").join(parts)
        return DesignedValue(
            name={"ja": "振り返りの分類", "en": "Review classes"},
            value=value,
            source=self.source,
            reason=self.reason,
        )


_REVIEW_KEYS = {*GRADE_KEYS[:-1], "seconds", "unit_ja", "unit", "source", "reason", "reason_ja"}


def review_design(entry: Mapping[str, Any], game: str) -> ReviewDesign:
    """A data file's ``[review]`` table: ``best``, ``good``, ``inaccuracy`` and ``mistake``
    (the most a decision of that class may lose, rising), ``seconds``, ``unit``/``unit_ja``,
    ``source``, ``reason`` and ``reason_ja``."""
    unknown = set(entry) - _REVIEW_KEYS
    missing = _REVIEW_KEYS - set(entry)
    if unknown or missing:
        raise ValueError(f"{game} data.toml [review]: unknown {unknown or ''} missing {missing}")
    limits = [float(entry[key]) for key in GRADE_KEYS[:-1]]
    if limits != sorted(limits) or limits[0] < 0:
        raise ValueError(f"{game} data.toml [review]: the classes' limits must rise from 0")
    if entry["source"] not in ("rulebook", "designed"):
        raise ValueError(f"{game} data.toml [review]: source {entry['source']!r}")
    return ReviewDesign(
        grades=(
            *(Grade(key, most) for key, most in zip(GRADE_KEYS, limits, strict=False)),
            Grade(GRADE_KEYS[-1], None),
        ),
        seconds=float(entry["seconds"]),
        unit={"ja": entry["unit_ja"], "en": entry["unit"]},
        source=entry["source"],
        reason={"ja": entry["reason_ja"], "en": entry["reason"]},
    )


def grade(grades: tuple[Grade, ...], loss: float) -> str:
    """The class of a move that lost ``loss`` against the best one: the first of ``grades``
    (best first) whose ``most`` it does not exceed. A tiny tolerance absorbs float noise from
    values the engine scaled."""
    for entry in grades:
        if entry.most is None or loss <= entry.most + 1e-9:
            return entry.key
    raise ValueError("a game's grades must end with one that takes any loss (most=None)")


@dataclass(frozen=True)
class Covered:
    """A part of a game's rulebook that a lesson teaches: a section or a worked example."""

    id: str
    """The part's short id in the game's list of its rulebook's parts."""
    title: dict[str, str]
    """``{"ja", "en"}``: how the lesson page names it ("Calling", "Example: Moko 2, Paka 5")."""


@dataclass(frozen=True)
class DemoFrame:
    """One moment of a worked example played out: the table as the learner's seat sees it."""

    view: Observation
    """``observe(state, seat)`` of the engine's state at that moment."""
    note: dict[str, str] | None = None
    """``{"ja", "en"}``: what to see in it (the count of the cards showing), or None."""


@dataclass(frozen=True)
class Demo:
    """A worked example of the rulebook played out move by move on the real table, by the
    engine (the lesson page plays, pauses and steps back through its frames)."""

    title: dict[str, str]
    frames: tuple[DemoFrame, ...]
    seat: int | None = None
    """The seat drawn as the viewer's (None: a spectator's view)."""


@dataclass(frozen=True)
class Lesson:
    """A position to solve on the real board, with what it teaches (``/learn/<game>``)."""

    id: str
    title: dict[str, str]
    """``{"ja", "en"}``, like every text here."""
    text: dict[str, str]
    """The idea, in a few sentences."""
    task: dict[str, str]
    """What the learner is asked to do in the position."""
    seat: int
    """The learner's seat."""
    view: Observation
    """The position, as ``observe(state, seat)``."""
    legal: list[Action]
    """The learner's moves there. A game may add moves of its lessons only (Mokochaka's
    ``{"wait": true}``: let a call window run without grabbing); they are its to judge."""
    covers: tuple[Covered, ...] = ()
    """The rulebook's sections and worked examples the lesson teaches (none: not listed)."""
    demo: Demo | None = None
    """A worked example to watch before the task, or None."""


@dataclass(frozen=True)
class LessonVerdict:
    """The engine's answer to the moves a learner made in a lesson."""

    status: str
    """"right" (the lesson is done), "wrong" (the last move is refused) or "continue" (accepted;
    the learner moves again)."""
    feedback: dict[str, str]
    """``{"ja", "en"}``: why it is right, or what happened and a hint."""
    view: Observation
    """The position after the moves (after the refused one too, to show what it did)."""
    legal: list[Action]
    """The learner's moves now: empty unless ``status`` is "continue"."""


@dataclass(frozen=True)
class DrillPrompt:
    """One question of a game's trainer (``drills``): a position shown to the learner, who
    answers with one of ``legal`` within ``limit`` seconds."""

    view: Observation
    """What the learner sees (JSON-safe; never the answer)."""
    legal: list[Action]
    limit: float
    """Seconds the learner has, timed by the server (``server/sockets/trainer_socket.py``)."""
    pause: float
    """Seconds between the previous verdict and this prompt (drawn by the game from the
    session's seed, so the learner cannot anticipate it)."""


@dataclass(frozen=True)
class DrillVerdict:
    """The game's judgement of one answer in a trainer session."""

    right: bool
    kind: str
    """The kind of question, one of ``drill_kinds()``: the trainer scores each kind apart."""
    correct: list[Action]
    """Every right answer."""
    feedback: dict[str, str]
    """``{"ja", "en"}``: one line on why."""


@dataclass(frozen=True)
class DrillAnswer:
    """One question of a finished trainer session as the server measured it."""

    prompt: DrillPrompt
    verdict: DrillVerdict
    seconds: float | None
    """From the prompt's arrival at the learner to the answer leaving them, as the server
    measured it; None when no answer came in time."""


@dataclass(frozen=True)
class RecordField:
    """A figure the records page keeps beside wins and losses, per rule set × number of players
    × strength × seat (e.g. Mokochaka's cards at the end)."""

    key: str
    label: dict[str, str]
    """``{"ja", "en"}``: the column's heading."""
    how: str
    """How a row combines its games' values: "mean", "min" or "max" of numbers, or "tally": each
    game gives a list of labels and the row counts how often each was seen (missing values
    skipped)."""
    digits: int = 0
    """Decimals shown."""
    names: Mapping[str, dict[str, str]] = field(default_factory=dict)
    """A "tally" field's labels in the order shown: ``{label: {"ja": ..., "en": ...}}``."""


__all__ = [
    "GRADE_KEYS",
    "Action",
    "Analysis",
    "Covered",
    "Demo",
    "DemoFrame",
    "DesignedPace",
    "DesignedValue",
    "DrillAnswer",
    "DrillPrompt",
    "DrillVerdict",
    "Game",
    "GameError",
    "Grade",
    "IllegalAction",
    "InvalidOptions",
    "Lesson",
    "LessonVerdict",
    "MoveValue",
    "Observation",
    "Outcome",
    "RecordField",
    "RecordValue",
    "ReviewDesign",
    "analyses",
    "analysis_of",
    "automatic",
    "choices",
    "drills",
    "explanation",
    "first_state",
    "grade",
    "grades_of",
    "pace_of",
    "pace_value",
    "paces_from",
    "rating_anchors",
    "rating_families",
    "rating_family",
    "rating_key",
    "revealed",
    "reveals",
    "review_design",
    "review_seconds",
    "reviews",
    "slowest_of",
    "standin_seconds",
    "teaches",
    "view_of",
]


class Game(Protocol[S]):
    """What every game module exposes (see docs/ARCHITECTURE.md, "The game protocol").

    Optional: ``reveal(state, seat) -> Observation``, ``observe(state, seat)`` with every hidden
    card shown, for the replay of a finished game only (see ``revealed``). A game that hides
    nothing from the table leaves it out.

    Optional: ``pace(level) -> Pace | None``, how long that level's bot seems to take before
    its move shows (see ``pace_of``).

    Optional: ``slowest(level) -> float | None``, that level's slowest decision measured on the
    development machine, in seconds (see ``slowest_of``).

    Optional: ``rating_family(options, seats) -> str``, the rule family a game is rated in, and
    ``rating_ladders() -> Mapping[str, Ladder]``, every family the game rates with its bot
    levels' arena ladder (see ``rating_key``, ``rating_families``, ``rating_anchors``).
    """

    name: str
    min_seats: int
    max_seats: int
    levels: list[str]

    def options_spec(self) -> list[OptionSpec]: ...

    def resolve_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Validate ``options`` and fill in defaults; the result names one rule set exactly."""
        ...

    def new_state(self, options: Mapping[str, Any], seats: int, seed: int) -> S: ...

    def to_move(self, state: S) -> frozenset[int]: ...

    def legal_actions(self, state: S, seat: int) -> list[Action]: ...

    def apply(self, state: S, seat: int, action: Action, at: float | None = None) -> S: ...

    def observe(self, state: S, seat: int | None) -> Observation: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def deadline(self, state: S) -> float | None: ...

    def advance(self, state: S, at: float) -> S: ...

    def make_bot(self, level: str, seed: int) -> Bot: ...

    def level_names(self) -> dict[str, dict[str, str]]:
        """Display names of the bot levels: ``{level: {"ja": ..., "en": ...}}``."""
        ...

    def designed_values(self) -> list[DesignedValue]:
        """The values the rulebook leaves open and asobiba chose, as the rule page shows them."""
        ...

    def record_fields(self) -> list[RecordField]:
        """The game's own figures on the records page, beyond wins, draws and losses."""
        ...

    def record(self, outcome: Outcome, seat: int) -> Mapping[str, RecordValue]:
        """What a finished game adds to ``seat``'s record, one value per ``record_fields`` key
        (None: nothing to count this game)."""
        ...


def analyses(game: Game[Any]) -> bool:
    """True when ``game``'s engine can value every move of a position (reviews, hints):
    ``analyse(state, seconds, seat=None) -> Analysis`` and ``explain(state, action, seat=None)
    -> {"ja", "en"}``. ``seat`` is whose decision it is; None means the one seat to move, and a
    game where several seats may act at once (MICHIKAKE's claim windows) needs it. A game that
    hides cards values a decision from ``observe(state, seat)`` alone (docs/ARCHITECTURE.md,
    "Card games' analysis sees one seat's view")."""
    return callable(getattr(game, "analyse", None)) and callable(getattr(game, "explain", None))


def analysis_of(game: Game[S], state: S, seconds: float, seat: int | None = None) -> Analysis:
    """``seat``'s decision in ``state`` valued by ``game``'s engine in about ``seconds``, for a
    game that ``analyses``."""
    analysis: Analysis = game.analyse(state, seconds, seat)  # type: ignore[attr-defined]
    return analysis


def explanation(game: Game[S], state: S, action: Action, seat: int | None = None) -> dict[str, str]:
    """``{"ja", "en"}``: why ``action`` is worth playing for ``seat`` in ``state``, one line."""
    why: dict[str, str] = game.explain(state, action, seat)  # type: ignore[attr-defined]
    return why


def view_of(game: Game[S], state: S, seat: int | None) -> Observation:
    """``observe(state, seat)`` of the seat whose decision a card game's analysis values: the
    only thing such an analysis reads. ``seat`` None names the one seat to move; when several
    may act at once the caller must say which (``IllegalAction``)."""
    if seat is None:
        movers = game.to_move(state)
        if len(movers) != 1:
            raise IllegalAction(f"{len(movers)} seats may act now: say whose decision to value")
        (seat,) = movers
    return game.observe(state, seat)


def choices(game: Game[S], state: S, seat: int) -> list[Action]:
    """The legal actions of ``seat`` that are different decisions: the game's optional
    ``choices(state, seat)`` (MOMOJAN's draws from its three piles are one, as the seat knows
    nothing of their order), else ``legal_actions``. A review values only a decision with more
    than one."""
    hook = getattr(game, "choices", None)
    found: list[Action] = hook(state, seat) if callable(hook) else game.legal_actions(state, seat)
    return found


def review_seconds(game: Game[Any], options: Mapping[str, Any], most: float) -> float:
    """The engine's time per decision in a review of a ``game`` played under ``options``: the
    game's optional ``review_seconds(options)`` (a card game reviews many more decisions than a
    Mancala game has moves), at most ``most``, the server's own setting."""
    hook = getattr(game, "review_seconds", None)
    return min(most, float(hook(options))) if callable(hook) else most


def reviews(game: Game[Any]) -> bool:
    """True when a finished game of ``game`` can be reviewed: its engine values moves
    (``analyses``) and it declares how much a move may lose for each class,
    ``grades(options) -> tuple[Grade, ...]`` (best first, the last with ``most=None``)."""
    return analyses(game) and callable(getattr(game, "grades", None))


def grades_of(game: Game[Any], options: Mapping[str, Any]) -> tuple[Grade, ...]:
    """The classes of a review under ``options``, for a game that ``reviews``."""
    grades: tuple[Grade, ...] = game.grades(options)  # type: ignore[attr-defined]
    return grades


def teaches(game: Game[Any]) -> bool:
    """True when ``game`` has lessons: ``lessons() -> list[Lesson]`` and
    ``check_lesson(lesson_id, actions) -> LessonVerdict``, which replays the learner's moves
    from the lesson's position, judges each with the game's engine, and raises ``IllegalAction``
    for a move that is not legal there and ``KeyError`` for an unknown lesson."""
    return callable(getattr(game, "lessons", None)) and callable(
        getattr(game, "check_lesson", None)
    )


def drills(game: Game[Any]) -> bool:
    """True when ``game`` has a trainer (``/learn/<game>/trainer``): ``drill(seed) ->
    list[DrillPrompt]`` (a whole session, drawn from ``seed``), ``judge_drill(prompt, action,
    seconds) -> DrillVerdict`` (``action`` None: no answer in time; raises ``IllegalAction``
    for an answer not in ``prompt.legal``), ``drill_kinds() -> {kind: {"ja", "en"}}`` and
    ``drill_summary(answers: list[DrillAnswer]) -> dict`` (JSON-safe: at least ``kinds``, one
    ``{"kind", "tries", "right", "accuracy", "seconds"}`` per kind asked, and the same figures
    for the whole session; ``seconds`` is the mean of the right answers' times or None)."""
    return all(
        callable(getattr(game, name, None))
        for name in ("drill", "judge_drill", "drill_kinds", "drill_summary")
    )


STANDIN_SECONDS = 30.0
"""How long a turn game waits for an absent person before a stand-in plays for them."""


def standin_seconds(game: Game[Any]) -> float:
    """The grace before a stand-in plays for a person who left a table between people: the
    game's optional ``standin_seconds`` (a speed game cannot wait as long), else
    ``STANDIN_SECONDS``."""
    return float(getattr(game, "standin_seconds", STANDIN_SECONDS))


def first_state(game: Game[S], options: Mapping[str, Any], seats: int, seed: int, people: int) -> S:
    """The first state of a game at which ``people`` of the ``seats`` are persons (the rest
    bots): the game's optional ``new_table(options, seats, seed, people)``, else its
    ``new_state``. A game whose timed waits would show a person's hidden cards by ending early
    (MICHIKAKE's claim windows, when a seat that cannot claim is never asked) keeps them their
    full length between people."""
    new_table = getattr(game, "new_table", None)
    if callable(new_table):
        state: S = new_table(options, seats, seed, people)
        return state
    return game.new_state(options, seats, seed)


def automatic(game: Game[S], state: S, seat: int) -> Action | None:
    """The action ``seat`` gives in ``state`` without being asked: the game's optional
    ``automatic(state, seat) -> Action | None`` (an answer that carries no choice, such as a
    pass in a claim window the seat cannot use), else None. The room plays it at once for a
    person's seat and shows them no control for it; a bot still answers at its pace, so the
    time its answer takes never shows that it had no choice."""
    hook = getattr(game, "automatic", None)
    if not callable(hook):
        return None
    action: Action | None = hook(state, seat)
    return action


def reveals(game: Game[Any]) -> bool:
    """True when ``game`` has cards its players do not see that a finished game can show."""
    return callable(getattr(game, "reveal", None))


def revealed(game: Game[S], state: S, seat: int | None) -> Observation:
    """``seat``'s view of ``state`` with nothing hidden: the game's ``reveal`` where it has one,
    else its ``observe``. Only for a game that is over: the room never sends it, the replay API
    gives it only for finished games."""
    reveal = getattr(game, "reveal", None)
    view: Observation = reveal(state, seat) if callable(reveal) else game.observe(state, seat)
    return view


def pace_of(game: Game[Any], level: str) -> Pace | None:
    """The pace at which the room shows the moves of ``game``'s bot of ``level``: the game's
    optional ``pace(level) -> Pace | None``, or None when it has none.

    A turn-based game's bots compute for longer or shorter depending on their cards, so the
    room does not show a move when the bot's worker answers but ``pace.draw(rng)`` seconds
    after it asked (the later of the two if a decision ever overruns the floor), passes and
    claim answers alike. None: act on the bot's own ``Timed.after`` (a real-time game such as
    Mokochaka, whose bots already return a human reaction time). An unknown level raises
    ``InvalidOptions``, as ``make_bot`` does."""
    pace = getattr(game, "pace", None)
    if not callable(pace):
        return None
    value = pace(level)
    if value is not None and not isinstance(value, Pace):
        raise TypeError(f"{game.name}.pace({level!r}) returned {value!r}, not a Pace or None")
    return value


def slowest_of(game: Game[Any], level: str) -> float | None:
    """The slowest decision of ``game``'s bot of ``level`` as measured on the development
    machine (the game's optional ``slowest(level)``, e.g. its data file's ``[[pace]]``
    ``slowest``), or None when the game does not say. The server asks a bot whose every
    decision is known to be a few milliseconds at most in its event loop instead of a worker
    process (``server/rooms/botpool.py``)."""
    slowest = getattr(game, "slowest", None)
    if not callable(slowest):
        return None
    value = slowest(level)
    if value is not None and not isinstance(value, float):
        raise TypeError(f"{game.name}.slowest({level!r}) returned {value!r}, not seconds")
    return value


@dataclass(frozen=True)
class DesignedPace:
    """One bot level's pace as a game's data file designs it (``[[pace]]``)."""

    level: str
    pace: Pace
    slowest: float
    """Seconds: the level's slowest decision measured on the development machine (the
    benchmark named in the data file); ``pace.floor`` stays well above it."""
    source: str
    reason: dict[str, str]
    """``{"ja", "en"}``: one line on why, for the rule page."""


_PACE_KEYS = {
    "level",
    "floor",
    "median",
    "ceiling",
    "spread",
    "slowest",
    "source",
    "reason",
    "reason_en",
    "reason_ja",
}


def paces_from(
    entries: list[dict[str, Any]], levels: list[str], game: str
) -> dict[str, DesignedPace]:
    """A data file's ``[[pace]]`` entries, one per level of ``levels`` (in that order): keys
    ``level``, ``floor``, ``median``, ``ceiling``, ``spread``, ``slowest``, ``source`` and
    ``reason_ja`` with ``reason`` or ``reason_en`` (each game keeps its file's spelling)."""
    paces: dict[str, DesignedPace] = {}
    for entry in entries:
        level = entry["level"]
        unknown = set(entry) - _PACE_KEYS
        if unknown:
            raise ValueError(f"{game} data.toml: pace {level!r} has unknown keys {sorted(unknown)}")
        if level not in levels or level in paces:
            raise ValueError(f"{game} data.toml: pace for unknown or repeated level {level!r}")
        if entry["source"] not in ("rulebook", "designed"):
            raise ValueError(f"{game} data.toml: pace {level!r} has source {entry['source']!r}")
        paces[level] = DesignedPace(
            level=level,
            pace=Pace(
                floor=float(entry["floor"]),
                median=float(entry["median"]),
                ceiling=float(entry["ceiling"]),
                spread=float(entry["spread"]),
            ),
            slowest=float(entry["slowest"]),
            source=entry["source"],
            reason={"ja": entry["reason_ja"], "en": entry.get("reason_en") or entry["reason"]},
        )
    missing = [level for level in levels if level not in paces]
    if missing:
        raise ValueError(f"{game} data.toml: no pace for the levels {missing}")
    return {level: paces[level] for level in levels}


def designed_pace(paces: Mapping[str, DesignedPace], level: str, game: str) -> Pace:
    """``level``'s pace from a game's ``paces_from``; an unknown level raises
    ``InvalidOptions``, as ``make_bot`` does."""
    try:
        return paces[level].pace
    except KeyError:
        raise InvalidOptions(f"unknown {game} bot level {level!r}; known: {list(paces)}") from None


def designed_slowest(paces: Mapping[str, DesignedPace], level: str, game: str) -> float:
    """``level``'s slowest measured decision from a game's ``paces_from``; an unknown level
    raises ``InvalidOptions``."""
    try:
        return paces[level].slowest
    except KeyError:
        raise InvalidOptions(f"unknown {game} bot level {level!r}; known: {list(paces)}") from None


def pace_rows(
    paces: Mapping[str, DesignedPace], names: Mapping[str, Mapping[str, str]]
) -> list[DesignedValue]:
    """The rule page's rows for every level's pace, weakest first; ``names`` is the game's
    ``level_names()``."""
    return [pace_value(names[level], designed) for level, designed in paces.items()]


def pace_value(level_name: Mapping[str, str], designed: DesignedPace) -> DesignedValue:
    """The rule page's row for one level's pace (``level_name`` is ``{"ja", "en"}``): the
    range and the median, as a player would time them, and the data file's reason."""
    pace = designed.pace
    return DesignedValue(
        name={
            "ja": f"動くまでの時間：{level_name['ja']}",
            "en": f"Time to move: {level_name['en']}",
        },
        value={
            "ja": f"{pace.floor:.1f}〜{pace.ceiling:.1f}秒（毎回ちがう長さ。"
            f"半分は{pace.median:.1f}秒未満）",
            "en": f"a random {pace.floor:.1f} to {pace.ceiling:.1f} s; "
            f"half the time under {pace.median:.1f} s",
        },
        source=designed.source,
        reason=dict(designed.reason),
    )


def rating_family(game: Game[Any], options: Mapping[str, Any], seats: int) -> str:
    """The rule family a game of ``game`` under ``options`` at ``seats`` seats is rated in: the
    game's optional ``rating_family(options, seats)`` (Mancala's variant, MICHIKAKE's number of
    players), else the number of players (``"3p"``): people are compared only with people who
    played the same kind of game."""
    hook = getattr(game, "rating_family", None)
    return str(hook(options, seats)) if callable(hook) else f"{seats}p"


def rating_key(game: Game[Any], options: Mapping[str, Any], seats: int) -> str:
    """The ratings such a game changes: ``"<game>/<family>"`` (``rating_family``)."""
    return f"{game.name}/{rating_family(game, options, seats)}"


def rating_families(game: Game[Any]) -> list[str]:
    """Every rule family ``game`` rates (its leaderboards): the keys of its optional
    ``rating_ladders()``, else one per number of players from two."""
    ladders = getattr(game, "rating_ladders", None)
    if callable(ladders):
        return list(ladders())
    return [f"{seats}p" for seats in range(max(2, game.min_seats), game.max_seats + 1)]


def rating_anchors(game: Game[Any], family: str) -> dict[str, Anchor]:
    """The fixed rating of each bot level of ``game`` in ``family`` (``core.ratings.anchors``
    of the game's ladder); empty for a game or family without a ladder, whose games against
    bots are then not rated."""
    ladders = getattr(game, "rating_ladders", None)
    ladder: Ladder | None = ladders().get(family) if callable(ladders) else None
    return {} if ladder is None else anchors(ladder)
