"""Lowering of an action's ``rows:``: a rule table whose every row is a move of its own,
written once as the action and once more as one line of data per row:

    actions:
      buy:
        columns: {g: good, cost: number, pts: number}
        rows:
          buy_grain: {g: grain, cost: 1}
          buy_ore: {g: ore, cost: 4, pts: 2}
        where: "coins(mover) >= cost"
        effects:
          - add: {counter: coins, to: "-cost"}
          - add: {counter: points, to: pts}

Each row is an action named by the row, in the order written (so its moves keep the ids
and text they would have as hand-written actions); the action's ``where``, ``effects`` and
``legal_after`` are lowered once with the columns as typed names, and each row substitutes
its values for them (as a block's use does, spec/blocks.py), so both back ends see plain
actions. A column a row leaves out is 0, false or none."""

from __future__ import annotations

import dataclasses
from typing import Any, Iterator, Optional

from ..errors import Pos, SpecError, did_you_mean
from ..ir.nodes import BOOL, INT, NO_ITEM, ZONE, Binary, Const, Expr, IfEffect, Take, Unary
from .blocks import ZONE_PARAM, _bound, _locals, _substitute
from .yamlpos import YMap, YNode, YScalar

MAX_ROWS = 1024
# what a column a row leaves out holds, by its type (any other type: none)
_LEFT_OUT = {INT: "0", BOOL: "false"}


def row_columns(lw, body: YMap, aname: str) -> dict[str, str]:
    """The action's ``columns:`` (name -> type, in order); {} for an action without rows."""
    if "columns" in body and "rows" not in body:
        raise SpecError(f"action '{aname}' has columns but no rows: give it rows (one move each) or drop the columns", body["columns"].pos)
    node = body.get("columns")
    if node is None:
        return {}
    if not isinstance(node, YMap):
        raise SpecError(f"the columns of action '{aname}' map each name to its type, e.g. {{g: good, cost: number}}", node.pos)
    columns: dict[str, str] = {}
    for cname, tnode in node.items.items():
        lw.ident(cname, node.key_pos[cname], "column name")
        if cname in ROW_KEYS:
            raise SpecError(f"a column may not be named '{cname}': a row's {cname} are its own", node.key_pos[cname], "rename the column")
        if isinstance(tnode, YScalar) and tnode.value == ZONE_PARAM:  # names a zone (see zone_columns)
            if cname in lw.names.zones:
                raise SpecError(f"the zone column '{cname}' has the name of a zone", node.key_pos[cname], "rename the column")
            if not lw.names.zones:
                raise SpecError(f"column '{cname}' names a zone, but this spec has no 'zones' section", tnode.pos)
            columns[cname] = ZONE_PARAM
        else:
            columns[cname] = lw.value_type(tnode, "a column's type")
    return columns


# keys a row may hold beside its columns: parameters of its own (its column values may
# use them) and how its moves are written
ROW_KEYS = ("params", "notation")


