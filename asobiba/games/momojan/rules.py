"""MOMOJAN behind the game protocol: the turn engine, the settlements and the match.

A round: each player holds 7; on your turn you draw one card from a pile, or ポン/チー (or ロン)
the opponent's last discard. After a draw you may ツモ, 開 one set from your hand, or discard.
After 開, ポン or チー you draw three (one from each pile) or discard; after drawing three you may
ツモ, 開 again or discard. A discard may declare riichi. When the piles are empty, the player to
move may still call or win on the last discard, or end the round ("pass"): the wall settlement.
The match: the dealer repeats only by winning; the game ends once each player has dealt twice,
or early (5 dealer wins in a row, おしまい, a player below 0, a child who cannot pay the stake).

Hidden: each hand from the other seat, the order of the piles, the dead wall under the dora
indicator, the seed. ``observe`` is built only from what the viewer may know.
"""

from __future__ import annotations

from collections import Counter
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
from asobiba.core.rng import deal_rng, is_seed
from asobiba.games.momojan import lessons
from asobiba.games.momojan.cards import DECK, Card, is_card, is_peach, sort_cards
from asobiba.games.momojan.data import (
    BONUSES,
    LADDERS,
    NUMBERS,
    PACES,
    REVIEW,
    RULES,
    YAKU,
    Level,
)
from asobiba.games.momojan.data import LEVELS as BOT_LEVELS
from asobiba.games.momojan.data import OPTIONS as OPTION_ROWS
from asobiba.games.momojan.hand import hand_waits, is_complete, sets_in, sets_with
from asobiba.games.momojan.scoring import Meld, Score, Win, score
from asobiba.games.momojan.state import (
    CALLED,
    DRAWN,
    DRAWN3,
    OVER,
    START,
    Discard,
    Event,
    MomojanState,
    RoundResult,
    meld_json,
)

ACTION_KEYS: dict[str, frozenset[str]] = {
    "draw": frozenset({"type", "pile"}),
    "pon": frozenset({"type", "cards"}),
    "chi": frozenset({"type", "cards"}),
    "ron": frozenset({"type"}),
    "pass": frozenset({"type"}),
    "tsumo": frozenset({"type"}),
    "kai": frozenset({"type", "cards"}),
    "draw3": frozenset({"type"}),
    "discard": frozenset({"type", "card", "riichi"}),
}

LEVELS = [level.id for level in BOT_LEVELS]
"""The computer opponents, weakest first (data.toml ``[[levels]]``, bots.py)."""

OPTIONS: list[OptionSpec] = [
    OptionSpec(o.key, o.values, o.default, {"ja": o.ja, "en": o.en}, ui=o.ui) for o in OPTION_ROWS
]
"""The option rules of data.toml ``[[options]]``."""


Pair = tuple[Any, Any]


