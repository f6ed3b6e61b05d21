"""action_space: a spec's own numbering of its moves, for learning tools.

The engines number a move by its action and parameter values (``GameIR.n_action_moves``
ids: a drop action has one id per cell, a from-to action one per pair of cells). Learning
code and other frameworks number actions their own way (one id per column of the board,
or planes of move directions and distances per square), so a spec may declare that
numbering (the specs under specs/classics/ have examples)::

    action_space:
      size: 7
      forward: ahead           # optional: col and row seen from the mover (see _flips)
      let: {}                  # optional: named values, each may use the ones before it
      ids:
        drop: "col(c)"         # one expression per action

Each expression is written in the condition language and computes an action id from the
move's parameters and ``mover`` (the seat to move: a player's name is its seat), with
numbers, ``+ - * // %``, comparisons, ``and or not``, ``if .. then .. else``, ``abs(x)``,
and a cell's grid place: ``col(c)`` (its column from the left, from 0) and ``row(c)``
(its row from the bottom, from 0, as the board is drawn). A value outside ``0 .. size-1``
means the move has no action id (it may never be legal; if it is, the adapters say so).
Nothing here reads the position, so the whole map is one table per seat, computed here
once per game: ``action_table`` gives ``table[seat][move id]`` (-1: no action). The adapters (OpenSpiel, PettingZoo,
Gymnasium, ``Batch``) use it when a spec declares it; without it their ids are the
engine's move ids. Two legal moves of one position with the same id are refused there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from ..conditions.parse import Ast, CallA, Choice, Name, Num, Op, parse_condition
from ..errors import Pos, SpecError
from .yamlpos import YMap, YNode, YScalar

MAX_ACTION_SPACE = 1 << 20


@dataclass(frozen=True)
class ActionSpace:
    """The declared numbering: ``size`` ids, the named values (``let``) and each action's
    expression, parsed and checked (``table()`` computes the ids)."""

    size: int
    lets: tuple[tuple[str, Ast], ...]
    ids: tuple[tuple[str, Ast], ...]  # (action name, expression), in the actions' order
    # (flip rows, flip columns) per seat: col and row seen from the mover (forward:)
    flips: tuple[tuple[bool, bool], ...] = ()


def _grid(board: Any) -> tuple[list[int], list[int]]:
    """Each cell's column (from the left) and row (from the bottom) among the distinct
    grid places the board is drawn on."""
    rows = sorted({r for r, _ in board.coords}, reverse=True)
    cols = sorted({c for _, c in board.coords})
    ri = {r: i for i, r in enumerate(rows)}
    ci = {c: i for i, c in enumerate(cols)}
    return [ci[c] for _, c in board.coords], [ri[r] for r, _ in board.coords]


# the language's arithmetic (as midgardc/runtime/rules/expressions.py: x // 0 and x % 0 are 0)
_OPS: dict[str, Callable[[int, int], int]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "//": lambda a, b: a // b if b else 0,
    "%": lambda a, b: a % b if b else 0,
    "==": lambda a, b: int(a == b),
    "!=": lambda a, b: int(a != b),
    "<": lambda a, b: int(a < b),
    "<=": lambda a, b: int(a <= b),
    ">": lambda a, b: int(a > b),
    ">=": lambda a, b: int(a >= b),
}
_CALLS = ("col", "row", "abs")

Fn = Callable[[dict], int]


def _check(e: Ast, known: set[str], locate: Callable[[int], Pos]) -> None:
    """Every name is known and every call is col, row or abs with one argument."""
    if isinstance(e, Num):
        return
    if isinstance(e, Name):
        if e.name not in known:
            raise SpecError(f"action_space: unknown name '{e.name}' (a parameter of the action, mover, a player, or a name under let before it)", locate(e.at))
        return
    if isinstance(e, Choice):
        for x in (e.when, e.then, e.other):
            _check(x, known, locate)
        return
    if isinstance(e, CallA):
        if e.name not in _CALLS or len(e.args) != 1:
            raise SpecError(f"action_space: '{e.name}' is not col(cell), row(cell) or abs(x), what an action id may use", locate(e.at))
        _check(e.args[0], known, locate)
        return
    if isinstance(e, Op):
        for x in e.args:
            _check(x, known, locate)
        return
    raise SpecError("action_space: quantifiers and counters cannot compute an action id (it may not read the position)", locate(getattr(e, "at", 0)))


def _compile(e: Ast, cols: list[int], rows: list[int]) -> Fn:
    """A closure over a move's values (name -> int or a let's closure)."""
    if isinstance(e, Num):
        v = e.value
        return lambda env: v
    if isinstance(e, Name):
        name = e.name

        def get(env: dict) -> int:
            v = env[name]
            if callable(v):  # a let, computed once per move
                v = env[name] = v(env)
            return v

        return get
    if isinstance(e, Choice):
        w, t, o = (_compile(x, cols, rows) for x in (e.when, e.then, e.other))
        return lambda env: t(env) if w(env) else o(env)
    if isinstance(e, CallA):
        a = _compile(e.args[0], cols, rows)
        if e.name == "abs":
            return lambda env: abs(a(env))
        grid = cols if e.name == "col" else rows
        return lambda env: grid[a(env)]
    assert isinstance(e, Op)
    args = [_compile(x, cols, rows) for x in e.args]
    if e.op == "and":
        return lambda env: int(all(f(env) for f in args))
    if e.op == "or":
        return lambda env: int(any(f(env) for f in args))
    if e.op == "not":
        return lambda env: int(not args[0](env))
    if e.op == "neg":
        return lambda env: -args[0](env)
    op, x, y = _OPS[e.op], args[0], args[1]
    return lambda env: op(x(env), y(env))


def _text(node: YNode, what: str) -> tuple[str, Callable[[int], Pos]]:
    if not isinstance(node, YScalar) or not isinstance(node.value, str):
        raise SpecError(f"{what} must be an expression (text)", node.pos)
    return node.value, node.text_pos


def _signs(board: Any, d: int) -> tuple[int, int]:
    """The grid's (row, column) signs of one step along direction d (rows counted down)."""
    for cell, to in enumerate(board.steps[d]):
        if to < board.n_cells:
            (h1, w1), (h2, w2) = board.coords[cell], board.coords[to]
            return ((h2 > h1) - (h2 < h1), (w2 > w1) - (w2 < w1))
    return (0, 0)


