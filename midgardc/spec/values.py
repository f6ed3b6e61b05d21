"""Lowering of values of every type: ``enums:``, counters that hold a cell, a player, a
kind, an item or an enumeration value (``type:``), counter arrays (``index:``) and the
``set``/``add`` of one array element. A part of ``Lowerer`` (``midgardc/spec/lower.py``).

Counter columns: the plain counters keep the columns they always had, in declared order;
every array then takes ``size`` more columns (one per element, first index most
significant) at the end, named ``name[a1]``, ``name[a1,b2]`` (the names observations and
pictures show)."""

from __future__ import annotations

import fnmatch
import re
from typing import Optional

from ..conditions.check import a_type, check_condition
from ..errors import SpecError, did_you_mean
from ..ir.nodes import BOOL, CELL, DIR, FACE, INT, ITEM, KIND, PLAYER, Const, Effect, Expr, SetCounter, SetElement
from ..ir.values import default_value, enum_type
from .yamlpos import YList, YMap, YNode, YScalar

MAX_ENUM_VALUES = 256
MAX_ARRAY_COLUMNS = 4096  # counter columns of all arrays together
# the type words a counter's 'type' and an array's 'index' may use (and every enum name)
TYPE_NAMES = {"number": INT, "condition": BOOL, "cell": CELL, "player": PLAYER, "kind": KIND, "item": ITEM, "face": FACE, "dir": DIR}
_RANGE = re.compile(r"\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*\Z")


