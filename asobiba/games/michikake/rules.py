"""MICHIKAKE behind the game protocol: one state holds the whole session (every deal).

A deal: each seat holds five cards and a face-down bonus card; the dealer draws first. On its
turn a seat draws from the pile (the engine does it for them); if the six cards are two sets it
wins (``{"win": true}`` is then its only action), else it discards one. After every discard a
claim window opens for every other seat (``data.toml`` ``claim_seconds``): each answers
``{"pass": true}``, ``{"win": true}`` or ``{"steal": true}``; the answers stay secret and are
settled together by the rules when the window closes (a win beats a steal; among wins the
nearest clockwise from the discarder), at its deadline or as soon as everyone has answered
(only at its deadline when two or more people sit at the table: ``new_table``).
Then the next seat draws, or the stealer shows its three cards and discards, and play goes on
from the stealer's left.

Time enters only as ``at`` (seconds); ``at=None`` means "no later than the last time seen".
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from asobiba.core.bots import Bot, Pace
from asobiba.core.errors import IllegalAction, InvalidOptions
from asobiba.core.game import (
    DesignedValue,
    Lesson,
    LessonVerdict,
    RecordField,
    RecordValue,
    designed_pace,
    designed_slowest,
    pace_rows,
)
from asobiba.core.options import OptionSpec, resolve_options
from asobiba.core.ratings import Ladder
from asobiba.core.rng import is_seed
from asobiba.games.michikake import lessons
from asobiba.games.michikake.cards import is_card, is_two_sets, sort_cards
from asobiba.games.michikake.data import (
    BONUS_CARDS,
    BREAK_SECONDS,
    CLAIM_SECONDS,
    FIRST_DEALER,
    LADDERS,
    LEVELS,
    MAX_STEALS,
    PACES,
    REVIEW,
    START_POINTS,
    VALUES,
    YAKU,
    Level,
)
from asobiba.games.michikake.flow import (
    close_window,
    discard,
    resume,
    settle_win,
    start_deal,
    tick,
)
from asobiba.games.michikake.state import (
    ANSWERS,
    BREAK,
    CLAIM,
    DISCARD,
    OVER,
    Event,
    MichikakeState,
    barred_cards,
    can_steal,
    can_win_on,
    evolve,
    steal_cost,
)

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
"""English place names for the records' place counts."""
ALL_TIED = "tied"
"""The place a record gives every seat of a session that ends with all on the same points."""

__all__ = ["BREAK", "CLAIM", "DISCARD", "OPTIONS", "OVER", "Michikake", "MichikakeState"]

NEXT = {"next": True}
"""The one action of a break: "deal the next deal when everyone is ready"."""

OPTIONS: list[OptionSpec] = [
    OptionSpec(
        "short_pile",
        (0, 4, 8, 16),
        0,
        {"ja": "山札を短く（試験用）", "en": "Short pile (test games)"},
        ui=False,
    ),
]
"""MICHIKAKE has no option rules for players; every number it plays by is in data.toml.
``short_pile`` (engine only, like Mancala's small boards) puts only that many cards in the pile
after the deal and sets the rest aside unseen, so test and golden games stay short; 0 is the
real game."""


