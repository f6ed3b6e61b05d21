"""Legal moves in Python: the parameter loops of each action, with hoisted ``where``
conjuncts and candidate cells (``plan``, compiled once per game into ``Program.plans``),
and move ids decoded back into bindings. Generated code: ``midgardc.compiler.emit.moves``."""

from __future__ import annotations

from typing import Callable, Iterable, NamedTuple, Optional

from ...ir.nodes import Action, Call, Expr, GameIR, Quant
from ...ir.analysis import reads
from ...ir.plan import EACH, WHEN, plan_game
from .cellsets import SetCompiler, SetFn, bits


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
    the candidate values (None: the whole domain), the conditions tested for each value
    (``conds``), and the bounds of an integer parameter (``lower``, ``upper``: it is at
    least / at most each). A loop over its whole domain works its conditions out as sets
    instead (``sieve``, ``rules/cellsets.py``)."""

    name: str
    lo: int
    stride: int
    candidates: Optional[list[Callable]]
    conds: list[Test]
    lower: list[Callable]
    upper: list[Callable]
    sieve: Optional["Sieve"]


class Sieve(NamedTuple):
    """A loop over its whole domain: the values where its conditions hold, as a set.
    ``once``: the plan's conditions that read no outer parameter (worked out once per
    listing); ``each``: the others (board facts first), for the outer loops' values."""

    full: int  # every value of the domain
    once: SetFn
    each: SetFn


def candidate_lister(c: Expr, compile_expr: Callable, compile_domain: Callable) -> Callable:
    """A plan's candidate (``ir.plan.candidates``: an expression, a guarded group or one
    per element of a domain) as a closure adding its values to a set: (core, env, out)."""
    if isinstance(c, Call) and c.fn == WHEN:
        guard = compile_expr(c.args[0])
        subs = [candidate_lister(x, compile_expr, compile_domain) for x in c.args[1:]]

        def when(s, env, out):
            if guard(s, env):
                for sub in subs:
                    sub(s, env, out)

        return when
    if isinstance(c, Quant) and c.kind == EACH:
        domain, var = compile_domain(c.domain), c.var
        sub = candidate_lister(c.body, compile_expr, compile_domain)

        def each(s, env, out):
            old = env.get(var, _NONE)
            for x in domain(s, env):
                env[var] = x
                sub(s, env, out)
            if old is _NONE:
                env.pop(var, None)
            else:
                env[var] = old

        return each
    fn = compile_expr(c)
    return lambda s, env, out: out.add(fn(s, env))


_NONE = object()


