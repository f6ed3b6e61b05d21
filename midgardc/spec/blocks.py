"""Lowering of ``blocks:``: a named list of effects with typed parameters, written once and
used from any effect list (an action's, a trigger's, a loop's) as an effect of its own:

    blocks:
      arrive:
        params: {k: kind, d: cell}
        effects:
          - place: {piece: k, at: d}
    actions:
      drop: {params: {c: cell}, effects: [{arrive: {k: stone, d: c}}]}

A block is lowered once, its parameters being locals; each use substitutes the arguments
(lowered in the caller's scope) for those locals, so the IR holds the plain effects and
both back ends run them with no call and no new node. A block may use the blocks written
above it (none can use itself)."""

from __future__ import annotations

import dataclasses
from typing import Any, Iterable, Optional

from ..conditions.check import a_type
from ..errors import SpecError, did_you_mean
from ..ir.nodes import Const, Effect, Expr, Local, Place
from .yamlpos import YMap, YNode, YScalar

MAX_BLOCKS = 256
ZONE_PARAM = "zone"  # a parameter naming a zone (a place items are in), not a value


@dataclasses.dataclass(frozen=True)
class Block:
    """A lowered block: its parameters (name -> type, in order) and its effects, in which
    each parameter is a ``Local`` of its name; ``bound``: the names its own loops and
    quantifiers bind (an argument must not mention them, or a use would capture it)."""

    params: dict[str, str]
    effects: tuple[Effect, ...]
    bound: frozenset[str]
    # a block with zone parameters is lowered at each use, each zone parameter standing
    # for the zone the use names (zones are places, not values): its effects' node
    node: Optional[YNode] = None


def lower_blocks(lw, node: Optional[YNode], effects: Iterable[str]) -> dict[str, Block]:
    """``blocks:`` in order; each may use the ones above it. ``effects``: the names of
    the effects, which no block may take."""
    effect_names = set(effects)
    lw.blocks = {}
    if node is None:
        return lw.blocks
    if not isinstance(node, YMap) or len(node.items) > MAX_BLOCKS:
        raise SpecError(f"'blocks' maps a block's name to {{params, effects}} (at most {MAX_BLOCKS}), e.g. arrive: {{params: {{d: cell}}, effects: [...]}}", node.pos)
    for bname, body in node.items.items():
        bpos = node.key_pos[bname]
        lw.ident(bname, bpos, "block name")
        if bname in effect_names or bname in lw.blocks:
            raise SpecError(f"'{bname}' is already {'an effect' if bname in effect_names else 'a block'}; give the block another name", bpos)
        body = lw.keys(body, "block", f"block '{bname}'")
        params: dict[str, str] = {}
        pnode = body.get("params")
        if pnode is not None:
            if not isinstance(pnode, YMap):
                raise SpecError(f"the params of block '{bname}' map each name to its type, e.g. {{d: cell, n: number}}", pnode.pos)
            for pname, tnode in pnode.items.items():
                lw.ident(pname, pnode.key_pos[pname], "parameter name")
                if isinstance(tnode, YScalar) and tnode.value == ZONE_PARAM:
                    if pname in lw.names.zones:
                        raise SpecError(f"the zone parameter '{pname}' has the name of a zone; rename it", pnode.key_pos[pname])
                    params[pname] = ZONE_PARAM
                else:
                    params[pname] = lw.value_type(tnode, "a block parameter's type")
        if ZONE_PARAM in params.values():  # lowered at each use, with its zones (use_block)
            if not lw.names.zones:
                raise SpecError(f"block '{bname}' has a zone parameter, but this spec has no 'zones' section", pnode.pos)
            lw.blocks[bname] = Block(params, (), frozenset(), body["effects"])
            continue
        effects = lw.lower_effects(body["effects"], dict(params), f"block '{bname}'")
        lw.blocks[bname] = Block(params, effects, frozenset(_bound(effects)))
    return lw.blocks


