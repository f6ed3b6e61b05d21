"""The reference interpreter: the IR's meaning, in plain Python.

This back end is the oracle the compiled engine is tested against, so it favours being
obviously right over being fast. Expressions become small closures once per game (no
``eval``); state is plain lists. Every rule of play lives in ``Core`` below and is
mirrored, line for line, by the generated Cython template.
"""

from __future__ import annotations

from typing import Callable, Optional

from ..ir.nodes import (
    CHANCE_STREAM,
    NOBODY,
    Action,
    AssessRegions,
    Binary,
    Call,
    Const,
    DefineCall,
    Domain,
    Effect,
    Expr,
    GameIR,
    Local,
    Place,
    MovePiece,
    FlipFlanked,
    ExtraTurn,
    NextTurn,
    Remove,
    Discard,
    Draw,
    ForEach,
    IfEffect,
    opposite_directions,
    Quant,
    SetCounter,
    Unary,
)
from .rng import Rng, derive_seed
from . import zones as zone_rules

Fn = Callable[["Core", dict], int]


def _floordiv(a: int, b: int) -> int:
    return a // b if b else 0


def _mod(a: int, b: int) -> int:
    return a % b if b else 0


_BINARY = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "//": _floordiv,
    "%": _mod,
    "==": lambda a, b: int(a == b),
    "!=": lambda a, b: int(a != b),
    "<": lambda a, b: int(a < b),
    "<=": lambda a, b: int(a <= b),
    ">": lambda a, b: int(a > b),
    ">=": lambda a, b: int(a >= b),
}


