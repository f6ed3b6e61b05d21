"""Type-check a condition AST against the spec's names and lower it to IR expressions.

Every name is resolved here, once: locals (parameters and quantifier variables), the
spec's constants (player, piece-kind and direction names), its definitions, board
properties and counters, then the built-ins. Errors point at the offending name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from ..errors import Pos, SpecError, did_you_mean
from ..ir.builtins import BUILTINS, CONSTANTS, DOMAINS, INDEXED, QUANTIFIERS, ZONE_FUNCTIONS
from ..ir.nodes import BOOL, ITEM, CELL, DIR, FACE, INT, KIND, NONE, PLAYER, ZONE, Binary, Call, Const, DefineCall, Domain, Expr, Local, Quant, Unary
from .pools import pool_call, pool_name
from .parse import Agg, Ast, CallA, Choice, Index, Name, Num, Op, parse_condition
from ..ir.values import is_enum
from .typed import TypedValues
from .words import TYPE_WORDS, _start, a_type

MAX_INT = 2**62
DICE_BUILTINS = ("rolled", "die", "face_value")
DECK_BUILTINS = ("face_up", "in_deck", "discarded", "deck_left")
DIRECTION_BUILTINS = ("step", "room")
AREA_BUILTINS = ("area_points", "areas_won")  # (and the collection ray(c, d))
HISTORY_BUILTINS = ("times_seen", "repeated", "moves_since_first_seen")  # the position history (history:)
END_BUILTINS = ("can_move",)  # list the moves of the player to move: only in the end section


@dataclass
class Names:
    """The spec-level names a condition may use (filled by the front end)."""

    constants: dict[str, tuple[int, str]] = field(default_factory=dict)
    defines: dict[str, tuple[int, tuple[str, ...], str]] = field(default_factory=dict)  # name -> (index, param types, result)
    props: dict[str, tuple[int, str]] = field(default_factory=dict)  # name -> (index, bool|int)
    counters: dict[str, int] = field(default_factory=dict)  # per-player counters: name -> index
    game_counters: dict[str, int] = field(default_factory=dict)  # one per game: name -> index
    game_row: int = 0  # the counters' row of the game (= the number of players)
    player_props: dict[str, tuple[int, str]] = field(default_factory=dict)  # name -> (index, type)
    has_directions: bool = False
    # direction sets (board.direction_sets, and a square board's orthogonal and diagonal):
    # name -> the attributes of dir that say membership: one, or one per player (in seat
    # order) for a set that differs by player, ranged over as ``any d in forward(p): ...``
    dir_sets: dict[str, tuple[bool, tuple[int, ...]]] = field(default_factory=dict)
    has_deck: bool = False  # the spec declares decks (deck:)
    has_items: bool = False  # the spec declares kinds of item (deck: or items:)
    # zones (zones:): name -> (index, per-player, ordered)
    zones: dict[str, tuple[int, bool, bool]] = field(default_factory=dict)
    has_areas: bool = False  # the spec declares areas scored by majority (areas:)
    has_chance: bool = False  # the spec declares dice (chance:), so rolled()/die() mean something
    has_history: bool = False  # the spec keeps a position history (history:)
    in_end: bool = False  # checking the end section (end.when, end.effects): can_move() is allowed
    in_after: bool = False  # checking an action's legal_after: can_move() asks about the next mover (a lookahead)
    later: set[str] = field(default_factory=set)  # definitions written further down (not usable yet)
    defining: str = ""  # the definition whose body is being checked
    # -- values of every type (conditions/typed.py)
    n_cells: int = 0  # the off-board cell, which is the cell type's none
    cells: dict[str, int] = field(default_factory=dict)  # cell names usable as literals
    counter_types: dict[str, str] = field(default_factory=dict)  # counters that do not hold numbers
    # counter arrays: name -> (first column, per player, ((index type, lo, size), ...), value type)
    arrays: dict[str, tuple[int, bool, tuple[tuple[str, int, int], ...], str]] = field(default_factory=dict)
    types: dict[str, str] = field(default_factory=dict)  # type words of the spec (enums) -> type
    attributes: dict[str, tuple[int, str, str]] = field(default_factory=dict)  # name -> (index, of type, value type)
    pools: set[str] = field(default_factory=set)  # places off the board (pools:), also in arrays
    # tables (tables:): name -> (attribute index, key type, value type, first key, number of keys)
    tables: dict[str, tuple[int, str, str, int, int]] = field(default_factory=dict)

    def all_callables(self) -> list[str]:
        return [*BUILTINS, *(ZONE_FUNCTIONS if self.zones else ()), *self.defines, *self.props, *self.counters, *self.player_props, *self.attributes, *self.pools, *self.tables, *DOMAINS, *QUANTIFIERS]

    def all_values(self) -> list[str]:
        return [*self.constants, *CONSTANTS, *self.game_counters, *(k for k, b in BUILTINS.items() if not b.args), *self.cells]


_ARITH = {"+", "-", "*", "//", "%"}
_ORDER = {"<", "<=", ">", ">="}
_EQ = {"==", "!="}


class Checker(TypedValues):
    def __init__(self, names: Names, locate: Callable[[int], Pos]):
        self.names = names
        self.locate = locate

    def fail(self, msg: str, at: int, hint: str = "") -> SpecError:
        return SpecError(msg, self.locate(at), hint)

    def _later(self, n: str, at: int) -> SpecError:
        if n == self.names.defining:
            return self.fail(f"'{n}' uses itself; definitions cannot be recursive", at, "say it with a quantifier (any, all, count) instead")
        return self.fail(f"'{n}' is defined further down; a definition can only use the ones written above it", at, f"move '{n}' above this one")

    def _not_in_end(self, n: str, at: int) -> SpecError:
        where = f"in definition '{self.names.defining}'" if self.names.defining else "here"
        return self.fail(
            f"{n}() is allowed only in the 'end' section (end.when, end.effects) and in an action's legal_after, not {where}: it lists the moves of the player to move, "
            "which anywhere else would happen while moves are being listed, or after the end, when no one is to move",
            at,
            "write it in end.when or end.effects itself, or in legal_after (the next mover's moves after the move); to rank by it, set a counter from it in end.effects and read that counter",
        )

    def _no_history(self, n: str, at: int) -> SpecError:
        return self.fail(f"{n}() reads the position history, but this spec has no 'history' section", at, "say what a position is: history: {position: [board, turn]}")

    # -- entry points ---------------------------------------------------------------

    def expr(self, node: Ast, scope: dict[str, str], want: Optional[str] = None) -> Expr:
        out = self._expr(node, scope)
        if (want, out.type) == (INT, BOOL):
            out = as_number(out)  # a condition counts as 1 or 0 where a number is wanted
        if want is not None:
            out = self.coerce(out, want, _start(node))
        elif out.type == NONE:
            raise self.fail("cannot tell which type 'none' is here; say it where the value is compared or stored", _start(node))
        if want is not None and out.type != want:
            raise self.fail(f"expected {a_type(want)} here, but this is {a_type(out.type)}", _start(node))
        return out

    # -- the walk ------------------------------------------------------------------

    def _expr(self, node: Ast, scope: dict[str, str]) -> Expr:
        if isinstance(node, Num):
            if node.value > MAX_INT:
                raise self.fail(f"number {str(node.value)[:20]} is too large (limit 2^62)", node.at)
            return Const(node.value, INT)
        if isinstance(node, Name):
            return self._name(node, scope)
        if isinstance(node, CallA):
            return self._call(node, scope)
        if isinstance(node, Agg):
            return self._agg(node, scope)
        if isinstance(node, Op):
            return self._op(node, scope)
        if isinstance(node, Choice):
            return self.choice(node, scope)
        if isinstance(node, Index):
            return self.index(node, scope)
        raise AssertionError(node)  # pragma: no cover

    def _name(self, node: Name, scope: dict[str, str]) -> Expr:
        n = node.name
        if n in scope:
            return Local(n, scope[n])
        if n in self.names.constants:
            value, typ = self.names.constants[n]
            return Const(value, typ)
        if n in CONSTANTS:
            value, typ = CONSTANTS[n]
            return Const(value, typ)
        if n in BUILTINS and not BUILTINS[n].args:
            if n in HISTORY_BUILTINS and not self.names.has_history:
                raise self._no_history(n, node.at)
            if n in END_BUILTINS and not (self.names.in_end or self.names.in_after and not self.names.defining):
                raise self._not_in_end(n, node.at)
            return Call(n, (), BUILTINS[n].result)
        if n in self.names.defines and not self.names.defines[n][1]:
            idx, _, result = self.names.defines[n]
            return DefineCall(idx, (), result)
        if n in self.names.game_counters:
            return self.counter_read(n, None)
        if n in self.names.cells and n not in self.names.later:
            return Const(self.names.cells[n], CELL)
        if n in self.names.pools and not self.names.arrays[n][1]:
            return pool_name(self, n)  # a game pool: every piece in it
        if n in self.names.pools:
            raise self.fail(f"'{n}' is a per-player pool: say whose, e.g. {n}(mover) or {n}(mover, KIND)", node.at)
        if n in self.names.arrays:
            raise self.fail(f"'{n}' is a counter array; read one element, e.g. {n}[...]", node.at)
        if n in self.names.tables:
            raise self.fail(f"'{n}' is a table; read one entry, e.g. {n}[...]", node.at)
        if n in BUILTINS or n in self.names.defines or n in self.names.props or n in self.names.counters or n in self.names.player_props:
            raise self.fail(f"'{n}' is a function; call it with arguments, e.g. {n}(...)", node.at)
        if n in DOMAINS:
            raise self.fail(f"'{n}' is a collection; use it in a quantifier, e.g. any x in {n}: ...", node.at)
        if n in self.names.later:
            raise self._later(n, node.at)
        hint = did_you_mean(n, [*scope, *self.names.all_values()])
        raise self.fail(f"unknown name '{n}'", node.at, hint)

    def _args(self, node: CallA, scope: dict[str, str], types: tuple[str, ...], what: str) -> tuple[Expr, ...]:
        if len(node.args) != len(types):
            sig = ", ".join(types) or "no arguments"
            raise self.fail(f"{what} '{node.name}' takes {len(types)} argument{'s' if len(types) != 1 else ''} ({sig}), got {len(node.args)}", node.at)
        out = []
        for i, (arg, typ) in enumerate(zip(node.args, types)):
            e = self.coerce(self._expr(arg, scope), typ, _start(arg))
            if e.type != typ:
                raise self.fail(f"argument {i + 1} of '{node.name}' must be {a_type(typ)}, got {a_type(e.type)}", _start(arg))
            out.append(e)
        return tuple(out)

    def _call(self, node: CallA, scope: dict[str, str]) -> Expr:
        n = node.name
        if n in scope:
            raise self.fail(f"'{n}' is {a_type(scope[n])}, not a function", node.at)
        if n in ZONE_FUNCTIONS and n not in self.names.defines and n not in self.names.later:
            return self._zone_call(node, scope)
        if n == "either" and n not in self.names.defines:
            return self.choice(node, scope)
        if n in BUILTINS:
            b = BUILTINS[n]
            if n == "item_has" and not self.names.has_items:
                raise self.fail("item_has() reads the kinds of item, but this spec has no 'items' (or 'deck') section", node.at)
            if n in DIRECTION_BUILTINS and not self.names.has_directions:
                raise self.fail(f"{n}() needs a board with directions (a square or hex grid)", node.at)
            if n in DECK_BUILTINS and not self.names.has_deck:
                raise self.fail(f"{n}() reads the players' items, but this spec has no 'deck' section", node.at, "declare the decks: deck: {items: {one: [1], two: [2]}, up: 1}")
            if n in AREA_BUILTINS and not self.names.has_areas:
                raise self.fail(f"{n}() scores the areas, but this spec has no 'areas' section", node.at, "declare them: areas: {north: {cells: [a1, a2], points: 2}}")
            if n in HISTORY_BUILTINS and not self.names.has_history:
                raise self._no_history(n, node.at)
            if n in END_BUILTINS and not (self.names.in_end or self.names.in_after and not self.names.defining):
                raise self._not_in_end(n, node.at)
            if n in DICE_BUILTINS and not self.names.has_chance:
                raise self.fail(f"{n}() reads the dice, but this spec has no 'chance' section", node.at, "declare the dice: chance: {dice: 2, faces: {one: 1, two: 2}}")
            return Call(n, self._args(node, scope, b.args, "function"), b.result)
        if n in self.names.defines:
            idx, ptypes, result = self.names.defines[n]
            return DefineCall(idx, self._args(node, scope, ptypes, "definition"), result)
        if n in self.names.attributes:
            return self.attribute(node, scope)
        if n in self.names.tables:
            raise self.fail(f"'{n}' is a table: read an entry with brackets, {n}[...]", node.at)
        if n in self.names.dir_sets:  # forward(p, d): d is in player p's set
            (player, d) = self._args(node, scope, (PLAYER, DIR), "direction set")
            return self.set_member(n, player, d)
        if n in self.names.pools:
            return pool_call(self, node, scope)  # a place off the board (conditions/pools.py)
        if n in self.names.props:
            idx, typ = self.names.props[n]
            (cell,) = self._args(node, scope, (CELL,), "board property")
            return Call("prop", (Const(idx, INT), cell), typ)
        if n in self.names.game_counters:
            raise self.fail(f"'{n}' is a game counter, one for the whole game: read it by its bare name, {n}", node.at)
        if n in self.names.counters:
            (player,) = self._args(node, scope, (PLAYER,), "counter")
            return self.counter_read(n, player)
        if n in self.names.player_props:
            idx, typ = self.names.player_props[n]
            (player,) = self._args(node, scope, (PLAYER,), "player property")
            return Call("player_prop", (Const(idx, INT), player), typ)
        if n in DOMAINS:
            raise self.fail(f"'{n}(...)' is a collection; use it in a quantifier, e.g. any x in {n}(...): ...", node.at)
        if n in self.names.later:
            raise self._later(n, node.at)
        hint = did_you_mean(n, self.names.all_callables())
        raise self.fail(f"unknown function '{n}'", node.at, hint)

    def _zone_call(self, node: CallA, scope: dict[str, str]) -> Expr:
        """holding/zone_size/top: the zone argument is a zone's name; a per-player zone
        takes its owner first (``holding(p, Z, k)``), a game zone does not (``holding(Z, k)``).
        Lowered with the zone index and the owner (0 for a game zone) first:
        ``holding(zone, owner, item)``, ``zone_size(zone, owner)``, ``top(zone, owner)``."""
        n = node.name
        rest = {"holding": (ITEM,), "zone_size": (), "top": ()}[n]
        if not self.names.zones:
            raise self.fail(f"{n}() reads a zone, but this spec has no 'zones' section", node.at, "declare them: zones: {stash: {of: player, visible: owner}}")
        args = node.args
        zi = 1 if len(args) >= 2 and not (isinstance(args[0], Name) and args[0].name in self.names.zones and args[0].name not in scope) else 0
        znode = args[zi] if zi < len(args) else None
        if not isinstance(znode, Name) or znode.name not in self.names.zones or znode.name in scope:
            at = _start(znode) if znode is not None else node.at
            raise self.fail(f"'{n}' needs a zone's name here (zones: {', '.join(self.names.zones)})", at, did_you_mean(getattr(znode, "name", ""), self.names.zones))
        z, per_player, ordered = self.names.zones[znode.name]
        if n == "top" and not ordered:
            raise self.fail(f"top() needs an ordered zone (a pile with a top); '{znode.name}' is unordered", _start(znode), f"declare it with 'ordered: true', or ask holding({'p, ' if per_player else ''}{znode.name}, k)")
        want = len(rest) + (2 if per_player else 1)
        if len(args) != want:
            form = ", ".join((["PLAYER"] if per_player else []) + [znode.name] + (["ITEM"] if rest else []))
            whose = "a per-player zone: name the player first" if per_player else "a game zone: no player"
            raise self.fail(f"'{n}' of zone '{znode.name}' takes {want} argument{'s' if want != 1 else ''}, {n}({form}) ({whose})", node.at)
        if per_player:
            if zi != 1:
                raise self.fail(f"'{znode.name}' is a per-player zone: write {n}(PLAYER, {znode.name}{', ITEM' if rest else ''})", _start(znode))
            owner = self._expr(args[0], scope)
            if owner.type != PLAYER:
                raise self.fail(f"argument 1 of '{n}' must be a player, got {a_type(owner.type)}", _start(args[0]))
        else:
            owner = Const(0, PLAYER)
        out: list[Expr] = [Const(z, ZONE), owner]
        for arg, typ in zip(args[zi + 1 :], rest):
            e = self._expr(arg, scope)
            if e.type != typ:
                raise self.fail(f"the last argument of '{n}' must be {a_type(typ)}, got {a_type(e.type)}", _start(arg))
            out.append(e)
        return Call(n, tuple(out), ZONE_FUNCTIONS[n].result)

    def direction_set(self, node: Ast, scope: dict[str, str], var: str) -> Optional[tuple[Domain, Expr]]:
        """``orthogonal`` or ``forward(p)`` ranged over: the board's directions, and the
        condition that the direction ``var`` belongs to the set (None: not a set). Both back
        ends see only a quantifier over ``directions`` filtered by attributes of dir, so
        they cannot disagree on what a set holds."""
        name = getattr(node, "name", None)
        if name not in self.names.dir_sets or name in scope:
            return None
        per_player, attrs = self.names.dir_sets[name]
        d = Local(var, DIR)
        if not per_player:
            if isinstance(node, CallA):
                raise self.fail(f"the direction set '{name}' is the same for every player: range over it as {name}, without arguments", node.at)
            return Domain("directions", (), DIR), Call("attr", (Const(attrs[0], INT), d), BOOL)
        if not isinstance(node, CallA):
            raise self.fail(f"the direction set '{name}' differs by player: say whose, e.g. {name}(mover)", node.at)
        (player,) = self._args(node, scope, (PLAYER,), "direction set")
        return Domain("directions", (), DIR), self.set_member(name, player, d)

    def set_member(self, name: str, player: Expr, d: Expr) -> Expr:
        """Direction ``d`` is in ``player``'s part of the per-player set ``name``."""
        member: Optional[Expr] = None
        for seat, index in enumerate(self.names.dir_sets[name][1]):
            this = Binary("and", Binary("==", player, Const(seat, PLAYER), BOOL), Call("attr", (Const(index, INT), d), BOOL), BOOL)
            member = this if member is None else Binary("or", member, this, BOOL)
        return member

    def domain(self, node: Ast, scope: dict[str, str]) -> Domain:
        if getattr(node, "name", None) in self.names.dir_sets and getattr(node, "name", None) not in scope:
            raise self.fail(f"a direction set such as '{node.name}' is ranged over by any, all, count, sum, remove.each and for_each, not here", node.at)
        if isinstance(node, Name) and node.name in DOMAINS and node.name not in scope:
            b = DOMAINS[node.name]
            if b.args:
                raise self.fail(f"'{node.name}' needs arguments: {node.name}({', '.join(b.args)})", node.at)
            if node.name == "item_kinds" and not self.names.has_items:
                raise self.fail("item_kinds needs kinds of item: add an 'items' (or 'deck') section", node.at)
            if node.name == "faces" and not self.names.has_chance:
                raise self.fail("faces needs dice: add a 'chance' section", node.at)
            if node.name == "directions" and not self.names.has_directions:
                raise self.fail("this board has no directions (only square and hex grids have them)", node.at)
            return Domain(node.name, (), b.result)
        if isinstance(node, CallA) and node.name in DOMAINS:
            b = DOMAINS[node.name]
            if node.name in ("ray", "slide") and not self.names.has_directions:
                raise self.fail(f"{node.name}() needs a board with directions (a square or hex grid)", node.at)
            return Domain(node.name, self._args(node, scope, b.args, "collection"), b.result)
        if isinstance(node, Name) and node.name in self.names.types and node.name not in scope:
            return self.enum_domain(node.name)  # every value of an enumeration, in order
        name = getattr(node, "name", None)
        hint = did_you_mean(name, [*DOMAINS, *self.names.types]) if name else ""
        raise self.fail(f"expected a collection to range over ({', '.join(DOMAINS)})", node.at, hint)

    def _agg(self, node: Agg, scope: dict[str, str]) -> Expr:
        subset = self.direction_set(node.domain, scope, node.var)
        if subset is not None and node.kind in ("min", "max"):
            raise self.fail(f"'{node.kind}' over a direction set is not supported: range over directions and test the set, e.g. {node.kind}(d in directions: if {node.domain.name}(d) then ... else ...)", node.at)
        dom = subset[0] if subset is not None else self.domain(node.domain, scope)
        if node.var in self.names.constants or node.var in BUILTINS or node.var in CONSTANTS:
            if node.var in self.names.constants:
                what = a_type(self.names.constants[node.var][1])
                if self.names.constants[node.var][1] == DIR:
                    what += " of the board"
            else:
                what = "a built-in name"
            taken = {*self.names.constants, *BUILTINS, *CONSTANTS, *scope}
            free = next((v for v in ("x", "y", "z", "q", "k", "v", "m") if v not in taken), "v1")
            raise self.fail(f"'{node.var}' is already {what}, so it cannot name a quantifier variable", node.var_at, f"pick another variable name, e.g. '{free}'")
        inner = dict(scope)
        inner[node.var] = dom.elem_type
        body_type, result, _, _ = QUANTIFIERS[node.kind]
        body = self._expr(node.body, inner)
        if (body_type, body.type) == (INT, BOOL):
            body = as_number(body)  # sum(x in cells: occupied(x)) counts
        if body.type != body_type:
            raise self.fail(f"the body of '{node.kind}' must be {a_type(body_type)}, got {a_type(body.type)}", _start(node.body))
        if subset is not None:
            body = _filtered(node.kind, subset[1], body)
        return Quant(node.kind, node.var, dom, body, result)

    def _op(self, node: Op, scope: dict[str, str]) -> Expr:
        op = node.op
        args = [self._expr(a, scope) for a in node.args]
        if op in ("and", "or"):
            for a, src in zip(args, node.args):
                if a.type != BOOL:
                    raise self.fail(f"'{op}' needs conditions on both sides; this side is {a_type(a.type)}", _start(src))
            return Binary(op, args[0], args[1], BOOL)
        if op == "not":
            if args[0].type != BOOL:
                raise self.fail(f"'not' needs a condition, got {a_type(args[0].type)}", _start(node.args[0]))
            return Unary("not", args[0], BOOL)
        if op == "neg":
            if args[0].type != INT:
                raise self.fail(f"'-' needs a number, got {a_type(args[0].type)}", _start(node.args[0]))
            return Unary("neg", args[0], INT)
        left, right = args
        if op in _ORDER and (is_enum(left.type) or is_enum(right.type)):
            # the values of an enumeration are ordered as written (none before them all)
            if left.type != right.type:
                raise self.fail(f"'{op}' compares two values of one enumeration (in the order written) or two numbers, not {a_type(left.type)} with {a_type(right.type)}", node.at)
            return Binary(op, left, right, BOOL)
        if op in _ARITH:  # a condition counts as 1 or 0 in arithmetic
            left, right = (as_number(a) if a.type == BOOL else a for a in (left, right))
            args = [left, right]
        if op in _ARITH or op in _ORDER:
            for a, src in zip(args, node.args):
                if a.type != INT:
                    raise self.fail(f"'{op}' needs numbers on both sides; this side is {a_type(a.type)}", _start(src))
            return Binary(op, left, right, INT if op in _ARITH else BOOL)
        if op in _EQ:
            left, right = self.unify(left, right, node.at, "cannot compare {} with {}", (_start(node.args[0]), _start(node.args[1])))
            return Binary(op, left, right, BOOL)
        raise AssertionError(op)  # pragma: no cover