class Michikake:
    """The MICHIKAKE game module (docs/ARCHITECTURE.md, "MICHIKAKE specifics")."""

    name = "michikake"
    min_seats = 3
    max_seats = 4

    def __init__(self) -> None:
        self.levels: list[str] = [level.id for level in LEVELS]

    # --- metadata ------------------------------------------------------------------------------

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
        return designed_pace(PACES, level, "michikake")

    def slowest(self, level: str) -> float:
        """This level's slowest decision measured on the development machine (data.toml
        ``[[pace]]`` ``slowest``)."""
        return designed_slowest(PACES, level, "michikake")

    def rating_family(self, options: Mapping[str, Any], seats: int) -> str:
        """Three and four players are rated apart (``core.game.rating_key``: ``michikake/3``,
        ``michikake/4``): with 3 players the deck has no Hexagon suit, and every seat has one
        opponent fewer."""
        return str(seats)

    def rating_ladders(self) -> dict[str, Ladder]:
        """Every rule family rated, with its bot levels' arena ladder (data.toml
        ``[[ladders]]``)."""
        return LADDERS

    def lessons(self) -> list[Lesson]:
        """The course of /learn/michikake (lessons.toml)."""
        return list(lessons.lessons(self))

    def check_lesson(self, lesson_id: str, actions: list[Any]) -> LessonVerdict:
        """Judge a learner's moves in a lesson with the engine (see lessons.py)."""
        return lessons.check(self, lesson_id, actions)

    def make_bot(self, level: str, seed: int) -> Bot:
        from asobiba.games.michikake.bots import make_bot

        return make_bot(level, seed)

    def designed_values(self) -> list[DesignedValue]:
        rows = [
            DesignedValue(
                name={"ja": v.name_ja, "en": v.name_en},
                value={"ja": v.text_ja, "en": v.text_en},
                source=v.source,
                reason={"ja": v.reason_ja, "en": v.reason_en},
            )
            for v in VALUES.values()
        ]
        rows += [
            DesignedValue(
                name={"ja": f"役：{y.name_ja}", "en": f"Hand: {y.name_en}"},
                value={
                    "ja": f"{y.text_ja}：{y.points}点",
                    "en": f"{y.text_en}: {y.points} points",
                },
                source=y.source,
                reason={"ja": y.reason_ja, "en": y.reason_en},
            )
            for y in YAKU.values()
        ]
        rows += [
            DesignedValue(
                name={"ja": f"加点カード：{b.name_ja}", "en": f"Bonus card: {b.name_en}"},
                value={"ja": b.text_ja, "en": b.text_en},
                source=b.source,
                reason={"ja": b.reason_ja, "en": b.reason_en},
            )
            for b in BONUS_CARDS.values()
        ]
        rows += [
            DesignedValue(
                name={"ja": f"強さ：{level.name_ja}", "en": f"Strength: {level.name_en}"},
                value=_level_in_words(level),
                source=level.source,
                reason={"ja": level.reason_ja, "en": level.reason_en},
            )
            for level in LEVELS
        ]
        rows += pace_rows(PACES, self.level_names())
        rows.append(REVIEW.row())
        return rows

    # --- the session ---------------------------------------------------------------------------

    def new_state(
        self, options: Mapping[str, Any], seats: int = 4, seed: int = 0
    ) -> MichikakeState:
        if type(seats) is not int or seats not in (3, 4):
            raise InvalidOptions(f"michikake is played by 3 or 4 seats, not {seats!r}")
        if not is_seed(seed):
            raise InvalidOptions(f"seed must be an int, got {seed!r}")
        resolved = self.resolve_options(options)
        empty: tuple[tuple[Any, ...], ...] = ((),) * seats
        blank = MichikakeState(
            players=seats,
            options=tuple(sorted(resolved.items())),
            seed=seed,
            points=(START_POINTS,) * seats,
            deal=0,
            passes=0,
            dealer=FIRST_DEALER,
            crests=(),
            bonus=(),
            pile=(),
            aside=(),
            hands=empty,
            shown=empty,
            discards=empty,
            barred=(frozenset(),) * seats,
            steals=(0,) * seats,
            turn=FIRST_DEALER,
            phase=DISCARD,
            drawn=None,
            window=None,
            now=0.0,
            ply=0,
            last=(),
            results=(),
        )
        return start_deal(blank, [])

    def new_table(
        self, options: Mapping[str, Any], seats: int, seed: int, people: int
    ) -> MichikakeState:
        """The session for a table where ``people`` of the seats are persons
        (``core.game.first_state``): with two or more, every claim window runs its full
        length (``MichikakeState.full_windows``); with one, the last answer closes it, and the
        bots' paced answers keep its length blind to their cards."""
        return evolve(self.new_state(options, seats, seed), full_windows=people >= 2)

    def automatic(self, state: MichikakeState, seat: int) -> dict[str, Any] | None:
        """The answer a seat gives without being asked (``core.game.automatic``): a pass in a
        claim window it cannot use, where pass is its only legal answer."""
        if state.phase == CLAIM and self.legal_actions(state, seat) == [{"pass": True}]:
            return {"pass": True}
        return None

    def to_move(self, state: MichikakeState) -> frozenset[int]:
        if state.phase == DISCARD:
            return frozenset((state.turn,))
        if state.phase == CLAIM:
            assert state.window is not None
            answered = {seat for seat, _ in state.window.answers}
            return frozenset(
                seat
                for seat in range(state.players)
                if seat != state.window.discarder and seat not in answered
            )
        if state.phase == BREAK:
            return frozenset(seat for seat in range(state.players) if seat not in state.ready)
        return frozenset()

    def legal_actions(self, state: MichikakeState, seat: int) -> list[dict[str, Any]]:
        if type(seat) is not int or seat not in self.to_move(state):
            return []
        if state.phase == DISCARD:
            hand = state.hands[seat]
            if _wins_on_draw(state, seat):
                return [{"win": True}]
            return [{"discard": card} for card in sort_cards(set(hand))]
        if state.phase == BREAK:
            return [dict(NEXT)]
        assert state.window is not None
        card = state.window.card
        actions = [{"pass": True}]
        if can_win_on(state, seat, card):
            actions.append({"win": True})
        if can_steal(state, seat, card):
            actions.append({"steal": True})
        return actions

    def apply(
        self, state: MichikakeState, seat: int, action: Any, at: float | None = None
    ) -> MichikakeState:
        now = _time(state, at)
        if state.phase == OVER:
            raise IllegalAction("the session is over")
        if type(seat) is not int or not 0 <= seat < state.players:
            raise IllegalAction(f"seat must be an int 0..{state.players - 1}, got {seat!r}")
        key = _action_key(action)
        if state.phase == DISCARD:
            if seat != state.turn:
                raise IllegalAction(f"seat {seat} may not act now; seat {state.turn} is to move")
            if key == "discard":
                if action["discard"] not in state.hands[seat]:
                    raise IllegalAction(f"seat {seat} holds no {action['discard']}")
                if _wins_on_draw(state, seat):
                    raise IllegalAction(
                        f"seat {seat}'s draw made two sets: the hand wins, it is not discarded"
                    )
                return discard(state, seat, action["discard"], now)
            if key == "win":
                if state.drawn is None:
                    raise IllegalAction("a stealer must discard; only a drawn card wins here")
                if not is_two_sets(state.hands[seat]):
                    raise IllegalAction(f"{list(state.hands[seat])} are not two sets")
                hand = state.hands[seat]
                return settle_win(tick(state, now), seat, hand, None, [])
            raise IllegalAction(f'seat {seat} must discard a card ({{"discard": "W7"}}) or win')
        if state.phase == BREAK:
            return self._ready(state, seat, key, now)
        window = state.window
        assert window is not None
        if now >= window.closes_at:
            raise IllegalAction(f"the claim window closed at {window.closes_at:g}")
        if seat == window.discarder:
            raise IllegalAction(f"seat {seat} discarded {window.card} and may not claim it")
        if any(s == seat for s, _ in window.answers):
            raise IllegalAction(f"seat {seat} has already answered this discard")
        if key not in ANSWERS:
            raise IllegalAction(f'a claim window takes {{"pass"|"win"|"steal": true}}, not {key!r}')
        if key == "win" and not can_win_on(state, seat, window.card):
            raise IllegalAction(f"seat {seat} cannot win on {window.card}: {_why_not(state, seat)}")
        if key == "steal" and not can_steal(state, seat, window.card):
            raise IllegalAction(f"seat {seat} cannot steal {window.card}: {_why_not(state, seat)}")
        answers = tuple(sorted((*window.answers, (seat, key))))
        if len(answers) == state.players - 1 and not state.full_windows:
            return close_window(tick(evolve(state, window=replace(window, answers=answers)), now))
        # An answer is secret: nothing another seat observes changes (not even ``ply``).
        return evolve(state, now=now, window=replace(window, answers=answers))

    def _ready(self, state: MichikakeState, seat: int, key: str, now: float) -> MichikakeState:
        """A seat asks for the next deal; the last one to ask deals it."""
        if key != "next":
            raise IllegalAction(
                f'the deal is over: {{"next": true}} asks for the next, not {key!r}'
            )
        if seat in state.ready:
            raise IllegalAction(f"seat {seat} has already asked for the next deal")
        ready = state.ready | {seat}
        if len(ready) == state.players:
            return resume(tick(state, now))
        # Like a claim answer, being ready is the seat's own business (no public ply).
        return evolve(state, now=now, ready=ready)

    def deadline(self, state: MichikakeState) -> float | None:
        if state.phase == BREAK:
            return state.resume_at
        return state.window.closes_at if state.window is not None else None

    def advance(self, state: MichikakeState, at: float) -> MichikakeState:
        now = _time(state, at)
        if state.phase == BREAK:
            assert state.resume_at is not None
            return resume(tick(state, now)) if now >= state.resume_at else state
        if state.window is None or now < state.window.closes_at:
            return state
        return close_window(tick(state, now))

    def record_fields(self) -> list[RecordField]:
        places = {str(n): {"ja": f"{n}位", "en": ORDINALS[n]} for n in range(1, self.max_seats + 1)}
        places[ALL_TIED] = {"ja": "全員同点", "en": "All tied"}
        return [
            RecordField("places", {"ja": "順位", "en": "Places"}, "tally", names=places),
            RecordField("points", {"ja": "終了時の点数", "en": "Points at the end"}, "mean"),
            RecordField("best", {"ja": "最高の上がり", "en": "Best winning hand"}, "max"),
        ]

    def record(self, outcome: dict[str, Any], seat: int) -> dict[str, RecordValue]:
        """The seat's place (ties share it), its final points, and its best winning hand's
        points in the session (None when it never won). A session every seat ends on the same
        points has no places: it is a draw (``records.results_for``), tallied as "all tied",
        never as a 1st."""
        ranks = outcome["ranks"]
        return {
            "places": [ALL_TIED if set(ranks) == {1} else str(ranks[seat])],
            "points": outcome["scores"][seat],
            "best": outcome["best"][seat],
        }

    def outcome(self, state: MichikakeState) -> dict[str, Any] | None:
        if state.phase != OVER:
            return None
        scores = list(state.points)
        ranks = [1 + sum(other > mine for other in scores) for mine in scores]
        best: list[int | None] = [None] * state.players
        for result in map(json.loads, state.results):
            win = result.get("win")
            if win is not None:
                best[win["seat"]] = max(best[win["seat"]] or 0, win["total"])
        return {
            "scores": scores,
            "winners": [seat for seat, rank in enumerate(ranks) if rank == 1],
            "ranks": ranks,
            "end": state.end,
            "deals": len(state.results),
            "best": best,
        }

    def sample_state(self, observation: dict[str, Any], rng: random.Random) -> MichikakeState:
        """A state consistent with one seat's observation, hidden cards drawn at random (for
        bots that search); see ``games/michikake/sample.py``."""
        from asobiba.games.michikake.sample import sample_state

        return sample_state(observation, rng)

    # --- what a seat may know ------------------------------------------------------------------

    def observe(self, state: MichikakeState, seat: int | None = None) -> dict[str, Any]:
        if seat is not None and (type(seat) is not int or not 0 <= seat < state.players):
            raise IllegalAction(
                f"seat must be 0..{state.players - 1} or None (a spectator), got {seat!r}"
            )
        window = state.window
        own = seat is not None and state.phase != OVER
        mine = None
        if window is not None and seat is not None:
            mine = next((answer for s, answer in window.answers if s == seat), None)
        return {
            "game": self.name,
            "options": dict(state.options),
            "players": state.players,
            "seat": seat,
            "points": list(state.points),
            "deal": state.deal,
            "passes": state.passes,
            "dealer": state.dealer,
            "crests": list(state.crests),
            "pile": len(state.pile),
            "hand": list(state.hands[seat]) if own and seat is not None else None,
            "drawn": state.drawn if own and seat == state.turn else None,
            "bonus": state.bonus[seat] if own and seat is not None else None,
            "hand_sizes": [len(hand) for hand in state.hands],
            "shown": [list(cards) for cards in state.shown],
            "discards": [
                [{"card": card, "taken_by": taker} for card, taker in row] for row in state.discards
            ],
            "steals": list(state.steals),
            "steal_cost": steal_cost(state.steals[seat]) if own and seat is not None else None,
            "phase": state.phase,
            "turn": state.turn if state.phase not in (OVER, BREAK) else None,
            "break": None
            if state.phase != BREAK
            else {
                "resumes_at": state.resume_at,
                "seconds": BREAK_SECONDS,
                "ready": seat is not None and seat in state.ready,
            },
            "window": None
            if window is None
            else {
                "discarder": window.discarder,
                "card": window.card,
                "closes_at": window.closes_at,
                "seconds": CLAIM_SECONDS,
                "answer": mine,
            },
            "last": [_event_view(event, seat) for event in state.last],
            "results": [json.loads(result) for result in state.results],
            "ply": state.ply,
            "outcome": self.outcome(state),
        }

    def reveal(self, state: MichikakeState, seat: int | None = None) -> dict[str, Any]:
        """``observe`` with every hand (``hands``) and every dealt bonus card (``bonuses``): the
        replay of a finished session shows them (``core.game.revealed``); the room never sends
        it."""
        view = self.observe(state, seat)
        view["hands"] = [list(hand) for hand in state.hands]
        view["bonuses"] = list(state.bonus)
        return view


