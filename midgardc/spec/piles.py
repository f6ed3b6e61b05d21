"""Lowering of ``piles:``: board cells that hold a count of identical pieces (the seeds of
a sowing game, the men of a bearing-off race), and the effects that move them.

    piles:
      seeds: {start: {store_a: 0, others: 4}}      # seeds[c]: how many lie on cell c
    actions:
      sow:
        params: {c: cell}
        effects:
          - sow: {from: c, skip: "sown == store(next_player(mover))"}
          - take: {from: "opposite(sown)", to: "store(mover)"}

A pile kind is a game counter array with one cell index, so every reader of arrays
(conditions, observations, state JSON, ``load``) reads it as ``seeds[c]``; pictures draw
it on the cells. Two game counters come with piles: ``sown`` (the cell where the last
sowing's last piece fell; ``none`` before the first) and ``sowing`` (the pieces still in
hand while a sowing runs; 0 between moves, never shown). The effects ``sow`` and ``take``
are written out into plain effects (set/add of array elements, ``if`` and ``repeat``), so
both back ends run them as they run any effects: one meaning, nothing new to compile.
"""

from __future__ import annotations

from typing import Any, Optional

from ..conditions.check import check_condition
from ..errors import SpecError, did_you_mean
from ..ir.nodes import BOOL, CELL, INT, PLAYER, Call, Const, Domain, Effect, Expr, ForEach, IfEffect, SetCounter, SetElement, Unary
from .blocks import _substitute
from .loops import MAX_REPEAT, ROUND_VAR
from .yamlpos import YList, YMap, YNode, YScalar

SOWN = "sown"  # the cell where the last piece of the last sowing fell (a game counter)
SOWING = "sowing"  # the pieces in hand while a sowing runs (a game counter, internal)
MAX_PILE_KINDS = 16

PILE_SECTIONS: dict[str, tuple[set[str], set[str]]] = {
    "pile": ({"start", "visible", "description"}, set()),
    "sow": ({"from", "pile", "along", "skip", "limit"}, {"from"}),
    "take_pile": ({"from", "to", "pile"}, {"from", "to"}),
}

# placeholders the written-out effects are parsed with, then replaced by the spec's own
# (already lowered) expressions: the texts name nothing else but the pile and its counters
_FROM, _TO = "pile_from_", "pile_to_"


def declare_piles(lw, node: Optional[YNode]) -> None:
    """Before the counters: each pile kind joins the spec's counters as a game array with
    one cell index, and the two sowing counters with them."""
    lw.pile_kinds: list[str] = []
    lw.pile_tracks: dict[tuple[int, ...], int] = {}  # a track's cells -> its "next" attribute
    if node is None:
        return
    if not isinstance(node, YMap) or not node.items or len(node.items) > MAX_PILE_KINDS:
        raise SpecError(f"'piles' maps a kind of pile to {{start, visible}} (1 to {MAX_PILE_KINDS}), e.g. seeds: {{start: 4}}", node.pos)
    top = lw.tree
    counters = top.items.get("counters")
    if counters is not None and not isinstance(counters, YMap):
        return  # (lower_counters reports the malformed section)
    items = dict(counters.items) if counters is not None else {}
    key_pos = dict(counters.key_pos) if counters is not None else {}
    pos = top.key_pos["piles"]
    for name in (SOWN, SOWING):
        if name in items:
            raise SpecError(f"the counter '{name}' comes with piles ({'where the last sown piece fell' if name == SOWN else 'the pieces in hand while sowing'}); rename this counter", key_pos[name])
    for pname, body in node.items.items():
        ppos = node.key_pos[pname]
        lw.ident(pname, ppos, "pile name")
        if pname in (SOWN, SOWING):
            raise SpecError(f"'{pname}' is a counter that comes with piles ({'where the last sown piece fell' if pname == SOWN else 'the pieces in hand while sowing'}); give the pile another name", ppos)
        if pname in items:
            raise SpecError(f"'{pname}' is already a counter; a pile is a counter of its own, so give one another name", ppos)
        if body is None or (isinstance(body, YScalar) and body.value is None):
            body = YMap({}, ppos)
        body = lw.keys(body, "pile", f"pile '{pname}'")
        entry = {"of": YScalar("game", ppos), "index": YScalar("cell", ppos)}
        entry.update({k: v for k, v in body.items.items() if k in ("start", "visible")})
        items[pname] = YMap(entry, ppos, {k: body.key_pos.get(k, ppos) for k in entry})
        key_pos[pname] = ppos
        lw.pile_kinds.append(pname)
    items[SOWING] = YMap({"of": YScalar("game", pos)}, pos, {"of": pos})
    items[SOWN] = YMap({"type": YScalar("cell", pos), "of": YScalar("game", pos)}, pos, {"type": pos, "of": pos})
    key_pos[SOWING] = key_pos[SOWN] = pos
    new = YMap(items, counters.pos if counters is not None else pos, key_pos, dict(counters.key_nodes) if counters is not None else {})
    lw.tree = YMap({**top.items, "counters": new}, top.pos, {**top.key_pos, "counters": top.key_pos.get("counters", pos)}, top.key_nodes)


