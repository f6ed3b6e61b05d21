"""Legal moves in Python: the parameter loops of each action, with hoisted ``where``
conjuncts and candidate cells (``plan``, compiled once per game into ``Program.plans``),
and move ids decoded back into bindings. Generated code: ``midgardc.compiler.emit.moves``."""

from __future__ import annotations

from typing import Callable, NamedTuple, Optional, Sequence

from ...ir.nodes import BOOL, Action, Binary, Expr, GameIR
from ...ir.analysis import reads
from ...ir.plan import plan_game


class Test(NamedTuple):
    """A condition of a parameter loop: its closure, and, for a condition that several
    loops test (the same words in several actions, or one that filters a domain), the
    number under which its value is remembered for the position, per value of the
    parameters it reads (``names``)."""

    fn: Callable
    number: Optional[int]
    names: tuple[str, ...]


class Loop(NamedTuple):
    """One parameter loop of an action's plan (``midgardc/ir/plan.py``), as closures:
    the candidate values (None: the whole domain), the conditions that filter the domain
    once per listing (``once``), those tested for each value (``conds``), and the bounds
    of an integer parameter (``lower``, ``upper``: it is at least / at most each)."""

    name: str
    lo: int
    stride: int
    candidates: Optional[list[Callable]]
    facts: Optional[Test]  # the board facts, joined: names = the outer parameters they read
    once: list[Test]
    conds: list[Test]
    lower: list[Callable]
    upper: list[Callable]
    narrowed: dict  # values of ``facts.names`` -> the domain values where the facts hold
    keyed: Optional[tuple[Callable, Callable, dict]]  # (F, X, F's value -> domain values): visit F == X


def plans(ir: GameIR, sizes: list[list[int]], compile_expr: Callable[[Expr], Callable]) -> list[tuple[list[Callable], list[Loop]]]:
    """``Program.plans``: per action, its plan as (conditions tested before any loop, one
    ``Loop`` per parameter). ``sizes``: each parameter's domain size; ``compile_expr`` is
    ``Program.compile``."""
    game = plan_game(ir)
    uses: dict = {}
    for p in game:
        for L in p.levels:
            for c in L.conds:
                uses[c] = uses.get(c, 0) + 1
    numbers: dict = {}
    out = []
    for p in game:
        params = {q.name for q in ir.actions[p.action].params}
        loops = []
        for j, L in enumerate(p.levels):
            stride = 1
            for size in sizes[p.action][j + 1 :]:
                stride *= size
            cands = None if L.candidates is None else [compile_expr(x) for x in L.candidates]
            # with candidates the few values are tested one by one, and an integer with
            # bounds is taken between them; else the conditions that read no outer
            # parameter filter the domain once per listing
            free = cands is None and not L.lower and not L.upper
            once = [c for c in L.once] if free else []
            facts = [c for c in L.facts] if free else []

            def test(c: Expr, remember: bool) -> Test:
                number = numbers.setdefault(c, len(numbers)) if remember else None
                return Test(compile_expr(c), number, tuple(sorted(reads(c) & params)))

            lo = L.param.lo if L.param.type == "int" else 0
            tests = [test(c, True) for c in once]
            keyed = None
            if L.keyed is not None:  # F(c) == X: the values where the board fact F is X
                keyed = (compile_expr(L.keyed[1]), compile_expr(L.keyed[2]), {})
            skip = once + facts + ([L.keyed[0]] if L.keyed is not None else [])
            rest = [test(c, uses[c] > 1) for c in L.conds if not any(c is o for o in skip)]
            fact = None
            if facts:
                joined = facts[0]
                for c in facts[1:]:
                    joined = Binary("and", joined, c, BOOL)
                fact = Test(compile_expr(joined), None, tuple(sorted((reads(joined) & params) - {L.param.name})))
            bound = lambda xs: [compile_expr(x) for x in xs]  # noqa: E731
            loops.append(Loop(L.param.name, lo, stride, cands, fact, tests, rest, bound(L.lower), bound(L.upper), {}, keyed))
        out.append(([compile_expr(c) for c in p.top], loops))
    return out


def holds(core, test: Test, env: dict, seen: dict) -> bool:
    """Whether a loop's condition holds, remembering it for the position when it is one
    several loops test."""
    if test.number is None:
        return test.fn(core, env)
    key = (test.number, *(env[n] for n in test.names))
    if key not in seen:
        seen[key] = test.fn(core, env)
    return seen[key]