class LowerValues:
    """Part of ``Lowerer``: enums, typed counters and counter arrays."""

    def lower_enums(self, node: Optional[YNode]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """``enums: {suit: [hearts, spades], ...}``: each enum is a type; its
        values are constants of that type, numbered in the order written."""
        if node is None:
            return ()
        if not isinstance(node, YMap):
            raise SpecError("'enums' maps an enumeration's name to the list of its values, e.g. suit: [hearts, spades]", node.pos)
        out = []
        for ename, values in node.items.items():
            epos = node.key_pos[ename]
            self.ident(ename, epos, "enumeration name")
            if ename in TYPE_NAMES or ename in self.names.types or ename in self.names.constants:
                raise SpecError(f"'{ename}' is already a type or a name; give the enumeration another name", epos)
            if not isinstance(values, YList) or not 1 <= len(values) <= MAX_ENUM_VALUES:
                raise SpecError(f"enumeration '{ename}' lists its values (1 to {MAX_ENUM_VALUES}), e.g. [{ename}_a, {ename}_b]", values.pos)
            typ = enum_type(ename)
            names = []
            for item in values:
                v = self.ident(self.scalar(item, str, "an enumeration value"), item.pos, "enumeration value")
                if v in self.names.constants:
                    raise SpecError(f"'{v}' is already a name ({a_type(self.names.constants[v][1])}); values of enumerations, players and kinds must differ", item.pos)
                self.names.constants[v] = (len(names), typ)
                names.append(v)
            self.names.types[ename] = typ
            out.append((ename, tuple(names)))
        return tuple(out)

    def value_type(self, node: YNode, what: str) -> str:
        word = self.scalar(node, str, what)
        if word in TYPE_NAMES:
            return TYPE_NAMES[word]
        if word in self.names.types:
            return self.names.types[word]
        raise SpecError(f"unknown type '{word}'", node.pos, did_you_mean(word, [*TYPE_NAMES, *self.names.types]) or f"types: {', '.join([*TYPE_NAMES, *self.names.types])}")

    # -- counters of every type --------------------------------------------------------------

    def typed_counter(self, cname: str, body: YMap, column: int) -> None:
        """A counter with 'type' or 'index' (its start is resolved by finish_counters)."""
        typ = self.value_type(body["type"], "a counter's type") if "type" in body else INT
        if typ != INT:
            self.names.counter_types[cname] = typ
        self.pending_counters.append((cname, body, column, typ))

    def finish_counters(self, names: list[str], init: list[list[int]], scopes: list[str], visible: list[str]) -> tuple[str, ...]:
        """Resolve typed starts, lay the arrays out after the plain counters; returns the
        type of every column (() when every counter is a number)."""
        n_cells = self.board.n_cells
        self.names.n_cells = n_cells
        types = [INT] * len(names)
        game_row = len(self.players)
        for cname, body, column, typ in self.pending_counters:
            per_player = scopes[column] == "player" if column >= 0 else ("of" not in body or self.scalar(body["of"], str, "a counter's 'of'") == "player")
            if column >= 0:  # a plain counter of another type
                types[column] = typ
                start = self.constant(body["start"], typ, f"counter '{cname}'") if "start" in body else default_value(typ, n_cells)
                for row in range(game_row) if per_player else (game_row,):
                    init[row][column] = start
                continue
            dims = self.array_dims(body["index"], cname)
            size = 1
            for _, _, s in dims:
                size *= s
            first = len(names)
            self.array_columns += size
            if self.array_columns > MAX_ARRAY_COLUMNS:
                raise SpecError(f"counter array '{cname}' has {size} elements; all arrays together may have {MAX_ARRAY_COLUMNS}", body["index"].pos)
            starts = self.array_starts(body, typ, dims, cname)
            vis = visible_of(self, body)
            for k, label in enumerate(self.element_labels(dims)):
                names.append(f"{cname}[{label}]")
                scopes.append("player" if per_player else "game")
                visible.append(vis)
                types.append(typ)
                for row, values in enumerate(init):
                    values.append(starts[k] if (row < game_row) == per_player else 0)
            self.names.arrays[cname] = (first, per_player, dims, typ)
        return tuple(types) if any(t != INT for t in types) else ()

    def constant(self, node: YNode, typ: str, what: str) -> int:
        """A start value: a constant expression of the type (a number, a cell, a player,
        an enumeration value, none, ...)."""
        expr = self.condition(node, {}, typ)
        if not isinstance(expr, Const):
            raise SpecError(f"the start of {what} must be a fixed value, like {'4' if typ == INT else 'none'}", node.pos)
        return expr.value

    def array_dims(self, node: YNode, cname: str) -> tuple[tuple[str, int, int], ...]:
        items = node.items if isinstance(node, YList) else [node]
        if not 1 <= len(items) <= 3:
            raise SpecError(f"counter array '{cname}' has 1 to 3 indexes, e.g. index: cell or index: [cell, suit]", node.pos)
        dims = []
        for item in items:
            word = self.scalar(item, str, "an index type")
            m = _RANGE.match(word)
            if m:
                lo, hi = int(m.group(1)), int(m.group(2))
                if hi < lo:
                    raise SpecError(f"the index range {word} is empty (write LO..HI with LO <= HI)", item.pos)
                dims.append((INT, lo, hi - lo + 1))
                continue
            typ = self.value_type(item, "an index type")
            size = {CELL: self.board.n_cells, PLAYER: len(self.players), KIND: len(self.kinds), ITEM: len(self.value_names(ITEM)), DIR: len(self.board.directions), FACE: len(self.value_names(FACE))}.get(typ)
            if typ.startswith("enum:"):
                size = len(self.value_names(typ))
            if not size:
                raise SpecError(f"an array is indexed by cell, player, kind, item, dir, face, an enumeration or a range LO..HI, not by {a_type(typ)}s" if size is None else f"there are no {word} values to index by", item.pos)
            dims.append((typ, 0, size))
        return tuple(dims)

    def value_names(self, typ: str) -> list[str]:
        """The names of a finite type's values (numbers: their digits)."""
        if typ == CELL:
            return list(self.board.cell_names)
        if typ == PLAYER:
            return list(self.players)
        if typ == KIND:
            return list(self.kinds)
        if typ == DIR:
            return list(self.board.directions)
        found = sorted(((v, n) for n, (v, t) in self.names.constants.items() if t == typ), key=lambda x: x[0])
        return [n for _, n in found]

    def element_labels(self, dims) -> list[str]:
        labels = [""]
        for typ, lo, size in dims:
            names = [str(lo + i) for i in range(size)] if typ == INT else self.value_names(typ)
            labels = [f"{a},{b}" if a else b for a in labels for b in names]
        return labels

    def array_starts(self, body: YMap, typ: str, dims, cname: str) -> list[int]:
        """``start: 4`` for every element, or (one index) ``start: {a1: 0, others: 4}``."""
        size = 1
        for _, _, s in dims:
            size *= s
        node = body.get("start")
        if node is None:
            return [default_value(typ, self.board.n_cells)] * size
        if not isinstance(node, YMap):
            return [self.constant(node, typ, f"counter array '{cname}'")] * size
        if len(dims) != 1:
            raise SpecError(f"a start per element is for arrays of one index; '{cname}' has {len(dims)}", node.pos)
        dtyp, lo, _ = dims[0]
        labels = self.element_labels(dims)
        others = self.constant(node["others"], typ, f"counter array '{cname}'") if "others" in node else default_value(typ, self.board.n_cells)
        out = [others] * size
        for key, vnode in node.items.items():
            if key == "others":
                continue
            if key not in labels:
                raise SpecError(f"'{key}' is not an index of '{cname}'", node.key_pos[key], did_you_mean(key, labels) or "give each element by its index name, and the rest with 'others'")
            out[labels.index(key)] = self.constant(vnode, typ, f"counter array '{cname}'")
        return out

    def render_numbers(self, body: YMap) -> str:
        """``render.numbers``: a game counter array of numbers indexed by cell, whose values
        the text board writes in the cells (a mancala's seeds); by default the first kind of
        pile (piles:), whose counts are written in the cells and drawn in pictures."""
        if "numbers" not in body:
            return self.pile_kinds[0] if self.pile_kinds else ""
        node = body["numbers"]
        name = self.scalar(node, str, "render.numbers")
        found = self.names.arrays.get(name)
        if found is None or found[1] or [d[0] for d in found[2]] != [CELL] or found[3] != INT:
            raise SpecError(f"render.numbers names a game counter array of numbers with one cell index (e.g. seeds: {{of: game, index: cell}}); '{name}' is not one", node.pos, did_you_mean(name, list(self.names.arrays)))
        return name

    # -- set/add of an array element ---------------------------------------------------------

    def element_effect(self, body: YMap, scope: dict[str, str], add: bool) -> Optional[Effect]:
        """``set: {counter: "seeds[c]", to: 0}``: a write to an array element (None when the
        counter is not written with an index)."""
        cnode = body["counter"]
        text = self.scalar(cnode, str, "a counter name")
        if "[" not in text:
            return None
        expr = check_condition(text, cnode.text_pos, self.names, scope, None)
        if not (hasattr(expr, "fn") and expr.fn == "counter_at"):
            raise SpecError("a counter array's element is written name[index, ...]", cnode.pos)
        if "of" in body:
            raise SpecError("an array element names its player inside the brackets: counter: \"name[p, ...]\"", body.key_pos["of"])
        if add and expr.type != INT:
            raise SpecError(f"'add' adds numbers; this array holds {a_type(expr.type)}s: use 'set'", body.key_pos["counter"] if "counter" in body.key_pos else cnode.pos)
        value = self.condition(body["to"], scope, expr.type)
        args = expr.args
        index = tuple((args[j].value, args[j + 1].value, args[j + 2]) for j in range(3, len(args), 3))
        return SetElement(args[0].value, args[1], index, value, add)

    def counter_effect_type(self, cname: str, body: YMap, add: bool) -> str:
        """The type a set/add of a plain counter writes (add: numbers only)."""
        typ = self.names.counter_types.get(cname, INT)
        if add and typ != INT:
            raise SpecError(f"'add' adds numbers; counter '{cname}' holds {a_type(typ)}: use 'set'", body["counter"].pos)
        return typ


def visible_of(lw, body: YMap) -> str:
    return lw.scalar(body["visible"], str, "a counter's 'visible'") if "visible" in body else "all"


__all__ = ["LowerValues", "TYPE_NAMES", "SetCounter", "Expr"]


# the sections whose entries may carry attribute values inline (an item's suit given
# beside its values), and the type the attribute must belong to
INLINE_ATTRIBUTES = {"piece": KIND, "item": ITEM, "zone_item": ITEM}


class LowerAttributes:
    """Part of ``Lowerer``: ``attributes:``, named fixed values of cells, players, kinds,
    items, faces, directions and enumeration values. A piece or an item may also give
    an attribute's value beside its other keys (``ace_h: {values: [1], suit: hearts}``)."""

    def inline_attributes(self, section: str) -> set[str]:
        """Names of the declared attributes of pieces (kinds) or items, read from the
        spec's ``attributes`` before it is lowered (the entries come first)."""
        node = self.tree.get("attributes")
        if not isinstance(node, YMap):
            return set()
        out = set()
        for aname, body in node.items.items():
            of = body.get("of") if isinstance(body, YMap) else None
            if isinstance(of, YScalar) and of.value == {KIND: "kind", ITEM: "item"}[INLINE_ATTRIBUTES[section]]:
                out.add(aname)
        return out

    def inline_values(self, aname: str, of: str) -> list[tuple[YNode, YNode]]:
        """(entry name, value) for every piece or item giving attribute ``aname`` inline."""
        sections = {KIND: ["pieces"], ITEM: ["items", "deck"]}.get(of, [])
        out = []
        for sec in sections:
            node = self.tree.get(sec)
            if sec == "deck" and isinstance(node, YMap):
                node = node.get("items")
            if not isinstance(node, YMap):
                continue
            for ename, body in node.items.items():
                if isinstance(body, YMap) and aname in body.items:
                    out.append((YScalar(ename, node.key_pos[ename]), body.items[aname]))
        return out

    def lower_attributes(self, node: Optional[YNode]) -> tuple:
        from ..ir.values import AttributeIR

        out = []
        for attr_name, set_name, members, seat in self.lower_direction_sets():
            table = [0] * (len(self.board.directions) + 1)  # dir values are offset by one (none)
            for d in members:
                table[d + 1] = 1
            per_player, indexes = self.names.dir_sets.get(set_name, (seat >= 0, ()))
            self.names.dir_sets[set_name] = (per_player, (*indexes, len(out)))
            if seat < 0:
                self.names.attributes[attr_name] = (len(out), DIR, BOOL)  # orthogonal(d) tests it
            out.append(AttributeIR(attr_name, DIR, BOOL, tuple(table), 1))
        if node is None:
            return tuple(out)
        if not isinstance(node, YMap):
            raise SpecError("'attributes' maps an attribute's name to {of, type, values}, e.g. suit: {of: item, type: suit, values: {ace_h: hearts}}", node.pos)
        for aname, body in node.items.items():
            apos = node.key_pos[aname]
            self.ident(aname, apos, "attribute name")
            taken = (self.names.props, self.names.counters, self.names.game_counters, self.names.constants, self.names.player_props, self.names.arrays, self.names.attributes)
            if aname in self.names.dir_sets:
                raise SpecError(f"'{aname}' is already a direction set of this board", apos)
            if any(aname in t for t in taken):
                raise SpecError(f"'{aname}' is already a name in this spec", apos)
            body = self.keys(body, "attribute", f"attribute '{aname}'")
            of = self.value_type(body["of"], "an attribute's 'of'")
            if of in (INT, BOOL):
                raise SpecError(f"an attribute belongs to the values of a finite type (cell, player, kind, item, face, dir or an enumeration), not to {a_type(of).split(' ', 1)[1]}s", body["of"].pos)
            typ = self.value_type(body["type"], "an attribute's type") if "type" in body else BOOL
            names = self.value_names(of)
            n_cells = self.board.n_cells
            default = self.constant(body["default"], typ, f"attribute '{aname}'") if "default" in body else default_value(typ, n_cells)
            offset = 0 if of == CELL else 1
            table = [default] * (len(names) + 1)
            vnode = body.get("values")
            if isinstance(vnode, YList) and typ == BOOL:  # the values that have it
                pairs = [(item, None) for item in vnode]
            elif isinstance(vnode, YMap):
                pairs = [(YScalar(k, vnode.key_pos[k]), v) for k, v in vnode.items.items()]
            elif vnode is None:
                pairs = []
            else:
                raise SpecError(f"attribute '{aname}': values maps each {a_type(of).split(' ', 1)[1]} to its value" + (" (or lists those that have it)" if typ == BOOL else ""), vnode.pos)
            inline = self.inline_values(aname, of)
            if inline and vnode is not None:
                raise SpecError(f"attribute '{aname}' is given both in its 'values' and beside the {'pieces' if of == KIND else 'items'}; give it in one place", vnode.pos)
            pairs += inline
            for knode, value in pairs:
                key = self.scalar(knode, str, "a value name") if not isinstance(knode.value, int) else str(knode.value)
                # a cell pattern with '*' ("north.*") or '?' ("s?") gives every cell it matches the value
                keys = [n for n in names if fnmatch.fnmatchcase(n, key)] if of == CELL and ("*" in key or "?" in key) else [key]
                if not keys or keys[0] not in names:
                    raise SpecError(f"'{key}' is not {a_type(of)}" if keys else f"no cell matches '{key}'", knode.pos, did_you_mean(key, names))
                for k in keys:
                    table[names.index(k) + offset] = 1 if value is None else self.constant(value, typ, f"attribute '{aname}'")
            self.names.attributes[aname] = (len(out), of, typ)
            out.append(AttributeIR(aname, of, typ, tuple(table), offset))
        return tuple(out)
