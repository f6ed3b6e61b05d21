"""The reference interpreter: the IR's meaning, in plain Python.

This back end is the oracle the compiled engine is tested against, so it favours being
obviously right over being fast. Expressions become small closures once per game (no
``eval``); state is plain lists. Every rule of play lives in ``Core`` below and its bases
in ``rules/`` (one module per concern, named like the code generator's in
``midgardc/compiler/emit/``), and is mirrored, line for line, by the generated Cython.
"""

from __future__ import annotations

from typing import Callable, Optional

from ..ir.compound import step_blocks
from ..ir.nodes import CHANCE_STREAM, NOBODY, GameIR
from .rng import Rng, derive_seed
from .sampling import check_sampling, draw_steps
from .rules import zones as zone_rules
from .rules.captures import Captures
from .rules.compound import Compound
from .rules.dice import Dice
from .rules.effects import MAX_HEIGHT, Effects
from .rules.expressions import Program
from .rules.history import History
from .rules.moves import Moves
from .rules.regions import Regions

OFFBOARD = -1  # the piece id stored in the sentinel cell: not empty, no owner


class Core(Effects, Captures, Regions, Moves, History, Compound, Dice):
    """One game state of the reference back end (ints in, ints out): the state, the turn
    structure (chance, a move applied, settling, the end) and, from its bases in
    ``rules/``, listing moves and running effects."""

    __slots__ = ("prog", "board", "hands", "counters", "current", "last", "ply", "terminal", "passes", "ply_limited", "_legal", "roll", "chance", "rng", "again", "heights", "deck", "drawn", "up", "discards", "zones", "zboard", "seen", "order", "looking")

    def __init__(self, prog: Program, copy_from: Optional["Core"] = None, seed: int = 0, look: bool = False, start_zones: Optional[list[list[int]]] = None):
        self.prog = prog
        if copy_from is not None:
            # position history: a copy for a lookahead shares the history (it never writes it)
            self.zboard = copy_from.zboard
            self.seen = copy_from.seen if look else dict(copy_from.seen)
            self.order = copy_from.order if look else list(copy_from.order)
            # 0: a state of play; 1: a copy made to test a move's legal_after; 2: a copy
            # made inside that copy's can_move() (rules/history.py, the lookahead's bound)
            self.looking = copy_from.looking + 1 if look else 0
            self.board = list(copy_from.board)
            self.hands = [list(h) for h in copy_from.hands]
            self.counters = [list(c) for c in copy_from.counters]
            self.current = copy_from.current
            self.last = copy_from.last
            self.ply = copy_from.ply
            self.terminal = copy_from.terminal
            self.passes = copy_from.passes
            self.ply_limited = copy_from.ply_limited
            self._legal = copy_from._legal
            self.roll = list(copy_from.roll)
            self.chance = copy_from.chance
            self.rng = Rng(copy_from.rng.state)
            self.again = copy_from.again
            self.heights = list(copy_from.heights)
            self.deck = copy_from.deck  # (never changed in place: shuffled once)
            self.drawn = list(copy_from.drawn)
            self.up = [list(u) for u in copy_from.up]
            self.discards = [list(d) for d in copy_from.discards]
            self.zones = [list(z) for z in copy_from.zones]
            return
        ir = prog.ir
        self.board = list(ir.initial_board or [0] * prog.n) + [OFFBOARD]
        self.heights = [int(p > 0) for p in self.board[:-1]] + [0]  # pieces stacked per cell
        if ir.initial_heights:  # stacks at setup
            self.heights = list(ir.initial_heights) + [0]
        self.hands = [list(h) for h in ir.hand_init]
        self.counters = [list(c) for c in ir.counter_init]
        self.current = 0
        self.last = NOBODY
        self.ply = 0
        self.terminal = False
        self.passes = 0
        self.ply_limited = False
        self._legal = None
        dice = ir.chance.dice if ir.chance else 0
        self.roll = [-1] * dice  # the faces of the current roll (-1: not rolled yet)
        self.chance = bool(dice)  # a roll is due: the turn opens with a chance node
        self.rng = Rng(derive_seed(seed, CHANCE_STREAM))  # the state's own chance stream
        # who moves after this move: 0 = the next seat, 1 = the mover again (extra_turn),
        # 2 + p = player p (next_turn); effects only raise it within a move
        self.again = 0
        self._deal()
        # zones: every ordered zone shuffled with the chance stream, after the decks
        self.zones = zone_rules.start(ir.zones, self.rng) if ir.zones is not None else []
        if start_zones is not None:  # a chosen deal instead of the shuffle (the OpenSpiel adapter's chance)
            self.zones = zone_rules.checked_slots(ir.zones, start_zones)
        self.run_effects(ir.start_effects, {})  # start: once, the first seat as the mover
        self._start_history()  # (the position after the start effects is the history's first)
        self._settle()

    def _deal(self) -> None:
        """Items: shuffle every deck with the chance stream (seat order, Fisher-Yates from
        the end), then each player turns up ``items.up`` items (see DeckIR)."""
        items = self.prog.ir.deck
        n = self.prog.ir.n_players
        k = items.n_kinds if items else 0
        self.deck: list[tuple[int, ...]] = [()] * n  # each player's deck, top first
        self.drawn = [0] * n  # items drawn from the top so far
        self.up = [[0] * k for _ in range(n)]  # face-up items per kind
        self.discards = [[0] * k for _ in range(n)]  # discard pile per kind
        if items is None:
            return
        decks = []
        for _ in range(n):
            order = list(items.order)
            for i in range(len(order) - 1, 0, -1):
                j = self.rng.below(i + 1)
                order[i], order[j] = order[j], order[i]
            decks.append(tuple(order))
        self.deck = decks
        for p in range(n):
            self._draw(p, items.up)

    def _draw(self, p: int, count: int) -> None:
        for _ in range(count):
            if self.drawn[p] >= len(self.deck[p]):
                return
            self.up[p][self.deck[p][self.drawn[p]]] += 1
            self.drawn[p] += 1

    def clone(self) -> "Core":
        return Core(self.prog, self)

    def set_zones(self, slots: list[list[int]]) -> None:
        """Replace every zone slot's content (the format of ``zones``: an ordered slot's
        kinds top first, an unordered slot's counts per kind), e.g. to deal a hidden
        hand differently; legal moves are recomputed, nothing else changes."""
        self.zones = zone_rules.checked_slots(self.prog.ir.zones, slots)
        self._legal = None

    def load(self, board: list[int], hands: list[list[int]], current: int, last: int = NOBODY, ply: int = 0, heights: Optional[list[int]] = None, counters: Optional[list[list[int]]] = None) -> None:
        """Set up an arbitrary position (for rule tests and puzzles), then settle it.
        ``heights``: the stack height per cell (default: 1 on every occupied cell);
        ``counters``: [player][counter], then the game's row, as ``counters`` reads them
        (default: the counters are kept)."""
        ir = self.prog.ir
        top = ir.n_players * ir.n_kinds
        if len(board) < self.prog.n or any(not 0 <= v <= top for v in board[: self.prog.n]):
            raise ValueError(f"a position needs {self.prog.n} piece ids in 0..{top}")
        self.board = list(board[: self.prog.n]) + [OFFBOARD]
        if heights is not None and (len(heights) < self.prog.n or any(not 1 <= h <= MAX_HEIGHT for b, h in zip(board, heights) if b > 0)):
            raise ValueError(f"heights: one per cell, 1..{MAX_HEIGHT} on occupied cells")
        hs = heights if heights is not None else [1] * self.prog.n
        self.heights = [hs[c] if self.board[c] > 0 else 0 for c in range(self.prog.n)] + [0]
        self.hands = [list(h) for h in hands]
        if counters is not None:
            if len(counters) != ir.n_players + 1 or any(len(c) != len(ir.counters) for c in counters):
                raise ValueError(f"counters: {ir.n_players + 1} lists (the players', then the game's) of {len(ir.counters)} values")
            self.counters = [list(c) for c in counters]
        self.current, self.last, self.ply = current, last, ply
        self.terminal, self.passes, self.ply_limited = False, 0, False
        self.chance = bool(ir.chance)  # the loaded turn opens with a roll
        self.again = 0
        self._legal = None
        self._start_history()  # a loaded position starts the history
        self._settle()

    def set_counter(self, player: int, counter: int, value: int) -> None:
        """Set one counter of a position being set up (rule tests); player n_players is
        the game's row (game counters). Takes effect with the next load(), which settles
        the position."""
        if not 0 <= player <= self.prog.ir.n_players or not 0 <= counter < len(self.prog.ir.counters):
            raise ValueError("set_counter: no such player or counter")
        self.counters[player][counter] = value

    # -- turns: the roll, a move applied, settling, the end -----------------------------

    def apply(self, move: int) -> None:
        """Play a move known to be legal (the API layer checks legality)."""
        chance = self.prog.ir.chance
        if chance is not None and move >= chance.base:  # the roll comes up: same turn, no ply
            self.land_roll(chance.outcomes[move - chance.base])
            self.chance = False
            self._legal = None
            self._settle()
            return
        action, env = self.decode(move)
        index = self.prog.ir.actions.index(action)
        self._legal = None
        if action.chain is not None:  # a compound move: its steps, then the triggers
            self._act_compound(action, index, move)
        else:
            self._act(action, index, env)
        self.last = self.current
        self.ply += 1
        self.passes = 0
        if self.again >= 2:  # next_turn: a chosen player moves next
            self.current = self.again - 2
        elif not self.again:
            self.current = (self.current + 1) % self.prog.ir.n_players
        self.again = 0  # (1: extra_turn, the same player moves again)
        if self.prog.ir.history is not None:
            self._record()  # the position after the move, the turn passed, before settling
        self.chance = self.prog.ir.chance is not None
        self._settle()

    def _act(self, action, index: int, env: dict) -> None:
        """A move's own part: the action's effects, then its triggers (also what a
        lookahead runs on its copy, see rules/history.py)."""
        self.run_effects(action.effects, env)
        # trigger order is a rule (docs/spec-language.md): in the order written, each `when`
        # checked on the state the action and the triggers before it left; once per move
        for trig, when in self.prog.triggers:
            if trig.after and index not in trig.after:
                continue
            if when is None or when(self, env):
                self.run_effects(trig.effects, env)

    def _settle(self) -> None:
        """After setup and after every move: end the game, or find a player who can move."""
        ir = self.prog.ir
        while True:
            if self.chance and not self.roll_due():  # chance.when: this turn opens without a roll
                self.chance = False
                self._legal = None
            if any(cond(self, {}) for cond in self.prog.end_conds):
                return self._finish()
            if self.ply >= ir.max_plies:
                self.ply_limited = True
                return self._finish()
            if self.legal():  # (at a chance node: the roll's outcomes)
                return
            if ir.end.no_moves == "end" or (ir.chance is None and self.passes + 1 >= ir.n_players):
                return self._finish()
            # a pass; with dice the next roll may differ, so passing never ends the game,
            # and a passed turn counts as a ply (max_plies bounds every game)
            self.passes += 1
            self.current = (self.current + 1) % ir.n_players
            if ir.chance is not None:
                self.ply += 1
                self.chance = True
            self._legal = None

    def _finish(self) -> None:
        self.terminal = True
        self.run_effects(self.prog.ir.end.effects, {})
        self.current = NOBODY
        self.chance = False  # no roll is due in a finished game

    def _owner(self, c: int) -> int:
        piece = self.board[c]
        return NOBODY if piece <= 0 else (piece - 1) // max(self.prog.ir.n_kinds, 1)

    # -- results ---------------------------------------------------------------------

    def keys(self) -> list[list[int]]:
        """Ranking keys per player (as written in the spec, before lower_is_better)."""
        return [[fn(self, {"p": p}) for fn in self.prog.rank] for p in range(self.prog.ir.n_players)]


