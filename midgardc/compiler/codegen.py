"""IR -> Cython source text, through the Jinja2 templates in ``templates/``.

The generated module mirrors ``midgardc.runtime.interpreter`` line for line, with the
game's constants, tables and rules specialised into C:

* every value is a C integer; the state is one struct of fixed-size arrays;
* board tables (neighbours, steps, degrees, properties) are ``static const`` C arrays;
* each ``define`` becomes a ``cdef inline ... noexcept nogil`` function, and each
  quantifier is lifted into its own inline function whose parameters are the locals it
  uses (lambda lifting);
* legal-move generation hoists each conjunct of an action's ``where`` to the outermost
  parameter loop that binds everything it reads (sound because expressions are pure and
  total: they read the state, never change it, and never fail);
* conditions on one cell (built from empty/occupied/owner/kind_at, fixed facts about
  cells, and/or/not, definitions and any/all over neighbours) are also translated to
  cell sets: word-wise bitset code over the whole board at once (bitboards), used for
  legal cells, quantifiers over all cells and region search; fixed facts become constant
  masks computed by the reference interpreter itself;
* ``empty(step(c, d))`` / ``occupied(step(c, d))`` for a direction that is one index
  shift on the whole board becomes a shifted set (``pull_cells``), so "rests on something
  below" is a word operation too;
* a conjunct that pins a cell parameter to a few values (``t == step(f, d) or ...``, also
  inside definitions; ``midgardc.ir.analysis.candidates``) makes that parameter loop over
  those values only, sorted and without repeats, instead of over every cell (the
  interpreter lists moves the same way, so both stay fast on from/to actions);
* the playout loop, region assessment and perft run in C without the GIL.

Every identifier in the output is built from IR indices (``define_3``, ``quant_0``,
``a0``); names from the spec appear only in comments and escaped string literals.

One ``generate_*`` function per section of the module; ``generate_module`` joins them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Optional

import jinja2

from ..errors import BuildError
from ..ir.builtins import BUILTINS, INDEXED, ZONE_FUNCTIONS
from .zones import ZONE_EFFECT_TYPES, zone_effect, zone_facts
from ..ir.nodes import (
    BOOL,
    CELL,
    CHANCE_STREAM,
    ITEM,
    Discard,
    Draw,
    ForEach,
    IfEffect,
    DIR,
    FACE,
    INT,
    KIND,
    PLAYER,
    AssessRegions,
    Binary,
    Call,
    Const,
    DefineCall,
    Domain,
    ExtraTurn,
    NextTurn,
    Remove,
    Effect,
    Expr,
    GameIR,
    Local,
    Place,
    MovePiece,
    FlipFlanked,
    opposite_directions,
    Quant,
    SetCounter,
    Unary,
)

TEMPLATE_DIR = os.path.join(os.path.dirname(__file__), "templates")

#: C type of each IR value type. Ints are 64-bit like the interpreter's in practice.
CTYPE = {BOOL: "bint", INT: "long long", CELL: "int", PLAYER: "int", KIND: "int", DIR: "int", FACE: "int", ITEM: "int"}

#: The order of the sections in a generated module.
SECTIONS = (
    "header",
    "constants",
    "tables",
    "state",
    "runtime",
    "lines",
    "deck",
    "zones",
    "areas",
    "defines",
    "quantifiers",
    "cellsets",
    "legality",
    "regions",
    "effects",
    "end",
    "ranking",
    "moves",
    "playouts",
    "core",
)

#: Built-ins that read the state (everything else is a fixed function of its arguments).
STATE_READS = {"empty", "occupied", "owner", "kind_at", "hand", "mover", "last_player", "ply", "counter", "game_counter", "line", "flanked", "rolled", "die", "height", "room", "face_up", "in_deck", "discarded", "deck_left", "area_points", "areas_won", "holding", "zone_size", "top"}
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


def substitute(e: Expr, name: str, value: Expr) -> Expr:
    """``e`` with the free local ``name`` replaced by ``value`` (a constant)."""
    if isinstance(e, Local):
        return value if e.name == name else e
    if isinstance(e, Call):
        return Call(e.fn, tuple(substitute(a, name, value) for a in e.args), e.type)
    if isinstance(e, DefineCall):
        return DefineCall(e.index, tuple(substitute(a, name, value) for a in e.args), e.type)
    if isinstance(e, Unary):
        return Unary(e.op, substitute(e.arg, name, value), e.type)
    if isinstance(e, Binary):
        return Binary(e.op, substitute(e.left, name, value), substitute(e.right, name, value), e.type)
    if isinstance(e, Quant):
        domain = Domain(e.domain.kind, tuple(substitute(a, name, value) for a in e.domain.args), e.domain.elem_type)
        body = e.body if e.var == name else substitute(e.body, name, value)
        return Quant(e.kind, e.var, domain, body, e.type)
    return e


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


@dataclass
class RemoveFn:
    """One ``remove`` effect as ``remove_<index>(st, params...)``: the cells found (by
    ``loop`` over its domain, or the one cell), then their pieces taken off."""

    index: int
    params: list[tuple[str, Var]]
    loop: Optional[DomainLoop]
    where: Optional[str]
    at: str
    to_hand: bool
    comment: str


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


class ExprCompiler:
    """Translates IR expressions to Cython expressions, lifting quantifiers as it goes."""

    def __init__(self, ir: GameIR):
        self.ir = ir
        self.lifted: list[Lifted] = []
        self._lifted_keys: dict[tuple, int] = {}
        self.regions: list[RegionFn] = []
        self._region_keys: dict[tuple, int] = {}
        self.cellsets: list[CellSetFn] = []
        self._cellset_keys: dict[tuple, int] = {}
        self.dilations: dict[str, int] = {}  # dilated set (C text of a word) -> cache slot in the state
        self.masks: list[tuple[tuple[int, ...], str]] = []  # (words, comment)
        self._mask_keys: dict[tuple, int] = {}
        self._pure: dict[int, bool] = {}
        self._oracle = None
        n = ir.board.n_cells
        self.words = (n + 63) // 64 or 1
        self.sets_enabled = n <= MAX_SET_CELLS
        self.uses_group = False  # some quantifier ranges over group(c): emit group_fill()
        self.removals: list[RemoveFn] = []
        self.eaches: list = []  # EachFn per for_each effect
        self.uses_again = False  # some effect is extra_turn: the state carries the flag
        self._unrolling = 0  # any/all over directions being unrolled into cell sets

    # -- expressions -------------------------------------------------------------------

    def expr(self, e: Expr, scope: Scope) -> Code:
        if isinstance(e, Const):
            if e.type == BOOL:
                return Code("True" if e.value else "False", "bint")
            v = e.value
            if e.type == INT and abs(v) > _INT32:
                return Code(f"({v}LL)" if v < 0 else f"{v}LL", "long long")
            return Code(f"({v})" if v < 0 else str(v), "int")
        if isinstance(e, Local):
            if e.name not in scope:  # the front end guarantees this never happens
                raise BuildError(f"internal error: local '{e.name}' is not in scope")
            var = scope[e.name]
            return Code(var.cname, var.ctype)
        if isinstance(e, Call):
            return self.call(e, scope)
        if isinstance(e, DefineCall):
            args = "".join(", " + self.expr(a, scope).text for a in e.args)
            return Code(f"define_{e.index}(st{args})", CTYPE[e.type])
        if isinstance(e, Unary):
            a = self.expr(e.arg, scope)
            if e.op == "not":
                return Code(f"(not {a.text})", "bint")
            return Code(f"(-{self.wide(a)})", "long long")
        if isinstance(e, Binary):
            left, right = self.expr(e.left, scope), self.expr(e.right, scope)
            if e.op in ("and", "or"):
                return Code(f"({left.text} {e.op} {right.text})", "bint")
            if e.op in _ARITH:
                return Code(f"({self.wide(left)} {e.op} {right.text})", "long long")
            if e.op == "//":
                return Code(f"floordiv({left.text}, {right.text})", "long long")
            if e.op == "%":
                return Code(f"floormod({left.text}, {right.text})", "long long")
            if e.op in _COMPARE:
                return Code(f"({left.text} {e.op} {right.text})", "bint")
            raise BuildError(f"internal error: unknown operator {e.op!r}")
        if isinstance(e, Quant):
            return self.quant(e, scope)
        raise BuildError(f"internal error: unknown expression {type(e).__name__}")

    @staticmethod
    def wide(c: Code) -> str:
        """Operand text promoted to 64 bits (so int arithmetic cannot overflow 32 bits)."""
        return c.text if c.ctype == "long long" else f"<long long>{c.text}"

    def call(self, e: Call, scope: Scope) -> Code:
        if e.fn not in BUILTINS and e.fn not in INDEXED and e.fn not in ZONE_FUNCTIONS:
            raise BuildError(f"internal error: unknown built-in {e.fn!r}")
        fn = e.fn
        if fn == "player_prop":
            index = e.args[0]
            if not isinstance(index, Const):
                raise BuildError("internal error: player_prop() index must be a constant")
            return Code(f"PPROP_{index.value}[{self.expr(e.args[1], scope).text} + 1]", "int")
        if fn == "game_counter":
            return Code(f"st.counters[N_PLAYERS][{e.args[0].value}]", "long long")
        if fn in ("prop", "counter"):
            index = e.args[0]
            if not isinstance(index, Const):
                raise BuildError(f"internal error: {fn}() index must be a constant")
            arg = self.expr(e.args[1], scope).text
            if fn == "prop":
                if e.type == BOOL:
                    return Code(f"(PROP_{index.value}[{arg}] != 0)", "bint")
                return Code(f"PROP_{index.value}[{arg}]", "int")
            return Code(f"counter_of(st, {arg}, {index.value})", "long long")
        a = [self.expr(x, scope).text for x in e.args]
        table = {
            "empty": lambda: Code(f"(st.board[{a[0]}] == 0)", "bint"),
            "occupied": lambda: Code(f"(st.board[{a[0]}] > 0)", "bint"),
            "owner": lambda: Code(f"piece_owner(st.board[{a[0]}])", "int"),
            "kind_at": lambda: Code(f"piece_kind(st.board[{a[0]}])", "int"),
            "degree": lambda: Code(f"DEGREE[{a[0]}]", "int"),
            "onboard": lambda: Code(f"({a[0]} < N_CELLS)", "bint"),
            "step": lambda: Code(f"STEP[{a[1]}][{a[0]}]", "int"),
            "hand": lambda: Code(f"hand_of(st, {a[0]}, {a[1]})", "long long"),
            "next_player": lambda: Code(f"next_player({a[0]})", "int"),
            "abs": lambda: Code(f"abs_ll({a[0]})", "long long"),
            "either": lambda: Code(f"(<long long>({a[1]}) if {a[0]} else <long long>({a[2]}))", "long long"),
            "mover": lambda: Code("st.current", "int"),
            "last_player": lambda: Code("st.last", "int"),
            "ply": lambda: Code("st.ply", "int"),
            "line": lambda: Code(f"line_at(st, {a[0]}, {a[1]})", "bint"),
            "flanked": lambda: Code(f"flanked_run(st, {a[0]}, {a[1]})", "int"),
            "rolled": lambda: Code(f"rolled_count(st, {a[0]})", "long long"),
            "die": lambda: Code(f"die_face(st, {a[0]})", "int"),
            "face_value": lambda: Code(f"face_value({a[0]})", "long long"),
            # stacks and pushes
            "height": lambda: Code(f"st.heights[{a[0]}]", "int"),
            "room": lambda: Code(f"room_at(st, {a[0]}, {a[1]})", "bint"),
            # items
            "face_up": lambda: Code(f"face_up_of(st, {a[0]}, {a[1]})", "long long"),
            "in_deck": lambda: Code(f"in_deck_of(st, {a[0]}, {a[1]})", "long long"),
            "discarded": lambda: Code(f"discarded_of(st, {a[0]}, {a[1]})", "long long"),
            "deck_left": lambda: Code(f"deck_left_of(st, {a[0]})", "long long"),
            "item_has": lambda: Code(f"item_shows({a[0]}, {a[1]})", "bint"),
            # areas
            "area_points": lambda: Code(f"area_points_of(st, {a[0]})", "long long"),
            "areas_won": lambda: Code(f"areas_won_of(st, {a[0]})", "long long"),
            # zones of items: (zone, owner, ...)
            "holding": lambda: Code(f"holding_of(st, {a[0]}, {a[1]}, {a[2]})", "long long"),
            "zone_size": lambda: Code(f"zone_size_of(st, {a[0]}, {a[1]})", "long long"),
            "top": lambda: Code(f"zone_top_of(st, {a[0]}, {a[1]})", "int"),
        }
        if fn not in table:
            raise BuildError(f"internal error: the compiled back end lacks built-in {fn!r}")
        return table[fn]()

    # -- quantifiers -------------------------------------------------------------------

    def domain_loop(self, d: Domain, scope: Scope, var: str, prefix: str = "") -> DomainLoop:
        """C for iterating ``d`` with loop variable ``var`` (a C name); helper variables
        get ``prefix`` so two loops can share a function."""
        if d.kind == "cells":
            return DomainLoop([], [], f"for {var} in range(N_CELLS):", [], "int")
        if d.kind == "players":
            return DomainLoop([], [], f"for {var} in range(N_PLAYERS):", [], "int")
        if d.kind == "directions":
            return DomainLoop([], [], f"for {var} in range(N_DIRS):", [], "int")
        if d.kind == "neighbours":
            src = self.expr(d.args[0], scope).text
            around, slot = prefix + "around", prefix + "slot"
            # DEGREE[N_CELLS] == 0: the off-board cell has no neighbours
            return DomainLoop(
                [f"int {around}", f"int {slot}"],
                [f"{around} = {src}"],
                f"for {slot} in range(DEGREE[{around}]):",
                [f"{var} = NBRS[{around}][{slot}]"],
                "int",
            )
        if d.kind == "range":
            lo, hi = (self.expr(a, scope) for a in d.args)
            return DomainLoop(
                [f"long long {prefix}lo", f"long long {prefix}hi"],
                [f"{prefix}lo = {lo.text}", f"{prefix}hi = {hi.text}"],
                f"for {var} in range({prefix}lo, {prefix}hi + 1):",
                [],
                "long long",
            )
        if d.kind == "group":
            src = self.expr(d.args[0], scope).text
            self.uses_group = True
            order, size, slot = prefix + "chain", prefix + "chain_size", prefix + "link"
            return DomainLoop(
                [f"int {order}[N_CELLS]", f"int {size}", f"int {slot}"],
                [f"{size} = group_fill(st, {src}, {order})"],
                f"for {slot} in range({size}):",
                [f"{var} = {order}[{slot}]"],
                "int",
            )
        if d.kind == "item_kinds":
            return DomainLoop([], [], f"for {var} in range(N_ITEM_KINDS):", [], "int")
        if d.kind == "ray":  # stacks and pushes: the cells past a cell along a direction
            src, way = (self.expr(a, scope).text for a in d.args)
            order, size, slot = prefix + "ray", prefix + "ray_size", prefix + "ray_at"
            return DomainLoop(
                [f"int {order}[N_CELLS]", f"int {size}", f"int {slot}"],
                [f"{size} = ray_fill({src}, {way}, {order})"],
                f"for {slot} in range({size}):",
                [f"{var} = {order}[{slot}]"],
                "int",
            )
        raise BuildError(f"internal error: unknown domain {d.kind!r}")

    def quant(self, q: Quant, scope: Scope) -> Code:
        names = free_locals(q)
        key = (q, tuple(names))
        index = self._lifted_keys.get(key)
        if index is None:
            index = len(self.lifted)
            self._lifted_keys[key] = index
            self.lifted.append(None)  # reserve the number before lifting nested quantifiers
            params = [(n, Var(f"f{i}", scope[n].type)) for i, n in enumerate(names)]
            inner: Scope = {n: v for n, v in params}
            cellset = None
            if q.domain.kind == "cells" and q.kind in ("any", "all", "count") and q.var in free_locals(q.body):
                # a condition over every cell: compute the set of cells at once
                cellset = self.cellset_call(q.body, q.var, inner, "cells", "found")
            loop = self.domain_loop(q.domain, inner, "x")
            inner[q.var] = Var("x", q.domain.elem_type)
            body = self.expr(q.body, inner).text if cellset is None else ""
            self.lifted[index] = Lifted(index, q.kind, CTYPE[q.type], params, loop, body, comment_text(unparse(q, self.ir)), cellset)
        args = "".join(", " + scope[n].cname for n in names)
        return Code(f"quant_{index}(st{args})", CTYPE[q.type])

    # -- cell sets (bitboards) ----------------------------------------------------------
    #
    # A condition on one cell variable built from empty/occupied, owner(c) == p,
    # kind_at(c) == k, fixed facts about the cell (degree, properties, ...), and/or/not,
    # definitions and any/all over neighbours(c) is computed for every cell at once, as
    # bitsets. Fixed facts are precomputed here by evaluating them with the reference
    # interpreter, so they cannot drift from its meaning.

    def pure(self, e: object) -> bool:
        """True when ``e`` never reads the state (only its locals and the board tables)."""
        if isinstance(e, (Const, Local)) or e is None:
            return True
        if isinstance(e, Call):
            return e.fn not in STATE_READS and all(self.pure(a) for a in e.args)
        if isinstance(e, DefineCall):
            if e.index not in self._pure:
                self._pure[e.index] = False  # (definitions cannot recurse; a safe default)
                self._pure[e.index] = self.pure(self.ir.defines[e.index].body)
            return self._pure[e.index] and all(self.pure(a) for a in e.args)
        if isinstance(e, Unary):
            return self.pure(e.arg)
        if isinstance(e, Binary):
            return self.pure(e.left) and self.pure(e.right)
        if isinstance(e, Quant):
            return all(self.pure(a) for a in e.domain.args) and self.pure(e.body)
        return False

    def mask(self, e: Expr, var: str) -> int:
        """Index of the constant mask {c : e} for a state-free ``e`` of the cell ``var``."""
        if self._oracle is None:
            from ..runtime.interpreter import Core, Program

            prog = Program(self.ir)
            self._oracle = (prog, Core(prog))
        prog, core = self._oracle
        fn = prog.compile(e)
        words = [0] * self.words
        for c in range(self.ir.board.n_cells):
            if fn(core, {var: c}):
                words[c >> 6] |= 1 << (c & 63)
        key = tuple(words)
        if key not in self._mask_keys:
            self._mask_keys[key] = len(self.masks)
            self.masks.append((key, comment_text(unparse(e, self.ir))))
        return self._mask_keys[key]

    def to_set(self, e: Expr, var: str, scope: Scope) -> Optional[SX]:
        """``e`` (a condition) as the set of values of the cell ``var`` where it holds, or
        None when it does not translate."""
        if not self.sets_enabled:
            return None
        used = free_locals(e)
        if var not in used:
            return SX("scalar", text=self.expr(e, scope).text)
        if used == [var] and self.pure(e):
            return SX("const", index=self.mask(e, var))
        me = Local(var, CELL)
        if isinstance(e, Call):
            if e.fn == "empty" and e.args[0] == me:
                return SX("pieces", index=0)
            if e.fn == "occupied" and e.args[0] == me:
                return SX("not", (SX("pieces", index=0),))
            pulled = self.pull_set(e, me)
            if pulled is not None:
                return pulled
            if e.fn in ("empty", "occupied"):
                return self.step_path_set(e.fn, e.args[0], None, var, scope)
            return None
        if isinstance(e, Unary) and e.op == "not":
            x = self.to_set(e.arg, var, scope)
            return None if x is None else (x.args[0] if x.op == "not" else SX("not", (x,)))
        if isinstance(e, Binary) and e.op in ("and", "or"):
            a, b = self.to_set(e.left, var, scope), self.to_set(e.right, var, scope)
            return None if a is None or b is None else SX(e.op, (a, b))
        if isinstance(e, Binary) and e.op in ("==", "!="):
            for side, other in ((e.left, e.right), (e.right, e.left)):
                if isinstance(side, Call) and side.fn in ("owner", "kind_at") and side.args[0] == me and var not in free_locals(other):
                    x = SX("owner" if side.fn == "owner" else "kind", text=self.expr(other, scope).text)
                    return x if e.op == "==" else SX("not", (x,))
                if isinstance(side, Call) and side.fn in ("owner", "kind_at") and var not in free_locals(other):
                    x = self.step_path_set(side.fn, side.args[0], other, var, scope)
                    if x is not None:
                        return x if e.op == "==" else SX("not", (x,))
            return None
        if isinstance(e, DefineCall):
            d = self.ir.defines[e.index]
            at = [i for i, a in enumerate(e.args) if var in free_locals(a)]
            if len(at) != 1 or e.args[at[0]] != me:
                return None
            inner: Scope = {}
            for i, (p, a) in enumerate(zip(d.params, e.args)):
                if i != at[0]:
                    inner[p.name] = Var(self.expr(a, scope).text, p.type)
            return self.to_set(d.body, d.params[at[0]].name, inner)
        if isinstance(e, Quant) and e.kind in ("any", "all") and e.domain.kind == "directions":
            return self.directions_set(e, var, scope)
        if isinstance(e, Quant) and e.kind in ("any", "all") and e.domain.kind == "neighbours":
            if e.domain.args[0] != me or var in free_locals(e.body, frozenset({e.var})):
                return None
            inner = {k: v for k, v in scope.items() if k != var}
            body = self.to_set(e.body, e.var, inner)
            if body is None:
                return None
            if e.kind == "any":
                return SX("dilate", (body,))
            return SX("not", (SX("dilate", (SX("not", (body,)),)),))
        return None

    def pull_set(self, e: Call, me: Local) -> Optional[SX]:
        """``empty(step(c, d))`` / ``occupied(step(c, d))`` for a fixed direction d whose
        steps are one index shift on the whole board: the cells whose d-step is in the set
        of empty (occupied) cells — a shifted set, masked to the cells whose d-step is on
        the board (the off-board cell is neither empty nor occupied)."""
        if e.fn not in ("empty", "occupied") or not isinstance(e.args[0], Call):
            return None
        inner = e.args[0]
        if inner.fn != "step" or inner.args[0] != me or not isinstance(inner.args[1], Const):
            return None
        d = inner.args[1].value
        steps = self.ir.board.steps[d] if 0 <= d < len(self.ir.board.steps) else ()
        n = self.ir.board.n_cells
        deltas = {t - c for c, t in enumerate(steps[:n]) if t < n}
        if len(deltas) != 1:
            return None
        words = [0] * self.words
        for c, t in enumerate(steps[:n]):
            if t < n:
                words[c >> 6] |= 1 << (c & 63)
        key = tuple(words)
        if key not in self._mask_keys:
            self._mask_keys[key] = len(self.masks)
            self.masks.append((key, comment_text(f"the cells whose {self.ir.board.directions[d]} step is on the board")))
        base = SX("pieces", index=0) if e.fn == "empty" else SX("not", (SX("pieces", index=0),))
        return SX("pull", (base,), text=str(deltas.pop()), index=self._mask_keys[key])

    # -- cell sets along directions: step paths and any/all over directions -------------
    #
    # A condition on a cell reached by fixed steps from the cell, such as
    # owner(step(step(c, d), d)) == p with d a known direction, is the set of the cell
    # there shifted back along the path (pull_cells), when every step of a direction is
    # the same index shift on the whole board (square and hex grids without wrap). Where a
    # step leaves the board the condition reads the off-board cell (owner nobody, kind -1,
    # neither empty nor occupied), whose steps stay off the board. any/all over
    # `directions` is unrolled into one set per direction, or-ed (and-ed) together.

    def _direction_const(self, e: Expr, scope: Scope) -> Optional[int]:
        """The direction ``e`` always is, when known at compile time."""
        if isinstance(e, Const) and e.type == DIR:
            return e.value
        if isinstance(e, Local) and e.type == DIR and e.name in scope and scope[e.name].cname.isdigit():
            return int(scope[e.name].cname)
        return None

    def _shift(self, d: int) -> Optional[tuple[int, int, int]]:
        """(delta, mask of cells whose d-step is on the board, mask of those whose is off)
        when direction ``d`` is one index shift everywhere, else None."""
        steps = self.ir.board.steps[d] if 0 <= d < len(self.ir.board.steps) else ()
        n = self.ir.board.n_cells
        deltas = {t - c for c, t in enumerate(steps[:n]) if t < n}
        if len(deltas) != 1:
            return None
        masks = []
        for on in (True, False):
            words = [0] * self.words
            for c, t in enumerate(steps[:n]):
                if (t < n) == on:
                    words[c >> 6] |= 1 << (c & 63)
            key = tuple(words)
            if key not in self._mask_keys:
                self._mask_keys[key] = len(self.masks)
                where = "on" if on else "off"
                self.masks.append((key, comment_text(f"the cells whose {self.ir.board.directions[d]} step is {where} the board")))
            masks.append(self._mask_keys[key])
        return deltas.pop(), masks[0], masks[1]

    def step_path_set(self, fn: str, at: Expr, other: Optional[Expr], var: str, scope: Scope) -> Optional[SX]:
        """{var : fn(at) (== other)} where ``at`` is var stepped in known directions."""
        me = Local(var, CELL)
        dirs: list[int] = []
        while isinstance(at, Call) and at.fn == "step":
            d = self._direction_const(at.args[1], scope)
            if d is None:
                return None
            dirs.append(d)  # outermost (last) step first
            at = at.args[0]
        if at != me or not dirs:
            return None
        off: Optional[SX] = None  # the condition on the off-board cell (None: false)
        if fn == "empty":
            base = SX("pieces", index=0)
        elif fn == "occupied":
            base = SX("not", (SX("pieces", index=0),))
        else:
            text = self.expr(other, scope).text
            base = SX("owner" if fn == "owner" else "kind", text=text)
            off = SX("scalar", text=f"({text} < 0)")
        for d in dirs:
            shift = self._shift(d)
            if shift is None:
                return None
            delta, on_mask, off_mask = shift
            base = SX("pull", (base,), text=str(delta), index=on_mask)
            if off is not None:
                base = SX("or", (base, SX("and", (off, SX("const", index=off_mask)))))
        return base

    def directions_set(self, q: Quant, var: str, scope: Scope) -> Optional[SX]:
        n_dirs = len(self.ir.board.directions)
        if not n_dirs or self._unrolling >= MAX_UNROLL_DEPTH:
            return None  # (nested unrolling multiplies the code; loops do instead)
        parts = []
        self._unrolling += 1
        try:
            for d in range(n_dirs):
                part = self.to_set(substitute(q.body, q.var, Const(d, DIR)), var, scope)
                if part is None:
                    return None
                parts.append(part)
        finally:
            self._unrolling -= 1
        out = parts[0]
        for part in parts[1:]:
            out = SX("or" if q.kind == "any" else "and", (out, part))
        return out

    def cellset_call(self, e: Expr, var: str, scope: Scope, what: str, out: str) -> Optional[str]:
        """A call computing {var in what : e} into the array ``out``, or None when ``e``
        does not translate to a cell set."""
        return self.cellset_group([(e, out, what)], var, scope)

    def cellset_group(self, items: list[tuple[Expr, str, str]], var: str, scope: Scope) -> Optional[str]:
        """One call computing several cell sets (condition, output array, description)
        at once, or None unless every condition translates."""
        names: list[str] = []
        for e, _, _ in items:
            for n in free_locals(e):
                if n != var and n not in names:
                    names.append(n)
        key = (tuple((e, out) for e, out, _ in items), var, tuple(names))
        index = self._cellset_keys.get(key)
        if index is None:
            params = [(n, Var(f"f{i}", scope[n].type)) for i, n in enumerate(names)]
            inner: Scope = {n: v for n, v in params}
            sets = [self.to_set(e, var, inner) for e, _, _ in items]
            if any(sx is None for sx in sets):
                return None
            decls: list[str] = []
            prelude: list[str] = []
            memo: dict = {}
            outs = []
            for sx, (e, out, what) in zip(sets, items):
                word = self._emit_set(sx, decls, prelude, memo)
                outs.append((out, word, comment_text(f"{{{var} in {what}: {unparse(e, self.ir)}}}")))
            index = len(self.cellsets)
            self._cellset_keys[key] = index
            self.cellsets.append(CellSetFn(index, params, decls, prelude, outs))
        fn = self.cellsets[index]
        args = "".join(", " + scope[n].cname for n, _ in fn.params)
        return f"cellset_{index}(st{args}, {', '.join(out for out, _, _ in fn.outs)})"

    def _emit_set(self, sx: SX, decls: list[str], prelude: list[str], memo: dict) -> str:
        """The C text of word ``w`` of ``sx``; materialised parts go to ``prelude``."""
        if sx in memo:
            return memo[sx]
        if sx.op == "const":
            out = f"CELLSET_{sx.index}[w]"
        elif sx.op == "pieces":
            out = f"st.cellsets[{sx.index}][w]"
        elif sx.op in ("owner", "kind", "scalar"):
            k = len(decls)
            var = f"s{k}"
            decls.append(f"{'bint' if sx.op == 'scalar' else 'int'} {var}")
            prelude.append(f"{var} = {sx.text}")
            out = {"owner": f"owner_word(st, {var}, w)", "kind": f"kind_word(st, {var}, w)", "scalar": f"all_if({var}, w)"}[sx.op]
        elif sx.op == "not":
            out = f"(VALID[w] & ~{self._emit_set(sx.args[0], decls, prelude, memo)})"
        elif sx.op in ("and", "or"):
            a = self._emit_set(sx.args[0], decls, prelude, memo)
            b = self._emit_set(sx.args[1], decls, prelude, memo)
            out = f"({a} {'&' if sx.op == 'and' else '|'} {b})"
        elif sx.op == "pull":
            inner = self._emit_set(sx.args[0], decls, prelude, memo)
            k = len(decls)
            src, dst = f"t{k}", f"pulled{k}"
            decls.append(f"uint64_t {src}[WORDS]")
            decls.append(f"uint64_t {dst}[WORDS]")
            prelude.append(f"for w in range(WORDS):\n    {src}[w] = {inner}")
            prelude.append(f"pull_cells({src}, {dst}, {sx.text})")
            out = f"({dst}[w] & CELLSET_{sx.index}[w])"
        elif sx.op == "dilate":
            inner = self._emit_set(sx.args[0], decls, prelude, memo)
            k = len(decls)
            src, dst = f"t{k}", f"near{k}"
            decls.append(f"uint64_t {src}[WORDS]")
            decls.append(f"uint64_t {dst}[WORDS]")
            prelude.append(f"for w in range(WORDS):\n    {src}[w] = {inner}")
            slot = self.dilations.setdefault(inner, len(self.dilations))
            prelude.append(f"dilate_cached(st, {slot}, {src}, {dst})")
            out = f"{dst}[w]"
        else:  # pragma: no cover
            raise BuildError(f"internal error: unknown cell-set operation {sx.op!r}")
        memo[sx] = out
        return out

    # -- region assessment -------------------------------------------------------------

    def region(self, eff: AssessRegions, scope: Scope) -> str:
        """The call of the assessment function specialised for ``eff`` in ``scope``."""
        parts = [eff.member, eff.open_if, eff.priority, eff.first, eff.seeds]
        names: list[str] = []
        for p in parts:
            for n in free_locals(p, frozenset({eff.var})):
                if n not in names:
                    names.append(n)
        key = (eff, tuple(names))
        index = self._region_keys.get(key)
        if index is None:
            index = len(self.regions)
            self._region_keys[key] = index
            params = [(n, Var(f"f{i}", scope[n].type)) for i, n in enumerate(names)]
            outer: Scope = {n: v for n, v in params}
            inner: Scope = dict(outer)
            inner[eff.var] = Var("cell", CELL)
            ir = self.ir

            def per_cell(e: Optional[Expr]) -> Optional[str]:
                return self.expr(e, inner).text if e is not None else None

            def as_set(e: Optional[Expr], what: str, out: str) -> Optional[str]:
                return self.cellset_call(e, eff.var, outer, what, out) if e is not None else None

            # the conditions that translate to cell sets are computed together (sharing
            # common parts) whenever the board has changed
            group = []
            for e, what, out in ((eff.member, "region cells", "members"), (eff.open_if, "cells that open a region", "opening"), (eff.priority, "cells filled first", "firsts")):
                if e is not None and self.to_set(e, eff.var, outer) is not None:
                    group.append((e, out, what))
            sets_call = self.cellset_group(group, eff.var, outer) if group else None
            in_group = {out for _, out, _ in group}
            member_set = sets_call if "members" in in_group else None
            open_set = sets_call if "opening" in in_group else None
            priority_set = sets_call if "firsts" in in_group else None
            fn = RegionFn(
                index=index,
                params=params,
                member=per_cell(eff.member) if member_set is None else "",
                open_if=per_cell(eff.open_if) if open_set is None else None,
                priority=per_cell(eff.priority) if priority_set is None else None,
                first=self.expr(eff.first, outer).text,
                seeds=self.domain_loop(eff.seeds, outer, "seed", "seed_") if eff.seeds is not None else None,
                kind=eff.kind,
                split=eff.tie == "split",
                comments={
                    "member": comment_text(unparse(eff.member, ir)),
                    "open_if": comment_text(unparse(eff.open_if, ir)) if eff.open_if is not None else "never (every region is closed)",
                    "priority": comment_text(unparse(eff.priority, ir)) if eff.priority is not None else "none (visiting order)",
                    "first": comment_text(unparse(eff.first, ir)),
                    "seeds": comment_text(unparse_domain(eff.seeds, ir)) if eff.seeds is not None else "cells",
                    "kind": comment_text(ir.kinds[eff.kind]),
                    "tie": eff.tie,
                },
                member_set=member_set,
                open_set=open_set,
                priority_set=priority_set,
                sets_call=sets_call,
            )
            self.regions.append(fn)
        args = "".join(", " + scope[n].cname for n in names)
        return f"assess_{index}(st{args})"

    # -- effects -----------------------------------------------------------------------

    def removals_comment(self, eff: Remove) -> str:
        ir = self.ir
        text = f"remove the piece on {unparse(eff.at, ir)}"
        if eff.each is not None:
            text += f" for each {eff.var} in {unparse_domain(eff.each, ir)}"
        if eff.where is not None:
            text += f" where {unparse(eff.where, ir)}"
        return comment_text(text + f" (to {eff.to})")

    def removal(self, eff: Remove, scope: Scope) -> str:
        """``remove_<n>(st, locals...)`` for one remove effect (see RemoveFn)."""
        bound = frozenset({eff.var}) if eff.each is not None else frozenset()
        names: list[str] = []  # in first-use order (never by name: code must not depend on names)
        for part, inside in ((eff.each, frozenset()), (eff.where, bound), (eff.at, bound)):
            names += [n for n in free_locals(part, inside) if n not in names]
        params = [(n, Var(f"f{i}", scope[n].type)) for i, n in enumerate(names)]
        inner: Scope = {n: v for n, v in params}
        loop = None
        if eff.each is not None:
            loop = self.domain_loop(eff.each, inner, "x")
            inner[eff.var] = Var("x", eff.each.elem_type)
        where = self.expr(eff.where, inner).text if eff.where is not None else None
        at = self.expr(eff.at, inner).text
        index = len(self.removals)
        self.removals.append(RemoveFn(index, params, loop, where, at, eff.to == "hand", self.removals_comment(eff)))
        return f"remove_{index}(st" + "".join(", " + scope[n].cname for n in names) + ")"

    def effects(self, effects: tuple[Effect, ...], scope: Scope) -> list[dict]:
        """Each effect as one statement plus a comment."""
        out = []
        ir = self.ir
        for eff in effects:
            if isinstance(eff, Place) and (eff.height is not None or eff.push is not None):
                owner, at = self.expr(eff.owner, scope).text, self.expr(eff.at, scope).text
                height = self.expr(eff.height, scope).text if eff.height is not None else "1"
                push = self.expr(eff.push, scope).text if eff.push is not None else "-1"
                how = f" of height {unparse(eff.height, ir)}" if eff.height is not None else ""
                how += f", pushing {unparse(eff.push, ir)}" if eff.push is not None else ""
                out.append({
                    "comment": comment_text(f"place a stack of {ir.kinds[eff.kind]} of {unparse(eff.owner, ir)} at {unparse(eff.at, ir)}{how}"),
                    "code": f"put_stack(st, {owner}, {eff.kind}, {at}, {height}, {push})",
                })
            elif isinstance(eff, Place):
                owner, at = self.expr(eff.owner, scope).text, self.expr(eff.at, scope).text
                out.append({
                    "comment": comment_text(f"place {ir.kinds[eff.kind]} of {unparse(eff.owner, ir)} at {unparse(eff.at, ir)}"),
                    "code": f"put_piece(st, {owner}, {eff.kind}, {at})",
                })
            elif isinstance(eff, SetCounter):
                owner, value = self.expr(eff.owner, scope).text, self.expr(eff.value, scope).text
                verb = "add" if eff.add else "set"
                out.append({
                    "comment": comment_text(f"{verb} counter {ir.counters[eff.counter]} of {unparse(eff.owner, ir)} {'+' if eff.add else ''}= {unparse(eff.value, ir)}"),
                    "code": f"counter_{verb}(st, {owner}, {eff.counter}, {value})",
                })
            elif isinstance(eff, AssessRegions):
                out.append({
                    "comment": comment_text(f"assess regions of {unparse(eff.member, ir)} and award {ir.kinds[eff.kind]}"),
                    "code": self.region(eff, scope),
                })
            elif isinstance(eff, MovePiece):
                frm, to = self.expr(eff.frm, scope).text, self.expr(eff.to, scope).text
                out.append({
                    "comment": comment_text(f"move the piece on {unparse(eff.frm, ir)} to {unparse(eff.to, ir)} (capture: {eff.capture})"),
                    "code": f"move_piece(st, {frm}, {to}, {'True' if eff.capture == 'hand' else 'False'})",
                })
            elif isinstance(eff, FlipFlanked):
                out.append({
                    "comment": comment_text(f"flip the runs flanked from {unparse(eff.at, ir)}"),
                    "code": f"flip_flanked(st, {self.expr(eff.at, scope).text})",
                })
            elif isinstance(eff, Remove):
                out.append({"comment": self.removals_comment(eff), "code": self.removal(eff, scope)})
            elif isinstance(eff, Discard):
                out.append({
                    "comment": comment_text(f"discard a face-up {unparse(eff.item, ir)} of {unparse(eff.owner, ir)}"),
                    "code": f"discard_item(st, {self.expr(eff.owner, scope).text}, {self.expr(eff.item, scope).text})",
                })
            elif isinstance(eff, Draw):
                out.append({
                    "comment": comment_text(f"{unparse(eff.owner, ir)} turns up {unparse(eff.count, ir)} item(s) from the deck"),
                    "code": f"draw_items(st, {self.expr(eff.owner, scope).text}, {self.expr(eff.count, scope).text})",
                })
            elif isinstance(eff, ZONE_EFFECT_TYPES):
                out.append(zone_effect(self, eff, scope))
            elif isinstance(eff, ExtraTurn):
                self.uses_again = True
                out.append({"comment": "extra_turn: the mover moves again", "code": "st.again = 1"})
            elif isinstance(eff, NextTurn):
                self.uses_again = True
                to = self.expr(eff.to, scope).text
                out.append({"comment": comment_text(f"next_turn: {unparse(eff.to, self.ir)} moves next"), "code": f"next_turn(st, {to})"})
            elif isinstance(eff, (IfEffect, ForEach)):
                out.append(self.block(eff, scope))
            else:
                raise BuildError(f"internal error: the compiled back end lacks effect {type(eff).__name__}")
        return out

    # -- blocks: if / for_each -----------------------------------------------------------

    def block(self, eff, scope: Scope) -> dict:
        """``if``: an inline Cython if/else (several lines, indented relative to the first);
        ``for_each``: a call of ``each_<n>(st, locals...)`` (see EachFn), since a loop needs
        C declarations of its own."""
        ir = self.ir
        if isinstance(eff, IfEffect):
            lines = [f"if {self.expr(eff.when, scope).text}:"]
            for branch, head in ((eff.then, None), (eff.other, "else:")):
                if head is not None:
                    if not branch:
                        break
                    lines.append(head)
                body = self.effects(branch, scope)
                for e in body or [{"code": "pass", "comment": "nothing"}]:
                    code = e["code"].replace("\n", "\n    ")
                    lines.append(f"    {code}  # {e['comment']}")
            return {"comment": comment_text(f"if {unparse(eff.when, ir)}"), "code": "\n".join(lines)}
        names = list(scope)  # every local in scope is passed (in scope order: never by name)
        params = [(n, Var(f"f{i}", scope[n].type)) for i, n in enumerate(names)]
        inner: Scope = {n: v for n, v in params}
        loop = self.domain_loop(eff.each, inner, "x", "each_")
        inner[eff.var] = Var("x", eff.each.elem_type)
        where = self.expr(eff.where, inner).text if eff.where is not None else None
        index = len(self.eaches)
        self.eaches.append(None)  # (the slot is taken before the body may add more)
        body = self.effects(eff.effects, inner)
        text = f"for each {eff.var} in {unparse_domain(eff.each, ir)}"
        if eff.where is not None:
            text += f" where {unparse(eff.where, ir)}"
        self.eaches[index] = EachFn(index, params, loop, where, body, comment_text(text))
        return {"comment": comment_text(text), "code": f"each_{index}(st" + "".join(", " + scope[n].cname for n in names) + ")"}


# --------------------------------------------------------------------------- the generator


def _conjuncts(e: Expr) -> list[Expr]:
    if isinstance(e, Binary) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


class Generator:
    """Walks a GameIR once, translating every expression, then renders the sections."""

    def __init__(self, ir: GameIR):
        self.ir = ir
        self.x = ExprCompiler(ir)
        b = ir.board
        self.n = b.n_cells
        self.n_kinds_div = max(ir.n_kinds, 1)
        self.param_sizes = {CELL: self.n, PLAYER: ir.n_players, KIND: ir.n_kinds, DIR: len(b.directions), ITEM: ir.n_item_kinds}
        # Translate in a fixed order so quantifier numbers are stable.
        self.defines = [self._define(i) for i in range(len(ir.defines))]
        self.actions = [self._action(i) for i in range(len(ir.actions))]
        self.end_conditions = [(self.x.expr(c, {}).text, comment_text(unparse(c, ir))) for c in ir.end.conditions]
        self.end_effects = self.x.effects(ir.end.effects, {})
        self.rank_keys = [self._rank(i) for i in range(len(ir.ranking))]

    # -- translation ---------------------------------------------------------------------

    def _define(self, i: int) -> dict:
        d = self.ir.defines[i]
        scope = {p.name: Var(f"a{j}", p.type) for j, p in enumerate(d.params)}
        head = d.name + (f"({', '.join(f'{p.type} {p.name}' for p in d.params)})" if d.params else "")
        return {
            "index": i,
            "ret": CTYPE[d.type],
            "params": [scope[p.name] for p in d.params],
            "body": self.x.expr(d.body, scope).text,
            "comment": comment_text(f"{head} = {unparse(d.body, self.ir)}"),
        }

    def _param_range(self, p) -> tuple[int, int]:
        if p.type == INT:
            return p.lo, p.hi - p.lo + 1
        return 0, self.param_sizes[p.type]

    @staticmethod
    def _param_limit(p) -> str:
        """The C name of a parameter's domain size (its loop's end)."""
        return {CELL: "N_CELLS", PLAYER: "N_PLAYERS", KIND: "N_KINDS", DIR: "N_DIRS", ITEM: "N_ITEM_KINDS"}.get(p.type, str(p.hi + 1))

    def _action(self, i: int) -> dict:
        ir = self.ir
        a = ir.actions[i]
        scope = {p.name: Var(f"a{j}", p.type) for j, p in enumerate(a.params)}
        order = [p.name for p in a.params]
        # Hoist each conjunct of 'where' to the loop level that binds all it reads.
        levels: list[list[Expr]] = [[] for _ in range(len(a.params) + 1)]
        for conj in _conjuncts(a.where):
            used = [order.index(n) for n in free_locals(conj) if n in order]
            levels[max(used) + 1 if used else 0].append(conj)

        def scalar(conds: list[Expr]) -> list[tuple[str, str]]:
            return [(self.x.expr(c, scope).text, comment_text(unparse(c, ir))) for c in conds]

        stride = 1
        strides = []
        for p in reversed(a.params):
            strides.append(stride)
            stride *= self._param_range(p)[1]
        strides.reverse()
        id_terms = [str(a.base)] if a.base else []
        loops = []
        for j, p in enumerate(a.params):
            lo, size = self._param_range(p)
            var = scope[p.name].cname
            index = var if lo == 0 else f"({var} - ({lo}))"
            id_terms.append(index if strides[j] == 1 else f"{index} * {strides[j]}")
            conds = levels[j + 1]
            set_call, set_comment = None, ""
            cands = None
            if p.type == CELL and len(a.params) > 1:
                # a conjunct pinning the cell to a few values: loop over those only
                from ..ir.analysis import candidates

                for c in conds:
                    found = candidates(c, p.name, ir.defines)
                    if found is not None:
                        cands = [self.x.expr(x, scope).text for x in found]
                        break
            if p.type == CELL and conds and cands is None:
                # the conjuncts that translate to cell sets pick the candidate cells at once
                as_sets = [c for c in conds if self.x.to_set(c, p.name, scope) is not None]
                if as_sets:
                    joined = as_sets[0]
                    for c in as_sets[1:]:
                        joined = Binary("and", joined, c, BOOL)
                    set_call = self.x.cellset_call(joined, p.name, scope, "cells", f"cand{j}")
                    set_comment = comment_text(unparse(joined, ir))
                    conds = [c for c in conds if c not in as_sets]
            loops.append({
                "level": j,
                "var": var,
                "lo": lo,
                "hi": self._param_limit(p),
                "conds": scalar(conds),
                "set_call": set_call,
                "set_comment": set_comment,
                "cands": cands,
                "comment": comment_text(f"{p.name}: {p.type}" + (f" {p.lo}..{p.hi}" if p.type == INT else "")),
            })
        decode = []
        for j in range(len(a.params) - 1, -1, -1):
            lo, size = self._param_range(a.params[j])
            decode.append({"var": f"v{j}", "size": size, "lo": lo})
        effects = self.x.effects(a.effects, scope)
        # trigger order is a rule (docs/spec-language.md): the template unrolls this list in
        # the order written, each `if when:` right after the previous trigger's effects
        triggers = []
        for t_index, trig in enumerate(ir.triggers):
            if trig.after and i not in trig.after:
                continue
            triggers.append({
                "index": t_index,
                "comment": comment_text(f"{trig.name}" + (f" when {unparse(trig.when, ir)}" if trig.when is not None else "")),
                "when": self.x.expr(trig.when, scope).text if trig.when is not None else None,
                "effects": self.x.effects(trig.effects, scope),
            })
        return {
            "index": i,
            "base": a.base,
            "size": a.size,
            "end": a.base + a.size,
            "params": [scope[p.name] for p in a.params],
            "top_conds": scalar(levels[0]),
            "loops": loops,
            "move_id": " + ".join(id_terms) or "0",
            "decode": decode,
            "effects": effects,
            "triggers": triggers,
            "comment": comment_text(f"{a.name}({', '.join(f'{p.name}: {p.type}' for p in a.params)})"),
            "where_comment": comment_text(unparse(a.where, ir)),
        }

    def _rank(self, j: int) -> dict:
        k = self.ir.ranking[j]
        scope = {"p": Var("a0", PLAYER)}
        return {
            "index": j,
            "body": self.x.expr(k.expr, scope).text,
            "lower": k.lower_is_better,
            "comment": comment_text(f"{k.name}: {unparse(k.expr, self.ir)}" + (" (lower is better)" if k.lower_is_better else "")),
        }

    # -- facts for the templates ---------------------------------------------------------

    @property
    def max_params(self) -> int:
        return max((len(a.params) for a in self.ir.actions), default=0)

    def param_var_types(self) -> list[str]:
        """C type of the j-th parameter variable, shared by all actions."""
        out = []
        for j in range(self.max_params):
            wide = any(len(a.params) > j and a.params[j].type == INT for a in self.ir.actions)
            out.append("long long" if wide else "int")
        return out

    def context(self) -> dict:
        ir = self.ir
        b = ir.board
        n = self.n
        max_piece = ir.n_players * ir.n_kinds
        return {
            "ir": ir,
            "title": comment_text(ir.title),
            "game": ir.name,
            "variant": ir.variant,
            "spec": os.path.basename(ir.source) if ir.source else "",
            "n_cells": n,
            "n_players": ir.n_players,
            "n_kinds": ir.n_kinds,
            "kind_div": self.n_kinds_div,
            "hand_slots": max(ir.n_kinds, 1),
            "n_counters": len(ir.counters),
            "counter_slots": max(len(ir.counters), 1),
            "n_dirs": len(b.directions),
            "max_degree": max(b.max_degree, 1),
            "n_moves": ir.n_moves,
            "max_plies": ir.max_plies,
            "n_rank": len(ir.ranking),
            "board_t": smallest_signed(-1, max_piece),
            "no_moves_end": ir.end.no_moves == "end",
            "max_params": self.max_params,
            "param_types": self.param_var_types(),
            "max_cands": max([len(L["cands"]) for a in self.actions for L in a["loops"] if L.get("cands")] or [1]),
            "cand_levels": sorted({L["level"] for a in self.actions for L in a["loops"] if L.get("cands") is not None}),
            "bit_levels": sorted({L["level"] for a in self.actions for L in a["loops"] if L["set_call"]}),
            "words": self.x.words,
            "sets": self.x.sets_enabled,
            "n_nibbles": (n + 3) // 4,
            "nibbles": (n + 3) // 4 * 16 * self.x.words * 8 <= NIBBLE_TABLE_LIMIT,
            "n_pieces": max_piece + 1,
            "uses_group": self.x.uses_group,
            "n_dilations": len(self.x.dilations),
            "pick": self.pick_cells(),
            "chance": self.chance_facts(),
            "again": self.x.uses_again,
            "stacks": ir.stacks,
            "decks": self.deck_facts(),
            "zones": zone_facts(ir),
            "areas": self.area_facts(),
        }

    def area_facts(self) -> Optional[dict]:
        """The areas' tables (see AreaIR), or None for a game without areas."""
        areas = self.ir.areas
        if not areas:
            return None
        start = [0]
        for a in areas:
            start.append(start[-1] + len(a.cells))
        return {
            "count": len(areas),
            "start": start,
            "cells": [c for a in areas for c in a.cells],
            "weights": [w for a in areas for w in a.weights],
            "points": [a.points for a in areas],
        }

    def deck_facts(self) -> Optional[dict]:
        """The decks' tables (see DeckIR), or None for a game without items."""
        items = self.ir.deck
        if items is None:
            return None
        width = max(len(v) for v in items.values)
        return {
            "n_kinds": items.n_kinds,
            "size": items.size,
            "up": items.up,
            "order": list(items.order),
            "nvalues": [len(v) for v in items.values],
            "max_values": width,
            "value_rows": [list(v) + [0] * (width - len(v)) for v in items.values],
            "stream": CHANCE_STREAM,
        }

    def chance_facts(self) -> Optional[dict]:
        """The dice tables (see ChanceIR), or None for a game without chance."""
        ch = self.ir.chance
        if ch is None:
            return None
        return {
            "dice": ch.dice,
            "n_faces": ch.n_faces,
            "n_outcomes": len(ch.outcomes),
            "n_draws": ch.n_draws,
            "base": ch.base,
            "stream": CHANCE_STREAM,
            "outcome_faces": [list(o) for o in ch.outcomes],
            "draw_outcome": list(ch.draw_outcome),
            "face_values": list(ch.values),
        }

    def pick_cells(self) -> Optional[dict]:
        """When the legal moves are one set of cells — a single action whose only
        parameter is a cell picked by cell sets, with no other per-cell test — the facts
        random playouts need to draw the k-th legal move from that set (move id = base +
        cell, so ascending cells are ascending ids); else None."""
        if len(self.actions) != 1 or len(self.ir.actions[0].params) != 1 or self.ir.chance is not None:
            return None
        a = self.actions[0]
        loop = a["loops"][0]
        if self.ir.actions[0].params[0].type != CELL or not loop["set_call"] or loop["conds"]:
            return None
        return {
            "base": a["base"],
            "top_conds": a["top_conds"],
            "set_call": loop["set_call"],
            "set_comment": loop["set_comment"],
            "comment": a["comment"],
        }


