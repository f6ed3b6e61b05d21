"""The one engine API, whichever back end runs underneath (OpenSpiel's State API shape).

A back end provides *cores*: integer-only states with ``legal()``, ``apply(int)``,
``clone()``, ``keys()`` and a few read-only fields. Everything people see — move
notation, legality errors, JSON, observations, results — is written once, here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Optional, Union

from ..errors import MoveError
from ..ir.nodes import CHANCE, GameIR
from . import results

#: Above this many move ids, a move's text is read through the notation (Game._read_move)
#: instead of a table of every move's text.
MANY_MOVES = 1 << 16
from .results import summed_returns  # (re-exported: its home is results.py)

ENGINES = ("interpreted", "compiled")


@dataclass(frozen=True)
class Move:
    """A move: its id (dense integer, back-end independent) and how it is written."""

    id: int
    text: str

    def __str__(self) -> str:
        return self.text


class Game:
    def __init__(self, ir: GameIR, engine: Any):
        self.ir = ir
        self.engine = engine
        self.name = ir.name
        self.variant = ir.variant
        self.players = ir.players
        self._texts: dict[int, str] = {}
        self._ids: Optional[dict[str, int]] = None
        self._patterns: Optional[list] = None  # per action: its notation as a pattern (_read_move)
        self._roll_ids: dict[str, int] = {}
        self.compound = any(a.chain is not None for a in ir.actions)  # moves whose text needs the position
        self.start = None  # a StartPosition (start_from): where every new game begins instead of the setup

    def start_from(self, text: Optional[str]) -> None:
        """Begin every new game (``new_state``) at the position ``text`` in the spec's own
        notation (``position:``; None: the setup again). Both back ends load the very same
        state, which starts the position history; PositionTextError if it does not read."""
        from ..ir.position import read_position

        self.start = None if text is None else read_position(self.ir, text)

    def state_at(self, text: str, seed: int = 0) -> "State":
        """A new game for ``seed`` begun at the position ``text`` (the spec's notation),
        leaving ``start_from`` as it is."""
        from ..ir.position import read_position

        start = read_position(self.ir, text)
        state = self.new_state(seed)
        start.load_into(state.core)
        state.first_move_number = start.move_number
        return state

    @property
    def engine_name(self) -> str:
        return self.engine.name

    def new_state(self, seed: int = 0, start_zones: Optional[list[list[int]]] = None) -> "State":
        """A new game for ``seed``. ``start_zones`` (every zone slot: an ordered one's item
        kinds top first, an unordered one's counts per kind) replaces what the start
        shuffle dealt, before ``start`` effects run: how a chosen deal is played (the
        OpenSpiel adapter's deal chance nodes). Both back ends do it identically."""
        if start_zones is None:
            core = self.engine.new_core(seed)
        else:
            core = self.engine.new_core(seed, start_zones=start_zones)
        state = State(self, core)
        if self.start is not None:
            self.start.load_into(core)
            state.first_move_number = self.start.move_number
        return state

    # -- notation --------------------------------------------------------------------

    def move_text(self, move: int) -> str:
        text = self._texts.get(move)
        if text is None:
            text = self._texts[move] = self._render_move(move)
        return text

    def _render_move(self, move: int) -> str:
        chance = self.ir.chance
        if chance is not None and chance.base <= move < chance.base + len(chance.outcomes):
            return chance.text(move - chance.base)
        for action in self.ir.actions:
            if action.base <= move < action.base + action.size:
                text = self.step_text(action, action.notation, _decode(self.ir, action, move - action.base))
                if action.chain is not None:  # a compound move: its text needs the position
                    text += f"#{(move - action.base) % action.chain.ways + 1}"  # (State.move_text)
                return text
        raise ValueError(f"move id {move} out of range")

    def step_text(self, action, notation: tuple, values: list[int]) -> str:
        """One step written with ``notation`` (literal text and parameter indices)."""
        return "".join(part if isinstance(part, str) else _value_text(self.ir, action.params[part], values[part]) for part in notation)

    def compound_text(self, action, path: list[dict]) -> str:
        """A compound move written whole: its first step, then each further step
        (``continue.notation``), e.g. c3xe5xc7."""
        texts = []
        for i, env in enumerate(path):
            values = [env[p.name] for p in action.params]
            texts.append(self.step_text(action, action.notation if i == 0 else action.chain.notation, values))
        return "".join(texts)

    # -- a generic read for observations (midgardc.runtime.observe) --------------------

    def decode_move(self, move: int) -> tuple[Optional[Any], list[int]]:
        """A player's move as its action (IR) and parameter values; (None, []) for a roll's
        outcome."""
        for action in self.ir.actions:
            if action.base <= move < action.base + action.size:
                return action, _decode(self.ir, action, move - action.base)
        return None, []

    def param_text(self, param: Any, value: int) -> str:
        """A parameter's value as moves write it."""
        return _value_text(self.ir, param, value)

    def move_id(self, text: str) -> int:
        """The move written ``text``; MoveError when no move is written that way."""
        if self.ir.n_moves > MANY_MOVES:  # (writing every move once would take long)
            found = self._read_move(text)
            if found is None:
                canonical = self._roll_text(text)
                found = self._read_move(canonical) if canonical is not None else None
            if found is None:
                raise MoveError(f"'{text}' is not a move of {self.ir.title}")
            return found
        if self._ids is None:
            ids: dict[str, int] = {}
            for move in range(self.ir.n_moves):
                ids.setdefault(self.move_text(move), move)
            self._ids = ids
        if text not in self._ids:
            canonical = self._roll_text(text)
            if canonical in self._ids:
                return self._ids[canonical]
            raise MoveError(f"'{text}' is not a move of {self.ir.title}")
        return self._ids[text]

    def _read_move(self, text: str) -> Optional[int]:
        """The lowest move id written ``text``, read through each action's notation (a
        pattern of its literal text and its parameters' value texts) rather than from a
        table of every move's text: for games of many move ids (a move of two steps,
        ``then:``, has the product of both steps' parameters)."""
        if self._patterns is None:
            self._patterns = [_notation_pattern(self.ir, a) for a in self.ir.actions]
            chance = self.ir.chance
            self._roll_ids = {chance.text(k): chance.base + k for k in range(len(chance.outcomes))} if chance is not None else {}
        found = []
        for action, (pattern, readers) in zip(self.ir.actions, self._patterns):
            m = pattern.fullmatch(text) if action.chain is None else None  # (a compound move is read where it is legal: State.apply)
            if m is None:
                continue
            values: dict[int, int] = {}
            for group, (index, read) in enumerate(readers, 1):
                values.setdefault(index, read[m.group(group)])
            offset = 0
            for j, param in enumerate(action.params):
                offset = offset * _param_size(self.ir, param) + values[j] - (param.lo if param.type == "int" else 0)
            if self.move_text(action.base + offset) == text:  # (a parameter written twice, alike)
                found.append(action.base + offset)
        if text in self._roll_ids:
            found.append(self._roll_ids[text])
        return min(found) if found else None

    def _roll_text(self, text: str) -> Optional[str]:
        """A multiset roll written in any order (roll:4-A-blank), as its outcome is
        written (faces in declared order: roll:A-4-blank); None when it is not one."""
        chance = self.ir.chance
        if chance is None or chance.ordered or not text.startswith(chance.name + ":"):
            return None
        faces = text[len(chance.name) + 1 :].split("-")
        if len(faces) != chance.dice or any(f not in chance.texts for f in faces):
            return None
        return chance.name + ":" + "-".join(sorted(faces, key=chance.texts.index))

    def parse_moves(self, text: str) -> list[str]:
        return text.replace(",", " ").split()


def _decode(ir: GameIR, action, offset: int) -> list[int]:
    """A move's parameter values (a compound move's: its first step's)."""
    if action.chain is not None:
        offset //= action.chain.ways
    values = [0] * len(action.params)
    sizes = [_param_size(ir, p) for p in action.params]
    for i in range(len(action.params) - 1, -1, -1):
        values[i] = offset % sizes[i] + (action.params[i].lo if action.params[i].type == "int" else 0)
        offset //= sizes[i]
    return values


def _notation_pattern(ir: GameIR, action) -> tuple:
    """An action's notation as a regular expression (a group per parameter place, its
    value texts longest first) and, per group, (the parameter's index, text -> value)."""
    import re

    parts, readers = [], []
    for part in action.notation:
        if isinstance(part, str):
            parts.append(re.escape(part))
            continue
        param = action.params[part]
        lo = param.lo if param.type == "int" else 0
        read = {_value_text(ir, param, v): v for v in range(lo, lo + _param_size(ir, param))}
        parts.append("(" + "|".join(re.escape(t) for t in sorted(read, key=len, reverse=True)) + ")")
        readers.append((part, read))
    return re.compile("".join(parts)), readers


def _param_size(ir: GameIR, p) -> int:
    return {"cell": ir.board.n_cells, "player": ir.n_players, "kind": ir.n_kinds, "dir": len(ir.board.directions), "int": p.hi - p.lo + 1, "item": ir.n_item_kinds}.get(p.type, p.hi - p.lo + 1)  # (an enumeration: 0..n-1)


def _value_text(ir: GameIR, param, value: int) -> str:
    if param.type == "cell":
        return ir.board.cell_names[value]
    if param.type == "player":
        return ir.players[value]
    if param.type == "kind":
        return (ir.kind_texts or ir.kinds)[value]
    if param.type == "dir":
        return ir.board.directions[value]
    if param.type == "item":
        return ir.item_texts[value]
    if param.type.startswith("enum:"):
        from ..ir.values import value_text

        return value_text(ir, param.type, value)
    return str(value)


MoveLike = Union[Move, int, str]


class State:
    """A game state: what players, the CLI and tests talk to."""

    def __init__(self, game: Game, core: Any):
        self.game = game
        self.core = core
        self.history: list[int] = []
        self.texts: list[str] = []  # how each move of ``history`` is written
        self.movers: list[int] = []  # who made each move of ``history`` (its turn's player at a roll)
        # a compound move's steps (index in ``history`` -> each step's parameters), kept
        # because its text is written from them: one viewer may see a step's value as '?'
        self.paths: dict[int, list[dict]] = {}
        # the move number the game began at (a loaded position's, else 1): move_number()
        # counts on from it, so that a position written later continues the record's
        self.first_move_number = 1

    # -- queries ---------------------------------------------------------------------

    def move_number(self) -> int:
        """The number of the move, as game records number them (a position notation's
        ``move_number`` field, FEN's fullmove number): the first one, plus one for every
        move the last player in seat order made (a round: every seat has moved once; a
        roll is no move). Kept outside the engines' state: no rule reads it."""
        last, chance = len(self.game.players) - 1, self.game.ir.chance
        rolls = range(chance.base, chance.base + len(chance.outcomes)) if chance is not None else range(0)
        return self.first_move_number + sum(1 for move, mover in zip(self.history, self.movers) if mover == last and move not in rolls)

    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` (-2) at a chance node (a roll is due), or -1 when
        the game is over."""
        return CHANCE if self.core.chance else self.core.current

    def turn_player(self) -> int:
        """Whose turn it is, also at a chance node (-1 when the game is over)."""
        return self.core.current

    def current_player_name(self) -> Optional[str]:
        p = self.core.current
        return None if p < 0 else self.game.players[p]

    def is_chance_node(self) -> bool:
        return bool(self.core.chance)

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """At a chance node: each outcome of the roll and its probability (they sum to 1);
        [] elsewhere. Exact weights: ``chance_weights()``."""
        weights = self.chance_weights()
        total = sum(w for _, w in weights) or 1  # faces ** dice, or faces ** (dice thrown) when some are kept
        return [(m, w / total) for m, w in weights]

    def chance_weights(self) -> list[tuple[Move, int]]:
        """At a chance node: each outcome and how many of the equally likely draws of the
        dice give it (out of ``faces ** dice``, or of ``faces ** thrown`` when a partial
        roll keeps some dice: see midgardc/ir/dice.py); [] elsewhere."""
        if not self.core.chance:
            return []
        chance = self.game.ir.chance
        return [(Move(m, self.game.move_text(m)), chance.weights[m - chance.base]) for m in self.core.legal()]

    def sample_chance(self) -> Move:
        """Roll the due dice with the state's own chance stream (seeded by ``new_state(seed)``)
        and apply the outcome; the same seed gives the same rolls on either back end."""
        if not self.core.chance:
            raise MoveError("no roll is due here" if not self.core.terminal else "no roll is due: the game is over")
        move = self.core.sample_chance()
        self.apply_unchecked(move)
        return Move(move, self.game.move_text(move))

    def roll(self) -> list[str]:
        """The faces of the current roll as written in moves ([] before the first roll)."""
        chance = self.game.ir.chance
        if chance is None:
            return []
        return [chance.texts[f] for f in self.core.roll if f >= 0]

    def is_terminal(self) -> bool:
        return bool(self.core.terminal)

    def legal_move_ids(self) -> list[int]:
        return self.core.legal()

    def legal_moves(self) -> list[Move]:
        return [Move(m, self.move_text(m)) for m in self.core.legal()]

    def move_text(self, move: int) -> str:
        """How ``move`` (legal here) is written: a compound move's whole path needs the
        position (``Game.move_text`` writes any other move)."""
        action = self._compound_action(move)
        if action is not None:
            return self.game.compound_text(action, self.core.compound_path(move))
        return self.game.move_text(move)

    def _compound_action(self, move: int) -> Optional[Any]:
        if self.game.compound:
            for action in self.game.ir.actions:
                if action.chain is not None and action.base <= move < action.base + action.size:
                    return action
        return None

    def _note(self, move: int) -> None:
        """Remember how ``move`` (about to be applied) is written, who makes it, and a
        compound move's steps."""
        action = self._compound_action(move)
        if action is not None:
            path = self.core.compound_path(move)
            self.paths[len(self.history)] = path
            self.texts.append(self.game.compound_text(action, path))
        else:
            self.texts.append(self.game.move_text(move))
        self.movers.append(self.core.current)

    def ply(self) -> int:
        return self.core.ply

    def keys(self) -> list[list[int]]:
        return self.core.keys()

    def scores(self) -> dict[str, dict[str, int]]:
        names = [k.name for k in self.game.ir.ranking]
        return {self.game.players[p]: dict(zip(names, ks)) for p, ks in enumerate(self.core.keys())}

    def winner(self) -> Optional[int]:
        """The seat ranked first alone once the game is over (None while playing, on a
        shared first place or a draw, or when the ply limit stopped the game)."""
        if not self.core.terminal:
            return None
        return results.winner_of(self.game.ir, self.core.keys(), bool(self.core.ply_limited))

    def ranks(self) -> Optional[tuple[int, ...]]:
        """Each seat's rank once the game is over (1 = first; tied seats share a rank);
        None while playing or when the ply limit stopped the game. See ``results``."""
        if not self.core.terminal:
            return None
        return results.ranks_of(self.game.ir, self.core.keys(), bool(self.core.ply_limited))

    def outcome(self) -> Optional[str]:
        """``win``, ``shared`` (first place shared by some seats), ``draw``, ``stopped``;
        None while playing."""
        return results.game_outcome(self.ranks()) if self.core.terminal else None

    def returns(self) -> list[float]:
        """Per seat, from the ranks: a sole winner n-1, k tied leaders n/k-1, the others
        -1; 0 for everyone in a draw or a stopped game (zero-sum; see ``results``). A spec
        with ``returns:`` gives each seat its payoff counter instead (0 when stopped)."""
        if not self.core.terminal:
            return [0.0] * self.game.ir.n_players
        if self.game.ir.returns is not None:
            return results.payoff_returns(self.game.ir, self.core.counters, bool(self.core.ply_limited))
        return results.returns_of(self.game.ir, self.core.keys(), bool(self.core.ply_limited))

    def margin(self) -> int:
        return results.margin_of(self.game.ir, self.core.keys())

    def rollout_returns(self, n: int, seed: int) -> list[float]:
        """Per seat, the summed ``returns()`` of ``n`` uniformly random games from here
        (game i seeded with ``derive_seed(seed, i)``), played by the back end itself."""
        if n < 0:
            raise ValueError("the number of rollouts must be at least 0")
        return summed_returns(self.game.engine.rollouts(self.core, n, seed))

    # -- moves -----------------------------------------------------------------------

    def resolve(self, move: MoveLike) -> int:
        """The id of ``move`` if it is legal here; MoveError saying why otherwise."""
        if isinstance(move, Move):
            mid, text = move.id, move.text
        elif isinstance(move, int) and not isinstance(move, bool):
            if not 0 <= move < self.game.ir.n_moves:
                raise MoveError(f"move id {move} is out of range (0..{self.game.ir.n_moves - 1})")
            mid, text = move, self.game.move_text(move)
        elif isinstance(move, str):
            text = move.strip()
            legal = {m.text: m.id for m in self.legal_moves()} if self.game.compound and not self.core.terminal else {}
            if text in legal:
                mid = legal[text]
            else:
                try:
                    mid = self.game.move_id(text)
                except MoveError:
                    if not legal:
                        raise
                    # a compound move is written whole (c3xe5xc7), so its text is known only where it is legal
                    raise MoveError(f"'{text}' is not legal for {self.current_player_name()} here") from None
        else:
            raise MoveError(f"not a move: {move!r}")
        if self.core.terminal:
            raise MoveError(f"'{text}' cannot be played: the game is over")
        if mid not in self.core.legal():
            if self.core.chance:
                raise MoveError(f"'{text}' is not legal here: a roll is due, so the next move is one of the roll's outcomes")
            raise MoveError(f"'{text}' is not legal for {self.current_player_name()} here")
        return mid

    def apply(self, move: MoveLike) -> None:
        mid = self.resolve(move)
        self._note(mid)
        self.core.apply(mid)
        self.history.append(mid)

    def apply_unchecked(self, move_id: int) -> None:
        """Apply a move id taken from ``legal_move_ids()`` (the fast path for players)."""
        self._note(move_id)
        self.core.apply(move_id)
        self.history.append(move_id)

    def clone(self) -> "State":
        other = State(self.game, self.core.clone())
        other.history = list(self.history)
        other.texts = list(self.texts)
        other.movers = list(self.movers)
        other.paths = dict(self.paths)
        other.first_move_number = self.first_move_number
        return other

    def zones(self) -> dict[str, dict[str, Union[list[str], dict[str, int]]]]:
        """Every zone's content (``zones:``), the whole truth whoever may see it: zone name
        -> owner (a player's name, or ``"game"`` for a game zone) -> an ordered zone's item
        kinds top first, or an unordered zone's count per kind (every kind, in declared
        order). Which of it a player may see is ``game.ir.zones.zones[i].visible``."""
        zs = self.game.ir.zones
        if zs is None or not zs.zones:
            return {}
        slots = self.core.zones
        out: dict[str, dict[str, Union[list[str], dict[str, int]]]] = {}
        for z in zs.zones:
            owners = self.game.players if z.per_player else ("game",)
            out[z.name] = {}
            for o, owner in enumerate(owners):
                content = slots[z.base + o]
                out[z.name][owner] = [zs.names[k] for k in content] if z.ordered else dict(zip(zs.names, content))
        return out

    # -- views -----------------------------------------------------------------------

    def to_json(self) -> dict:
        from .state_json import state_json

        return state_json(self)

    def observation(self, player: int) -> dict:
        """What ``player`` may see (JSON-able): places it may not see show only their size;
        its legal moves when it is to move. See ``midgardc.runtime.observe``."""
        from .observe import observation

        return observation(self, player)

    def observation_string(self, player: int) -> str:
        """``observation(player)`` as one line of JSON with sorted keys."""
        from .observe import observation_string

        return observation_string(self, player)

    def __str__(self) -> str:
        from .view import render_text

        return render_text(self, color=False)


def perft(state: State, depth: int) -> int:
    """Number of legal move sequences of length exactly ``depth`` (the standard perft: a
    game that ends earlier adds nothing). A roll's outcomes are moves here: each outcome
    is one branch, unweighted by its probability."""
    return _perft(state.core, depth)


def _perft(core: Any, depth: int) -> int:
    if depth <= 0:
        return 1
    if core.terminal:
        return 0
    moves = core.legal()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        child = core.clone()
        child.apply(m)
        total += _perft(child, depth - 1)
    return total


def replay(game: Game, moves: Iterable[str], seed: int = 0) -> State:
    """Play ``moves`` from the start; an illegal move raises MoveError naming its position
    in the list and the legal moves there."""
    state = game.new_state(seed)
    for i, text in enumerate(moves, start=1):
        try:
            state.apply(text)
        except MoveError as exc:
            legal = " ".join(m.text for m in state.legal_moves())
            raise MoveError(f"move {i} ({text}): {exc.message}; legal moves here: {legal or 'none (the game is over)'}") from None
    return state