# --- transitions (each returns a new state; none mutates) ------------------------------------


def _time(state: MichikakeState, at: float | None) -> float:
    if at is None:
        return state.now
    if type(at) not in (int, float) or not math.isfinite(at):
        raise IllegalAction(f"at must be a finite number of seconds, got {at!r}")
    return max(state.now, float(at))


def _action_key(action: Any) -> str:
    if not isinstance(action, dict) or len(action) != 1:
        raise IllegalAction(
            'an action is one of {"discard": card}, {"win": true}, {"steal": true}, '
            f'{{"pass": true}}, {{"next": true}}; got {action!r}'
        )
    ((key, value),) = action.items()
    if key == "discard":
        if not is_card(value):
            raise IllegalAction(f"discard takes a card like 'W7', 'star' or 'ring', not {value!r}")
        return key
    if key in ANSWERS or key == "next":
        if value is not True:
            raise IllegalAction(f"{key!r} takes the value true, not {value!r}")
        return key
    raise IllegalAction(f"unknown action {key!r}; known: discard, win, steal, pass, next")


def _wins_on_draw(state: MichikakeState, seat: int) -> bool:
    """The seat's own draw made two sets: the hand wins there and then (the rulebook discards
    only a hand that is not complete), so ``win`` is its one legal action."""
    return state.drawn is not None and is_two_sets(state.hands[seat])


