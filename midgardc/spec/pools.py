"""Lowering of ``pools:``, places off the board holding pieces by owner and kind (a
player's reserve of men, the pieces a player has taken, a common supply), and of the
effects that move pieces into and out of them.

A pool is stored as a counter array of numbers indexed ``[owner, kind]`` (per player: one
per player; ``of: game``: one for the game), so it is observed, shown, hashed and written
to tensors like any counter (``ir/pools.py``). Its effects lower into effects both back
ends run:

* ``move: {from: CELL, to: POOL}``: the piece on the cell goes into the pool (an element
  ``add`` of 1, then ``remove ... to: out``); nothing for an empty cell;
* ``place: {piece: K, at: CELL, from: POOL}`` (or ``move: {piece: K, from: POOL, to: CELL}``):
  one of the owner's K leaves the pool and is placed, the action being legal only while
  the pool holds one;
* ``move: {piece: K, from: POOL, to: POOL}``: from pool to pool, legal likewise.

A pool is written ``reserve(mover)`` (a per-player pool: whose) or ``supply`` (the game's).
"""

from __future__ import annotations

import re
from dataclasses import fields, is_dataclass, replace
from typing import TYPE_CHECKING, Optional

from ..conditions.check import check_condition
from ..conditions.pools import pool_sum
from ..errors import SpecError, did_you_mean
from ..ir.nodes import BOOL, CELL, INT, KIND, PLAYER, Binary, Call, Const, Effect, Expr, IfEffect, Place, Remove, SetElement
from ..ir.pools import HandAdd, PoolInfo
from ..ir.present import PlaceIR, PresentIR
from .values import MAX_ARRAY_COLUMNS
from .yamlpos import YMap, YNode, YScalar

if TYPE_CHECKING:  # pragma: no cover
    from .context import Lowering

# key tables (merged into schema.SECTIONS)
POOL_SECTIONS = {
    "pool": ({"of", "visible", "pieces", "label", "description"}, set()),
}
MAX_POOL = 10_000  # pieces of one kind and owner a pool starts with
_REF = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*\Z", re.S)


def lower_pools(lw: "Lowering", node: Optional[YNode], names: list, init: list, scopes: list, visible: list, types: list) -> None:
    """``pools: {reserve: {pieces: {man: 9}}, taken: {}, supply: {of: game}}``: each pool's
    columns go after the counters (``names`` ... are the counters' lists, grown here)."""
    lw.pools = {}
    if node is None:
        return
    if not isinstance(node, YMap):
        raise SpecError("'pools' maps each place off the board to {of, visible, pieces}, e.g. reserve: {pieces: {man: 9}}", node.pos)
    n_players, n_kinds, game_row = len(lw.players), len(lw.kinds), len(lw.players)
    if not n_kinds:
        raise SpecError("pools hold pieces: declare the kinds in 'pieces' first", node.pos)
    taken = (lw.names.counters, lw.names.game_counters, lw.names.arrays, lw.names.constants, lw.names.player_props, lw.names.attributes, lw.names.zones, lw.names.cells)
    for pname, body in node.items.items():
        pos = node.key_pos[pname]
        lw.ident(pname, pos, "pool name")
        if any(pname in t for t in taken):
            raise SpecError(f"pool '{pname}' has the name of another thing of the spec (a counter, player, kind, zone or cell); choose another", pos)
        body = lw.keys(body if body is not None and not (isinstance(body, YScalar) and body.value is None) else YMap({}, pos), "pool", f"pool '{pname}'")
        of = lw.scalar(body["of"], str, "a pool's 'of'") if "of" in body else "player"
        if of not in ("player", "game"):
            raise SpecError(f"a pool is 'of' player (each player has one) or game (one for the game), not '{of}'", body["of"].pos, did_you_mean(of, ["player", "game"]))
        per_player = of == "player"
        vis = lw.scalar(body["visible"], str, "a pool's 'visible'") if "visible" in body else "all"
        if vis not in ("all", "owner", "none"):
            raise SpecError(f"a pool is visible to all, owner or none, not '{vis}'", body["visible"].pos, did_you_mean(vis, ["all", "owner", "none"]))
        if vis == "owner" and not per_player:
            raise SpecError("a pool of the game has no owner: it is visible to 'all' or 'none'", body["visible"].pos)
        starts = _starts(lw, body, pname, per_player)
        first = len(names)
        lw.array_columns += n_players * n_kinds
        if lw.array_columns > MAX_ARRAY_COLUMNS:
            raise SpecError(f"pool '{pname}' adds {n_players * n_kinds} counters; all arrays and pools together may have {MAX_ARRAY_COLUMNS}", pos)
        for q in range(n_players):
            for k in range(n_kinds):
                names.append(f"{pname}[{lw.players[q]},{lw.kinds[k]}]")
                scopes.append(of)
                visible.append(vis)
                if types:
                    types.append(INT)
                for row, values in enumerate(init):
                    # a per-player pool starts with its player's own pieces; the game's with everyone's
                    mine = (row == q) if per_player else (row == game_row)
                    values.append(starts[q][k] if mine else 0)
        lw.names.arrays[pname] = (first, per_player, ((PLAYER, 0, n_players), (KIND, 0, n_kinds)), INT)
        lw.names.pools.add(pname)
        lw.pools[pname] = PoolInfo(pname, first, per_player, vis)
        if "label" in body:
            lw.pool_labels[pname] = lw.scalar(body["label"], str, "a pool's label")