class Program:
    """A game's IR turned into callables, shared by every state of that game."""

    def __init__(self, ir: GameIR):
        self.ir = ir
        b = ir.board
        self.n = b.n_cells
        self.neighbours = b.neighbours
        self.steps = b.steps
        self.props = [values + (0,) for _, values in b.props]  # + the off-board cell
        self.builtins = self._builtins()
        self.defines: list[Optional[Fn]] = [None] * len(ir.defines)
        for i, d in enumerate(ir.defines):
            self.defines[i] = self.compile(d.body)
        self.wheres = [self.compile(a.where) for a in ir.actions]
        self.plans = [self._plan(a) for a in ir.actions]
        self.rank = [self.compile(k.expr) for k in ir.ranking]
        self.end_conds = [self.compile(e) for e in ir.end.conditions]
        self.triggers = [(t, self.compile(t.when) if t.when is not None else None) for t in ir.triggers]
        self._effect_fns: dict[int, tuple[Expr, Fn]] = {}

    def _plan(self, a: Action) -> list:
        """Per loop level 0..len(params): (candidate value closures for the parameter
        bound at this level, or None; the conjuncts of 'where' tested once it is bound)."""
        from ..ir.analysis import candidates, conjuncts, reads

        names = [p.name for p in a.params]
        levels: list[list[Expr]] = [[] for _ in range(len(names) + 1)]
        for conj in conjuncts(a.where):
            used = [names.index(x) for x in reads(conj) if x in names]
            levels[max(used) + 1 if used else 0].append(conj)
        plan = []
        for j, conds in enumerate(levels):
            cands = None
            if j > 0 and a.params[j - 1].type == "cell":
                for conj in conds:
                    found = candidates(conj, names[j - 1], self.ir.defines)
                    if found is not None:
                        cands = [self.compile(x) for x in found]
                        break
            plan.append((cands, [self.compile(c) for c in conds]))
        return plan

    def fn(self, expr: Expr) -> Fn:
        """The closure of an effect's sub-expression, compiled on first use."""
        hit = self._effect_fns.get(id(expr))
        if hit is None or hit[0] is not expr:
            hit = self._effect_fns[id(expr)] = (expr, self.compile(expr))
        return hit[1]

    # -- expressions -----------------------------------------------------------------

    def compile(self, e: Expr) -> Fn:
        if isinstance(e, Const):
            v = e.value
            return lambda s, env: v
        if isinstance(e, Local):
            name = e.name
            return lambda s, env: env[name]
        if isinstance(e, Call):
            impl = self.builtins[e.fn]
            args = [self.compile(a) for a in e.args]
            if not args:
                return lambda s, env: impl(s)
            if len(args) == 1:
                a0 = args[0]
                return lambda s, env: impl(s, a0(s, env))
            if len(args) == 2:
                a0, a1 = args
                return lambda s, env: impl(s, a0(s, env), a1(s, env))
            return lambda s, env: impl(s, *[a(s, env) for a in args])
        if isinstance(e, DefineCall):
            args = [self.compile(a) for a in e.args]
            names = [p.name for p in self.ir.defines[e.index].params]
            bodies = self.defines
            idx = e.index
            if len(args) == 1:
                (n0,), (a0,) = names, args
                return lambda s, env: bodies[idx](s, {n0: a0(s, env)})
            return lambda s, env: bodies[idx](s, {n: a(s, env) for n, a in zip(names, args)})
        if isinstance(e, Unary):
            a = self.compile(e.arg)
            if e.op == "not":
                return lambda s, env: 0 if a(s, env) else 1
            return lambda s, env: -a(s, env)
        if isinstance(e, Binary):
            left, right = self.compile(e.left), self.compile(e.right)
            if e.op == "and":
                return lambda s, env: 1 if left(s, env) and right(s, env) else 0
            if e.op == "or":
                return lambda s, env: 1 if left(s, env) or right(s, env) else 0
            op = _BINARY[e.op]
            return lambda s, env: op(left(s, env), right(s, env))
        if isinstance(e, Quant):
            return self._quant(e)
        raise AssertionError(e)  # pragma: no cover

    def domain(self, d: Domain) -> Callable[["Core", dict], list[int]]:
        if d.kind == "cells":
            cells = list(range(self.n))
            return lambda s, env: cells
        if d.kind == "players":
            players = list(range(self.ir.n_players))
            return lambda s, env: players
        if d.kind == "directions":
            dirs = list(range(len(self.ir.board.directions)))
            return lambda s, env: dirs
        if d.kind == "neighbours":
            cell = self.compile(d.args[0])
            empty: tuple = ()
            return lambda s, env: (self.neighbours[c] if (c := cell(s, env)) < self.n else empty)
        if d.kind == "range":
            lo, hi = self.compile(d.args[0]), self.compile(d.args[1])
            return lambda s, env: range(lo(s, env), hi(s, env) + 1)
        if d.kind == "group":
            return self._group_domain(self.compile(d.args[0]))
        if d.kind == "item_kinds":
            kinds = list(range(self.ir.n_item_kinds))
            return lambda s, env: kinds
        if d.kind == "ray":
            return self._ray_domain(self.compile(d.args[0]), self.compile(d.args[1]))
        raise AssertionError(d.kind)  # pragma: no cover

    def _group_domain(self, cell: Fn) -> Callable[["Core", dict], list[int]]:
        """group(c): c's chain of same-owner pieces, breadth-first from c."""
        n, nbrs = self.n, self.neighbours

        def group(s, env):
            c = cell(s, env)
            if c >= n or s.board[c] <= 0:
                return ()
            owner = s._owner(c)
            order, seen = [c], {c}
            for x in order:  # the list grows as the search goes
                for y in nbrs[x]:
                    if y not in seen and s.board[y] > 0 and s._owner(y) == owner:
                        seen.add(y)
                        order.append(y)
            return order

        return group

    def _ray_domain(self, cell: Fn, direction: Fn) -> Callable[["Core", dict], list[int]]:
        """ray(c, d): the cells past c in direction d, to the edge (or back to c)."""
        n, steps = self.n, self.steps

        def ray(s, env):
            c, d = cell(s, env), direction(s, env)
            out: list[int] = []
            if c >= n:
                return out
            x = steps[d][c]
            while x < n and x != c:
                out.append(x)
                x = steps[d][x]
            return out

        return ray

    def _quant(self, q: Quant) -> Fn:
        dom = self.domain(q.domain)
        body = self.compile(q.body)
        var = q.var

        def run(s, env):
            inner = dict(env)
            if q.kind == "any":
                for x in dom(s, env):
                    inner[var] = x
                    if body(s, inner):
                        return 1
                return 0
            if q.kind == "all":
                for x in dom(s, env):
                    inner[var] = x
                    if not body(s, inner):
                        return 0
                return 1
            if q.kind == "count":
                total = 0
                for x in dom(s, env):
                    inner[var] = x
                    if body(s, inner):
                        total += 1
                return total
            values = []
            for x in dom(s, env):
                inner[var] = x
                values.append(body(s, inner))
            if q.kind == "sum":
                return sum(values)
            if not values:
                return 0
            return min(values) if q.kind == "min" else max(values)

        return run

    def _builtins(self) -> dict[str, Callable]:
        ir = self.ir
        n = self.n
        nk = max(ir.n_kinds, 1)
        steps = self.steps
        neighbours = self.neighbours
        props = self.props

        def owner(s, c):
            p = s.board[c]
            return NOBODY if p <= 0 else (p - 1) // nk

        def kind_at(s, c):
            p = s.board[c]
            return -1 if p <= 0 else (p - 1) % nk

        # -- lines and custodial runs
        opposite = opposite_directions(ir.board)
        pprops = [values for _, values in ir.player_props]
        face_values = ir.chance.values if ir.chance else ()
        card_values = ir.item_values

        def run(s, c, d, o):
            """How many cells in a row from step(c, d) on belong to player o, stopping
            when the walk comes back to c (a wrapping board); -1 - k when it does, the
            whole ring round c being o's."""
            k = 0
            x = steps[d][c]
            while x < n and owner(s, x) == o:
                if x == c:
                    return -1 - k
                k += 1
                x = steps[d][x]
            return k

        def line(s, c, length):
            o = owner(s, c)
            if o < 0:
                return 0
            if length <= 1:
                return 1
            for d in range(len(steps)):
                e = opposite[d]
                ahead = run(s, c, d, o)
                if ahead < 0:  # a whole ring of o's: the line is the ring, counted once
                    total = -ahead
                else:
                    total = 1 + ahead + (run(s, c, e, o) if e >= 0 else 0)
                if total >= length:
                    return 1
            return 0

        def flanked(s, c, d):
            if c >= n:
                return 0
            me = s.current
            k = 0
            x = steps[d][c]
            while x < n:
                o = owner(s, x)
                if o < 0 or o == me:
                    break
                if x == c:  # round a wrapping board back to c: nothing closes the run
                    return 0
                k += 1
                x = steps[d][x]
            return k if x < n and owner(s, x) == me else 0

        def room(s, c, d):
            """The run of occupied cells from c in direction d ends before the edge."""
            if c >= n:
                return 0
            x = c
            while s.board[x] > 0:
                x = steps[d][x]
                if x >= n or x == c:
                    return 0
            return 1

        areas = ir.areas

        def area_winners(s) -> list[int]:
            """Per area: the player with the strictly greatest weight (above 0), or -1."""
            out = []
            for area in areas:
                weight = [0] * ir.n_players
                for c, w in zip(area.cells, area.weights):
                    o = owner(s, c)
                    if o >= 0:
                        weight[o] += w
                best = max(weight)
                out.append(weight.index(best) if best > 0 and weight.count(best) == 1 else -1)
            return out

        def area_points(s, p):
            return sum(a.points for a, w in zip(areas, area_winners(s)) if w == p and p >= 0)

        def areas_won(s, p):
            return sum(1 for w in area_winners(s) if w == p and p >= 0)

        return {
            "empty": lambda s, c: int(s.board[c] == 0),
            "occupied": lambda s, c: int(s.board[c] > 0),
            "owner": owner,
            "kind_at": kind_at,
            "degree": lambda s, c: len(neighbours[c]) if c < n else 0,
            "onboard": lambda s, c: int(c < n),
            "step": lambda s, c, d: steps[d][c] if c < n else n,
            "hand": lambda s, p, k: s.hands[p][k] if p >= 0 and k >= 0 else 0,
            "next_player": lambda s, p: (p + 1) % ir.n_players if p >= 0 else NOBODY,
            "abs": lambda s, x: abs(x),
            "either": lambda s, cond, yes, no: yes if cond else no,
            "mover": lambda s: s.current,
            "last_player": lambda s: s.last,
            "ply": lambda s: s.ply,
            "prop": lambda s, i, c: props[i][c],
            "counter": lambda s, i, p: s.counters[p][i] if p >= 0 else 0,
            "game_counter": lambda s, i: s.counters[-1][i],  # the game's row comes last
            # lines, custodial runs, per-player properties
            "line": line,
            "flanked": flanked,
            "player_prop": lambda s, i, p: pprops[i][p] if p >= 0 else 0,
            # dice
            "rolled": lambda s, f: s.roll.count(f) if f >= 0 else 0,
            "die": lambda s, i: s.roll[i] if 0 <= i < len(s.roll) else -1,
            "face_value": lambda s, f: face_values[f] if f >= 0 else 0,
            # stacks and pushes
            "height": lambda s, c: s.heights[c],
            "room": room,
            # items
            "face_up": lambda s, p, k: s.up[p][k] if p >= 0 else 0,
            "in_deck": lambda s, p, k: s.deck[p][s.drawn[p]:].count(k) if p >= 0 else 0,
            "discarded": lambda s, p, k: s.discards[p][k] if p >= 0 else 0,
            "deck_left": lambda s, p: len(s.deck[p]) - s.drawn[p] if p >= 0 else 0,
            "item_has": lambda s, k, v: int(k >= 0 and v in card_values[k]),
            # areas
            "area_points": area_points,
            "areas_won": areas_won,
            # zones of items (holding, zone_size, top)
            **(zone_rules.builtins(ir.zones) if ir.zones is not None else {}),
        }


