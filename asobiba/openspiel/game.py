"""One OpenSpiel game class and one state class for every asobiba game, over the game protocol.

The state holds an engine state and nothing of its own about the rules: the engine says who
moves, what is legal and what each seat sees. Three things are added, each for a reason:

- The opening chance node. A card game is dealt from its seed (every deal of a whole session
  comes from it, ``core.rng.stream(seed, "deal/<n>")``), so the one chance node picks that seed:
  outcome ``i`` is engine seed ``first_seed + i``, ``sessions`` outcomes equally likely. Dealing
  card by card as explicit chance outcomes would need a second copy of the dealing code; a seed
  keeps the engine's own deal, and a history still fixes the state (serialization, replays).
- Information states with perfect recall. An observation is what a seat knows *now*; OpenSpiel
  wants everything it has known. Each seat keeps the digest of the chain of its earlier
  observations (BLAKE2b, a new link only when its observation changes, so a step it cannot see
  leaves no trace), and its information state is that digest with the current observation.
- A fixed seat order where the engine lets several seats act at once (see ``Spec.mover``).

``Snapshot`` is immutable, so OpenSpiel's clone (a deep copy of the Python attributes) shares it.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from hashlib import blake2b
from typing import Any

import numpy as np
import pyspiel

from asobiba.core.game import Observation
from asobiba.openspiel.spec import Setup, Spec

BEFORE_DEAL = "before the deal"
"""Every seat's observation before the chance node has dealt (nothing is known yet)."""
RESAMPLED = "resampled"
"""The chain of a seat whose past a resampled state cannot know (every seat but the one it was
resampled for)."""

SPECS: dict[str, Spec] = {}
"""Every registered spec by OpenSpiel short name (states find theirs here, so a pickled state
carries only the name)."""


def view_text(view: Observation) -> str:
    """An observation as OpenSpiel's observation string: compact JSON with sorted keys, the same
    text the golden playthroughs use."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def link(chain: str, text: str) -> str:
    """The chain's next digest after one more observation."""
    return blake2b(f"{chain}\n{text}".encode(), digest_size=16).hexdigest()