# --------------------------------------------------------------------------- sections


def generate_header(g: Generator) -> str:
    return render("header.pyx.j2", **g.context())


def generate_constants(g: Generator) -> str:
    return render("constants.pyx.j2", **g.context())


def generate_tables(g: Generator) -> str:
    ir = g.ir
    b = ir.board
    n = g.n
    maxdeg = max(b.max_degree, 1)
    nbrs = []
    for c in range(n):
        row = list(b.neighbours[c]) + [n] * (maxdeg - len(b.neighbours[c]))
        nbrs.append(row)
    degree = [len(b.neighbours[c]) for c in range(n)] + [0]
    steps = []
    for d in range(len(b.directions)):
        row = list(b.steps[d][:n]) + [n]
        steps.append(row)
    props = []
    for i, (name, values) in enumerate(b.props):
        vals = list(values[:n]) + [0]
        props.append({"index": i, "comment": comment_text(name), "values": vals, "ctype": smallest_signed(min(vals), max(vals))})
    words = g.x.words

    def as_words(cells) -> list[str]:
        out = [0] * words
        for c in cells:
            out[c >> 6] |= 1 << (c & 63)
        return [f"0x{v:016x}ULL" for v in out]

    # dilation tables: near[i][v] = the cells with a neighbour among cells 4i..4i+3 picked
    # by the bits of v (nibble tables); or near1[x] = the cells that have x as a neighbour
    near_of: list[set] = [set() for _ in range(n)]
    for c in range(n):
        for x in b.neighbours[c]:
            near_of[x].add(c)
    n_nibbles = (n + 3) // 4
    nibbles = n_nibbles * 16 * words * 8 <= NIBBLE_TABLE_LIMIT
    near = []
    if nibbles:
        for i in range(n_nibbles):
            row = []
            for v in range(16):
                cells: set = set()
                for bit in range(4):
                    if v >> bit & 1 and 4 * i + bit < n:
                        cells |= near_of[4 * i + bit]
                row.append(c_array(as_words(sorted(cells))))
            near.append(row)
    else:
        near = [c_array(as_words(sorted(near_of[x]))) for x in range(n)]
    nbr_sets = [c_array(as_words(sorted(set(b.neighbours[c])))) for c in range(n)]
    masks = [{"index": i, "words": c_array([f"0x{v:016x}ULL" for v in m]), "comment": text} for i, (m, text) in enumerate(g.x.masks)]
    initial = list(ir.initial_board or [0] * n) + [-1]
    hands = [list(h) + [0] * (max(ir.n_kinds, 1) - len(h)) for h in ir.hand_init]
    counters = [list(c) + [0] * (max(len(ir.counters), 1) - len(c)) for c in ir.counter_init]
    return render(
        "tables.pyx.j2",
        **{k: v for k, v in g.context().items() if k not in ("nibbles", "n_nibbles")},
        nbrs=nbrs,
        degree=degree,
        steps=steps,
        directions=[comment_text(d) for d in b.directions],
        props=props,
        initial=initial,
        hands=hands,
        counters=counters,
        valid=c_array(as_words(range(n))),
        nbr_sets=nbr_sets,
        masks=masks,
        nibbles=nibbles,
        n_nibbles=n_nibbles,
        near=near,
    )