def _why_not(state: MichikakeState, seat: int) -> str:
    assert state.window is not None
    card = state.window.card
    if card in barred_cards(state, seat):
        return f"it has discarded {card} this game"
    cost = steal_cost(state.steals[seat])
    if state.hands[seat].count(card) >= 2:
        if cost is None:
            return f"it has already stolen {MAX_STEALS} times this game"
        return f"a steal costs {cost} and it has {state.points[seat]} points"
    return "its hand does not allow it"


def _level_in_words(level: Level) -> dict[str, str]:
    """A level's parameters from data.toml, said in both languages for the rule page."""
    steal = (
        {
            "ja": f"三枚組で手が進み、持ち点が費用＋{level.steal_margin}点を超えるときに奪取する",
            "en": f"steals when the triplet brings it closer and it has more than the cost "
            f"plus {level.steal_margin} points",
        }
        if level.steal
        else {"ja": "奪取しない", "en": "never steals"}
    )
    three = {
        "ja": f"（3人では{level.slip_three:.0%}）" if level.slip_three != level.slip else "",
        "en": f" ({level.slip_three:.0%} at three players)"
        if level.slip_three != level.slip
        else "",
    }
    slip = {
        "ja": f"{level.slip:.0%}{three['ja']}は適当に捨てる。" if level.slip else "",
        "en": f"{level.slip:.0%}{three['en']} of its discards at random; " if level.slip else "",
    }
    counts = {
        "ja": ("場の札も数えて" if level.watch else "自分の手だけを見て")
        + ("、上がりの点数も比べて" if level.value else ""),
        "en": ("counting the cards on the table" if level.watch else "looking only at its hand")
        + (", weighing what each win would score" if level.value else ""),
    }
    if level.kind == "beginner":
        return {
            "ja": f"組になる相手のない札から捨てる。{slip['ja']}{steal['ja']}",
            "en": f"Throws cards without partners first; {slip['en']}{steal['en']}",
        }
    if level.kind == "greedy":
        return {
            "ja": f"{counts['ja']}、上がれる札がいちばん多く残るように捨てる。{slip['ja']}"
            f"{steal['ja']}",
            "en": f"Keeps the most cards that would win, {counts['en']}; {slip['en']}{steal['en']}",
        }
    read = {
        "ja": f"{counts['ja']}、手の伸びから振り込む見込みの点×{level.caution:g}を引いて捨てる。",
        "en": f"Its hand's promise, {counts['en']}, less {level.caution:g} × the points a "
        f"discard may feed; ",
    }
    if level.kind == "reader":
        return {
            "ja": f"{read['ja']}{slip['ja']}{steal['ja']}",
            "en": f"{read['en']}{slip['en']}{steal['en']}",
        }
    return {
        "ja": f"{read['ja']}そのうえで見えない札を{level.samples}通り想像し、よい候補"
        f"{level.width}枚を局の終わりまで試す（{level.time:g}秒まで）。標準誤差の"
        f"{level.confidence:g}倍以上良いときだけ読みを変える。{slip['ja']}{steal['ja']}",
        "en": f"{read['en']}then plays its {level.width} best discards to the end of the game "
        f"in {level.samples} imagined deals (up to {level.time:g} s), leaving its reading only "
        f"for a gain above {level.confidence:g} standard errors; {slip['en']}{steal['en']}",
    }


def _event_view(event: Event, seat: int | None) -> dict[str, Any]:
    view: dict[str, Any] = {"type": event.kind, **json.loads(event.data)}
    if event.secret is not None and seat is not None and seat == event.seat:
        view["card"] = event.secret
    return view