def pile_totals(lw, names: list[str], init: list[list[int]]) -> None:
    """The pieces of each kind at the start: a sowing's default bound is read from it."""
    game_row = init[-1]
    cells = lw.board.cell_names
    lw.pile_total = {p: sum(game_row[names.index(f"{p}[{c}]")] for c in cells) for p in lw.pile_kinds}


def _pile(lw, body: YMap) -> str:
    """The pile kind an effect moves: its ``pile`` key, or the spec's only kind."""
    if "pile" in body:
        name = lw.scalar(body["pile"], str, "a pile kind")
        if name not in lw.pile_kinds:
            raise SpecError(f"unknown pile kind '{name}'", body["pile"].pos, did_you_mean(name, lw.pile_kinds) or f"piles: {', '.join(lw.pile_kinds)}")
        return name
    if len(lw.pile_kinds) > 1:
        raise SpecError(f"this spec has several kinds of pile: say which with 'pile' ({', '.join(lw.pile_kinds)})", body.pos)
    return lw.pile_kinds[0]


def _written(lw, text: str, pos: Any, scope: dict[str, str], subs: dict[str, Expr], want: str) -> Expr:
    """One expression of the written-out effects, with the spec's expressions in place of
    the placeholders. It is read without the spec's local names (``scope`` is the
    caller's, unused here), so a loop variable called ``sown`` cannot stand for the counter."""
    local = {k: CELL for k in subs}
    return _substitute(check_condition(text, lambda _off: pos, lw.names, local, want), subs)


def _effects(lw, lines: list[tuple[str, dict]], scope: dict[str, str], subs: dict[str, Expr], pos: Any) -> tuple[Effect, ...]:
    """Effects given as (kind, keys) with expression texts, lowered as the spec's own."""
    out: list[Effect] = []
    for kind, keys in lines:
        if kind in ("set", "add"):
            target = check_condition(keys["counter"], lambda _off: pos, lw.names, {k: CELL for k in subs}, None)
            value = _written(lw, keys["to"], pos, scope, subs, target.type)
            target = _substitute(target, subs)
            if target.fn == "counter_at":
                args = target.args
                index = tuple((args[j].value, args[j + 1].value, args[j + 2]) for j in range(3, len(args), 3))
                out.append(SetElement(args[0].value, args[1], index, value, kind == "add"))
            else:  # a game counter
                out.append(SetCounter(target.args[0].value, Const(lw.names.game_row, PLAYER), value, kind == "add"))
        else:  # pragma: no cover
            raise AssertionError(kind)
    return tuple(out)


def _next_attribute(lw, cells: tuple[int, ...]) -> int:
    """The attribute "the next cell along this loop of cells" (off it: none), made once
    per track and appended to the spec's attributes."""
    if cells not in lw.pile_tracks:
        from ..ir.values import AttributeIR

        n = lw.board.n_cells
        table = [n] * (n + 1)
        for i, c in enumerate(cells):
            table[c] = cells[(i + 1) % len(cells)]
        lw.pile_tracks[cells] = len(lw.attributes_ir)
        lw.attributes_ir = (*lw.attributes_ir, AttributeIR(f"$next{len(lw.pile_tracks)}", CELL, CELL, tuple(table), 0))
    return lw.pile_tracks[cells]