def _flips(fnode: YNode, forward: tuple[int, ...], board: Any, players: list[str]) -> tuple[tuple[bool, bool], ...]:
    """Each seat's (flip rows, flip columns): as the observation's views mirror the board,
    a seat whose forward is opposite the first seat's sees the rows (for a forward along
    the columns) or the columns (for one along the rows) counted from the other side."""
    first = _signs(board, forward[0])
    out = []
    for seat, d in enumerate(forward):
        signs = _signs(board, d)
        if signs == first:
            out.append((False, False))
        elif signs == (-first[0], -first[1]):
            out.append((first[0] != 0, first[1] != 0))
        else:
            raise SpecError(f"action_space.forward: {players[seat]}'s forward is neither {players[0]}'s nor its opposite, so there is no side to count from", fnode.pos)
    return tuple(out)


def lower_action_space(node: Optional[YNode], players: list[str], actions: Any, kinds: tuple[str, ...] = (),
                       forward_of: Optional[Callable[[YNode], tuple[int, ...]]] = None, board: Any = None) -> Optional[ActionSpace]:
    """The ``action_space`` section, parsed and checked (see the module's doc); None
    without one. ``forward_of`` reads ``forward: PROP`` (each seat's forward direction)."""
    if node is None:
        return None
    if not isinstance(node, YMap):
        raise SpecError("action_space must be a mapping with size and ids", node.pos)
    for key in node.items:
        if key not in ("size", "forward", "let", "ids"):
            raise SpecError(f"action_space: unknown key '{key}' (size, forward, let, ids)", node.key_pos[key])
    for key in ("size", "ids"):
        if key not in node.items:
            raise SpecError(f"action_space needs '{key}'", node.pos)
    size_node = node.items["size"]
    size = size_node.value if isinstance(size_node, YScalar) else None
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_ACTION_SPACE:
        raise SpecError(f"action_space.size must be a whole number 1..{MAX_ACTION_SPACE}", size_node.pos)
    params = {p.name for a in actions for p in a.params}
    known = set(players) | set(kinds) | {"mover"} | params  # (names of kinds of piece: their indices)
    lets: list[tuple[str, Ast]] = []
    let_node = node.items.get("let")
    if let_node is not None:
        if not isinstance(let_node, YMap):
            raise SpecError("action_space.let maps names to expressions", let_node.pos)
        for name, body in let_node.items.items():
            if name in known:  # (a let named like a kind of piece would hide the kind in every id)
                raise SpecError(f"action_space.let: '{name}' is already a name here (a player, kind of piece, parameter or earlier let); choose another", let_node.key_pos[name])
            text, locate = _text(body, f"action_space.let.{name}")
            expr = parse_condition(text, locate)
            _check(expr, known, locate)
            lets.append((name, expr))
            known.add(name)
    ids_node = node.items["ids"]
    if not isinstance(ids_node, YMap):
        raise SpecError("action_space.ids maps every action to an expression", ids_node.pos)
    by_name = {a.name: a for a in actions}
    for name in ids_node.items:
        if name not in by_name:
            raise SpecError(f"action_space.ids: no action '{name}' (actions: {', '.join(by_name)})", ids_node.key_pos[name])
    missing = [a.name for a in actions if a.name not in ids_node.items]
    if missing:
        raise SpecError(f"action_space.ids must give every action an id; missing: {', '.join(missing)}", ids_node.pos)
    ids = []
    for action in actions:
        text, locate = _text(ids_node.items[action.name], f"action_space.ids.{action.name}")
        expr = parse_condition(text, locate)
        _check(expr, (known - params) | {p.name for p in action.params}, locate)
        ids.append((action.name, expr))
    flips: tuple[tuple[bool, bool], ...] = ()
    if "forward" in node.items and forward_of is not None:
        flips = _flips(node.items["forward"], forward_of(node.items["forward"]), board, players)
    return ActionSpace(size, tuple(lets), tuple(ids), flips)


