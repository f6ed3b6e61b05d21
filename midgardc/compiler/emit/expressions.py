"""Expressions in C: constants, locals, operators, built-in calls, definitions and
quantifiers (lifted into functions of their free locals). The Python meaning of the same
constructs is ``midgardc.runtime.rules.expressions``."""

from __future__ import annotations

from typing import Optional

from ...errors import BuildError
from ...ir.analysis import conjoin, conjuncts, set_directions
from ...ir.builtins import BUILTINS, INDEXED, ZONE_FUNCTIONS
from ...ir.nodes import (
    BOOL,
    INT,
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
from .bitboards import flood_shifts
from .rays import ray_plan, slide_test, unroll_slides
from .common import (
    CTYPE,
    MAX_SET_CELLS,
    _ARITH,
    _COMPARE,
    _INT32,
    comment_text,
    unparse,
    free_locals,
    Var,
    Scope,
    Code,
    DomainLoop,
    Lifted,
    CellSetFn,
    RegionFn,
    RemoveFn,
)


class Expressions:
    """The base of ``ExprCompiler`` (``compiler/codegen.py``): its state, and IR expressions
    as Cython expressions, lifting quantifiers as it goes."""

    def __init__(self, ir: GameIR):
        self.ir = ir
        self.lifted: list[Lifted] = []
        self._lifted_keys: dict[tuple, int] = {}
        self.regions: list[RegionFn] = []
        self._region_keys: dict[tuple, int] = {}
        self.cellsets: list[CellSetFn] = []
        self._cellset_keys: dict[tuple, int] = {}
        self._cellset_bodies: dict[tuple, int] = {}  # the code of a cell-set function -> its index
        self.dilations: dict[str, int] = {}  # dilated set (C text of a word) -> cache slot in the state
        self.kept_dilations: dict[int, str] = {}  # the slots kept as pieces change (keep_dilations()) -> their set's C text
        self.kept_members: dict[int, dict] = {}  # the same slots -> when a placement changes them (cellsets.kept_changes())
        self.masks: list[tuple[tuple[int, ...], str]] = []  # (words, comment)
        self._mask_keys: dict[tuple, int] = {}
        self._pure: dict[int, bool] = {}
        self._oracle = None
        n = ir.board.n_cells
        self.words = (n + 63) // 64 or 1
        self.sets_enabled = n <= MAX_SET_CELLS
        self.uses_group = False  # some quantifier ranges over group(c): emit group_fill()
        self.uses_slide = False  # some quantifier ranges over slide(c, d): emit slide_fill()
        self.uses_region = False  # ... over region(c): emit region_fill()
        self.uses_flood = False  # some any/all/count over group/region(c) floods bits: flood_bits()
        self._flood_shifts: Optional[list] = None  # (flood_shifts of the board, computed once)
        self.chain_quants: list[bool] = []  # per quantifier over group/region(c): flooded as bits?
        self.removals: list[RemoveFn] = []
        self.eaches: list = []  # EachFn per for_each effect
        self.uses_again = False  # some effect is extra_turn: the state carries the flag
        self.uses_can_move = False  # the end section asks can_move(): emit can_move_of()
        self.uses_since_first_seen = False  # moves_since_first_seen() is asked: emit since_first_seen_of()
        self._unrolling = 0  # any/all over directions being unrolled into cell sets
        self._ray_plan: Optional[tuple] = None  # (emit/rays.py ray_plan of the board, computed once)
        self.uses_ray_bits = False  # some slide is tested as bits: emit the ray masks and slide_bits()

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
            if e.type != INT:
                return Code(f"(<{CTYPE[e.type]}>st.counters[N_PLAYERS][{e.args[0].value}])", CTYPE[e.type])
            return Code(f"st.counters[N_PLAYERS][{e.args[0].value}]", "long long")
        if fn == "typed_counter":  # (counter, player, none)
            a = [self.expr(x, scope).text for x in e.args]
            return Code(f"(<{CTYPE[e.type]}>counter_or(st, {a[1]}, {a[0]}, {a[2]}))", CTYPE[e.type])
        if fn == "counter_at":  # (column, row, none, then lo, size, index per index)
            column, row, none = (self.expr(x, scope).text for x in e.args[:3])
            flat = self.element_offset(e.args[3:], scope)
            return Code(f"(<{CTYPE[e.type]}>element_of(st, {row}, {column}, {flat}, {none}))", CTYPE[e.type])
        if fn == "attr":  # (attribute, value): a table lookup
            index = e.args[0].value
            offset = self.ir.attributes[index].offset if index < len(self.ir.attributes) else 0
            arg = self.expr(e.args[1], scope).text
            if index < len(self.ir.attributes) and self.ir.attributes[index].keys:  # a table keyed by a number range
                return Code(f"(<{CTYPE[e.type]}>ATTR_{index}_AT({arg} + {offset}))", CTYPE[e.type])
            return Code(f"(<{CTYPE[e.type]}>ATTR_{index}[{arg} + {offset}])", CTYPE[e.type])
        if fn == "either" and e.type != INT:
            a = [self.expr(x, scope).text for x in e.args]
            t = CTYPE[e.type]
            return Code(f"(<{t}>({a[1]}) if {a[0]} else <{t}>({a[2]}))", t)
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
            # the position history (templates/history.pyx.j2)
            "times_seen": lambda: Code("times_seen_of(st)", "long long"),
            "repeated": lambda: Code("(times_seen_of(st) >= 2)", "bint"),
            "moves_since_first_seen": lambda: self._since_first_seen(),
            # the end of the game (templates/end.pyx.j2)
            "can_move": lambda: self._can_move(),
        }
        if fn not in table:
            raise BuildError(f"internal error: the compiled back end lacks built-in {fn!r}")
        return table[fn]()

    def _since_first_seen(self) -> Code:
        self.uses_since_first_seen = True
        return Code("since_first_seen_of(st)", "long long")

    def _can_move(self) -> Code:
        self.uses_can_move = True
        return Code("can_move_of(st)", "bint")

    def element_offset(self, index: tuple, scope: Scope) -> str:
        """C for an array element's offset in its row, -1 when an index is out of range:
        ``index`` is flat (lo, size, value) triples (see ir.nodes.SetElement)."""
        flat = "0"
        for j in range(0, len(index), 3):
            lo, size = index[j].value, index[j + 1].value
            value = self.wide(self.expr(index[j + 2], scope))
            flat = f"element_step({flat}, {value} - {lo}, {size})"
        return flat

    # -- quantifiers -------------------------------------------------------------------

    def domain_loop(self, d: Domain, scope: Scope, var: str, prefix: str = "", walk: bool = False, sieve: Optional[tuple[str, Expr]] = None) -> DomainLoop:
        """C for iterating ``d`` with loop variable ``var`` (a C name); helper variables
        get ``prefix`` so two loops can share a function. With ``walk`` (a loop whose body
        changes nothing: a quantifier, a candidate listing), a ray or slide is walked cell
        by cell instead of being written to an array first. ``sieve`` is the bound
        variable's name and the condition each element is tested with (a where, a body):
        over directions, a conjunct that is a fixed set's test (``wings(d)``, a direction
        set's attribute) makes the loop visit only the set's directions, in board order."""
        members = set_directions(self.ir, d, *sieve) if sieve is not None else None
        if members is not None:
            table, slot = prefix + "dirs", prefix + "dir_slot"
            return DomainLoop(
                [f"int {table}[{max(len(members), 1)}]", f"int {slot}"],
                [f"{table}[{i}] = {m}" for i, m in enumerate(members)],
                f"for {slot} in range({len(members)}):",
                [f"{var} = {table}[{slot}]"],
                "int",
            )
        if walk and d.kind in ("ray", "slide"):
            src, way = (self.expr(a, scope).text for a in d.args)
            origin, cur, step, stop = prefix + "origin", prefix + "cur", prefix + "way", prefix + "stop"
            self.uses_slide = self.uses_slide or d.kind == "slide"
            bind = [f"{cur} = STEP[{step}][{cur}]", f"if {cur} >= N_CELLS or {cur} == {origin}:", f"    break", f"{var} = {cur}"]
            if d.kind == "slide":  # up to and including the first occupied cell
                bind.append(f"{stop} = st.board[{cur}] > 0")
            return DomainLoop(
                [f"int {origin}", f"int {cur}", f"int {step}", f"bint {stop}"],
                [f"{origin} = {src}", f"{step} = {way}", f"{cur} = {origin}", f"{stop} = {origin} >= N_CELLS"],
                f"while not {stop}:",
                bind,
                "int",
            )
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
        if d.kind in ("group", "region"):
            src = self.expr(d.args[0], scope).text
            if d.kind == "region":
                self.uses_region = True
            else:
                self.uses_group = True
            order, size, slot = prefix + "chain", prefix + "chain_size", prefix + "link"
            return DomainLoop(
                [f"int {order}[N_CELLS]", f"int {size}", f"int {slot}"],
                [f"{size} = {d.kind}_fill(st, {src}, {order})"],
                f"for {slot} in range({size}):",
                [f"{var} = {order}[{slot}]"],
                "int",
            )
        if d.kind == "enum":  # the values of an enumeration (args: how many)
            return DomainLoop([], [], f"for {var} in range({d.args[0].value}):", [], "int")
        if d.kind == "item_kinds":
            return DomainLoop([], [], f"for {var} in range(N_ITEM_KINDS):", [], "int")
        if d.kind == "faces":
            return DomainLoop([], [], f"for {var} in range(N_FACES):", [], "int")
        if d.kind in ("ray", "slide"):  # the cells past a cell along a direction (slide: to the first piece)
            src, way = (self.expr(a, scope).text for a in d.args)
            order, size, slot = prefix + "ray", prefix + "ray_size", prefix + "ray_at"
            fill = f"ray_fill({src}, {way}, {order})" if d.kind == "ray" else f"slide_fill(st, {src}, {way}, {order})"
            self.uses_slide = self.uses_slide or d.kind == "slide"
            return DomainLoop(
                [f"int {order}[N_CELLS]", f"int {size}", f"int {slot}"],
                [f"{size} = {fill}"],
                f"for {slot} in range({size}):",
                [f"{var} = {order}[{slot}]"],
                "int",
            )
        raise BuildError(f"internal error: unknown domain {d.kind!r}")

    def flood_shifts(self) -> list:
        """The board's neighbour directions as shifts (emit/bitboards.py flood_shifts), []
        when group/region floods stay walks (too many cells for cell sets, or neighbours
        that are not shifts along the directions)."""
        if self._flood_shifts is None:
            self._flood_shifts = flood_shifts(self.ir.board)[0] if self.sets_enabled else []
        return self._flood_shifts

    def ray_plan(self):
        """The board's rays as masks (emit/rays.py), None when slides stay walks."""
        if self._ray_plan is None:
            self._ray_plan = ray_plan(self.ir.board, self.words) if self.sets_enabled else (None, "too many cells for cell sets")
        return self._ray_plan[0]

    def quant(self, q: Quant, scope: Scope) -> Code:
        unrolled = unroll_slides(self, q, scope)  # any/all over directions of slides tested as bits (emit/rays.py)
        if unrolled is not None:
            return unrolled
        names = free_locals(q)
        key = (q, tuple(names))
        index = self._lifted_keys.get(key)
        if index is None:
            index = len(self.lifted)
            self._lifted_keys[key] = index
            self.lifted.append(None)  # reserve the number before lifting nested quantifiers
            params = [(n, Var(f"f{i}", scope[n].type)) for i, n in enumerate(names)]
            inner: Scope = {n: v for n, v in params}
            cellset, narrow, rest, flood = None, None, q.body, None
            if q.domain.kind == "cells" and q.kind in ("any", "all", "count") and q.var in free_locals(q.body):
                # a condition over every cell: compute the set of cells at once
                cellset = self.cellset_call(q.body, q.var, inner, "cells", "found")
                if cellset is None and q.kind in ("any", "count"):
                    # else the conjuncts that translate pick the cells the rest is tested on
                    parts = conjuncts(q.body)
                    sets = [c for c in parts if q.var in free_locals(c) and self.to_set(c, q.var, inner) is not None]
                    if sets and len(sets) < len(parts):
                        narrow = self.cellset_call(conjoin(sets), q.var, inner, "cells", "found")
                        rest = conjoin([c for c in parts if not any(c is x for x in sets)]) if narrow else q.body
            elif q.domain.kind in ("group", "region") and q.kind in ("any", "all", "count") and self.flood_shifts():
                # over a connected group: the group flooded as bits, met with the condition's cell set
                cellset = self.cellset_call(q.body, q.var, inner, "cells", "found")
                if cellset is not None:
                    flood = f"{self.expr(q.domain.args[0], inner).text}, {'True' if q.domain.kind == 'group' else 'False'}"
                    self.uses_flood = True
            if q.domain.kind in ("group", "region"):
                self.chain_quants.append(flood is not None)
            ray = slide_test(self, q, inner) if cellset is None and flood is None else None
            if flood is None:
                loop = self.domain_loop(q.domain, inner, "x", walk=True, sieve=(q.var, q.body))
            else:
                loop = DomainLoop([], [], "", [], "int")
            inner[q.var] = Var("x", q.domain.elem_type)
            body = self.expr(rest, inner).text if cellset is None else ""
            self.lifted[index] = Lifted(index, q.kind, CTYPE[q.type], params, loop, body, comment_text(unparse(q, self.ir)), cellset, narrow, flood, ray)
        args = "".join(", " + scope[n].cname for n in names)
        return Code(f"quant_{index}(st{args})", CTYPE[q.type])