def _starts(lw: "Lowering", body: YMap, pname: str, per_player: bool) -> list[list[int]]:
    """``pieces: {man: 9}`` (every player's 9 men) or ``{man: {white: 9, black: 8}}``."""
    out = [[0] * len(lw.kinds) for _ in lw.players]
    if "pieces" not in body:
        return out
    node = body["pieces"]
    if not isinstance(node, YMap):
        raise SpecError(f"pool '{pname}': 'pieces' maps a kind of piece to how many of each player's start there, e.g. pieces: {{man: 9}}", node.pos)
    for kname, count in node.items.items():
        if kname not in lw.kinds:
            raise SpecError(f"pool '{pname}' holds pieces; '{kname}' is not a kind of piece", node.key_pos[kname], did_you_mean(kname, lw.kinds) or f"kinds: {', '.join(lw.kinds)}")
        k = lw.kinds.index(kname)
        if isinstance(count, YMap):
            for p, c in count.items.items():
                if p in lw.unseated:
                    continue
                if p not in lw.players:
                    raise SpecError(f"unknown player '{p}'", count.key_pos[p], did_you_mean(p, lw.players))
                out[lw.players.index(p)][k] = lw.scalar(c, int, "a number of pieces", 0, MAX_POOL)
        else:
            n = lw.scalar(count, int, "a number of pieces", 0, MAX_POOL)
            for row in out:
                row[k] = n
    return out


# -- effects ------------------------------------------------------------------------------


def pool_ref(lw: "Lowering", node: YNode, scope: dict[str, str], key: str) -> Optional[tuple[str, Expr]]:
    """A pool where a cell could stand: ``reserve(mover)`` or ``supply`` -> (name, row);
    None when the text is not a pool's (then it is a cell expression)."""
    pools = getattr(lw, "pools", {})
    if not isinstance(node, YScalar) or not isinstance(node.value, str):
        return None
    m = _REF.match(node.value)
    if not m:
        return None
    name, inner = m.group(1), m.group(2)
    if name in scope and inner is None:  # a parameter or variable of that name: a cell
        return None
    if name not in pools:
        if pools and name not in scope and name not in lw.names.all_callables() and name not in lw.names.all_values():
            hint = did_you_mean(name, list(pools))
            if hint:
                raise SpecError(f"unknown pool '{name}' in '{key}'", node.pos, hint)
        return None
    info = pools[name]
    if info.per_player and inner is None:
        raise SpecError(f"'{name}' is a per-player pool: say whose, e.g. {name}(mover)", node.pos)
    if not info.per_player and inner is not None:
        raise SpecError(f"'{name}' is a pool of the game (one for the whole game): write it without a player, {name}", node.text_pos(m.start(2)))
    if not info.per_player:
        return name, Const(len(lw.players), PLAYER)
    start = m.start(2)
    row = check_condition(inner, lambda off: node.text_pos(start + off), lw.names, scope, PLAYER)
    return name, row