def check_condition(text: str, locate: Callable[[int], Pos], names: Names, scope: dict[str, str], want: Optional[str] = BOOL) -> Expr:
    """Parse, type-check and lower one condition string."""
    ast = parse_condition(text, locate)
    return Checker(names, locate).expr(ast, scope, want)


def as_number(cond: Expr) -> Expr:
    """A condition as a number, 1 when it holds and 0 when not: the one spelling of "1 if
    ... else 0" (issue 27 item 8). It lowers to either(), which both back ends have."""
    return Call("either", (cond, Const(1, INT), Const(0, INT)), INT)


def _filtered(kind: str, member: Expr, body: Expr) -> Expr:
    """A quantifier's body over all directions that keeps to the set ``member`` says."""
    if kind == "all":
        return Binary("or", Unary("not", member, BOOL), body, BOOL)
    if kind == "sum":
        return Call("either", (member, body, Const(0, INT)), INT)
    return Binary("and", member, body, BOOL)  # any, count


def check_domain(text: str, locate: Callable[[int], Pos], names: Names, scope: dict[str, str]) -> Domain:
    ast = parse_condition(text, locate)
    return Checker(names, locate).domain(ast, scope)


def check_each(text: str, locate: Callable[[int], Pos], names: Names, scope: dict[str, str], var: str) -> tuple[Domain, Optional[Expr]]:
    """``VAR in COLLECTION`` of an effect (remove.each, for_each): the collection and, for a
    direction set, the condition that VAR belongs to it (to be and-ed with the effect's where)."""
    ast = parse_condition(text, locate)
    checker = Checker(names, locate)
    subset = checker.direction_set(ast, scope, var)
    return subset if subset is not None else (checker.domain(ast, scope), None)


__all__ = ["Names", "Checker", "check_condition", "check_domain", "check_each", "BOOL", "INT", "CELL", "PLAYER", "KIND", "DIR"]