def _track(lw, node: Optional[YNode]) -> tuple[int, ...]:
    """``along``: a list of cells, a loop (after the last comes the first); by default
    every cell in board order."""
    cells = lw.board.cell_names
    if node is None:
        return tuple(range(len(cells)))
    if not isinstance(node, YList) or len(node) < 2:
        raise SpecError("sow.along lists the cells a sowing goes along, in order (a loop: after the last comes the first), e.g. [a1, a2, a3]", node.pos)
    out: list[int] = []
    for item in node:
        name = lw.scalar(item, str, "a cell of sow.along")
        if name not in cells:
            raise SpecError(f"unknown cell '{name}'", item.pos, did_you_mean(name, cells))
        if cells.index(name) in out:
            raise SpecError(f"cell '{name}' is twice in sow.along", item.pos)
        out.append(cells.index(name))
    return tuple(out)


def eff_sow(lw, body: YMap, scope: dict[str, str]) -> tuple[Effect, ...]:
    """``sow: {from, along, skip, pile, limit}``: every piece of ``from`` is lifted and
    dropped one at a time on the next cells along the track, passing over the cells where
    ``skip`` holds (read with ``sown`` the cell reached); ``sown`` ends on the last. From
    a cell off the track nothing is lifted (``sown`` is that cell). At most ``limit``
    cells are stepped on (default: twice the pieces at the start, plus the track's length);
    the pieces still in hand after that stay in ``sowing``."""
    if not lw.pile_kinds:
        raise SpecError("sow moves the pieces of a pile: declare the piles first, e.g. piles: {seeds: {start: 4}}", body.pos)
    pile = _pile(lw, body)
    pos = body.pos
    track = _track(lw, body.get("along"))
    attr = _next_attribute(lw, track)
    default = min(MAX_REPEAT, 2 * lw.pile_total[pile] + len(track))
    limit = lw.scalar(body["limit"], int, "sow.limit", 1, MAX_REPEAT) if "limit" in body else default
    subs = {_FROM: lw.condition(body["from"], scope, CELL)}
    skip = lw.condition(body["skip"], scope, BOOL) if "skip" in body else Const(0, BOOL)
    start = _effects(lw, [("set", {"counter": SOWN, "to": _FROM})], scope, subs, pos)
    lift = _effects(lw, [
        ("set", {"counter": SOWING, "to": f"{pile}[{SOWN}]"}),
        ("set", {"counter": f"{pile}[{SOWN}]", "to": "0"}),
    ], scope, {}, pos)
    step = Call("attr", (Const(attr, INT), _written(lw, SOWN, pos, scope, {}, CELL)), CELL)
    on_track = _written(lw, f"onboard({_TO})", pos, scope, {_TO: step}, BOOL)  # (off it: nothing is lifted)
    move_on = SetCounter(lw.names.game_counters[SOWN], Const(lw.names.game_row, PLAYER), step, False)
    drop = _effects(lw, [("add", {"counter": f"{pile}[{SOWN}]", "to": "1"}), ("add", {"counter": SOWING, "to": "-1"})], scope, {}, pos)
    not_skipped = Unary("not", skip, BOOL)
    rounds = ForEach(Domain("range", (Const(1, INT), Const(limit, INT)), INT), ROUND_VAR,
                     _written(lw, f"{SOWING} > 0", pos, scope, {}, BOOL),
                     (move_on, IfEffect(not_skipped, drop, ())))
    return (*start, IfEffect(on_track, (*lift, rounds), ()))


def eff_take_pile(lw, body: YMap, scope: dict[str, str]) -> tuple[Effect, ...]:
    """``take: {from, to, pile}``: every piece of the cell ``from`` (or of each cell of a
    list, in order) goes onto the cell ``to``; nothing moves off the board or onto itself."""
    pile = _pile(lw, body)
    to = lw.condition(body["to"], scope, CELL)
    sources = list(body["from"]) if isinstance(body["from"], YList) else [body["from"]]
    if not sources:
        raise SpecError("take.from is a cell, or a list of cells", body["from"].pos)
    out: list[Effect] = []
    for node in sources:
        subs = {_FROM: lw.condition(node, scope, CELL), _TO: to}
        moves = _effects(lw, [
            ("add", {"counter": f"{pile}[{_TO}]", "to": f"{pile}[{_FROM}]"}),
            ("set", {"counter": f"{pile}[{_FROM}]", "to": "0"}),
        ], scope, subs, body.pos)
        guard = _written(lw, f"{_FROM} != {_TO} and onboard({_TO})", body.pos, scope, subs, BOOL)
        out.append(IfEffect(guard, moves, ()))
    return tuple(out)
