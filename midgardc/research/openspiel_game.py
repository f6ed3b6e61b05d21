"""Any spec as an OpenSpiel game, built on OpenSpiel's Python game API.

One game type is registered, ``python_midgardc``, whose parameters name the spec, variant,
player count, back end and seed, so ``pyspiel.load_game`` and OpenSpiel's serialization
rebuild the same game from its string. A player's action ids are the spec's declared
``action_space`` (``midgardc.research.actions``: a numbering the spec declares, e.g. one
id per board column, or OpenSpiel's numbering of a native game), else the engine's move ids; a chance node's are
the roll outcomes. A roll is an OpenSpiel
chance node with the roll's exact outcome probabilities.

Hidden information: what a player sees is ``State.observation(player)`` (the
information-state string: the observation with the moves as that player saw them; the
observation string: the same without the moves; the observation tensor:
``midgardc.research.tensor``; the information-state tensor: ``midgardc.research.infostate``,
only for a spec that declares ``game.remembers``, else an error). ``max_game_length()`` is
``game.horizon``, else ``max_plies``. A game pickles as its string. The ``observation``
parameter asks for a learning-ready view of the observation tensor
(``midgardc.research.view``: ``canonical``, ``normalised``, ``spatial``, ``learning``,
``history=K``, joined by ``+``; its shape is ``observation_tensor_shape()``); each state
keeps the boards its history planes show.

A shuffled pile nobody may see (``ordered: true, visible: none``) is dealt one item at a
time through chance nodes with exact probabilities (``midgardc.research.deals``), so CFR
sees the whole tree of a card game;
other hidden shuffles (decks, piles a player sees) are decided by the ``seed`` parameter.
Returns are the State's: from ranks, or a ``returns:`` spec's payoff counter (chips),
whose ``min``/``max`` are the game's utilities.
"""

from __future__ import annotations

import json
import os
from typing import Any, Optional

import numpy as np
import pyspiel

from midgardc.runtime.game import Game, State
from midgardc.engines import load
from midgardc.runtime.observe import may_hide
from midgardc.research.actions import ActionMap, action_map
from midgardc.research.deals import Deals, Dealing, lazy_piles
from midgardc.research.infostate import info_layout, information_state_tensor
from midgardc.research.tensor import observation_tensor, schema
from midgardc.research.view import Positions, View, make_view

SHORT_NAME = "python_midgardc"

_PARAMS = {"spec": "", "variant": "", "players": 0, "engine": "compiled", "seed": 0, "observation": ""}

_GAMES: dict[tuple, Game] = {}


def _game_type(ir: Any, hidden: bool, dealt: bool) -> "pyspiel.GameType":
    n = ir.n_players
    # dice and piles dealt one item at a time (``dealt``) are chance nodes; other hidden
    # shuffles are a function of the seed parameter (see the module's doc)
    if ir.chance is not None or dealt:
        chance = pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    else:
        chance = pyspiel.GameType.ChanceMode.DETERMINISTIC
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="midgardc spec",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION if hidden else pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if n > 1 else pyspiel.GameType.Utility.GENERAL_SUM,  # ranks' and payoff returns sum to 0
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n,
        min_num_players=n,
        provides_information_state_string=True,
        provides_information_state_tensor=ir.remembers is not None,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_PARAMS),
    )