def _slot(lw: "Lowering", pool: str, row: Expr, owner: Expr, kind: Expr, add: int) -> SetElement:
    info = lw.pools[pool]
    return SetElement(info.column, row, ((0, len(lw.players), owner), (0, len(lw.kinds), kind)), Const(add, INT), True)


def _has(lw: "Lowering", pool: str, row: Expr, owner: Expr, kind: int) -> Expr:
    """The pool holds at least one of the owner's pieces of the kind."""
    col = lw.pools[pool].column
    read = Call("counter_at", (Const(col, INT), row, Const(0, INT), Const(0, INT), Const(len(lw.players), INT), owner, Const(0, INT), Const(len(lw.kinds), INT), Const(kind, KIND)), INT)
    return Binary(">", read, Const(0, INT), BOOL)


def pool_effect(lw: "Lowering", body: YMap, scope: dict[str, str], effect: str) -> Optional[Effect]:
    """``move``/``place`` with a pool on either side (None: an ordinary one). The legality
    of taking from a pool is kept in ``lw.pool_needs`` for the action's ``where``."""
    if not getattr(lw, "pools", None):
        for key in (("from",) if effect == "place" else ("piece", "owner")):
            if key in body:
                raise SpecError(f"{effect}.{key} is for a piece taken from a pool, and this spec has no 'pools' section", body.key_pos[key], "declare them: pools: {reserve: {pieces: {man: 9}}}")
        return None
    if effect == "place":
        if "from" not in body:
            return None
        src = pool_ref(lw, body["from"], scope, "from")
        if src is None:
            raise SpecError("place.from names a pool the piece comes from, e.g. from: reserve(mover)", body["from"].pos, f"pools: {', '.join(lw.pools)}")
        for key in ("height", "push"):
            if key in body:
                raise SpecError(f"place.{key} is for pieces from the hand; a piece from a pool is placed alone", body.key_pos[key])
        dst = None
        at_node = body["at"]
    else:
        src = pool_ref(lw, body["from"], scope, "from")
        dst = pool_ref(lw, body["to"], scope, "to")
        if src is None and dst is None:
            for key in ("piece", "owner"):
                if key in body:
                    raise SpecError(f"move.{key} says which piece leaves a pool; this move is from cell to cell (it takes the piece on 'from')", body.key_pos[key])
            return None
        if "capture" in body:
            raise SpecError("move.capture is for a move onto a cell from a cell", body.key_pos["capture"])
        at_node = body["to"]
    owner = lw.condition(body["owner"], scope, PLAYER) if "owner" in body else Call("mover", (), PLAYER)
    if src is None:  # cell -> pool: the piece on the cell
        for key in ("piece", "owner"):
            if key in body:
                raise SpecError(f"move.{key} is for a move out of a pool; from a cell, the piece on it goes", body.key_pos[key])
        cell = lw.condition(body["from"], scope, CELL)
        name, row = dst
        put = _slot(lw, name, row, Call("owner", (cell,), PLAYER), Call("kind_at", (cell,), KIND), 1)
        lw.pool_stacks[id(put)] = cell  # (in a spec with stacks: the stack's height, see with_stacks)
        return IfEffect(Const(1, BOOL), (put, Remove(cell, None, None, "", "out")), ())
    if "piece" not in body:
        raise SpecError(f"a {effect} out of pool '{src[0]}' says which piece: add piece: KIND (and owner: PLAYER, default the mover)", body.pos)
    kind = lw.kind(body["piece"])
    name, row = src
    need = _has(lw, name, row, owner, kind)
    take = _slot(lw, name, row, owner, Const(kind, KIND), -1)
    if dst is not None:  # pool -> pool
        effects: tuple = (take, _slot(lw, dst[0], dst[1], owner, Const(kind, KIND), 1))
        when = need
    else:  # pool -> cell: the piece goes through the hand (net unchanged) onto the cell
        at = lw.condition(at_node, scope, CELL)
        effects = (take, HandAdd(owner, kind), Place(kind, at, owner))
        when = Binary("and", need, Binary("!=", at, Const(lw.board.n_cells, CELL), BOOL), BOOL)
    eff = IfEffect(when, effects, ())
    lw.pool_needs[id(eff)] = need
    return eff