def action_rows(lw, body: YMap, aname: str, apos: Pos, columns: dict[str, str], params: tuple) -> Iterator[tuple[str, Pos, dict[str, Expr], dict[str, str], tuple, Optional[YNode]]]:
    """(name, position, the values of its columns, how each is written, its parameters,
    its notation) of every row of the action, or the action itself (no values) when it
    has no ``rows:``."""
    node: Optional[YNode] = body.get("rows")
    if node is None:
        yield aname, apos, {}, {}, params, body.get("notation")
        return
    if not isinstance(node, YMap) or not node.items or len(node.items) > MAX_ROWS:
        raise SpecError(f"the rows of action '{aname}' map each move's name to its columns' values (1 to {MAX_ROWS} rows), e.g. buy_ore: {{g: ore, cost: 4}}", node.pos)
    clash = sorted(set(columns) & {p.name for p in params})
    if clash:
        raise SpecError(f"'{clash[0]}' is both a parameter and a column of action '{aname}'", body["columns"].key_pos[clash[0]], "rename one of them")
    for rname, row in node.items.items():
        rpos = node.key_pos[rname]
        lw.ident(rname, rpos, "action name")
        if row is None or (isinstance(row, YScalar) and row.value is None):
            row = YMap({}, rpos)
        if not isinstance(row, YMap):
            raise SpecError(f"row '{rname}' of action '{aname}' maps columns to values, e.g. {{{', '.join(f'{c}: ...' for c in columns)}}}", getattr(row, "pos", rpos))
        for key in row.items:
            if key not in columns and key not in ROW_KEYS:
                raise SpecError(f"action '{aname}' has no column '{key}'", row.key_pos[key], did_you_mean(key, list(columns)) or f"its columns: {', '.join(columns) or 'none'}")
        own = lw.lower_params(row.items["params"]) if "params" in row.items else params
        clash = sorted(set(columns) & {p.name for p in own})
        if clash:
            raise SpecError(f"'{clash[0]}' is both a parameter and a column of action '{aname}'", row.items["params"].key_pos[clash[0]], "rename one of them")
        values: dict[str, Expr] = {}
        texts: dict[str, str] = {}
        for cname, typ in columns.items():
            if typ == ZONE_PARAM:  # a zone's name, or none (read by zone_columns)
                vnode = row.items.get(cname)
                zname = vnode.value if isinstance(vnode, YScalar) else None
                if vnode is not None and (not isinstance(zname, str) or zname not in lw.names.zones):
                    raise SpecError(f"column '{cname}' of action '{aname}' takes a zone's name", vnode.pos, did_you_mean(str(zname), list(lw.names.zones)) or f"zones: {', '.join(lw.names.zones)}")
                texts[cname] = zname if vnode is not None else "none"
            elif cname in row.items:
                vnode = row.items[cname]
                values[cname] = lw.condition(vnode, {p.name: p.type for p in own}, typ)
                texts[cname] = _text(vnode)
            else:
                left_out = _LEFT_OUT.get(typ, "none")
                values[cname] = lw.condition(YScalar(left_out, rpos), {}, typ)
                texts[cname] = left_out
        yield rname, rpos, values, texts, own, row.items.get("notation", body.get("notation"))


class ZoneColumns:
    """While a row's ``where`` and effects are lowered (``with ZoneColumns(lw, ...)``),
    each zone column names the zone the row gives, as a block's zone parameter does
    (spec/blocks.py); a column the row leaves out names *no zone*, a place past the last
    zone. Such a row may use it only where its values make that use vanish (a ``take`` of
    no item, an ``if`` its values decide, a condition they decide): ``check`` refuses any
    use left over, at the row."""

    def __init__(self, lw, columns: dict[str, str], body: YMap, rname: str) -> None:
        rows, row = body["rows"], body["rows"].items[rname]
        self.lw, self.row = lw, (row if isinstance(row, YMap) else YMap({}, rows.pos))
        self.names = [c for c, t in columns.items() if t == ZONE_PARAM]
        self.none = len(lw.zones_names)  # no zone: the index past the last
        self.shape: dict[str, tuple] = {}  # a left-out column takes a given one's shape (per player, ordered)
        for cname in self.names:
            given = [r.items[cname].value for r in rows.items.values() if isinstance(r, YMap) and cname in r.items]
            if not given:
                raise SpecError(f"no row gives the zone column '{cname}'", body["columns"].key_pos[cname], "give it in the rows that use it, or drop the column")
            self.shape[cname] = lw.names.zones[given[0]][1:]

    def __enter__(self) -> "ZoneColumns":
        zones = self.lw.names.zones
        for k, cname in enumerate(self.names):
            node = self.row.items.get(cname)
            self.lw.zones_names.append(cname)  # no zone k: the index past the last zone, + k
            zones[cname] = zones[node.value] if node is not None else (self.none + k, *self.shape[cname])
        return self

    def __exit__(self, *exc: Any) -> None:
        del self.lw.zones_names[self.none:]
        for cname in self.names:
            del self.lw.names.zones[cname]

    def check(self, rname: str, rpos: Pos, lowered: Any) -> None:
        """Refuse a row whose lowered ``where``/effects still use a zone column it leaves out."""
        used = _zones_used(lowered)
        left = [c for k, c in enumerate(self.names) if self.none + k in used]
        if left:
            raise SpecError(f"row '{rname}' leaves out the zone column '{left[0]}', which the action uses for it", rpos, "give the row a zone, or make that use vanish with the row's values (a take of no item, an if the row decides)")