def _without(hand: tuple[Card, ...], cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    left = list(hand)
    for card in cards:
        left.remove(card)
    return tuple(left)


def _waits(state: MomojanState, seat: int, hand: tuple[Card, ...]) -> frozenset[Card]:
    """The cards that would complete ``hand`` beside the seat's open sets, less those whose
    every copy is in the hand or those sets (``hand.waits``): empty when it is not ready."""
    return hand_waits(hand, [m.cards for m in state.melds[seat]])


def _set(pair: Pair, seat: int, value: Any) -> Any:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


class Momojan:
    """The MOMOJAN game module (docs/ARCHITECTURE.md, "MOMOJAN specifics")."""

    name = "momojan"
    min_seats = 2
    max_seats = 2

    def __init__(self) -> None:
        self.levels: list[str] = list(LEVELS)

    # --- set-up ------------------------------------------------------------------------------

    def options_spec(self) -> list[OptionSpec]:
        return OPTIONS

    def resolve_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return resolve_options(OPTIONS, options)

    def level_names(self) -> dict[str, dict[str, str]]:
        return {level.id: {"ja": level.name_ja, "en": level.name_en} for level in BOT_LEVELS}

    def pace(self, level: str) -> Pace:
        """How long this level's bot seems to take before its move shows (data.toml
        ``[[pace]]``): the room shows its moves ``pace.draw(rng)`` seconds after asking it,
        never when its computation happens to finish, which could tell its cards."""
        return designed_pace(PACES, level, "momojan")

    def slowest(self, level: str) -> float:
        """This level's slowest decision measured on the development machine (data.toml
        ``[[pace]]`` ``slowest``)."""
        return designed_slowest(PACES, level, "momojan")

    def rating_family(self, options: Mapping[str, Any], seats: int) -> str:
        """One family (``core.game.rating_key``): the site offers one rule set."""
        return "momojan"

    def rating_ladders(self) -> dict[str, Ladder]:
        """Every rule family rated, with its bot levels' arena ladder (data.toml
        ``[[ladders]]``)."""
        return LADDERS

    def designed_values(self) -> list[DesignedValue]:
        rows = [
            DesignedValue(
                name={"ja": f"役：{y.ja}", "en": f"Yaku: {y.en}"},
                value={
                    "ja": f"{y.points}点。{y.condition_ja}",
                    "en": f"{y.points} points. {y.condition}",
                },
                source=y.source,
                reason={"ja": y.reason_ja, "en": y.reason},
            )
            for y in YAKU
        ]
        rows += [
            DesignedValue(
                name={"ja": f"セットボーナス：{b.ja}", "en": f"Set bonus: {b.en}"},
                value={"ja": f"{b.sets}セットで+{b.points}点", "en": f"{b.sets} sets: +{b.points}"},
                source=b.source,
                reason={"ja": b.reason_ja, "en": b.reason},
            )
            for b in BONUSES
        ]
        rows += [
            DesignedValue(
                name={"ja": r.ja, "en": r.en},
                value={"ja": r.value_ja, "en": r.value},
                source=r.source,
                reason={"ja": r.reason_ja, "en": r.reason},
            )
            for r in RULES
        ]
        rows += [
            DesignedValue(
                name={"ja": f"オプション：{o.ja}", "en": f"Option: {o.en}"},
                value={"ja": o.value_ja, "en": o.value},
                source=o.source,
                reason={"ja": o.reason_ja, "en": o.reason},
            )
            for o in OPTION_ROWS
        ]
        rows += [
            DesignedValue(
                name={"ja": f"強さ：{level.name_ja}", "en": f"Strength: {level.name_en}"},
                value=_level_in_words(level),
                source=level.source,
                reason={"ja": level.reason_ja, "en": level.reason},
            )
            for level in BOT_LEVELS
        ]
        rows += pace_rows(PACES, self.level_names())
        rows.append(REVIEW.row())
        return rows

    def lessons(self) -> list[Lesson]:
        """The course of /learn/momojan (lessons.toml)."""
        return list(lessons.lessons(self))

    def check_lesson(self, lesson_id: str, actions: list[Any]) -> LessonVerdict:
        """Judge a learner's moves in a lesson with the engine (see lessons.py)."""
        return lessons.check(self, lesson_id, actions)

    def new_state(self, options: Mapping[str, Any], seats: int = 2, seed: int = 0) -> MomojanState:
        if type(seats) is not int or seats != 2:
            raise InvalidOptions(f"momojan is played by exactly 2 seats, not {seats!r}")
        if not is_seed(seed):
            raise InvalidOptions(f"seed must be an integer, got {seed!r}")
        resolved = self.resolve_options(options)
        start = NUMBERS.start_points
        blank = MomojanState(
            options=tuple(sorted(resolved.items())),
            seed=seed,
            points=(start, start),
            middle=0,
            dealer=0,
            streak=0,
            terms=1,
            round_no=0,
            stake=0,
            hands=((), ()),
            melds=((), ()),
            rivers=((), ()),
            riichi=(False, False),
            ippatsu=(False, False),
            piles=((), (), ()),
            dead=(),
            turn=0,
            phase=START,
            drawn=(),
            offer=None,
            last=None,
            results=(),
        )
        return _deal(blank, blank.points, 0, dealer=0, streak=0, terms=1)

    # --- who may do what ---------------------------------------------------------------------

    def to_move(self, state: MomojanState) -> frozenset[int]:
        return frozenset() if state.phase == OVER else frozenset((state.turn,))

    def legal_actions(self, state: MomojanState, seat: int) -> list[dict[str, Any]]:
        if state.phase == OVER or type(seat) is not int or seat != state.turn:
            return []
        return _legal(state, seat, None)

    # --- applying an action ------------------------------------------------------------------

    def apply(
        self, state: MomojanState, seat: int, action: Any, at: float | None = None
    ) -> MomojanState:
        if state.phase == OVER:
            raise IllegalAction("the game is over")
        if type(seat) is not int or seat != state.turn:
            raise IllegalAction(f"seat {seat!r} may not act now; seat {state.turn} is to move")
        canonical = _canonical(action)
        # The same enumeration as legal_actions, narrowed to the action's type.
        if canonical not in _legal(state, seat, canonical):
            raise IllegalAction(_why_not(state, seat, canonical))
        kind = canonical["type"]
        if kind == "draw":
            return _draw(state, seat, canonical["pile"])
        if kind in ("pon", "chi"):
            return _call(state, seat, kind, tuple(canonical["cards"]))
        if kind == "kai":
            return _kai(state, seat, tuple(canonical["cards"]))
        if kind == "draw3":
            return _draw3(state, seat)
        if kind == "discard":
            return _discard(state, seat, canonical["card"], canonical["riichi"])
        if kind == "tsumo":
            won = _tsumo_score(state, seat)
            assert won is not None
            return _settle_win(state, seat, won, ron=False)
        if kind == "ron":
            won = _ron_score(state, seat)
            assert won is not None
            return _settle_win(state, seat, won, ron=True)
        return _settle_wall(replace(state, last=Event(state.round_no, seat, "pass")))

    # --- what a seat sees --------------------------------------------------------------------

    def observe(self, state: MomojanState, seat: int | None = None) -> dict[str, Any]:
        if seat is not None and (type(seat) is not int or seat not in (0, 1)):
            raise IllegalAction(f"seat must be 0, 1 or None (a spectator), got {seat!r}")
        return {
            "game": self.name,
            "options": dict(state.options),
            "seat": seat,
            "round": state.round_no,
            "dealer": state.dealer,
            "streak": state.streak,
            "dealerships": state.terms,
            "stake": state.stake,
            "points": list(state.points),
            "middle": state.middle,
            "dora_indicator": state.dead[0],
            "dead_wall": len(state.dead) - 1,
            "piles": [len(pile) for pile in state.piles],
            "hand": None if seat is None else list(state.hands[seat]),
            "hand_sizes": [len(hand) for hand in state.hands],
            "open_sets": [[meld_json(m) for m in melds] for melds in state.melds],
            "rivers": [
                [{"card": d.card, "riichi": d.riichi, "called": d.called} for d in river]
                for river in state.rivers
            ],
            "riichi": list(state.riichi),
            "to_move": None if state.phase == OVER else state.turn,
            "phase": state.phase,
            "offer": state.offer,
            "last": None if state.last is None else state.last.to_json(seat),
            "results": [result.to_json() for result in state.results],
            "outcome": self.outcome(state),
        }

    def reveal(self, state: MomojanState, seat: int | None = None) -> dict[str, Any]:
        """``observe`` with ``hands``, both players' cards: the replay of a finished game shows
        them (``core.game.revealed``); the room never sends it."""
        view = self.observe(state, seat)
        view["hands"] = [list(hand) for hand in state.hands]
        return view

    def record_fields(self) -> list[RecordField]:
        return [
            RecordField("points", {"ja": "終了時の点数", "en": "Points at the end"}, "mean"),
            RecordField("rounds", {"ja": "局数", "en": "Rounds played"}, "mean", 1),
            RecordField("best_win", {"ja": "最大のアガリ", "en": "Biggest win"}, "max"),
            RecordField(
                "yaku",
                {"ja": "アガった役", "en": "Yaku seen"},
                "tally",
                names={yaku.id: {"ja": yaku.ja, "en": yaku.en} for yaku in YAKU},
            ),
        ]

    def record(self, outcome: dict[str, Any], seat: int) -> Mapping[str, RecordValue]:
        """Points at the end, rounds, the most points one win of ``seat``'s took and the yaku of
        its winning hands, each as often as it was scored (both None without a win)."""
        return {
            "points": outcome["scores"][seat],
            "rounds": outcome["rounds"],
            "best_win": outcome["best_win"][seat],
            "yaku": list(outcome["yaku"][seat]) or None,
        }

    def outcome(self, state: MomojanState) -> dict[str, Any] | None:
        if state.phase != OVER or state.winner is None:
            return None
        return {
            "scores": list(state.points),
            "winners": [state.winner],
            "end": state.end,
            "rounds": len(state.results),
            "margin": state.points[state.winner] - state.points[1 - state.winner],
            "best_win": [_best_win(state.results, seat) for seat in (0, 1)],
            "yaku": [_yaku_seen(state.results, seat) for seat in (0, 1)],
        }

    def deadline(self, state: MomojanState) -> float | None:
        return None

    def advance(self, state: MomojanState, at: float) -> MomojanState:
        return state

    def make_bot(self, level: str, seed: int) -> Bot:
        from asobiba.games.momojan.bot_levels import make_bot

        return make_bot(level, seed)


def _wins(results: tuple[RoundResult, ...], seat: int) -> list[RoundResult]:
    """The rounds ``seat`` won by ツモ or ロン (a wall settlement is not a win)."""
    return [r for r in results if r.end != "exhausted" and r.winner == seat]


def _best_win(results: tuple[RoundResult, ...], seat: int) -> int | None:
    """The most points one win of ``seat``'s took: the loser's payment plus the middle."""
    return max((r.paid + r.middle for r in _wins(results, seat)), default=None)


def _yaku_seen(results: tuple[RoundResult, ...], seat: int) -> list[str]:
    """The yaku of every winning hand of ``seat``'s, in the order scored, repeats kept."""
    return [yaku for r in _wins(results, seat) if r.score for yaku, _ in r.score.yaku]


def _level_in_words(level: Level) -> dict[str, str]:
    """A level's way of playing in plain words for the rule page; docs/STRENGTH.md has the
    machine's figures."""
    if level.style == "beginner":
        return {
            "ja": f"ペアと連番を残し、浮いた札を適当に捨てる（{level.slip:.0%}はうっかり）。"
            f"鳴きと開は{level.call:.0%}だけ",
            "en": f"Keeps pairs and runs and throws a loose card at random ({level.slip:.0%} "
            f"of discards are slips); takes a call or 開 {level.call:.0%} of the time",
        }
    if level.style == "greedy":
        return _with_slips(
            level,
            {
                "ja": "アガリまでの枚数（シャンテン数）がいちばん少なくなる手。守りなし",
                "en": "The move that leaves it fewest cards from a win (shanten); no defence",
            },
        )
    if level.style == "ukeire":
        return _with_slips(
            level,
            {
                "ja": "シャンテン数に加えて、手を進める見えない札の枚数を数える。リーチには守る",
                "en": "Shanten, then the most unseen cards that move the hand on; defends a riichi",
            },
        )
    return {
        "ja": "「つよい」の数え方に加え、テンパイ間近の手は見えない札すべてについて次のツモを"
        "読み、待ちを残り枚数とアガった時の点数（役・ドラ・セットボーナス・倍）で比べる。"
        "リーチには、見えない札から計算した振り込む確率で守る",
        "en": "Counts like Strong; near a win it searches its next draw over every unseen card "
        "and weighs each wait by its copies and the points the win would score (yaku, dora, "
        "set bonus, doubling); against a riichi it weighs each discard's chance of dealing "
        "in, computed from the unseen cards",
    }


def _with_slips(level: Level, words: dict[str, str]) -> dict[str, str]:
    """``words`` and, for a level with careless moments, how often it has them: a level's
    strength is set by them (docs/STRENGTH.md), so the rule page says so."""
    if not level.slip:
        return words
    return {
        "ja": f"{words['ja']}。ただし捨て札の{level.slip:.0%}はうっかり（手札のどれか）",
        "en": f"{words['en']}; {level.slip:.0%} of its discards are careless (any card of "
        "its hand)",
    }


def _legal(state: MomojanState, seat: int, want: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The legal actions of the seat to move, in a fixed order; with ``want``, only those of its
    type (and, for a discard without riichi, without the riichi readiness checks)."""

    def asks(kind: str) -> bool:
        return want is None or want["type"] == kind

    hand = state.hands[seat]
    in_riichi = state.riichi[seat]
    left = sum(map(len, state.piles))
    actions: list[dict[str, Any]] = []
    if state.phase == START:
        offer = state.offer
        if offer is not None:
            if asks("ron") and _ron_score(state, seat) is not None:
                actions.append({"type": "ron"})
            if not in_riichi and (asks("pon") or asks("chi")):
                calls = sorted(
                    ("chi" if k == "run" else "pon", p) for k, p in sets_with(offer, hand)
                )
                actions += [{"type": name, "cards": list(pair)} for name, pair in calls]
        if left:
            actions += [{"type": "draw", "pile": p} for p, pile in enumerate(state.piles) if pile]
        else:
            actions.append({"type": "pass"})
        return actions
    if state.phase in (DRAWN, DRAWN3) and asks("tsumo") and _tsumo_score(state, seat) is not None:
        actions.append({"type": "tsumo"})
    if in_riichi:
        # Riichi: the hand cannot change; the card just drawn goes out again.
        return [*actions, {"type": "discard", "card": state.drawn[0], "riichi": False}]
    if state.phase in (DRAWN, DRAWN3) and asks("kai"):
        actions += [{"type": "kai", "cards": list(trio)} for trio in sets_in(hand)]
    if state.phase == CALLED and left >= 3:
        actions.append({"type": "draw3"})
    may_riichi = left >= NUMBERS.riichi_min_pile and (want is None or bool(want.get("riichi")))
    for card in sort_cards(set(hand)):
        actions.append({"type": "discard", "card": card, "riichi": False})
        if may_riichi and _waits(state, seat, _without(hand, [card])):
            actions.append({"type": "discard", "card": card, "riichi": True})
    return actions


# --- validation ----------------------------------------------------------------------------


def _canonical(action: Any) -> dict[str, Any]:
    """The action with its cards sorted; IllegalAction on any malformed action."""
    if not isinstance(action, dict):
        raise IllegalAction(f"an action is an object with a 'type', got {action!r}")
    kind = action.get("type")
    if type(kind) is not str or kind not in ACTION_KEYS:
        raise IllegalAction(f"unknown action type {kind!r}; known: {sorted(ACTION_KEYS)}")
    keys = set(action)
    allowed = ACTION_KEYS[kind]
    required = allowed - {"riichi"}
    if not required <= keys <= allowed:
        raise IllegalAction(
            f"a {kind} action has the keys {sorted(required)}"
            + (" and optionally 'riichi'" if kind == "discard" else "")
            + f", got {sorted(keys)}"
        )
    out: dict[str, Any] = {"type": kind}
    if kind == "draw":
        pile = action["pile"]
        if type(pile) is not int or not 0 <= pile < NUMBERS.piles:
            raise IllegalAction(f"pile must be an integer 0..{NUMBERS.piles - 1}, got {pile!r}")
        out["pile"] = pile
    if "cards" in required:
        cards = action["cards"]
        size = 3 if kind == "kai" else 2
        if not isinstance(cards, list) or len(cards) != size or not all(map(is_card, cards)):
            raise IllegalAction(f"{kind} takes a list of {size} cards, got {cards!r}")
        out["cards"] = sort_cards(cards)
    if kind == "discard":
        card = action["card"]
        if not is_card(card):
            raise IllegalAction(f"not a MOMOJAN card: {card!r}")
        riichi = action.get("riichi", False)
        if type(riichi) is not bool:
            raise IllegalAction(f"riichi must be true or false, got {riichi!r}")
        out["card"] = card
        out["riichi"] = riichi
    return out


def _why_not(state: MomojanState, seat: int, action: dict[str, Any]) -> str:
    """Why a well-formed action is not legal now, in one sentence."""
    kind = action["type"]
    hand = state.hands[seat]
    cards = action.get("cards") or ([action["card"]] if "card" in action else [])
    missing = Counter(cards) - Counter(hand)
    phase_words = {
        START: "before drawing or calling",
        DRAWN: "after drawing one card",
        CALLED: "after an open set",
        DRAWN3: "after drawing three",
    }[state.phase]
    if missing:
        return f"{kind}: {' '.join(sorted(missing))} not in your hand"
    if kind in ("pon", "chi", "ron") and state.offer is None:
        return f"{kind}: there is no discard of the opponent's to take now"
    if state.riichi[seat] and kind in ("pon", "chi", "kai"):
        return f"{kind}: after riichi you only draw and discard what you drew"
    if kind == "discard" and action["riichi"] and state.riichi[seat]:
        return "riichi: already declared"
    if kind == "discard" and action["riichi"]:
        return f"riichi: your hand without {action['card']} is not ready, or the piles are low"
    if kind == "draw" and state.phase == START:
        return f"draw: pile {action['pile']} is empty"
    if kind in ("ron", "tsumo"):
        return f"{kind}: not a winning hand with a yaku here (or furiten)"
    if kind in ("pon", "chi", "kai"):
        return f"{kind} {' '.join(cards)}: not a set of that kind"
    return f"{kind} is not allowed {phase_words}"


# --- the round ------------------------------------------------------------------------------


def _deal(
    state: MomojanState,
    points: tuple[int, int],
    middle: int,
    *,
    dealer: int,
    streak: int,
    terms: int,
) -> MomojanState:
    """Start the next round: the child pays the stake (or loses), then shuffle and deal."""
    child = 1 - dealer
    stake = NUMBERS.stake + NUMBERS.stake_per_repeat * streak
    round_no = state.round_no + 1
    base = replace(state, dealer=dealer, streak=streak, terms=terms, middle=middle, points=points)
    if points[child] < stake:
        return _finish(base, "no_stake", dealer)
    points = _set(points, child, points[child] - stake)
    deck = list(DECK)
    deal_rng(state.seed, f"deal/{round_no}", f"momojan/{state.seed}/{round_no}").shuffle(deck)
    size = NUMBERS.hand_size
    hands = _set(((), ()), dealer, tuple(sort_cards(deck[:size])))
    hands = _set(hands, child, tuple(sort_cards(deck[size : 2 * size])))
    dead = tuple(deck[2 * size : 2 * size + NUMBERS.dead_wall])
    rest = deck[2 * size + NUMBERS.dead_wall :]
    count = NUMBERS.piles
    sizes = [len(rest) // count + (1 if i < len(rest) % count else 0) for i in range(count)]
    piles = []
    for n in sizes:
        piles.append(tuple(rest[:n]))
        rest = rest[n:]
    return replace(
        base,
        points=points,
        middle=middle + stake,
        round_no=round_no,
        stake=stake,
        hands=hands,
        melds=((), ()),
        rivers=((), ()),
        riichi=(False, False),
        ippatsu=(False, False),
        piles=tuple(piles),
        dead=dead,
        turn=dealer,
        phase=START,
        drawn=(),
        offer=None,
    )


def _furiten(state: MomojanState, seat: int) -> bool:
    """A non-モモ wait of the hand lies among the seat's own discards (モモ never counts)."""
    river = {d.card for d in state.rivers[seat] if not is_peach(d.card)}
    if not river:
        return False
    waiting = _waits(state, seat, state.hands[seat])
    return any(card in river for card in waiting if not is_peach(card))


def _win(state: MomojanState, seat: int, hand: tuple[Card, ...], card: Card, ron: bool) -> Win:
    return Win(
        hand=tuple(sort_cards(hand)),
        melds=state.melds[seat],
        win_card=card,
        ron=ron,
        dora_indicator=state.dead[0],
        riichi=state.riichi[seat],
        ippatsu=state.ippatsu[seat],
        last_card=not any(state.piles),
    )


def _ron_score(state: MomojanState, seat: int) -> Score | None:
    card = state.offer
    if card is None:
        return None
    hand = tuple(sort_cards((*state.hands[seat], card)))
    if not is_complete(hand, len(state.melds[seat])):
        return None
    if not is_peach(card) and _furiten(state, seat):
        return None
    return score(_win(state, seat, hand, card, ron=True))


def _tsumo_score(state: MomojanState, seat: int) -> Score | None:
    hand = state.hands[seat]
    if not state.drawn or not is_complete(hand, len(state.melds[seat])):
        return None
    return score(_win(state, seat, hand, state.drawn[-1], ron=False))


def _draw(state: MomojanState, seat: int, pile: int) -> MomojanState:
    card = state.piles[pile][-1]
    piles = tuple(p[:-1] if i == pile else p for i, p in enumerate(state.piles))
    return replace(
        state,
        hands=_set(state.hands, seat, tuple(sort_cards((*state.hands[seat], card)))),
        piles=piles,
        phase=DRAWN,
        drawn=(card,),
        offer=None,
        last=Event(state.round_no, seat, "draw", pile=pile, secret=(card,)),
    )


def _draw3(state: MomojanState, seat: int) -> MomojanState:
    piles = [list(p) for p in state.piles]
    taken: list[int] = []
    cards: list[Card] = []
    while len(cards) < 3:
        for i, pile in enumerate(piles):
            if pile and len(cards) < 3:
                cards.append(pile.pop())
                taken.append(i)
    return replace(
        state,
        hands=_set(state.hands, seat, tuple(sort_cards((*state.hands[seat], *cards)))),
        piles=tuple(tuple(p) for p in piles),
        phase=DRAWN3,
        drawn=tuple(cards),
        last=Event(state.round_no, seat, "draw3", piles=tuple(taken), secret=tuple(cards)),
    )


def _call(state: MomojanState, seat: int, kind: str, pair: tuple[Card, ...]) -> MomojanState:
    offer = state.offer
    assert offer is not None
    other = 1 - seat
    river = state.rivers[other]
    meld = Meld(kind, tuple(sort_cards((offer, *pair))), claimed=offer)
    return replace(
        state,
        hands=_set(state.hands, seat, _without(state.hands[seat], pair)),
        melds=_set(state.melds, seat, (*state.melds[seat], meld)),
        rivers=_set(state.rivers, other, (*river[:-1], replace(river[-1], called=True))),
        ippatsu=(False, False),
        phase=CALLED,
        drawn=(),
        offer=None,
        last=Event(state.round_no, seat, kind, card=offer, cards=meld.cards),
    )


def _kai(state: MomojanState, seat: int, trio: tuple[Card, ...]) -> MomojanState:
    meld = Meld("kai", trio)
    return replace(
        state,
        hands=_set(state.hands, seat, _without(state.hands[seat], trio)),
        melds=_set(state.melds, seat, (*state.melds[seat], meld)),
        ippatsu=(False, False),
        phase=CALLED,
        drawn=(),
        last=Event(state.round_no, seat, "kai", cards=trio),
    )


def _discard(state: MomojanState, seat: int, card: Card, riichi: bool) -> MomojanState:
    ippatsu = state.ippatsu
    if riichi:
        # 一発 only for a riichi on a turn of one plain draw: a 開, ポン or チー in the riichi's
        # own turn (phase CALLED, or DRAWN3 after one) rules it out, as example ③ scores it.
        ippatsu = _set(ippatsu, seat, state.phase == DRAWN)
    elif state.riichi[seat]:
        ippatsu = _set(ippatsu, seat, False)
    return replace(
        state,
        hands=_set(state.hands, seat, _without(state.hands[seat], [card])),
        rivers=_set(state.rivers, seat, (*state.rivers[seat], Discard(card, riichi))),
        riichi=_set(state.riichi, seat, True) if riichi else state.riichi,
        ippatsu=ippatsu,
        turn=1 - seat,
        phase=START,
        drawn=(),
        offer=card,
        last=Event(state.round_no, seat, "discard", card=card, riichi=riichi),
    )


# --- settlements and the match -------------------------------------------------------------


def _settle_win(state: MomojanState, seat: int, won: Score, ron: bool) -> MomojanState:
    loser = 1 - seat
    card = state.offer if ron else state.drawn[-1]
    assert card is not None
    hand = tuple(sort_cards((*state.hands[seat], card))) if ron else state.hands[seat]
    points = _set(state.points, loser, state.points[loser] - won.total)
    points = _set(points, seat, points[seat] + won.total + state.middle)
    result = RoundResult(
        number=state.round_no,
        dealer=state.dealer,
        stake=state.stake,
        end="ron" if ron else "tsumo",
        winner=seat,
        score=won,
        hands=_set((None, None), seat, hand),
        melds=state.melds,
        tenpai=None,
        open_points=None,
        paid=won.total,
        middle=state.middle,
        points=points,
    )
    event = Event(state.round_no, seat, "ron" if ron else "tsumo", card=card if ron else None)
    done = replace(
        state,
        points=points,
        middle=0,
        results=(*state.results, result),
        last=event,
        offer=None,
        drawn=(),
    )
    if won.ends_game:
        return _finish(done, "oshimai", seat)
    if points[loser] < 0:
        return _finish(done, "below_zero", seat)
    if seat == state.dealer:
        streak = state.streak + 1
        if streak >= NUMBERS.dealer_streak:
            return _finish(done, "dealer_streak", seat)
        return _deal(done, points, 0, dealer=seat, streak=streak, terms=state.terms)
    return _pass_deal(done, points, 0)


def _open_points(melds: tuple[Meld, ...]) -> int:
    return sum(NUMBERS.kai_points if m.kind == "kai" else NUMBERS.call_points for m in melds)


def _settle_wall(state: MomojanState) -> MomojanState:
    """The piles are empty and the last discard was let go: both reveal and settle."""
    tenpai = tuple(bool(_waits(state, s, state.hands[s])) for s in (0, 1))
    value = tuple(_open_points(state.melds[s]) if tenpai[s] else 0 for s in (0, 1))
    winner: int | None = None
    paid = 0
    points = state.points
    middle = state.middle
    if value[0] != value[1]:
        winner = 0 if value[0] > value[1] else 1
        paid = -(-abs(value[0] - value[1]) // 2)
        points = _set(points, 1 - winner, points[1 - winner] - paid)
        points = _set(points, winner, points[winner] + paid + middle)
    result = RoundResult(
        number=state.round_no,
        dealer=state.dealer,
        stake=state.stake,
        end="exhausted",
        winner=winner,
        score=None,
        hands=state.hands,
        melds=state.melds,
        tenpai=(tenpai[0], tenpai[1]),
        open_points=(value[0], value[1]),
        paid=paid,
        middle=middle if winner is not None else 0,
        points=points,
    )
    left = 0 if winner is not None else middle
    done = replace(state, points=points, middle=left, results=(*state.results, result), offer=None)
    if winner is not None and points[1 - winner] < 0:
        return _finish(done, "below_zero", winner)
    return _pass_deal(done, points, left)


def _pass_deal(state: MomojanState, points: tuple[int, int], middle: int) -> MomojanState:
    """The dealer passes; the game ends once each player has dealt enough times."""
    if state.terms >= 2 * dict(state.options)["dealerships"]:
        leader = 0 if points[0] >= points[1] else 1  # a tie goes to the first dealer, seat 0
        return _finish(replace(state, points=points, middle=middle), "dealerships", leader)
    return _deal(state, points, middle, dealer=1 - state.dealer, streak=0, terms=state.terms + 1)


def _finish(state: MomojanState, why: str, winner: int) -> MomojanState:
    """The game is over: the winner also takes whatever is left in the middle."""
    points = _set(state.points, winner, state.points[winner] + state.middle)
    return replace(
        state, points=points, middle=0, phase=OVER, end=why, winner=winner, offer=None, drawn=()
    )