@dataclass(frozen=True)
class Snapshot:
    """Everything an OpenSpiel state holds: the engine state and each seat's recall."""

    name: str
    setup: Setup
    engine: Any
    """The engine state; None before the chance node."""
    views: tuple[str, ...]
    """Each seat's current observation text."""
    chains: tuple[str, ...]
    """Each seat's digest of its earlier observations."""
    over: bool = False
    mover: int | None = None
    """The seat OpenSpiel asks now (``Spec.mover``), None before the deal and once over."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Snapshot:
        return self

    @property
    def spec(self) -> Spec:
        return SPECS[self.name]

    def moved(self, engine: Any) -> Snapshot:
        """The snapshot after the engine reached ``engine``: each seat's chain gains a link
        only if what it sees changed."""
        spec = self.spec
        views = tuple(
            view_text(spec.engine.observe(engine, seat)) for seat in range(len(self.views))
        )
        chains = tuple(
            chain if new == old else link(chain, old)
            for chain, old, new in zip(self.chains, self.views, views, strict=True)
        )
        over = spec.engine.outcome(engine) is not None
        mover = None if over else spec.mover(engine)
        return replace(self, engine=engine, views=views, chains=chains, over=over, mover=mover)

    def resampled(self, engine: Any, seat: int) -> Snapshot:
        """The snapshot of a resampled engine state: ``seat`` keeps its recall; the others'
        recall, which the sample cannot know, starts afresh."""
        fresh = replace(self, views=("",) * len(self.views)).moved(engine)
        chains = tuple(self.chains[s] if s == seat else RESAMPLED for s in range(len(self.views)))
        return replace(fresh, chains=chains)


class AsobibaState(pyspiel.State):
    """An OpenSpiel state over one engine state."""

    def __init__(self, game: AsobibaGame) -> None:
        super().__init__(game)
        spec, setup = game.spec, game.setup
        if spec.hidden:
            now = Snapshot(
                spec.short_name, setup, None, (BEFORE_DEAL,) * setup.seats, ("",) * setup.seats
            )
        else:
            blank = Snapshot(spec.short_name, setup, None, ("",) * setup.seats, ("",) * setup.seats)
            now = blank.moved(
                spec.engine.new_state(setup.option_dict, setup.seats, setup.first_seed)
            )
        self.now = now

    # --- who moves, what is legal ------------------------------------------------------------

    def current_player(self) -> int:
        now = self.now
        if now.over:
            return int(pyspiel.PlayerId.TERMINAL)
        if now.engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        assert now.mover is not None
        return now.mover

    def _legal_actions(self, player: int) -> list[int]:
        now = self.now
        spec = now.spec
        legal = spec.engine.legal_actions(now.engine, player)
        return sorted(spec.action_id(now.engine, player, action) for action in legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.get_game().chance_table

    def _apply_action(self, action: int) -> None:
        now = self.now
        spec = now.spec
        if now.engine is None:
            setup = now.setup
            if not 0 <= action < setup.sessions:
                raise ValueError(f"chance outcome {action} is not in 0..{setup.sessions - 1}")
            engine = spec.engine.new_state(
                setup.option_dict, setup.seats, setup.first_seed + action
            )
        else:
            seat = self.current_player()
            engine = spec.engine.apply(now.engine, seat, spec.action(now.engine, seat, action))
        self.now = now.moved(spec.settle(engine))

    def _action_to_string(self, player: int, action: int) -> str:
        now = self.now
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {now.setup.first_seed + action}"
        return now.spec.action_text(now.engine, player, action)

    # --- the end -----------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.now.over

    def returns(self) -> list[float]:
        now = self.now
        if not now.over:
            return [0.0] * now.setup.seats
        outcome = now.spec.engine.outcome(now.engine)
        assert outcome is not None
        return now.spec.returns(outcome, now.setup)

    # --- views -------------------------------------------------------------------------------

    def view(self, seat: int | None) -> Observation | None:
        """``observe(state, seat)`` of the engine (seat None: a spectator); None before the
        deal. This is all a seat's observer, or a bot, reads."""
        now = self.now
        return None if now.engine is None else now.spec.engine.observe(now.engine, seat)

    def information_text(self, seat: int) -> str:
        """The seat's information state: its recall's digest, then what it sees now."""
        now = self.now
        return f"recall {now.chains[seat] or '-'}\n{now.views[seat]}"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> AsobibaState:
        """A state ``player_id`` cannot tell from this one, the cards it cannot see drawn anew by
        the engine's ``sample_state`` (seeded from ``probability_sampler``, as OpenSpiel's
        ISMCTS passes it). The new state keeps the player's recall, so its information state is
        this one's; it has no OpenSpiel ``history()`` (no history of actions leads to a sampled
        deal), and the other seats' recall starts afresh."""
        now = self.now
        view = self.view(player_id)
        if view is None:
            return self.clone()
        rng = random.Random(int(probability_sampler() * 2**53))
        engine = now.spec.sample(view, rng, self.current_player())
        fresh = AsobibaState(self.get_game())
        fresh.now = now.resampled(engine, player_id)
        return fresh

    def __str__(self) -> str:
        """The whole state for debugging and OpenSpiel's clone and serialization checks: every
        hidden card shown (the engine's ``reveal`` where it has one)."""
        now = self.now
        if now.engine is None:
            return BEFORE_DEAL
        engine = now.spec.engine
        reveal = getattr(engine, "reveal", engine.observe)
        return view_text(reveal(now.engine, None))