def _zones_used(node: Any) -> set[int]:
    """The zone numbers ``node`` (an expression, effects, ...) names."""
    if isinstance(node, tuple):
        return set().union(*(_zones_used(x) for x in node)) if node else set()
    if isinstance(node, Const):
        return {node.value} if node.type == ZONE else set()
    if not dataclasses.is_dataclass(node) or isinstance(node, type):
        return set()
    used = {z for z in (getattr(node, f, None) for f in ("frm", "to", "zone")) if isinstance(z, int)}
    return used.union(*(_zones_used(getattr(node, f.name)) for f in dataclasses.fields(node)))


def substitute(node: Any, values: dict[str, Expr]) -> Any:
    """``node`` (a condition, effects) with each column replaced by the row's value, and
    what the values decide folded (``spend == none`` of a row without a spend is true), so
    a row costs what the action written out by hand would."""
    return fold(_substitute(node, values)) if values else node


# comparisons and sums of two constants (never // or %: a zero divisor stays for the run)
_FOLD = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
         ">": lambda a, b: a > b, ">=": lambda a, b: a >= b, "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}


def fold(node: Any) -> Any:
    """``node`` with constant comparisons and sums computed and ``and``/``or``/``not`` of
    a constant reduced (bottom up; conditions are pure, so dropping one changes nothing)."""
    if isinstance(node, tuple):
        out: list = []
        for x in (fold(x) for x in node):
            if isinstance(x, IfEffect) and isinstance(x.when, Const):  # an if the row decides: its branch
                out.extend(x.then if x.when.value else x.other)
            elif not (isinstance(x, Take) and isinstance(x.item, Const) and x.item.value == NO_ITEM):  # a take of no item: nothing
                out.append(x)
        return tuple(out)
    if not dataclasses.is_dataclass(node) or isinstance(node, type):
        return node
    changes = {f.name: fold(getattr(node, f.name)) for f in dataclasses.fields(node)}
    if any(changes[k] is not getattr(node, k) for k in changes):
        node = dataclasses.replace(node, **changes)
    if isinstance(node, Unary) and isinstance(node.arg, Const):
        return Const(int(not node.arg.value), BOOL) if node.op == "not" else Const(-node.arg.value, node.type)
    if not isinstance(node, Binary):
        return node
    left, right = node.left, node.right
    if isinstance(left, Const) and isinstance(right, Const) and node.op in _FOLD:
        value = _FOLD[node.op](left.value, right.value)
        return Const(int(value), node.type)
    if node.op in ("and", "or"):
        stop = 0 if node.op == "and" else 1  # the value that decides: false for and, true for or
        for side, other in ((left, right), (right, left)):
            if isinstance(side, Const):
                return Const(stop, BOOL) if bool(side.value) == bool(stop) else other
    return node


def check_free(aname: str, rname: str, rpos: Pos, lowered: Any, params: tuple) -> None:
    """A row with parameters of its own must still have each parameter of the action that
    its ``where`` or effects use."""
    missing = sorted(_locals(lowered) - _bound(lowered) - {p.name for p in params})
    if missing:
        raise SpecError(f"row '{rname}' has its own params without '{missing[0]}', which action '{aname}' uses", rpos, f"give the row a parameter '{missing[0]}' too")


def row_notation(template: str, texts: dict[str, str]) -> str:
    """A row's notation: the action's template with each ``{column}`` field written as the
    row writes that column (the parameters' fields stay fields)."""
    for cname, text in texts.items():
        template = template.replace("{%s}" % cname, text.replace("{", "{{").replace("}", "}}"))
    return template


def default_row_notation(rname: str, params: tuple) -> str:
    """Without a notation a row's moves are written by its name, then ``:value`` for each
    parameter (``r1c_sun:3``): rows of one action never write a move alike."""
    return ":".join([rname] + ["{%s}" % p.name for p in params])



def _text(node: YNode) -> str:
    value = node.value if isinstance(node, YScalar) else None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)