def random_move(core: Core, rng: Rng, blocks: Optional[tuple] = None) -> int:
    """A random playout's next move: a roll's outcome from the state's chance stream at a
    chance node, else a uniformly random legal move drawn from ``rng``; with ``blocks``
    (ir/compound.py ``step_blocks``, sampling ``steps``) a legal move drawn step by step
    (runtime/sampling.py), from the whole legal list.

    With a ``legal_after`` in the spec, the draw is by rejection: a move is drawn from
    those whose ``where`` holds (ascending) and only it is looked ahead; a move that fails
    takes the last one's place and the draw is made again from one fewer. Every legal move
    is as likely as by drawing from the whole legal list, which would look ahead at every
    candidate (in Go, every empty point) at every ply. Without one, the first draw is
    the move: the same draw as from the legal list. random_game() in C draws alike. (A
    compiled engine's Core, which tests hand in too, lists only legal moves: drawn from
    them.)"""
    if core.chance:
        return core.sample_chance()
    if blocks:
        return draw_steps(blocks, core.legal(), rng)
    if not getattr(getattr(core, "prog", None), "lookahead", False):
        legal = core.legal()
        return legal[rng.below(len(legal))]
    moves = core.unchecked()
    n = len(moves)
    while True:
        k = rng.below(n)
        move = moves[k]
        if core.after_holds(move):
            return move
        n -= 1
        moves[k] = moves[n]


