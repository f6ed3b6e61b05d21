"""What every emitter shares: the Jinja2 environment, C text helpers, unparsing (IR back
to spec syntax, for comments in the generated code) and the small records the emitters
build (Var, Code, lifted quantifiers, cell-set expressions, effect functions)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Optional

import jinja2

from ...errors import BuildError
from ...ir.builtins import ZONE_FUNCTIONS
from ...ir.plan import STATE_READS as _STATE_READS
from ...ir.nodes import (
    BOOL,
    CELL,
    ITEM,
    DIR,
    FACE,
    INT,
    KIND,
    PLAYER,
    Binary,
    Call,
    Const,
    DefineCall,
    Domain,
    Expr,
    GameIR,
    Local,
    Quant,
    Unary,
)

TEMPLATE_DIR = os.path.join(os.path.dirname(os.path.dirname(__file__)), "templates")

class _CTypes(dict):
    """C type of each IR value type. Ints are 64-bit like the interpreter's in practice;
    every other value (an enumeration's too) is a C int."""

    def __missing__(self, typ: str) -> str:
        return "int"


CTYPE = _CTypes({BOOL: "bint", INT: "long long", CELL: "int", PLAYER: "int", KIND: "int", DIR: "int", FACE: "int", ITEM: "int"})

#: Built-ins that read the state (everything else is a fixed function of its arguments).
STATE_READS = _STATE_READS  # (one list, in midgardc/ir/plan.py: built-ins that read the state)
#: Dilation by nibble lookup tables while they stay this small (bytes); else bit by bit.
NIBBLE_TABLE_LIMIT = 64 * 1024
#: Boards up to this many cells get cell-set (bitboard) code; larger ones are evaluated
#: cell by cell (their tables would grow with the square of the board).
MAX_SET_CELLS = 512
#: any/all over directions nested deeper than this stays a loop instead of cell sets.
MAX_UNROLL_DEPTH = 2

_ARITH = {"+", "-", "*"}
_COMPARE = {"==", "!=", "<", "<=", ">", ">="}
_INT32 = 2**31 - 1


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["comment"] = comment_text
    env.filters["c_comment"] = c_comment
    env.filters["pystr"] = py_string
    env.filters["c_array"] = c_array
    env.filters["hexword"] = lambda v: f"0x{v:016x}ULL"  # one 64-bit word of a cell set
    return env


_ENV: Optional[jinja2.Environment] = None


def render(template: str, **context) -> str:
    global _ENV
    if _ENV is None:
        _ENV = _environment()
    try:
        return _ENV.get_template(template).render(**context)
    except jinja2.TemplateError as exc:  # a bug in midgardc, but say where
        raise BuildError(f"code generation failed in template {template}: {exc}") from exc


# --------------------------------------------------------------------------- text helpers


def comment_text(text: object) -> str:
    """Spec text made safe for a ``#`` comment: one line, printable characters only."""
    s = str(text)
    return "".join(ch if ch.isprintable() else " " for ch in s.replace("\r", " ").replace("\n", " ")).strip()


def c_comment(text: object) -> str:
    """Spec text made safe for a ``/* */`` comment inside the module's verbatim C block
    (which is itself a Python string literal)."""
    s = comment_text(text).replace("\\", "/").replace('"', "'")
    return s.replace("*/", "* /").replace("/*", "/ *")


def py_string(text: object) -> str:
    """Spec text as an escaped, one-line Python string literal."""
    s = str(text)
    out = ['"']
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch.isprintable() and ord(ch) < 128:
            out.append(ch)
        else:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


def c_array(values, per_line: int = 24, indent: str = "    ") -> str:
    """Numbers as the body of a C initializer, ``per_line`` to a line."""
    vals = [str(v) for v in values]
    if len(vals) <= per_line:
        return "{" + ", ".join(vals) + "}"
    lines = [indent + "  " + ", ".join(vals[i : i + per_line]) for i in range(0, len(vals), per_line)]
    return "{\n" + ",\n".join(lines) + "\n" + indent + "}"


def smallest_signed(lo: int, hi: int) -> str:
    if -128 <= lo and hi <= 127:
        return "signed char"
    if -32768 <= lo and hi <= 32767:
        return "short"
    if -(2**31) <= lo and hi <= 2**31 - 1:
        return "int"
    return "long long"


# --------------------------------------------------------------------------- unparsing (comments)

_PREC = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "+": 5, "-": 5, "*": 6, "//": 6, "%": 6, "neg": 7}