class Moves:
    """Part of ``Core`` (``midgardc/runtime/interpreter.py``): listing and decoding moves."""

    __slots__ = ()

    def legal(self) -> list[int]:
        """Legal move ids, ascending (computed once per position)."""
        if self.terminal:
            return []
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self) -> list[int]:
        if self.chance:  # a chance node: every outcome of the roll (kept dice fixed), ascending
            return self.roll_outcomes()
        out: list[int] = []
        seen: dict = {}  # (once condition, value) -> whether it holds, in this position
        for ai, action in enumerate(self.prog.ir.actions):
            self._list_action(ai, action, out, seen)
        return out

    def _list_action(self, ai: int, action: Action, out: list[int], seen: dict, steps: bool = False) -> None:
        """Append an action's legal moves, ascending, by its plan: the conditions on no
        parameter first, then the parameter loops, outermost first (see ir/plan.py).
        A compound move's step (``action.chain``) appends its whole moves (rules/compound.py),
        or with ``steps`` the steps themselves (as ``base + binding``)."""
        chained = action.chain is not None and not steps
        top, loops = self.prog.plans[ai]
        after = self.prog.afters[ai]  # lookahead legality (rules/history.py): on a copy after the move
        env: dict = {}
        for cond in top:
            if not cond(self, env):
                return
        sizes = self.prog.sizes[ai]
        n = self.prog.n
        filtered: dict[int, list[int]] = {}  # loop -> its domain filtered by its `once` conditions
        last = len(loops) - 1

        def values(j: int) -> list[int]:
            loop = loops[j]
            if loop.candidates is not None:  # the few cells a condition allows, ascending
                return sorted({v for v in (f(self, env) for f in loop.candidates) if 0 <= v < n})
            if loop.lower or loop.upper:  # an integer between its bounds
                low = max([0] + [f(self, env) - loop.lo for f in loop.lower])
                high = min([sizes[j] - 1] + [f(self, env) - loop.lo for f in loop.upper])
                return range(low, high + 1)
            domain: Sequence[int] = range(sizes[j])
            if loop.facts is not None:  # board facts: the same values in every position
                key = tuple(env[name] for name in loop.facts.names)
                if key not in loop.narrowed:
                    loop.narrowed[key] = [v for v in domain if loop.facts.fn(self, {**env, loop.name: v + loop.lo})]
                domain = loop.narrowed[key]
            if loop.keyed is not None:
                fact, value, index = loop.keyed
                if not index:  # once per game: the domain values by their fact's value
                    for v in range(sizes[j]):
                        index.setdefault(fact(self, {loop.name: v + loop.lo}), []).append(v)
                wanted = set(index.get(value(self, env), ()))
                domain = [v for v in domain if v in wanted]
            if not loop.once:
                return domain
            depends = loop.facts is not None or loop.keyed is not None  # on the loops outside
            if not depends and j in filtered:
                return filtered[j]
            keep = []
            for v in domain:
                env[loop.name] = v + loop.lo
                if all(holds(self, test, env, seen) for test in loop.once):
                    keep.append(v)
            env.pop(loop.name, None)
            if not depends:
                filtered[j] = keep
            return keep

        def level(j: int, offset: int) -> None:
            loop = loops[j]
            name, lo, conds = loop.name, loop.lo, loop.conds
            for v in values(j):
                env[name] = v + lo
                for test in conds:
                    if not (test.fn(self, env) if test.number is None else holds(self, test, env, seen)):
                        break
                else:
                    if j == last:
                        if chained:  # the whole moves this first step starts
                            self._chain_leaf(ai, env, out)
                        elif after is None or self._after_ok(ai, env):  # lookahead legality, tested last
                            out.append(action.base + offset + v * loop.stride)
                    else:
                        level(j + 1, offset + v * loop.stride)
            env.pop(name, None)

        if loops:
            level(0, 0)
        elif after is None or self._after_ok(ai, env):
            out.append(action.base)

    def _param_size(self, p) -> int:
        ir = self.prog.ir
        return {"cell": self.prog.n, "player": ir.n_players, "kind": ir.n_kinds, "dir": len(ir.board.directions), "int": p.hi - p.lo + 1, "item": ir.n_item_kinds}.get(p.type, p.hi - p.lo + 1)  # (an enumeration: 0..n-1)

    def decode(self, move: int) -> tuple[Action, dict]:
        for action in self.prog.ir.actions:
            if action.base <= move < action.base + action.size:
                offset = move - action.base
                if action.chain is not None:  # a compound move: its first step's values
                    offset //= action.chain.ways
                env = {}
                for p in reversed(action.params):
                    size = self._param_size(p)
                    v = offset % size
                    offset //= size
                    env[p.name] = v + p.lo if p.type == "int" else v
                return action, env
        raise ValueError(f"move id {move} out of range")