def use_block(lw, name: str, body: YNode, pos: Any, scope: dict[str, str]) -> tuple[Effect, ...]:
    """The effects of block ``name`` with the arguments of one use substituted."""
    block: Block = lw.blocks[name]
    if not isinstance(body, YMap):
        raise SpecError(f"block '{name}' takes its arguments as a mapping, e.g. {{{', '.join(f'{p}: ...' for p in block.params) or ''}}}", getattr(body, "pos", pos))
    for key in body.items:
        if key not in block.params:
            raise SpecError(f"block '{name}' has no parameter '{key}'", body.key_pos[key], did_you_mean(key, list(block.params)) or f"its parameters: {', '.join(block.params) or 'none'}")
    for pname, typ in block.params.items():
        if pname not in body.items:
            raise SpecError(f"block '{name}' needs its parameter '{pname}' ({'a zone' if typ == ZONE_PARAM else a_type(typ)})", body.pos)
    if block.node is not None:
        block = _with_zones(lw, name, block, body)
    args: dict[str, Expr] = {}
    for pname, typ in block.params.items():
        if typ == ZONE_PARAM:
            continue
        arg = lw.condition(body.items[pname], scope, typ)
        # any name the argument mentions, its own quantifiers' too: once substituted, no
        # variable may be bound twice on one path (the checker forbids it in every spec)
        clash = (_locals(arg) | _bound(arg)) & block.bound
        if clash:
            word = sorted(clash)[0]
            raise SpecError(f"'{word}' is a variable of block '{name}' too, so it cannot be passed in", body.items[pname].pos, f"rename '{word}' here or in the block")
        args[pname] = arg
    shadow = block.bound & set(scope)
    if shadow:
        word = sorted(shadow)[0]
        raise SpecError(f"block '{name}' binds '{word}', which is already a name here", pos, f"rename the variable '{word}' in the block")
    return tuple(_substitute(e, args) for e in block.effects)


def _with_zones(lw, name: str, block: Block, body: YMap) -> Block:
    """The block lowered for one use: each zone parameter names, while its effects are
    read, the zone the use passes (so ``deal: {from: pile}`` and ``top(pile)`` read it)."""
    aliases = {}
    for pname, typ in block.params.items():
        if typ != ZONE_PARAM:
            continue
        arg = body.items[pname]
        zname = arg.value if isinstance(arg, YScalar) else None
        if not isinstance(zname, str) or zname not in lw.names.zones:
            raise SpecError(f"block '{name}' takes a zone's name for '{pname}'", arg.pos, did_you_mean(str(zname), list(lw.names.zones)) or f"zones: {', '.join(lw.names.zones)}")
        aliases[pname] = lw.names.zones[zname]
    lw.names.zones.update(aliases)
    try:
        plain = {p: t for p, t in block.params.items() if t != ZONE_PARAM}
        effects = lw.lower_effects(block.node, dict(plain), f"block '{name}'")
    finally:
        for pname in aliases:
            del lw.names.zones[pname]
    return Block(block.params, effects, frozenset(_bound(effects)))


def _substitute(node: Any, args: dict[str, Expr]) -> Any:
    """``node`` with every ``Local`` named in ``args`` replaced by its argument (a piece
    kind that becomes fixed is stored as a fixed kind, as a literal one is)."""
    if isinstance(node, Local):
        return args.get(node.name, node)
    if isinstance(node, tuple):
        return tuple(_substitute(x, args) for x in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        changes = {f.name: _substitute(getattr(node, f.name), args) for f in dataclasses.fields(node)}
        out = dataclasses.replace(node, **changes) if any(changes[k] is not getattr(node, k) for k in changes) else node
        if isinstance(out, Place) and isinstance(out.kind_expr, Const):
            out = dataclasses.replace(out, kind=out.kind_expr.value, kind_expr=None)
        return out
    return node


def _walk(node: Any):
    yield node
    if isinstance(node, tuple):
        for x in node:
            yield from _walk(x)
    elif dataclasses.is_dataclass(node) and not isinstance(node, type):
        for f in dataclasses.fields(node):
            yield from _walk(getattr(node, f.name))


def _locals(node: Any) -> set[str]:
    return {n.name for n in _walk(node) if isinstance(n, Local)}


def _bound(node: Any) -> set[str]:
    """Names bound inside ``node`` (quantifier and loop variables: every ``var``)."""
    return {n.var for n in _walk(node) if dataclasses.is_dataclass(n) and isinstance(getattr(n, "var", None), str)}