def unparse(e: Expr, ir: GameIR, prec: int = 0) -> str:
    """An IR expression written back in the condition language (for comments)."""
    if isinstance(e, Const):
        if e.type == BOOL:
            return "true" if e.value else "false"
        if e.type == PLAYER:
            return ir.players[e.value] if 0 <= e.value < ir.n_players else ("the game" if e.value == ir.n_players else "nobody")
        if e.type == KIND and 0 <= e.value < ir.n_kinds:
            return ir.kinds[e.value]
        if e.type == DIR and 0 <= e.value < len(ir.board.directions):
            return ir.board.directions[e.value]
        if e.type == FACE and ir.chance is not None and 0 <= e.value < ir.chance.n_faces:
            return ir.chance.faces[e.value]
        if e.type == ITEM and ir.zones is not None:  # (zone specs; deck comments stay numbers)
            return ir.item_names[e.value] if 0 <= e.value < ir.n_item_kinds else "no_item"
        if e.type == CELL and 0 <= e.value <= ir.board.n_cells:
            return ir.board.cell_names[e.value] if e.value < ir.board.n_cells else "none"
        if e.type.startswith("enum:"):
            names = dict(ir.enums).get(e.type[5:], ())
            return names[e.value] if 0 <= e.value < len(names) else "none"
        return str(e.value)
    if isinstance(e, Local):
        return e.name
    if isinstance(e, Call):
        if e.fn == "prop":
            return f"{ir.board.props[e.args[0].value][0]}({unparse(e.args[1], ir)})"
        if e.fn == "counter":
            return f"{ir.counters[e.args[0].value]}({unparse(e.args[1], ir)})"
        if e.fn in ZONE_FUNCTIONS and ir.zones is not None:  # (zone, owner, ...) as written
            zone = ir.zones.zones[e.args[0].value]
            shown = ([unparse(e.args[1], ir)] if zone.per_player else []) + [zone.name] + [unparse(a, ir) for a in e.args[2:]]
            return f"{e.fn}({', '.join(shown)})"
        if e.fn == "game_counter":
            return ir.counters[e.args[0].value]
        if e.fn == "attr" and e.args[0].value < len(ir.attributes):
            return f"{ir.attributes[e.args[0].value].name}({unparse(e.args[1], ir)})"
        if e.fn == "typed_counter":
            return f"{ir.counters[e.args[0].value]}({unparse(e.args[1], ir)})"
        if e.fn == "counter_at":  # (column, row, none, then lo, size, index per index)
            name = ir.counters[e.args[0].value].split("[", 1)[0]
            shown = [] if isinstance(e.args[1], Const) and e.args[1].value == ir.n_players else [unparse(e.args[1], ir)]
            return f"{name}[{', '.join(shown + [unparse(x, ir) for x in e.args[5::3]])}]"
        if e.fn == "either" and e.type != INT:
            return f"(if {unparse(e.args[0], ir)} then {unparse(e.args[1], ir)} else {unparse(e.args[2], ir)})"
        if not e.args:
            return e.fn
        return f"{e.fn}({', '.join(unparse(a, ir) for a in e.args)})"
    if isinstance(e, DefineCall):
        d = ir.defines[e.index]
        return d.name if not e.args and not d.params else f"{d.name}({', '.join(unparse(a, ir) for a in e.args)})"
    if isinstance(e, Unary):
        p = _PREC[e.op]
        text = f"not {unparse(e.arg, ir, p)}" if e.op == "not" else f"-{unparse(e.arg, ir, p)}"
        return f"({text})" if p < prec else text
    if isinstance(e, Binary):
        p = _PREC[e.op]
        text = f"{unparse(e.left, ir, p)} {e.op} {unparse(e.right, ir, p + 1)}"
        return f"({text})" if p < prec else text
    if isinstance(e, Quant):
        text = f"{unparse_domain_head(e.var, e.domain, ir)}: {unparse(e.body, ir)}"
        if e.kind in ("any", "all"):
            return f"({e.kind} {text})" if prec else f"{e.kind} {text}"
        return f"{e.kind}({text})"
    raise AssertionError(e)  # pragma: no cover


def unparse_domain(d: Domain, ir: GameIR) -> str:
    return d.kind if not d.args else f"{d.kind}({', '.join(unparse(a, ir) for a in d.args)})"


def unparse_domain_head(var: str, d: Domain, ir: GameIR) -> str:
    return f"{var} in {unparse_domain(d, ir)}"


# --------------------------------------------------------------------------- expressions


def free_locals(e: object, bound: frozenset = frozenset()) -> list[str]:
    """Names of the locals ``e`` reads that it does not bind itself, in first-use order."""
    out: list[str] = []

    def walk(x: object, bound: frozenset) -> None:
        if isinstance(x, Local):
            if x.name not in bound and x.name not in out:
                out.append(x.name)
        elif isinstance(x, Quant):
            for a in x.domain.args:
                walk(a, bound)
            walk(x.body, bound | {x.var})
        elif isinstance(x, Domain):
            for a in x.args:
                walk(a, bound)
        elif isinstance(x, (Call, DefineCall)):
            for a in x.args:
                walk(a, bound)
        elif isinstance(x, Unary):
            walk(x.arg, bound)
        elif isinstance(x, Binary):
            walk(x.left, bound)
            walk(x.right, bound)
        elif isinstance(x, Const) or x is None:
            pass
        else:  # pragma: no cover
            raise AssertionError(x)

    walk(e, bound)
    return out