def generate_state(g: Generator) -> str:
    return render("state.pyx.j2", **g.context())


def generate_runtime(g: Generator) -> str:
    return render("runtime.pyx.j2", **g.context())


def generate_lines(g: Generator) -> str:
    ir = g.ir
    pprops = [{"index": i, "comment": name, "values": [0] + list(values)} for i, (name, values) in enumerate(ir.player_props)]
    return render("lines.pyx.j2", **g.context(), pprops=pprops, opposite=list(opposite_directions(ir.board)))


def generate_defines(g: Generator) -> str:
    return render("defines.pyx.j2", **g.context(), defines=g.defines)


def generate_quantifiers(g: Generator) -> str:
    return render("quantifiers.pyx.j2", **g.context(), lifted=g.x.lifted)


def generate_cellsets(g: Generator) -> str:
    return render("cellsets.pyx.j2", **g.context(), cellsets=g.x.cellsets)


def generate_legality(g: Generator) -> str:
    return render("legality.pyx.j2", **g.context(), actions=g.actions)


def generate_regions(g: Generator) -> str:
    return render("regions.pyx.j2", **g.context(), regions=g.x.regions)


def generate_effects(g: Generator) -> str:
    return render("effects.pyx.j2", **g.context(), actions=g.actions, removals=g.x.removals, eaches=g.x.eaches)


