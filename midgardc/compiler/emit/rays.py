"""Slides as bits: ``slide(c, d)`` (the cells past c along d up to and including the first
piece) as a ray mask cut at its first blocker, found by one bit scan of the occupied cells
on the ray, instead of a walk cell by cell. Chosen from the board's step tables: every
direction's rays must run through ascending (or every one through descending) cell
indices, so the first piece along a ray is its lowest (highest) occupied bit; a board
where a direction does not (a wrapping board, a graph board with a free numbering) keeps
the walk. An optimisation with no Python counterpart: ``slide`` means what
``midgardc.runtime.rules.expressions`` says.

Used by a quantifier ``any``/``all`` over a slide (``templates/quantifiers.pyx.j2``): the
body is tested at the blocker, and on the empty cells before it only as far as it can hold
on an empty cell (the body folded with owner nobody, kind -1, empty: often false, so the
empty cells are never visited, or ``x == t``, one bit test); and by candidate listings
that add every cell of a slide (``emit/candidates.py``): one or of the mask."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ...ir.nodes import BOOL, CELL, KIND, PLAYER, Binary, BoardIR, Call, Const, DefineCall, Expr, GameIR, Local, Quant, Unary
from ...ir.analysis import subexpressions, substitute
from .common import NIBBLE_TABLE_LIMIT, free_locals

_FOLD_COMPARE = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


@dataclass(frozen=True)
class RayPlan:
    """The ray masks of a board whose rays are all monotone in the cell index."""

    up: tuple[bool, ...]  # per direction: its rays ascend (first piece = lowest bit)
    masks: tuple[tuple[tuple[int, ...], ...], ...]  # [d][c] words of ray(c, d), c = 0..n (n: off-board, empty)


def ray_plan(board: BoardIR, words: int) -> tuple[Optional[RayPlan], str]:
    """The board's rays as masks, or (None, why not)."""
    n = board.n_cells
    n_dirs = len(board.directions)
    if not n_dirs or not board.steps:
        return None, "the board has no directions"
    if n_dirs * (n + 1) * words * 8 > NIBBLE_TABLE_LIMIT:
        return None, "the ray table would be too large"
    up: list[bool] = []
    masks = []
    for d in range(n_dirs):
        steps = board.steps[d]
        way: Optional[bool] = None
        rows = []
        for c in range(n):
            out = [0] * words
            x = steps[c]
            prev = c
            while x < n and x != c:
                ascending = x > prev
                if way is None:
                    way = ascending
                elif way != ascending:
                    return None, f"the rays of direction {board.directions[d]} do not all run one way through the cell numbers"
                if out[x >> 6] >> (x & 63) & 1:  # (a cycle that misses c: not a ray of distinct cells)
                    return None, f"a ray of direction {board.directions[d]} comes back on itself"
                out[x >> 6] |= 1 << (x & 63)
                prev = x
                x = steps[x]
            rows.append(tuple(out))
        rows.append(tuple([0] * words))  # the off-board cell: no ray
        up.append(True if way is None else way)
        masks.append(tuple(rows))
    return RayPlan(tuple(up), tuple(masks)), ""


# -- a body's value on an empty cell ----------------------------------------------------------


def _bound_names(e: object) -> set:
    """The names the quantifiers inside ``e`` bind."""
    return {x.var for x in subexpressions(e) if isinstance(x, Quant)}


def fold_empty(e: Expr, var: str, ir: GameIR, depth: int = 0) -> Expr:
    """``e`` where the cell ``var`` is known empty (owner nobody, kind -1, empty, not
    occupied), simplified: a constant when that decides it. Definitions that read ``var``
    are opened (when no name would be captured); anything else stays as written, so the
    result means the same as ``e`` on every empty cell."""
    me = Local(var, CELL)
    if isinstance(e, Call):
        if len(e.args) == 1 and e.args[0] == me:
            if e.fn == "owner":
                return Const(-1, PLAYER)
            if e.fn == "kind_at":
                return Const(-1, KIND)
            if e.fn in ("empty", "occupied"):
                return Const(1 if e.fn == "empty" else 0, BOOL)
        return e
    if isinstance(e, DefineCall):
        if depth > 8 or var not in free_locals(e):
            return e
        d = ir.defines[e.index]
        body = d.body
        taken = _bound_names(body)
        if any(n in taken for a in e.args for n in free_locals(a)):
            return e
        body = substitute(body, {p.name: a for p, a in zip(d.params, e.args)})  # (all at once)
        return fold_empty(body, var, ir, depth + 1)
    if isinstance(e, Unary) and e.op == "not":
        a = fold_empty(e.arg, var, ir, depth)
        return Const(0 if a.value else 1, BOOL) if isinstance(a, Const) else Unary("not", a, e.type)
    if isinstance(e, Binary) and e.op in ("and", "or"):
        a, b = fold_empty(e.left, var, ir, depth), fold_empty(e.right, var, ir, depth)
        for x, y in ((a, b), (b, a)):
            if isinstance(x, Const):
                decides = (e.op == "and") != bool(x.value)  # false and .., true or ..
                return x if decides else y
        return Binary(e.op, a, b, e.type)
    if isinstance(e, Binary) and e.op in _FOLD_COMPARE:
        a, b = fold_empty(e.left, var, ir, depth), fold_empty(e.right, var, ir, depth)
        if isinstance(a, Const) and isinstance(b, Const):
            return Const(1 if _FOLD_COMPARE[e.op](a.value, b.value) else 0, BOOL)
        return Binary(e.op, a, b, e.type)
    return e