def plans(ir: GameIR, sizes: list[list[int]], compile_expr: Callable[[Expr], Callable], compile_domain: Callable, sets: SetCompiler, game: Optional[tuple] = None) -> list[tuple[list[Callable], list[Loop]]]:
    """``Program.plans``: per action, its plan as (conditions tested before any loop, one
    ``Loop`` per parameter). ``sizes``: each parameter's domain size; ``compile_expr`` is
    ``Program.compile``, ``compile_domain`` ``Program.domain``, ``sets`` the game's
    ``SetCompiler`` (``rules/cellsets.py``); ``game``: the plans (default: every action's,
    ``plan_game``; ``Program.then_plans`` passes the second steps')."""
    game = plan_game(ir) if game is None else game
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
        for L in p.levels:
            j = L.index  # (a second step's loops start after the first step's parameters)
            stride = 1
            for size in sizes[p.action][j + 1 :]:
                stride *= size
            lo = L.param.lo if L.param.type == "int" else 0
            bound = lambda xs: [compile_expr(x) for x in xs]  # noqa: E731
            if L.candidates is None and not L.lower and not L.upper:
                # the whole domain: its conditions as sets, those reading no outer
                # parameter once per listing, then the others, the board facts first
                once = list(L.once)
                each = list(L.facts) + [c for c in L.conds if not any(c is x for x in once + list(L.facts))]
                size = sizes[p.action][j]
                sieve = Sieve((1 << size) - 1, sets.conjunction(once, L.param.name, lo, size), sets.conjunction(each, L.param.name, lo, size))
                loops.append(Loop(L.param.name, lo, stride, None, [], [], [], sieve))
                continue
            # with candidates the few values are tested one by one, and an integer with
            # bounds is taken between them
            cands = None if L.candidates is None else [candidate_lister(x, compile_expr, compile_domain) for x in L.candidates]

            def test(c: Expr, remember: bool) -> Test:
                number = numbers.setdefault(c, len(numbers)) if remember else None
                return Test(compile_expr(c), number, tuple(sorted(reads(c) & params)))

            rest = [test(c, uses[c] > 1) for c in L.conds]
            loops.append(Loop(L.param.name, lo, stride, cands, rest, bound(L.lower), bound(L.upper), None))
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

    def can_move(self) -> bool:
        """can_move(): the player to move has a legal move (a roll's outcome at a chance
        node). Asked only in the end section: in end.when, before the game is over, the
        list is kept for the turn; in end.effects the game is already marked over
        (``terminal``), so the moves are listed afresh, on the state as the effects left it.
        In a ``legal_after`` (a lookahead's copy): the next mover's moves after the move
        (rules/history.py, ``_can_move_after``)."""
        if self.looking:
            return self._can_move_after()
        if self.terminal:
            return bool(self._generate())
        return bool(self.legal())

    def _generate(self, lookahead: bool = True) -> list[int]:
        if self.chance:  # a chance node: every outcome of the roll (kept dice fixed), ascending
            return self.roll_outcomes()
        out: list[int] = []
        seen: dict = {}  # (once condition, value) -> whether it holds, in this position
        for ai, action in enumerate(self.prog.ir.actions):
            self._list_action(ai, action, out, seen, lookahead=lookahead)
        return out

    def unchecked(self) -> list[int]:
        """The moves whose ``where`` holds, ascending, their ``legal_after`` not yet tested:
        a random playout tests only the move it draws (``after_holds``; see
        ``interpreter.random_move``). The legal moves when no action has a lookahead."""
        if self.terminal:
            return []
        return self._generate(lookahead=False)

    def after_holds(self, move: int) -> bool:
        """Whether ``move`` (one of ``unchecked()``) passes its action's ``legal_after``
        (True for an action without one)."""
        for ai, action in enumerate(self.prog.ir.actions):
            if action.base <= move < action.base + action.size:
                if self.prog.afters[ai] is None:
                    return True
                return self._after_ok(ai, self.decode(move)[1])
        raise ValueError(f"move id {move} out of range")

    def _list_action(self, ai: int, action: Action, out: list[int], seen: dict, steps: bool = False, second: Optional[tuple[dict, int]] = None, lookahead: bool = True) -> None:
        """Append an action's legal moves, ascending, by its plan: the conditions on no
        parameter first, then the parameter loops, outermost first (see ir/plan.py).
        A compound move's step (``action.chain``) appends its whole moves (rules/compound.py),
        or with ``steps`` the steps themselves (as ``base + binding``). A move of two steps
        (``action.then``) lists its first steps, and for each the second steps on the state
        it leaves: ``second`` is (the first step's parameters, its offset), given when
        listing the second steps on that state. Without ``lookahead``, the moves whose
        ``legal_after`` is yet to be tested (``unchecked``)."""
        chained = action.chain is not None and not steps
        two = action.then is not None and second is None  # a first step: its second steps at the leaf
        best: list = [None, len(out)]  # continue.most: the greatest value so far, where the action's moves start
        if second is None:
            top, loops = self.prog.plans[ai]
            env: dict = {}
            start = 0
        else:
            top, loops = self.prog.then_plans[ai]
            env, start = dict(second[0]), second[1]
        # lookahead legality (rules/history.py): on a copy after the move
        after = self.prog.afters[ai] if lookahead else None
        for cond in top:
            if not cond(self, env):
                return
        sizes = self.prog.sizes[ai]
        n = self.prog.n
        passing: dict[int, int] = {}  # loop -> the values its `once` conditions let through
        last = len(loops) - 1

        def values(j: int) -> Iterable[int]:
            loop = loops[j]
            if loop.sieve is not None:  # the whole domain, its conditions as sets
                sieve = loop.sieve
                if j not in passing:
                    passing[j] = sieve.once(self, env, sieve.full, seen)
                return bits(sieve.each(self, env, passing[j], seen))
            if loop.candidates is not None:  # the few cells a condition allows, ascending
                found: set = set()
                for f in loop.candidates:
                    f(self, env, found)
                return sorted(v for v in found if 0 <= v < n)
            # an integer between its bounds
            low = max([0] + [f(self, env) - loop.lo for f in loop.lower])
            high = min([sizes[j] - 1] + [f(self, env) - loop.lo for f in loop.upper])
            return range(low, high + 1)

        def level(j: int, offset: int) -> None:
            loop = loops[j]
            name, lo, conds = loop.name, loop.lo, loop.conds
            if j == last and not conds and not chained and not two and after is None:  # every value is a move
                base, stride = action.base + offset, loop.stride
                out.extend(base + v * stride for v in values(j))
                return
            for v in values(j):
                env[name] = v + lo
                for test in conds:
                    if not (test.fn(self, env) if test.number is None else holds(self, test, env, seen)):
                        break
                else:
                    if j == last:
                        if chained:  # the whole moves this first step starts
                            self._chain_leaf(ai, env, out, best)
                        elif two:  # the second steps, on the state this first step leaves
                            self._after_first(ai, env)._list_action(ai, action, out, {}, second=(env, offset + v * loop.stride))
                        elif after is None or self._after_ok(ai, env):  # lookahead legality, tested last
                            out.append(action.base + offset + v * loop.stride)
                    else:
                        level(j + 1, offset + v * loop.stride)
            env.pop(name, None)

        if loops:
            level(0, start)
        elif two:  # a first step without parameters
            self._after_first(ai, env)._list_action(ai, action, out, {}, second=(env, 0))
        elif after is None or self._after_ok(ai, env):
            out.append(action.base + start)

    def decode(self, move: int) -> tuple[Action, dict]:
        for action, sizes in zip(self.prog.ir.actions, self.prog.sizes):
            if action.base <= move < action.base + action.size:
                offset = move - action.base
                if action.chain is not None:  # a compound move: its first step's values
                    offset //= action.chain.ways
                env = {}
                for p, size in zip(reversed(action.params), reversed(sizes)):
                    v = offset % size
                    offset //= size
                    env[p.name] = v + p.lo if p.type == "int" else v
                return action, env
        raise ValueError(f"move id {move} out of range")