class InterpretedEngine:
    """The reference back end behind the common Game API."""

    name = "interpreted"

    def __init__(self, ir: GameIR):
        self.ir = ir
        self.prog = Program(ir)

    def new_core(self, seed: int = 0, start_zones: Optional[list[list[int]]] = None) -> Core:
        """A new game for ``seed``; ``start_zones`` (every zone slot, as ``set_zones`` takes
        them) replaces what the start shuffle dealt, before the start effects run."""
        return Core(self.prog, seed=seed, start_zones=start_zones)

    def playout_trace(self, seed: int, core: Optional[Core] = None, sampling: str = "whole") -> list[int]:
        """Random moves (the shared RNG; ``sampling``: runtime/sampling.py) from the start
        (or ``core``) to the end."""
        blocks = self._blocks(sampling)
        state = core.clone() if core is not None else self.new_core(seed)
        rng = Rng(seed)
        moves = []
        while not state.terminal:
            move = random_move(state, rng, blocks)
            state.apply(move)
            moves.append(move)
        return moves

    def _blocks(self, sampling: str) -> Optional[tuple]:
        """The step blocks random_move() groups by for ``sampling`` (None: whole moves, or
        no move of two steps, where both samplings make the same draws)."""
        return step_blocks(self.ir) or None if check_sampling(sampling) else None

    def playouts(self, n: int, seed: int, stop: Optional[Callable[[int], bool]] = None, sampling: str = "whole") -> dict:
        """``n`` random games; game i uses ``derive_seed(seed, i)``. Aggregate results.
        ``stop(games)``, when given, is asked after each game (``games`` finished so far);
        True ends the run there, with the results of the games finished (a time bound
        and a progress bar for a slow game, as ``midgardc bench`` uses)."""
        return self._games(None, n, seed, stop, sampling)

    def rollouts(self, start: Core, n: int, seed: int, sampling: str = "whole") -> dict:
        """``n`` random games from ``start`` (left as it is); game i uses
        ``derive_seed(seed, i)``. The same dict as ``playouts``."""
        return self._games(start, n, seed, None, sampling)

    def _games(self, start: Optional[Core], n: int, seed: int, stop: Optional[Callable[[int], bool]] = None, sampling: str = "whole") -> dict:
        """Game i from a new game for its seed (decks dealt, dice seeded) or, as a rollout,
        from a copy of ``start`` with dice of its own: as run_playouts() in C."""
        from .results import summarize_core

        blocks = self._blocks(sampling)
        stats = None
        for i in range(n):
            game_seed = derive_seed(seed, i)
            if start is None:
                core = self.new_core(game_seed)
            else:
                core = start.clone()
                core.rng = Rng(derive_seed(game_seed, CHANCE_STREAM))  # each game its own dice, as in C
            rng = Rng(game_seed)
            while not core.terminal:
                core.apply(random_move(core, rng, blocks))
            stats = summarize_core(self.ir, core, stats)
            if stop is not None and stop(i + 1):
                break
        return stats or summarize_core(self.ir, None, None)
