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
from ..ir.nodes import BOOL, INT, Binary, Const, Expr, Unary
from .blocks import _bound, _locals, _substitute
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
            if cname in row.items:
                vnode = row.items[cname]
                values[cname] = lw.condition(vnode, {p.name: p.type for p in own}, typ)
                texts[cname] = _text(vnode)
            else:
                left_out = _LEFT_OUT.get(typ, "none")
                values[cname] = lw.condition(YScalar(left_out, rpos), {}, typ)
                texts[cname] = left_out
        yield rname, rpos, values, texts, own, row.items.get("notation", body.get("notation"))


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
        return tuple(fold(x) for x in node)
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