@dataclass(frozen=True)
class SlideTest:
    """How ``any x in slide(src, way): body`` is tested on the slide's bits (quantifiers)."""

    src: str
    way: str
    at_blocker: str  # the body at the blocker (x), C text
    empties: str  # "none" | "scalar" | "cell" | "walk": what the empty cells before it need
    empty_text: str = ""  # the folded body (scalar), the cell it equals (cell), or the body (walk)
    negate: bool = False  # all x: body  ==  not any x: not body


def slide_test(x, q: Quant, inner: dict) -> Optional[SlideTest]:
    """The bit-scan form of the quantifier ``q`` (any/all over a slide), or None (walk):
    ``x`` is the ExprCompiler, ``inner`` the quantifier's scope without its variable."""
    from .common import Var

    if q.domain.kind != "slide" or q.kind not in ("any", "all") or x.ray_plan() is None:
        return None
    body = q.body if q.kind == "any" else Unary("not", q.body, BOOL)
    src, way = (x.expr(a, inner).text for a in q.domain.args)
    scope = dict(inner)
    scope[q.var] = Var("x", CELL)
    at = x.expr(body, scope).text
    folded = fold_empty(body, q.var, x.ir)
    if isinstance(folded, Const):
        how, text = ("none", "") if not folded.value else ("scalar", "True")
    elif q.var not in free_locals(folded):
        how, text = "scalar", x.expr(folded, inner).text
    elif isinstance(folded, Binary) and folded.op == "==" and Local(q.var, CELL) in (folded.left, folded.right):
        other = folded.right if folded.left == Local(q.var, CELL) else folded.left
        if q.var in free_locals(other):
            how, text = "walk", x.expr(folded, scope).text
        else:
            how, text = "cell", x.expr(other, inner).text
    else:
        how, text = "walk", x.expr(folded, scope).text
    x.uses_ray_bits = True
    return SlideTest(src, way, at, how, text, q.kind == "all")


#: unroll any/all over directions (of slides tested as bits) up to this many directions
MAX_UNROLLED_DIRECTIONS = 8


def _reads_a_slide(e: object) -> bool:
    if isinstance(e, Quant):
        return e.domain.kind == "slide" or _reads_a_slide(e.body) or any(_reads_a_slide(a) for a in e.domain.args)
    if isinstance(e, (Call, DefineCall)):
        return any(_reads_a_slide(a) for a in e.args)
    if isinstance(e, Unary):
        return _reads_a_slide(e.arg)
    if isinstance(e, Binary):
        return _reads_a_slide(e.left) or _reads_a_slide(e.right)
    return False


def unroll_slides(x, q: Quant, scope: dict):
    """``any d in directions: body`` whose body quantifies over a slide, as ``body(d0) or
    body(d1) or ...`` (``and`` for all), each with its direction a constant, so the C
    compiler folds each ray's way and the direction's attributes; None otherwise."""
    from .common import Code

    n_dirs = len(x.ir.board.directions)
    if q.domain.kind != "directions" or q.kind not in ("any", "all") or not 0 < n_dirs <= MAX_UNROLLED_DIRECTIONS:
        return None
    if x.ray_plan() is None or not _reads_a_slide(q.body):
        return None
    op = " or " if q.kind == "any" else " and "
    parts = [x.expr(substitute(q.body, {q.var: Const(d, "dir")}), scope).text for d in range(n_dirs)]
    return Code("(" + op.join(parts) + ")", "bint")


def explain_lines(gen) -> list[str]:
    """``midgardc explain``'s lines on slides: bit scans or walks, and why."""
    x = gen.x
    slides = [q for q in x.lifted if q is not None and "slide(" in q.comment]
    if not slides and not x.uses_ray_bits:
        return []
    plan = x.ray_plan()
    if plan is None:
        why = x._ray_plan[1] if x._ray_plan else ""
        return [f"  slide(c, d): walked cell by cell ({why})"]
    names = x.ir.board.directions
    up = ", ".join(n for n, u in zip(names, plan.up) if u)
    down = ", ".join(n for n, u in zip(names, plan.up) if not u)
    bits = [q.ray for q in x.lifted if q is not None and q.ray is not None]
    kinds = {"none": "nothing", "cell": "one bit test", "scalar": "one test", "walk": "the body cell by cell"}
    seen = ", ".join(f"{sum(1 for r in bits if r.empties == k)} {kinds[k]}" for k in kinds if any(r.empties == k for r in bits))
    out = [f"  slide(c, d): the ray's mask cut at its first piece by one bit scan (the lowest occupied bit along {up or 'none'}; the highest along {down or 'none'})"]
    if bits:
        out.append(f"    {len(bits)} any/all over a slide test the body at that piece; on the empty cells before it: {seen}")
    walked = len(slides) - len(bits)
    if walked:
        out.append(f"    {walked} other quantifier(s) over a slide (count, sum, min, max) walk it cell by cell")
    return out