OFFBOARD = -1  # the piece id stored in the sentinel cell: not empty, no owner
MAX_HEIGHT = 32767  # the tallest stack (the compiled state stores heights in 16 bits)


class Core:
    """One game state of the reference back end (ints in, ints out)."""

    __slots__ = ("prog", "board", "hands", "counters", "current", "last", "ply", "terminal", "passes", "ply_limited", "_legal", "roll", "chance", "rng", "again", "heights", "deck", "drawn", "up", "discards", "zones")

    def __init__(self, prog: Program, copy_from: Optional["Core"] = None, seed: int = 0):
        self.prog = prog
        if copy_from is not None:
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
        self._settle()

    def set_counter(self, player: int, counter: int, value: int) -> None:
        """Set one counter of a position being set up (rule tests); player n_players is
        the game's row (game counters). Takes effect with the next load(), which settles
        the position."""
        if not 0 <= player <= self.prog.ir.n_players or not 0 <= counter < len(self.prog.ir.counters):
            raise ValueError("set_counter: no such player or counter")
        self.counters[player][counter] = value

    # -- moves -----------------------------------------------------------------------

    def legal(self) -> list[int]:
        """Legal move ids, ascending (computed once per position)."""
        if self.terminal:
            return []
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self) -> list[int]:
        chance = self.prog.ir.chance
        if self.chance:  # a chance node: every outcome of the roll, ascending
            return list(range(chance.base, chance.base + len(chance.outcomes)))
        out: list[int] = []
        for ai, (action, where) in enumerate(zip(self.prog.ir.actions, self.prog.wheres)):
            if len(action.params) == 1 and action.params[0].type != "int":
                env: dict = {}
                name = action.params[0].name
                for value in range(self._param_size(action.params[0])):
                    env[name] = value
                    if where(self, env):
                        out.append(action.base + value)
                continue
            if action.params:  # several parameters, or one integer range: hoist
                self._hoisted(ai, action, out)
                continue
            if where(self, {}):  # no parameters: one move
                out.append(action.base)
        return out

    def _hoisted(self, ai: int, action: Action, out: list[int]) -> None:
        """List an action's legal moves level by level (see midgardc/ir/analysis.py)."""
        plan = self.prog.plans[ai]
        env: dict = {}
        params = action.params
        sizes = [self._param_size(p) for p in params]
        n = self.prog.n
        last = len(params) - 1

        def level(j: int, offset: int) -> None:
            for cond in plan[j][1]:
                if not cond(self, env):
                    return
            if j > last:
                out.append(action.base + offset)
                return
            p = params[j]
            cands = plan[j + 1][0]
            if cands is not None:
                values = sorted({v for v in (f(self, env) for f in cands) if 0 <= v < n})
            else:
                values = range(sizes[j])
            stride = 1
            for size in sizes[j + 1 :]:
                stride *= size
            name = p.name
            lo = p.lo if p.type == "int" else 0
            for v in values:
                env[name] = v + lo
                level(j + 1, offset + v * stride)
            env.pop(name, None)

        level(0, 0)

    def _param_size(self, p) -> int:
        ir = self.prog.ir
        return {"cell": self.prog.n, "player": ir.n_players, "kind": ir.n_kinds, "dir": len(ir.board.directions), "int": p.hi - p.lo + 1, "item": ir.n_item_kinds}[p.type]

    def decode(self, move: int) -> tuple[Action, dict]:
        for action in self.prog.ir.actions:
            if action.base <= move < action.base + action.size:
                offset = move - action.base
                env = {}
                for p in reversed(action.params):
                    size = self._param_size(p)
                    v = offset % size
                    offset //= size
                    env[p.name] = v + p.lo if p.type == "int" else v
                return action, env
        raise ValueError(f"move id {move} out of range")

    def sample_chance(self) -> int:
        """The outcome of the due roll drawn from the state's chance stream (advancing it;
        the caller applies it): die by die, see ChanceIR."""
        chance = self.prog.ir.chance
        draw = 0
        for _ in range(chance.dice):
            draw = draw * chance.n_faces + self.rng.below(chance.n_faces)
        return chance.base + chance.draw_outcome[draw]

    def apply(self, move: int) -> None:
        """Play a move known to be legal (the API layer checks legality)."""
        chance = self.prog.ir.chance
        if chance is not None and move >= chance.base:  # the roll comes up: same turn, no ply
            self.roll = list(chance.outcomes[move - chance.base])
            self.chance = False
            self._legal = None
            self._settle()
            return
        action, env = self.decode(move)
        index = self.prog.ir.actions.index(action)
        self._legal = None
        self.run_effects(action.effects, env)
        for trig, when in self.prog.triggers:
            if trig.after and index not in trig.after:
                continue
            if when is None or when(self, env):
                self.run_effects(trig.effects, env)
        self.last = self.current
        self.ply += 1
        self.passes = 0
        if self.again >= 2:  # next_turn: a chosen player moves next
            self.current = self.again - 2
        elif not self.again:
            self.current = (self.current + 1) % self.prog.ir.n_players
        self.again = 0  # (1: extra_turn, the same player moves again)
        self.chance = self.prog.ir.chance is not None
        self._settle()

    def _settle(self) -> None:
        """After setup and after every move: end the game, or find a player who can move."""
        ir = self.prog.ir
        while True:
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

    # -- effects ---------------------------------------------------------------------

    def run_effects(self, effects: tuple[Effect, ...], env: dict) -> None:
        for eff in effects:
            if isinstance(eff, Place):
                self._place(eff, env)
            elif isinstance(eff, AssessRegions):
                self._assess(eff, env)
            elif isinstance(eff, SetCounter):
                self._counter(eff, env)
            elif isinstance(eff, MovePiece):
                self._move(eff, env)
            elif isinstance(eff, FlipFlanked):
                self._flip(eff, env)
            elif isinstance(eff, Remove):
                self._remove(eff, env)
            elif isinstance(eff, ExtraTurn):
                self.again = 1  # (the last of extra_turn and next_turn in a move decides)
            elif isinstance(eff, NextTurn):
                to = self._fn(eff.to)(self, env)
                if to >= 0:
                    self.again = 2 + to
            elif isinstance(eff, Discard):
                p, k = self._fn(eff.owner)(self, env), self._fn(eff.item)(self, env)
                if p >= 0 and self.up[p][k] > 0:
                    self.up[p][k] -= 1
                    self.discards[p][k] += 1
            elif isinstance(eff, Draw):
                p = self._fn(eff.owner)(self, env)
                if p >= 0:
                    self._draw(p, self._fn(eff.count)(self, env))
            elif isinstance(eff, (IfEffect, ForEach)):
                self._block(eff, env)
            elif type(eff) in zone_rules.EFFECTS:
                zone_rules.EFFECTS[type(eff)](self, self.prog.ir.zones, eff, env)
            else:  # pragma: no cover
                raise AssertionError(eff)

    def _block(self, eff, env: dict) -> None:
        """The block effects: ``if`` picks a branch, ``for_each`` runs its effects per element."""
        if isinstance(eff, IfEffect):
            self.run_effects(eff.then if self._fn(eff.when)(self, env) else eff.other, env)
            return
        where = self._fn(eff.where) if eff.where is not None else None
        local = dict(env)
        for x in list(self.prog.domain(eff.each)(self, env)):  # listed before any runs
            local[eff.var] = x
            if where is None or where(self, local):
                self.run_effects(eff.effects, local)

    def _fn(self, expr: Expr) -> Fn:
        return self.prog.fn(expr)

    def _put(self, owner: int, kind: int, cell: int, height: int = 1) -> bool:
        """A stack of ``height`` pieces from the owner's hand onto the cell (replacing
        what stood there); nothing for nobody, off the board, a height below 1 or a
        hand too small."""
        if owner < 0 or cell >= self.prog.n or height < 1 or self.hands[owner][kind] < height:
            return False
        self.hands[owner][kind] -= height
        self.board[cell] = self.prog.ir.piece_id(owner, kind)
        self.heights[cell] = height
        return True

    def _place(self, eff: Place, env: dict) -> None:
        owner, at = self._fn(eff.owner)(self, env), self._fn(eff.at)(self, env)
        height = self._fn(eff.height)(self, env) if eff.height is not None else 1
        if owner < 0 or at >= self.prog.n or height < 1 or height > MAX_HEIGHT or self.hands[owner][eff.kind] < height:
            return
        if eff.push is not None and self.board[at] > 0:
            # push: the run of pieces from 'at' moves one step in the direction (with
            # their heights), the last onto the first empty cell; no room, no move
            d = self._fn(eff.push)(self, env)
            if not self.prog.builtins["room"](self, at, d):
                return
            run = [at]
            while self.board[run[-1]] > 0:
                run.append(self.prog.steps[d][run[-1]])
            for i in range(len(run) - 1, 0, -1):  # from the empty end back to 'at'
                self.board[run[i]] = self.board[run[i - 1]]
                self.heights[run[i]] = self.heights[run[i - 1]]
        self._put(owner, eff.kind, at, height)

    def _move(self, eff: MovePiece, env: dict) -> None:
        n = self.prog.n
        frm, to = self._fn(eff.frm)(self, env), self._fn(eff.to)(self, env)
        if frm >= n or to >= n or frm == to or self.board[frm] <= 0:
            return
        taken = self.board[to]
        if taken > 0 and eff.capture == "hand":
            nk = max(self.prog.ir.n_kinds, 1)
            self.hands[(taken - 1) // nk][(taken - 1) % nk] += self.heights[to]
        self.board[to] = self.board[frm]
        self.heights[to] = self.heights[frm]
        self.board[frm] = 0
        self.heights[frm] = 0

    def _flip(self, eff: FlipFlanked, env: dict) -> None:
        n = self.prog.n
        at = self._fn(eff.at)(self, env)
        if at >= n:
            return
        flanked = self.prog.builtins["flanked"]
        steps = self.prog.steps
        runs = [flanked(self, at, d) for d in range(len(steps))]
        nk = max(self.prog.ir.n_kinds, 1)
        me = self.current
        for d, k in enumerate(runs):
            x = at
            for _ in range(k):
                x = steps[d][x]
                self.board[x] = 1 + me * nk + (self.board[x] - 1) % nk

    def _remove(self, eff: Remove, env: dict) -> None:
        at = self._fn(eff.at)
        where = self._fn(eff.where) if eff.where is not None else None
        found: list[int] = []
        if eff.each is None:
            if where is None or where(self, env):
                found.append(at(self, env))
        else:
            local = dict(env)
            for x in self.prog.domain(eff.each)(self, env):
                local[eff.var] = x
                if where is None or where(self, local):
                    found.append(at(self, local))
        nk = max(self.prog.ir.n_kinds, 1)
        for c in dict.fromkeys(found):  # each cell once, all found before any is emptied
            piece = self.board[c] if c < self.prog.n else 0
            if piece <= 0:
                continue
            if eff.to == "hand":  # (a whole stack goes back)
                self.hands[(piece - 1) // nk][(piece - 1) % nk] += self.heights[c]
            self.board[c] = 0
            self.heights[c] = 0

    def _counter(self, eff: SetCounter, env: dict) -> None:
        owner = self._fn(eff.owner)(self, env)
        if owner < 0:
            return
        value = self._fn(eff.value)(self, env)
        self.counters[owner][eff.counter] = self.counters[owner][eff.counter] + value if eff.add else value

    def _assess(self, eff: AssessRegions, env: dict) -> None:
        n = self.prog.n
        nbrs = self.prog.neighbours
        nplayers = self.prog.ir.n_players
        member_fn = self._fn(eff.member)
        open_fn = self._fn(eff.open_if) if eff.open_if is not None else None
        prio_fn = self._fn(eff.priority) if eff.priority is not None else None
        local = dict(env)

        def test(fn: Fn, c: int) -> int:
            local[eff.var] = c
            return fn(self, local)

        seeds = self.prog.domain(eff.seeds)(self, env) if eff.seeds is not None else range(n)
        seeds = list(seeds)
        visited = [False] * (n + 1)
        for seed in seeds:
            if seed >= n or visited[seed] or not test(member_fn, seed):
                continue
            region = [seed]
            visited[seed] = True
            i = 0
            while i < len(region):
                for nb in nbrs[region[i]]:
                    if not visited[nb] and test(member_fn, nb):
                        visited[nb] = True
                        region.append(nb)
                i += 1
            inside = set(region)
            if open_fn is not None and any(test(open_fn, nb) for c in region for nb in nbrs[c]):
                continue
            influence = [0] * nplayers
            for c in region:
                for nb in nbrs[c]:
                    if nb not in inside:
                        o = self._owner(nb)
                        if o >= 0:
                            influence[o] += 1
            best = max(influence)
            tied = [p for p in range(nplayers) if influence[p] == best]
            if prio_fn is not None:
                first_cells = [c for c in region if test(prio_fn, c)]
                cells = first_cells + [c for c in region if not test(prio_fn, c)]
            else:
                cells = region
            if len(tied) == 1:
                for c in cells:
                    if not self._put(tied[0], eff.kind, c):
                        break
                continue
            if eff.tie != "split":
                continue
            first = self._fn(eff.first)(self, local)
            first = first if first >= 0 else 0
            tied.sort(key=lambda p: (p - first) % nplayers)
            quota = {p: len(region) // len(tied) for p in tied}
            turn = 0
            k = 0
            while k < len(cells) and any(quota[p] > 0 and self.hands[p][eff.kind] > 0 for p in tied):
                p = tied[turn % len(tied)]
                turn += 1
                if quota[p] > 0 and self._put(p, eff.kind, cells[k]):
                    quota[p] -= 1
                    k += 1

    def _owner(self, c: int) -> int:
        piece = self.board[c]
        return NOBODY if piece <= 0 else (piece - 1) // max(self.prog.ir.n_kinds, 1)

    # -- results ---------------------------------------------------------------------

    def keys(self) -> list[list[int]]:
        """Ranking keys per player (as written in the spec, before lower_is_better)."""
        return [[fn(self, {"p": p}) for fn in self.prog.rank] for p in range(self.prog.ir.n_players)]


def random_move(core: Core, rng: Rng) -> int:
    """A random playout's next move: a roll's outcome from the state's chance stream at a
    chance node, else a uniformly random legal move drawn from ``rng``."""
    if core.chance:
        return core.sample_chance()
    legal = core.legal()
    return legal[rng.below(len(legal))]


class InterpretedEngine:
    """The reference back end behind the common Game API."""

    name = "interpreted"

    def __init__(self, ir: GameIR):
        self.ir = ir
        self.prog = Program(ir)

    def new_core(self, seed: int = 0) -> Core:
        return Core(self.prog, seed=seed)

    def playout_trace(self, seed: int, core: Optional[Core] = None) -> list[int]:
        """Uniform random moves (the shared RNG) from the start (or ``core``) to the end."""
        state = core.clone() if core is not None else self.new_core(seed)
        rng = Rng(seed)
        moves = []
        while not state.terminal:
            move = random_move(state, rng)
            state.apply(move)
            moves.append(move)
        return moves

    def playouts(self, n: int, seed: int) -> dict:
        """``n`` random games; game i uses ``derive_seed(seed, i)``. Aggregate results."""
        return self._games(None, n, seed)

    def rollouts(self, start: Core, n: int, seed: int) -> dict:
        """``n`` random games from ``start`` (left as it is); game i uses
        ``derive_seed(seed, i)``. The same dict as ``playouts``."""
        return self._games(start, n, seed)

    def _games(self, start: Optional[Core], n: int, seed: int) -> dict:
        """Game i from a new game for its seed (decks dealt, dice seeded) or, as a rollout,
        from a copy of ``start`` with dice of its own: as run_playouts() in C."""
        from .results import summarize_core

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
                core.apply(random_move(core, rng))
            stats = summarize_core(self.ir, core, stats)
        return stats or summarize_core(self.ir, None, None)