def generate_end(g: Generator) -> str:
    return render("end.pyx.j2", **g.context(), conditions=g.end_conditions, effects=g.end_effects)


def generate_ranking(g: Generator) -> str:
    return render("ranking.pyx.j2", **g.context(), keys=g.rank_keys)


def generate_moves(g: Generator) -> str:
    return render("moves.pyx.j2", **g.context(), actions=g.actions)


def generate_playouts(g: Generator) -> str:
    return render("playouts.pyx.j2", **g.context())


def generate_core(g: Generator) -> str:
    return render("core.pyx.j2", **g.context(), keys=g.rank_keys)


_GENERATORS = {
    "header": generate_header,
    "constants": generate_constants,
    "tables": generate_tables,
    "state": generate_state,
    "runtime": generate_runtime,
    "lines": generate_lines,
    "deck": lambda g: render("deck.pyx.j2", **g.context()),
    "zones": lambda g: render("zones.pyx.j2", **g.context()),
    "areas": lambda g: render("areas.pyx.j2", **g.context()),
    "defines": generate_defines,
    "quantifiers": generate_quantifiers,
    "cellsets": generate_cellsets,
    "legality": generate_legality,
    "regions": generate_regions,
    "effects": generate_effects,
    "end": generate_end,
    "ranking": generate_ranking,
    "moves": generate_moves,
    "playouts": generate_playouts,
    "core": generate_core,
}


def generate_module(ir: GameIR) -> str:
    """The whole Cython module for ``ir`` (deterministic: same IR, same text)."""
    g = Generator(ir)
    parts = [_GENERATORS[name](g).strip("\n") for name in SECTIONS]
    return "\n\n\n".join(p for p in parts if p) + "\n"
