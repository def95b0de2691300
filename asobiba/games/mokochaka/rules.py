"""Mokochaka behind the game protocol: the referee's rulebook, fed with times by the room.

A turn: the flipper puts the top card of their face-down hand on a pile (``{"flip": pile}``);
then, until ``call_seconds`` after the flip, the flipper calls (``{"call": word}``) and anyone
may grab the token while calling a special (``{"grab": word}``). The first grab opens a short
window (``grab_window``) in which later-arriving grabs still join the race, ordered by their
``at`` (the room passes latency-compensated times). The phase is settled ("resolved") by the
flipper's call when no special holds and no race is open, by the window closing, or by the
call timer. Settling gives the token winner their piles (``{"take": [piles]}``) and each
penalized player their recipient (``{"give": seat}``), each with a timeout and a default
choice. A turn that ends with any hand empty ends the game.

Nobody sees any hand, their own included; the observation is the same for every seat but for
``seat`` (everything in it is public: sizes, showing cards, what was said and when).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from asobiba.core.bots import Bot
from asobiba.core.errors import IllegalAction, InvalidOptions
from asobiba.core.game import (
    DesignedValue,
    DrillAnswer,
    DrillPrompt,
    DrillVerdict,
    Lesson,
    LessonVerdict,
    RecordField,
)
from asobiba.core.options import OptionSpec, resolve_options
from asobiba.core.ratings import Ladder
from asobiba.core.rng import deal_rng, is_seed
from asobiba.games.mokochaka import data, lessons, trainer
from asobiba.games.mokochaka.bots import make_bot
from asobiba.games.mokochaka.cards import CALLS, SPECIALS, judge
from asobiba.games.mokochaka.data import LADDERS, LEVELS, NUMBERS
from asobiba.games.mokochaka.state import (
    MokochakaState,
    Said,
    Step,
    event_json,
    flip_choices,
    make_event,
    new_deck,
    showing,
    take_choices,
)

OPTIONS: list[OptionSpec] = []
"""Mokochaka has no option rules; the number of players is the seat count."""

PHASES = ("flip", "call", "take", "give", "over")
PENALTY_REASONS = ("wrong_call", "too_slow", "false_grab", "wrong_special")
"""Why a player is penalized: a wrong plain call (a special word said without grabbing is
one); no call before the timer, or a call or grab 3 s or more after the flip; a grab when no
special holds; a grab with a special word that does not hold."""


class _Table:
    """A mutable working copy of a state for one transition; ``freeze`` makes the new state."""

    def __init__(self, s: MokochakaState) -> None:
        self.s = s
        self.n = s.seats
        self.hands = [list(hand) for hand in s.hands]
        self.piles = [list(pile) for pile in s.piles]
        self.turn = s.turn
        self.phase = s.phase
        self.since = s.since
        self.now = s.now
        self.said = list(s.said)
        self.window_end = s.window_end
        self.steps = list(s.steps)
        self.resume = s.resume
        self.fastest = list(s.fastest)
        self.events = list(s.events)
        self.serial = s.serial
        self.flips = s.flips

    def freeze(self) -> MokochakaState:
        return replace(
            self.s,
            hands=tuple(tuple(hand) for hand in self.hands),
            piles=tuple(tuple(pile) for pile in self.piles),
            turn=self.turn,
            phase=self.phase,
            since=self.since,
            now=self.now,
            said=tuple(self.said),
            window_end=self.window_end,
            steps=tuple(self.steps),
            resume=self.resume,
            fastest=tuple(self.fastest),
            events=tuple(self.events[-NUMBERS.events_kept :]),
            serial=self.serial,
            flips=self.flips,
        )

    def log(self, kind: str, **fields: Any) -> None:
        self.serial += 1
        self.events.append(make_event(kind, self.serial, fields))

    def tick(self, at: float) -> None:
        self.now = at if self.now is None else max(self.now, at)

    # --- the turn ---------------------------------------------------------------------------

    def flip(self, pile: int, at: float, auto: bool) -> None:
        card = self.hands[self.turn].pop(0)
        self.piles[pile].append(card)
        self.phase, self.since = "call", at
        self.said, self.window_end = [], None
        self.flips += 1
        self.log("flip", seat=self.turn, pile=pile, card=str(card), at=at, auto=auto)

    def resolve(self, at: float, cause: str) -> None:
        """Settle the call phase at ``at``; ``cause`` is "call", "window" or "timeout"."""
        assert self.since is not None
        top = showing(self.piles)
        correct = judge(top)
        specials = correct & set(SPECIALS)
        self.log("judgement", top=[str(card) for card in top], correct=sorted(correct), at=at)
        said = sorted(self.said, key=lambda x: (x.at, x.order))
        limit = self.since + NUMBERS.call_seconds
        grabs = [x for x in said if x.grab]
        right = [g for g in grabs if g.word in specials and g.at < limit]
        winner = right[0] if right else None
        offences: list[tuple[float, int, int, str]] = []
        for g in grabs:
            if g in right:
                self.record_fastest(g.seat, g.at)
            elif g.at >= limit:
                offences.append((g.at, g.order, g.seat, "too_slow"))
            else:
                reason = "wrong_special" if specials else "false_grab"
                offences.append((g.at, g.order, g.seat, reason))
        call = next((x for x in said if not x.grab), None)
        if call is not None:
            if call.at >= limit:
                offences.append((call.at, call.order, call.seat, "too_slow"))
            elif specials or call.word not in correct:
                offences.append((call.at, call.order, call.seat, "wrong_call"))
            else:
                self.record_fastest(call.seat, call.at)
        elif cause == "timeout" and self.turn not in {g.seat for g in grabs}:
            offences.append((limit, len(said), self.turn, "too_slow"))
        offences.sort()
        if winner is not None:
            self.log("token", seat=winner.seat, word=winner.word, at=winner.at)
        for when, _, seat, reason in offences:
            self.log("penalty", seat=seat, reason=reason, at=when)
        self.said, self.window_end = [], None
        self.steps = [Step("take", winner.seat, winner.word)] if winner else []
        self.steps += [Step("give", seat, reason) for _, _, seat, reason in offences]
        if winner is not None:
            self.resume = winner.seat
        elif offences:
            self.resume = (offences[0][2] + 1) % self.n
        else:
            self.resume = (self.turn + 1) % self.n
        self.proceed(at)

    def record_fastest(self, seat: int, at: float) -> None:
        assert self.since is not None
        took = round(at - self.since, 3)
        best = self.fastest[seat]
        self.fastest[seat] = took if best is None else min(best, took)

    def proceed(self, at: float) -> None:
        """Do the owed steps that need no choice; stop at the first that does, or end the turn."""
        while self.steps:
            step = self.steps[0]
            if step.kind == "take":
                choices = take_choices(self.piles, self.n)
                if len(choices) > 1:
                    self.phase, self.since = "take", at
                    return
                self.take(choices[0], at, "forced")
            else:
                if self.hands[step.seat] and self.n > 2:
                    self.phase, self.since = "give", at
                    return
                self.give((step.seat + 1) % self.n, at, "forced")
        self.end_turn(at)

    def take(self, piles: tuple[int, ...], at: float, how: str) -> None:
        step = self.steps.pop(0)
        hand = self.hands[step.seat]
        cards = 0
        for i in piles:
            hand.extend(self.piles[i])
            cards += len(self.piles[i])
            self.piles[i] = []
        self.log("take", seat=step.seat, piles=list(piles), cards=cards, how=how, at=at)
        if step.reason == "chakamokochaka":
            donors = []
            for k in range(1, self.n):
                other = (step.seat + k) % self.n
                if self.hands[other]:
                    hand.append(self.hands[other].pop(0))
                    donors.append(other)
            self.log("bonus", seat=step.seat, donors=donors, cards=len(donors), at=at)

    def give(self, to: int, at: float, how: str) -> None:
        step = self.steps.pop(0)
        hand = self.hands[step.seat]
        count = min(NUMBERS.penalty(self.n), len(hand))
        self.hands[to].extend(hand[:count])
        del hand[:count]
        self.log(
            "give",
            seat=step.seat,
            to=to if count else None,
            cards=count,
            reason=step.reason,
            how=how,
            at=at,
        )

    def end_turn(self, at: float) -> None:
        if any(not hand for hand in self.hands):
            self.phase, self.since = "over", None
            self.log("end", emptied=[i for i, hand in enumerate(self.hands) if not hand], at=at)
            return
        self.phase, self.since, self.turn = "flip", at, self.resume


def _time(at: Any) -> float | None:
    if at is None:
        return None
    if type(at) not in (int, float) or not math.isfinite(at):
        raise IllegalAction(f"at must be a finite number of seconds or None, got {at!r}")
    return float(at)


class Mokochaka:
    """The Mokochaka game module (see docs/ARCHITECTURE.md, "Mokochaka specifics")."""

    name = "mokochaka"
    standin_seconds = 10.0
    """A speed game: a seat left empty for long holds up every call, so a stand-in comes sooner
    than in a turn game (``core.game.standin_seconds``)."""
    min_seats = NUMBERS.min_seats
    max_seats = NUMBERS.max_seats

    def __init__(self) -> None:
        self.levels: list[str] = [level.id for level in LEVELS]

    def options_spec(self) -> list[OptionSpec]:
        return OPTIONS

    def resolve_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return resolve_options(OPTIONS, options)

    def level_names(self) -> dict[str, dict[str, str]]:
        return {level.id: {"ja": level.name_ja, "en": level.name_en} for level in LEVELS}

    def designed_values(self) -> list[DesignedValue]:
        return data.designed_values()

    def rating_family(self, options: Mapping[str, Any], seats: int) -> str:
        """Rated by the number of players (``core.game.rating_key``: ``mokochaka/3p``): a race
        against one other is another game than against five."""
        return f"{seats}p"

    def rating_ladders(self) -> dict[str, Ladder]:
        """Every rule family rated, with its bot levels' arena ladder (data.toml
        ``[[ladders]]``)."""
        return LADDERS

    def pace(self, level: str) -> None:
        """No pace: Mokochaka is real-time and its bots already return their own human
        reaction time (``Timed.after``, never under 0.15 s from the flip), while a decision
        takes at most a few milliseconds, far below that. An unknown level is refused."""
        if level not in self.levels:
            raise InvalidOptions(f"unknown level {level!r}; levels: {self.levels}")
        return None

    def lessons(self) -> list[Lesson]:
        """The course of /learn/mokochaka (lessons.toml)."""
        return list(lessons.lessons(self))

    def check_lesson(self, lesson_id: str, actions: list[Any]) -> LessonVerdict:
        """Judge a learner's moves in a lesson with the engine (see lessons.py)."""
        return lessons.check(self, lesson_id, actions)

    def drill(self, seed: int) -> list[DrillPrompt]:
        """A call trainer session drawn from ``seed`` (see trainer.py)."""
        return trainer.drill(seed)

    def judge_drill(self, prompt: DrillPrompt, action: Any, seconds: float | None) -> DrillVerdict:
        return trainer.judge_drill(prompt, action, seconds)

    def drill_kinds(self) -> dict[str, dict[str, str]]:
        return trainer.drill_kinds()

    def drill_summary(self, answers: list[DrillAnswer]) -> dict[str, Any]:
        return trainer.drill_summary(answers)

    def make_bot(self, level: str, seed: int) -> Bot:
        if level not in self.levels:
            raise InvalidOptions(f"unknown level {level!r}; levels: {self.levels}")
        return make_bot(level, seed)

    # --- set-up -----------------------------------------------------------------------------

    def new_state(
        self, options: Mapping[str, Any], seats: int = 2, seed: int = 0
    ) -> MokochakaState:
        if type(seats) is not int or not self.min_seats <= seats <= self.max_seats:
            raise InvalidOptions(
                f"mokochaka is played by {self.min_seats} to {self.max_seats} seats, not {seats!r}"
            )
        if not is_seed(seed):
            raise InvalidOptions(f"seed must be an integer, got {seed!r}")
        resolved = self.resolve_options(options)
        rng = deal_rng(seed, "deal/0", int(seed))
        deck = new_deck()
        rng.shuffle(deck)
        piles = [[card] for card in deck[: NUMBERS.piles]]
        rest = deck[NUMBERS.piles :]
        each = len(rest) // seats
        hands = [tuple(rest[i * each : (i + 1) * each]) for i in range(seats)]
        for i, card in enumerate(rest[seats * each :]):
            piles[i % NUMBERS.piles].append(card)
        start = rng.randrange(seats)
        return MokochakaState(
            options=tuple(sorted(resolved.items())),
            seats=seats,
            hands=tuple(hands),
            piles=tuple(tuple(pile) for pile in piles),
            start_player=start,
            turn=start,
            phase="flip",
            since=None,
            now=None,
            resume=start,
            fastest=(None,) * seats,
            events=(make_event("start", 1, {"seat": start}),),
            serial=1,
        )

    # --- who acts, and how ------------------------------------------------------------------

    def to_move(self, state: MokochakaState) -> frozenset[int]:
        if state.phase == "over":
            return frozenset()
        if state.phase == "flip":
            return frozenset((state.turn,))
        if state.phase == "call":
            acted = {x.seat for x in state.said}
            return frozenset(seat for seat in range(state.seats) if seat not in acted)
        return frozenset((state.steps[0].seat,))

    def legal_actions(self, state: MokochakaState, seat: int) -> list[dict[str, Any]]:
        if type(seat) is not int or seat not in self.to_move(state):
            return []
        if state.phase == "flip":
            return [{"flip": pile} for pile in flip_choices(state.piles)]
        if state.phase == "call":
            grabs: list[dict[str, Any]] = [{"grab": word} for word in SPECIALS]
            if seat == state.turn:
                return [{"call": word} for word in CALLS] + grabs
            return grabs
        if state.phase == "take":
            return [{"take": list(piles)} for piles in take_choices(state.piles, state.seats)]
        return [{"give": other} for other in range(state.seats) if other != seat]

    def apply(
        self, state: MokochakaState, seat: int, action: Any, at: float | None = None
    ) -> MokochakaState:
        when = _time(at)
        if state.phase == "over":
            raise IllegalAction("the game is over")
        if type(seat) is not int or not 0 <= seat < state.seats:
            raise IllegalAction(f"no seat {seat!r} in a game of {state.seats}")
        if seat not in self.to_move(state):
            raise IllegalAction(
                f"seat {seat} may not act now: {state.phase} phase, "
                f"to move: {sorted(self.to_move(state))}"
            )
        if not isinstance(action, dict) or len(action) != 1:
            raise IllegalAction(f"an action is an object with one key, got {action!r}")
        ((key, value),) = action.items()
        legal_keys = {next(iter(a)) for a in self.legal_actions(state, seat)}
        if key not in legal_keys:
            raise IllegalAction(
                f"{key!r} is not an action seat {seat} may take in the {state.phase} phase; "
                f"it may: {sorted(legal_keys)}"
            )
        t = _Table(state)
        if key == "flip":
            if type(value) is not int or {"flip": value} not in self.legal_actions(state, seat):
                raise IllegalAction(
                    f"cannot flip onto pile {value!r}; piles allowed: {flip_choices(state.piles)}"
                )
            now = self._clamped(state, when)
            t.tick(now)
            t.flip(value, now, auto=False)
        elif key in ("call", "grab"):
            words = CALLS if key == "call" else SPECIALS
            if type(value) is not str or value not in words:
                raise IllegalAction(f"{key} must be one of {list(words)}, got {value!r}")
            self._say(state, t, seat, value, key == "grab", when)
        elif key == "take":
            piles = self._piles(state, value)
            now = self._clamped(state, when)
            t.tick(now)
            t.take(piles, now, "chosen")
            t.proceed(now)
        else:
            if type(value) is not int or not 0 <= value < state.seats or value == seat:
                raise IllegalAction(
                    f"give must name another seat (0..{state.seats - 1}, not {seat}), got {value!r}"
                )
            now = self._clamped(state, when)
            t.tick(now)
            t.give(value, now, "chosen")
            t.proceed(now)
        return t.freeze()

    def _clamped(self, state: MokochakaState, at: float | None) -> float:
        """A choice's time: never before the latest time seen (only calls and grabs may be)."""
        now = 0.0 if state.now is None else state.now
        return now if at is None else max(at, now)

    def _piles(self, state: MokochakaState, value: Any) -> tuple[int, ...]:
        choices = take_choices(state.piles, state.seats)
        if (
            isinstance(value, list)
            and all(type(i) is int for i in value)
            and tuple(sorted(value)) in choices
            and len(set(value)) == len(value)
        ):
            return tuple(sorted(value))
        raise IllegalAction(
            f"take must list piles as one of {[list(c) for c in choices]}, got {value!r}"
        )

    def _say(
        self, state: MokochakaState, t: _Table, seat: int, word: str, grab: bool, at: float | None
    ) -> None:
        assert state.since is not None
        when = (state.now if state.now is not None else state.since) if at is None else at
        if when < state.since:
            raise IllegalAction(f"at {when:g} is before the flip at {state.since:g}")
        t.tick(when)
        t.said.append(Said(seat, word, when, grab, len(t.said)))
        t.log("grab" if grab else "call", seat=seat, word=word, at=when)
        if grab and t.window_end is None:
            t.window_end = when + NUMBERS.grab_window
        if not grab and t.window_end is None and not judge(showing(t.piles)) & set(SPECIALS):
            assert t.now is not None
            t.resolve(t.now, "call")

    # --- time -------------------------------------------------------------------------------

    def deadline(self, state: MokochakaState) -> float | None:
        if state.since is None or state.phase == "over":
            return None
        if state.phase == "flip":
            return state.since + NUMBERS.flip_seconds
        if state.phase == "call":
            if state.window_end is not None:
                return state.window_end
            return state.since + NUMBERS.call_seconds
        return state.since + NUMBERS.choice_seconds

    def advance(self, state: MokochakaState, at: float) -> MokochakaState:
        when = _time(at)
        if when is None:
            raise IllegalAction("advance needs a time")
        due = self.deadline(state)
        while due is not None and due <= when:
            state = self._fire(state, due)
            due = self.deadline(state)
        return state

    def _fire(self, state: MokochakaState, due: float) -> MokochakaState:
        """The timed event due at ``due``: a default flip, take or give, or settling a call."""
        t = _Table(state)
        t.tick(due)
        if state.phase == "flip":
            t.flip(flip_choices(state.piles)[0], due, auto=True)
        elif state.phase == "call":
            t.resolve(due, "window" if state.window_end is not None else "timeout")
        elif state.phase == "take":
            t.take(take_choices(state.piles, state.seats)[0], due, "timeout")
            t.proceed(due)
        else:
            t.give((state.steps[0].seat + 1) % state.seats, due, "timeout")
            t.proceed(due)
        return t.freeze()

    # --- what each seat sees ----------------------------------------------------------------

    def observe(self, state: MokochakaState, seat: int | None = None) -> dict[str, Any]:
        if seat is not None and (type(seat) is not int or not 0 <= seat < state.seats):
            raise IllegalAction(
                f"seat must be 0..{state.seats - 1} or None (a spectator), got {seat!r}"
            )
        choice = None
        if state.phase in ("take", "give"):
            step = state.steps[0]
            choice = {
                "kind": step.kind,
                "seat": step.seat,
                "count": NUMBERS.take(state.seats)
                if step.kind == "take"
                else NUMBERS.penalty(state.seats),
                "reason": step.reason,
            }
        return {
            "game": self.name,
            "options": dict(state.options),
            "seats": state.seats,
            "seat": seat,
            "phase": state.phase,
            "turn": state.turn,
            "to_move": sorted(self.to_move(state)),
            "start_player": state.start_player,
            "hands": [len(hand) for hand in state.hands],
            "piles": [
                {"top": str(pile[-1]) if pile else None, "size": len(pile)} for pile in state.piles
            ],
            "flips": state.flips,
            "flip_at": state.since if state.phase == "call" else None,
            "call_deadline": (
                state.since + NUMBERS.call_seconds
                if state.phase == "call" and state.since is not None
                else None
            ),
            "window_end": state.window_end,
            "deadline": self.deadline(state),
            "said": [
                {"seat": x.seat, "word": x.word, "at": x.at, "grab": x.grab} for x in state.said
            ],
            "choice": choice,
            "events": [event_json(event) for event in state.events],
            "outcome": self.outcome(state),
        }

    def record_fields(self) -> list[RecordField]:
        return [
            RecordField("cards", {"ja": "終了時の手札", "en": "Cards at the end"}, "mean", 1),
            RecordField(
                "fastest_call", {"ja": "最速の正解（秒）", "en": "Fastest right call (s)"}, "min", 2
            ),
        ]

    def record(self, outcome: dict[str, Any], seat: int) -> dict[str, float | None]:
        return {"cards": outcome["cards"][seat], "fastest_call": outcome["fastest_call"][seat]}

    def outcome(self, state: MokochakaState) -> dict[str, Any] | None:
        if state.phase != "over":
            return None
        scores = [sum(card.animal != "gabu" for card in hand) for hand in state.hands]
        best = max(scores)
        return {
            "scores": scores,
            "winners": [seat for seat, score in enumerate(scores) if score == best],
            "cards": [len(hand) for hand in state.hands],
            "gabu": [len(hand) - score for hand, score in zip(state.hands, scores, strict=True)],
            "fastest_call": list(state.fastest),
            "emptied": [seat for seat, hand in enumerate(state.hands) if not hand],
        }