class MidgardcGame(pyspiel.Game):
    """A spec (variant, player count, back end) as a ``pyspiel.Game``."""

    def __init__(self, params: Optional[dict] = None):
        p = dict(_PARAMS)
        p.update(params or {})
        if not p["spec"]:
            raise ValueError("python_midgardc needs a 'spec' parameter (a spec file's path)")
        key = (os.path.abspath(p["spec"]), p["variant"], int(p["players"]), p["engine"])
        self._shared = _Shared(key)
        self.seed = int(p["seed"])
        game = self.mgame
        ir = game.ir
        self.schema = schema(ir)
        self.view: Optional[View] = make_view(ir, p["observation"] or None)
        hidden = may_hide(ir)
        lazy = lazy_piles(ir)
        self.deals = Deals(game, self.seed, lazy) if lazy else None
        self.root: Any = None  # the initial state (a State, or a Dealing), made on first use
        self.n_dice_outcomes = len(ir.chance.outcomes) if ir.chance is not None else 0
        self.amap = action_map(game)  # None: the move ids are the actions
        if ir.returns is not None:  # chips: the spec says the bounds
            lo, hi = float(ir.returns.lo), float(ir.returns.hi)
        else:  # ranks: a sole winner of n seats gets n - 1, a loser -1
            lo, hi = -1.0, float(max(ir.n_players - 1, 1))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.amap.size if self.amap is not None else ir.n_action_moves,
            max_chance_outcomes=self.n_dice_outcomes + (ir.n_item_kinds if lazy else 0),
            num_players=ir.n_players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=0.0 if ir.n_players > 1 else None,
            # OpenSpiel counts decisions, not chance nodes: the declared horizon, or else
            # the safety stop (the only bound the engine guarantees)
            max_game_length=ir.horizon if ir.horizon is not None else ir.max_plies,
        )
        super().__init__(_game_type(ir, hidden, bool(lazy)), info, p)

    @property
    def mgame(self) -> Game:
        """The midgardc game underneath."""
        return self._shared.game

    def new_initial_state(self) -> "MidgardcState":
        return MidgardcState(self)

    def __reduce__(self) -> tuple:
        # pyspiel's own pickling rebuilds the C++ game but not this Python object's
        # attributes, so an unpickled game could not make a state (OpenSpiel's AlphaZero
        # hands its game to worker processes by pickle): pickle as the game's string,
        # loaded again through this module (whose import registers the game type)
        return (game_from_string, (str(self),))

    def make_py_observer(self, iig_obs_type=None, params=None) -> "MidgardcObserver":
        return MidgardcObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class MidgardcState(pyspiel.State):
    def __init__(self, game: MidgardcGame, mstate: Optional[State] = None):
        super().__init__(game)
        self._n_dice = game.n_dice_outcomes
        # OpenSpiel clones a Python state through a new initial state (then copies its
        # attributes over): the start is made once per game and copied
        if mstate is None and game.deals is not None:
            if game.root is None:
                game.root = Dealing(game.deals)
            self._held = _Holder(game._shared.key, game.seed, None, Dealing(game.deals, game.root))
        elif mstate is None:
            if game.root is None:
                game.root = game.mgame.new_state(game.seed)
            self._held = _Holder(game._shared.key, game.seed, game.root.clone())
        else:
            self._held = _Holder(game._shared.key, game.seed, mstate)
        self._held.positions = Positions(game.view) if game.view is not None else None
        self._held.observation = game.get_parameters().get("observation", "")

    @property
    def _amap(self) -> Optional[ActionMap]:
        """The declared action map (not an attribute: states deep-copy and pickle theirs)."""
        return action_map(_load(self._held.key))

    @property
    def _dealing(self) -> Optional[Dealing]:
        """The pile waiting for its next item, when the state is a deal chance node."""
        d = self._held.dealing
        return d if d is not None and d.need is not None else None

    def current_player(self) -> int:
        if self._dealing is not None:
            return pyspiel.PlayerId.CHANCE
        s = self.mstate
        if s.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if s.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        return s.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        assert player >= 0
        if self._amap is not None:
            return sorted(self._amap.ids(player, self.mstate.legal_move_ids()))
        return sorted(self.mstate.legal_move_ids())

    def _move(self, action: int) -> int:
        """The move id of the player to move's action ``action``."""
        if self._amap is None:
            return int(action)
        s = self.mstate
        return self._amap.ids(s.current_player(), s.legal_move_ids())[int(action)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        dealing = self._dealing
        if dealing is not None:  # the next item of a pile: kind k is action n_dice + k
            return [(self._n_dice + k, p) for k, p in dealing.outcomes()]
        assert self.mstate.is_chance_node()
        base = self._chance_base
        return sorted((m.id - base, p) for m, p in self.mstate.chance_outcomes())

    @property
    def _chance_base(self) -> int:
        ir = self.mstate.game.ir
        return ir.chance.base if ir.chance is not None else ir.n_action_moves

    def _apply_action(self, action: int) -> None:
        held = self._held
        held.actions.append(int(action))
        if self._dealing is not None:
            held.dealing.resolve(int(action) - self._n_dice)
            return
        if self.mstate.is_chance_node():
            action = int(action) + self._chance_base
        else:
            action = self._move(action)
            if held.positions is not None:  # (the view's history planes: this position)
                held.positions.push(self.mstate)
        if held.dealing is not None:  # played once the piles it deals from are resolved
            held.dealing.play(int(action))
        else:
            self.mstate.apply_unchecked(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._held.dealing is not None and action >= self._n_dice:
                return "deal:" + self.mstate.game.ir.item_texts[int(action) - self._n_dice]
            action = int(action) + self._chance_base
        elif self._amap is not None:
            if player != self.mstate.current_player():
                raise ValueError("with a declared action_space, an action is written for the player to move")
            action = self._move(action)
        if self.mstate.game.compound and player == self.mstate.current_player():
            return self.mstate.move_text(int(action))  # (a compound move's text needs the position)
        return self.mstate.game.move_text(int(action))

    def is_terminal(self) -> bool:
        return self._dealing is None and self.mstate.is_terminal()

    def returns(self) -> list[float]:
        if self._dealing is not None:
            return [0.0] * self.mstate.game.ir.n_players
        return self.mstate.returns()

    def __str__(self) -> str:
        return str(self.mstate)

    # OpenSpiel clones a Python state by deep-copying its attributes: the midgardc state
    # (which holds the engine) is cloned through its own API instead (see _Holder)
    @property
    def mstate(self) -> State:
        return self._held.state



def _load(key: tuple) -> Game:
    game = _GAMES.get(key)
    if game is None:
        spec, variant, players, engine = key
        game = _GAMES[key] = load(spec, variant or None, engine=engine, n_players=players or None)
    return game


class _Shared:
    """The midgardc game (it holds the loaded engine module): shared, never copied; pickled
    as its key (spec path, variant, player count, engine)."""

    __slots__ = ("key", "game")

    def __init__(self, key: tuple):
        self.key = key
        self.game = _load(key)

    def __deepcopy__(self, memo: dict) -> "_Shared":
        return self

    def __reduce__(self) -> tuple:
        return (_Shared, (self.key,))


class _Holder:
    """A midgardc state (or, for a game with dealt piles, a ``Dealing`` holding it) that
    deep-copies through ``clone()`` and pickles as its game's key, seed and OpenSpiel
    actions (replayed on load)."""

    __slots__ = ("key", "seed", "_state", "dealing", "actions", "positions", "observation")

    def __init__(self, key: tuple, seed: int, state: Optional[State], dealing: Optional[Dealing] = None, actions: Optional[list[int]] = None, positions: Optional[Positions] = None, observation: str = ""):
        self.key, self.seed, self._state, self.dealing = key, seed, state, dealing
        self.actions = actions if actions is not None else []
        self.positions = positions  # the boards a view's history planes show (None: no view)
        self.observation = observation

    @property
    def state(self) -> State:
        return self.dealing.state if self.dealing is not None else self._state

    def __deepcopy__(self, memo: dict) -> "_Holder":
        positions = self.positions.copy() if self.positions is not None else None
        if self.dealing is not None:
            return _Holder(self.key, self.seed, None, Dealing(self.dealing.deals, self.dealing), list(self.actions), positions, self.observation)
        return _Holder(self.key, self.seed, self._state.clone(), None, list(self.actions), positions, self.observation)

    def __reduce__(self) -> tuple:
        return (_replayed, (self.key, self.seed, list(self.actions), self.observation))


def _replayed(key: tuple, seed: int, actions: list[int], observation: str = "") -> _Holder:
    spec, variant, players, engine = key
    game = MidgardcGame({"spec": spec, "variant": variant, "players": players, "engine": engine, "seed": seed, "observation": observation})
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state._held


class MidgardcObserver:
    """OpenSpiel's PyObserver for a spec. Without perfect recall: the observation tensor of
    ``midgardc.research.tensor``. With it (the information state): the perfect-recall
    tensor of ``midgardc.research.infostate`` when the spec declares what a player
    remembers; otherwise writing the tensor fails with ``NoInformationState``, since the
    observation would alias information states. The string is the player's observation
    as JSON (with the moves it saw when perfect recall is asked for)."""

    def __init__(self, game: MidgardcGame, iig_obs_type: Any, params: Any):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.game = game
        self.schema = game.schema
        if self.perfect_recall and game.mgame.ir.remembers is None:
            self.schema = None  # (set_from says why there is no tensor)
            self.tensor = np.zeros(0, np.float32)
            self.dict = {}
            return
        if self.perfect_recall:
            self.schema = info_layout(game.mgame).schema
        elif game.view is not None:  # a learning-ready view: one array in its own shape
            self.tensor = np.zeros(game.view.size, np.float32)
            self.dict = {"observation": self.tensor.reshape(game.view.shape)}
            return
        self.tensor = np.zeros(self.schema.size, np.float32)
        self.dict = {p.name: self.schema.view(self.tensor, p.name) for p in self.schema.parts}

    def set_from(self, state: MidgardcState, player: int) -> None:
        if not self.perfect_recall and self.game.view is not None:
            self.game.view.tensor(state.mstate, player, state._held.positions, self.tensor)
        elif not self.perfect_recall:
            observation_tensor(state.mstate, player, self.tensor)
        else:
            information_state_tensor(state.mstate, player, self.tensor)

    def string_from(self, state: MidgardcState, player: int) -> str:
        obs = state.mstate.observation(player)
        if not self.perfect_recall:
            obs.pop("moves", None)
        return json.dumps(obs, separators=(",", ":"), sort_keys=True)


def _registered_type() -> "pyspiel.GameType":
    """The type the registry lists (any player count); each game carries its own exact type."""
    t = _game_type(type("AnyIR", (), {"n_players": 2, "chance": None, "remembers": None})(), True, True)
    return pyspiel.GameType(
        short_name=t.short_name, long_name=t.long_name, dynamics=t.dynamics, chance_mode=t.chance_mode,
        information=t.information, utility=pyspiel.GameType.Utility.GENERAL_SUM, reward_model=t.reward_model,
        max_num_players=16, min_num_players=1, provides_information_state_string=True,
        provides_information_state_tensor=False, provides_observation_string=True,
        provides_observation_tensor=True, parameter_specification=dict(_PARAMS),
    )


if SHORT_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_registered_type(), MidgardcGame)


def game_from_string(text: str) -> "pyspiel.Game":
    """The game a ``python_midgardc(...)`` string names (what a pickled game loads as)."""
    return pyspiel.load_game(text)


def load_game(spec_path: str, variant: Optional[str] = None, players: Optional[int] = None, engine: str = "compiled", seed: int = 0) -> "pyspiel.Game":
    """A spec as a ``pyspiel.Game`` (through ``pyspiel.load_game``, so it serializes)."""
    params = {"spec": os.path.abspath(spec_path), "variant": variant or "", "players": int(players or 0), "engine": engine, "seed": int(seed)}
    return pyspiel.load_game(SHORT_NAME, params)
