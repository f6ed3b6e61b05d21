"""Reading a pool (``pools:``) in a condition: ``reserve(p, man)`` (the men in p's reserve,
whoever owns them), ``reserve(p)`` (every piece there), and for a pool of the game
``supply(man)`` and ``supply``. One owner's pieces are an element of the pool's array,
``reserve[p, q, man]`` / ``supply[q, man]`` (``conditions/typed.py``).

Lowered into sums of ``counter_at`` reads of the pool's columns (``ir/pools.py``), so
both back ends read a pool as they read any counter array."""

from __future__ import annotations

from typing import Optional

from ..ir.nodes import INT, KIND, PLAYER, Binary, Call, Const, Expr
from .parse import CallA
from .words import _start, a_type


def pool_sum(names, pool: str, row: Expr, kind: Optional[Expr]) -> Expr:
    """The pieces of ``kind`` (None: of every kind) in the pool of ``row``, all owners."""
    col, per_player, dims, _ = names.arrays[pool]
    n_players, n_kinds = dims[0][2], dims[1][2]
    total: Optional[Expr] = None
    kinds = [kind] if kind is not None else [Const(k, KIND) for k in range(n_kinds)]
    for q in range(n_players):
        for k in kinds:
            read = Call("counter_at", (Const(col, INT), row, Const(0, INT), Const(0, INT), Const(n_players, INT), Const(q, PLAYER), Const(0, INT), Const(n_kinds, INT), k), INT)
            total = read if total is None else Binary("+", total, read, INT)
    return total if total is not None else Const(0, INT)


def pool_name(ck, pool: str) -> Expr:
    """A game pool's bare name: every piece in it."""
    return pool_sum(ck.names, pool, Const(ck.names.game_row, PLAYER), None)


def pool_call(ck, node: CallA, scope: dict[str, str]) -> Expr:
    """``POOL(PLAYER[, KIND])`` for a per-player pool, ``POOL(KIND)`` for a game pool."""
    n = node.name
    per_player = ck.names.arrays[n][1]
    want = [PLAYER] if per_player else []
    if not (len(want) <= len(node.args) <= len(want) + 1) or (not per_player and not node.args):
        form = f"{n}(PLAYER) or {n}(PLAYER, KIND)" if per_player else f"{n}(KIND), or {n} for all its pieces"
        whose = "a per-player pool: name whose it is first" if per_player else "a pool of the game: no player"
        raise ck.fail(f"pool '{n}' is read {form} ({whose})", node.at)
    got = []
    for i, (arg, t) in enumerate(zip(node.args, want + [KIND])):
        e = ck.coerce(ck._expr(arg, scope), t, _start(arg))
        if e.type != t:
            what = " (whose pool it is)" if t == PLAYER else ""
            raise ck.fail(f"argument {i + 1} of pool '{n}' must be {a_type(t)}{what}, got {a_type(e.type)}", _start(arg))
        got.append(e)
    row = got.pop(0) if per_player else Const(ck.names.game_row, PLAYER)
    return pool_sum(ck.names, n, row, got[0] if got else None)