def action_table(ir: Any, decode: Callable[[Any, int], list[int]]) -> list[list[int]]:
    """``table[seat][move id]``: the declared action id of every player move for the seat
    to move, -1 for a move without one (a value outside 0 .. size-1).
    ``decode(action, offset)`` gives a move's parameter values."""
    space: ActionSpace = ir.action_space
    cols, rows = _grid(ir.board)
    grids = []  # per seat: (its lets, its ids), with col and row seen from it
    for seat in range(len(ir.players)):
        flip_rows, flip_cols = space.flips[seat] if space.flips else (False, False)
        c = [max(cols) - x for x in cols] if flip_cols else cols
        r = [max(rows) - x for x in rows] if flip_rows else rows
        grids.append(([(name, _compile(e, c, r)) for name, e in space.lets], {name: _compile(e, c, r) for name, e in space.ids}))
    table = [[-1] * ir.n_action_moves for _ in ir.players]
    for action in ir.actions:
        for offset in range(action.size):
            values = decode(action, offset)
            for seat in range(len(ir.players)):
                lets, exprs = grids[seat]
                fn = exprs[action.name]
                env: dict[str, Any] = {k: i for i, k in enumerate(ir.kinds)}
                env.update((p, i) for i, p in enumerate(ir.players))
                env.update((p.name, v) for p, v in zip(action.params, values))
                env["mover"] = seat
                for name, let in lets:
                    env[name] = let
                value = fn(env)
                table[seat][action.base + offset] = value if 0 <= value < space.size else -1
    return table


__all__ = ["ActionSpace", "lower_action_space", "action_table", "MAX_ACTION_SPACE"]