class Observer:
    """OpenSpiel's Python observer protocol (``tensor``, ``dict``, ``set_from``,
    ``string_from``) over ``observe``: a seat's own view (private information of that one
    player), or the spectator's (public information only); with perfect recall, strings only."""

    def __init__(self, spec: Spec, setup: Setup, kind: Any) -> None:
        self.spec = spec
        self.setup = setup
        self.recall = bool(kind.perfect_recall)
        private = kind.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS and spec.hidden:
            raise ValueError(f"{spec.short_name} offers no observation of every player's cards")
        self.public = private == pyspiel.PrivateInfoType.NONE and spec.hidden
        if self.public and self.recall:
            raise ValueError(f"{spec.short_name} offers no public information state")
        size = len(spec.tensor(spec.engine.observe(_example(spec, setup), None), setup))
        self.tensor: np.ndarray[Any, Any] | None = (
            None if self.recall else np.zeros(size, np.float32)
        )
        self.dict: dict[str, np.ndarray[Any, Any]] = (
            {} if self.tensor is None else {"observation": self.tensor}
        )

    def set_from(self, state: AsobibaState, player: int) -> None:
        if self.tensor is None:
            raise ValueError("information states have strings only (see docs/OPENSPIEL.md)")
        view = state.view(None if self.public else player)
        if view is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = self.spec.tensor(view, self.setup)

    def string_from(self, state: AsobibaState, player: int) -> str:
        if self.recall:
            return state.information_text(player)
        if self.public:
            view = state.view(None)
            return BEFORE_DEAL if view is None else view_text(view)
        return state.now.views[player]


def _example(spec: Spec, setup: Setup) -> Any:
    return spec.engine.new_state(setup.option_dict, setup.seats, setup.first_seed)


class AsobibaGame(pyspiel.Game):
    """An asobiba game loaded through OpenSpiel (``pyspiel.load_game("asobiba_<name>")``)."""

    def __init__(self, spec: Spec, game_type: Any, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.spec = spec
        self.setup = setup_of(spec, params)
        low, high = spec.utility_bounds(self.setup)
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.num_actions(),
            max_chance_outcomes=self.setup.sessions,
            num_players=self.setup.seats,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if spec.zero_sum else None,
            max_game_length=spec.max_game_length(self.setup),
        )
        super().__init__(game_type, info, params)
        weight = 1.0 / self.setup.sessions if self.setup.sessions else 0.0
        self.chance_table = [(i, weight) for i in range(self.setup.sessions)]

    def new_initial_state(self) -> AsobibaState:
        return AsobibaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observer parameters are not supported, got {params!r}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return Observer(self.spec, self.setup, kind)


def setup_of(spec: Spec, params: dict[str, Any]) -> Setup:
    """The set-up that OpenSpiel's parameters ask for (every parameter has its default filled
    in by OpenSpiel before the game is made)."""
    keys = {option.key for option in spec.engine.options_spec()}
    options = spec.engine.resolve_options({k: v for k, v in params.items() if k in keys})
    extra = spec.extra_parameters()
    sessions = int(params.get("sessions", extra.get("sessions", 0))) if spec.hidden else 0
    if spec.hidden and sessions < 1:
        raise ValueError(f"sessions must be at least 1, got {sessions}")
    return Setup(
        options=tuple(sorted(options.items())),
        seats=spec.seats(params),
        first_seed=int(params.get("first_seed", 0)),
        sessions=sessions,
    )


def register(spec: Spec) -> None:
    """Register ``spec``'s game with OpenSpiel under its short name."""
    parameters: dict[str, Any] = {o.key: o.default for o in spec.engine.options_spec()}
    parameters.update(spec.extra_parameters())
    game_type = pyspiel.GameType(
        short_name=spec.short_name,
        long_name=spec.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        if spec.hidden
        else pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if spec.hidden
        else pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM
        if spec.zero_sum
        else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.engine.max_seats,
        min_num_players=spec.engine.min_seats,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )
    SPECS[spec.short_name] = spec

    class Loaded(AsobibaGame):
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            super().__init__(spec, game_type, params)

    # OpenSpiel keeps the creator until the process exits, after Python has shut down: a class
    # (which its own method resolution order keeps alive) survives that, a closure would not.
    Loaded.__name__ = Loaded.__qualname__ = f"{type(spec).__name__.removesuffix('Spec')}Game"
    pyspiel.register_game(game_type, Loaded)