@dataclass(frozen=True)
class Var:
    """A local as the generated code sees it: its C name, IR type and C type."""

    cname: str
    type: str

    @property
    def ctype(self) -> str:
        return CTYPE[self.type]


Scope = dict  # spec name -> Var


@dataclass
class Code:
    """Translated expression text and its C type."""

    text: str
    ctype: str


@dataclass
class DomainLoop:
    """A quantifier domain rendered as C: declarations, setup lines, the loop header and
    the lines binding the loop variable (all without indentation)."""

    decls: list[str]
    setup: list[str]
    header: str
    bind: list[str]
    var_ctype: str


@dataclass
class Lifted:
    """A quantifier lifted into ``quant_<index>(st, params...)``."""

    index: int
    kind: str
    ret: str
    params: list[tuple[str, Var]]  # (spec name, Var)
    loop: DomainLoop
    body: str
    comment: str
    cellset: Optional[str] = None  # a cellset_<n>(...) call: the body as a set of cells
    narrow: Optional[str] = None  # a cellset_<n>(...) call: the cells some conjuncts allow, the rest (body) tested on them
    flood: Optional[str] = None  # over group/region(c) as bits: "src, pieces_only" of flood_bits
    ray: Optional[object] = None  # any/all over slide(c, d) as bits: an emit/rays.py SlideTest


@dataclass(frozen=True)
class SX:
    """A set of cells, as a word-wise bitset expression (bit c of word c // 64).

    op: ``const`` (a precomputed mask, ``index``), ``pieces`` (the cells holding piece id
    ``index``; 0 = empty), ``owner``/``kind`` (cells owned by / holding a kind given by
    the scalar C expression ``text``), ``scalar`` (every cell when ``text`` holds, else
    none), ``not``/``and``/``or`` (set algebra over the board's cells) and ``dilate``
    (the cells with a neighbour in the argument)."""

    op: str
    args: tuple = ()
    text: str = ""
    index: int = 0


@dataclass
class CellSetFn:
    """``cellset_<index>(st, params..., outs...)``: the cells where each of some
    conditions on one cell holds (computed together, sharing common parts)."""

    index: int
    params: list[tuple[str, Var]]
    decls: list[str]
    prelude: list[str]
    outs: list[tuple[str, str, str]]  # (output array, word expression, comment)


@dataclass
class RegionFn:
    """One ``assess_regions`` effect specialised for the locals it reads."""

    index: int
    params: list[tuple[str, Var]]
    member: str
    open_if: Optional[str]
    priority: Optional[str]
    first: str
    seeds: Optional[DomainLoop]
    kind: int
    split: bool
    comments: dict = field(default_factory=dict)
    # cellset_<n>(st, args..., out) calls (the "out" argument last) when the condition
    # translates to a cell set; None: evaluated cell by cell
    member_set: Optional[str] = None
    open_set: Optional[str] = None
    priority_set: Optional[str] = None
    sets_call: Optional[str] = None  # computes all of the above at once
    # grown a level at a time as sets (templates/regions.pyx.j2): membership is a cell
    # set and opening is one too, or there is none; else searched cell by cell
    flood: bool = False
    # every member cell is empty (membership is "empty(c) and ..."): a region's cells hold
    # no piece, so nobody's pieces are inside it and all of them can take one
    empty_members: bool = False
    # every seed is a board cell (neighbours, or all cells): no off-board test
    seeds_on_board: bool = False


def guarded(test: Optional[str], call: str) -> str:
    """``call`` as a statement, under ``if test:`` when there is a test (the test that
    the called function's loop or ``where`` would make anyway, made once before it)."""
    return call if test is None else f"if {test}:\n    {call}"


@dataclass
class RemoveFn:
    """One ``remove`` effect as ``remove_<index>(st, params...)``: the cells found (by
    ``loop`` over its domain, or the one cell), then their pieces taken off."""

    index: int
    params: list[tuple[str, Var]]
    loop: Optional[DomainLoop]
    where: Optional[str]
    at: str
    to: int  # 0: out of the game, 1: the owner's hand, 2: the mover's (CAPTURE_MODES)
    comment: str


#: where a captured or removed piece goes, as move_piece() and remove_piece() number it
CAPTURE_MODES = {"remove": 0, "out": 0, "hand": 1, "captor": 2}


@dataclass
class EachFn:
    """One ``for_each`` effect as ``each_<index>(st, params...)``: the collection is
    listed first (``loop``), then ``body`` runs per element where ``where`` holds."""

    index: int
    params: list[tuple[str, Var]]
    loop: DomainLoop
    where: Optional[str]
    body: list[dict]
    comment: str