def with_stacks(lw: "Lowering", ir):
    """In a spec with stacks, a stack moved from a cell into a pool adds its height (known
    only once the whole spec is lowered): the pool's element grows by ``height(c)``."""
    if not ir.stacks or not lw.pool_stacks:
        return ir
    swap = {key: cell for key, cell in lw.pool_stacks.items()}

    def walk(x):
        if isinstance(x, SetElement) and id(x) in swap:
            return replace(x, value=Call("height", (swap[id(x)],), INT))
        if isinstance(x, tuple):
            out = tuple(walk(y) for y in x)
            return out if any(a is not b for a, b in zip(out, x)) else x
        if is_dataclass(x) and not isinstance(x, type):
            changed = {f.name: walk(getattr(x, f.name)) for f in fields(x)}
            changed = {k: v for k, v in changed.items() if v is not getattr(x, k)}
            return replace(x, **changed) if changed else x
        return x

    return replace(ir, actions=walk(ir.actions), triggers=walk(ir.triggers), start_effects=walk(ir.start_effects), end=walk(ir.end))


def with_pool_checks(lw: "Lowering", where: Expr, effects: tuple) -> Expr:
    """An action taking a piece out of a pool is legal only while the pool holds one."""
    for eff in effects:
        need = getattr(lw, "pool_needs", {}).get(id(eff))
        if need is not None:
            where = need if isinstance(where, Const) and where.value == 1 else Binary("and", need, where, BOOL)
    return where


# -- pictures and history -----------------------------------------------------------------


def pool_places(lw: "Lowering", render):
    """Every pool drawn off the board as a labelled tray, its pieces counted per owner and
    kind (a per-player pool: one tray per player). A ``render.places`` entry of the same
    name draws it instead."""
    pools = getattr(lw, "pools", {})
    if not pools or render is None:
        return render
    present = render.present or PresentIR()
    own = {p.name for p in present.places}
    trays = []
    for name, info in pools.items():
        if name in own:
            continue
        label = lw.pool_labels.get(name, present.label(name))
        rows = [(f"{name}:{p}", f"{label} of {p}", i) for i, p in enumerate(lw.players)] if info.per_player else [(name, label, -1)]
        for tray, text, seat in rows:
            row = Const(seat if seat >= 0 else len(lw.players), PLAYER)
            holds = tuple((k, _owner_count(lw, name, row, k)) for k in range(len(lw.kinds)))
            trays.append(PlaceIR(tray, text, holds, seat=seat))
    return replace(render, present=replace(present, places=present.places + tuple(trays)))


def _owner_count(lw: "Lowering", pool: str, row: Expr, kind: int) -> Expr:
    """The pieces of player ``p`` (the place's player) of the kind in the pool of ``row``."""
    from ..ir.nodes import Local

    col = lw.pools[pool].column
    return Call("counter_at", (Const(col, INT), row, Const(0, INT), Const(0, INT), Const(len(lw.players), INT), Local("p", PLAYER), Const(0, INT), Const(len(lw.kinds), INT), Const(kind, KIND)), INT)


def pool_columns(lw: "Lowering", name: str) -> Optional[range]:
    """The counter columns of a pool (for ``history.position``), None if not a pool."""
    info = getattr(lw, "pools", {}).get(name)
    return range(info.column, info.column + len(lw.players) * len(lw.kinds)) if info else None


__all__ = ["POOL_SECTIONS", "lower_pools", "pool_effect", "with_pool_checks", "with_stacks", "pool_places", "pool_columns", "pool_sum"]
