"""Code generation for zones of items: the facts ``templates/zones.pyx.j2`` needs and one
C statement per zone effect (deal, take, pass_zone, gather, shuffle), kept apart from
``codegen.py`` so the zone language stays in one place per back end (its Python meaning:
``midgardc.runtime.rules.zones``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from ...ir.nodes import CHANCE_STREAM, Deal, Effect, Gather, GameIR, PassZone, Shuffle, Take
from .common import comment_text, unparse

if TYPE_CHECKING:  # pragma: no cover
    from .common import Scope
    from .expressions import Expressions as ExprCompiler

ZONE_EFFECT_TYPES = (Deal, Take, PassZone, Gather, Shuffle)


def zone_facts(ir: GameIR) -> Optional[dict[str, Any]]:
    """The zones' tables (see ZonesIR), or None for a game without items:/zones:."""
    zs = ir.zones
    if zs is None or not zs.zones:
        return None
    slot_zone, slot_pile = [], []
    piles = 0
    for i, z in enumerate(zs.zones):
        for _ in range(zs.n_players if z.per_player else 1):
            slot_zone.append(i)
            slot_pile.append(piles if z.ordered else -1)
            piles += 1 if z.ordered else 0
    width = max([len(v) for v in zs.values] + [1])
    return {
        "n_kinds": zs.n_kinds,
        "n_zones": len(zs.zones),
        "n_slots": zs.n_slots,
        "n_piles_alloc": max(piles, 1),
        "cap": zs.capacity,
        "stream": CHANCE_STREAM,
        "base": [z.base for z in zs.zones],
        "per_player": [int(z.per_player) for z in zs.zones],
        "ordered": [int(z.ordered) for z in zs.zones],
        "start": [list(z.start) for z in zs.zones],
        "slot_zone": slot_zone,
        "slot_pile": slot_pile,
        "nvalues": [len(v) for v in zs.values],
        "max_values": width,
        "value_rows": [list(v) + [0] * (width - len(v)) for v in zs.values],
    }


def zone_effect(x: "ExprCompiler", eff: Effect, scope: "Scope") -> dict[str, str]:
    """One zone effect as a C statement and a comment."""
    ir = x.ir
    names = [z.name for z in ir.zones.zones]

    def e(expr) -> str:
        return x.expr(expr, scope).text

    def whose(zone: int, owner) -> str:
        return names[zone] if not ir.zones.zones[zone].per_player else f"{names[zone]} of {unparse(owner, ir)}"

    if isinstance(eff, Deal):
        return {
            "comment": comment_text(f"deal {unparse(eff.count, ir)} from {whose(eff.frm, eff.frm_owner)} to {whose(eff.to, eff.to_owner)}"),
            "code": f"deal_items(st, {eff.frm}, {e(eff.frm_owner)}, {eff.to}, {e(eff.to_owner)}, {e(eff.count)})",
        }
    if isinstance(eff, Take):
        return {
            "comment": comment_text(f"take {unparse(eff.count, ir)} {unparse(eff.item, ir)} from {whose(eff.frm, eff.frm_owner)} to {whose(eff.to, eff.to_owner)}"),
            "code": f"take_items(st, {e(eff.item)}, {eff.frm}, {e(eff.frm_owner)}, {eff.to}, {e(eff.to_owner)}, {e(eff.count)})",
        }
    if isinstance(eff, PassZone):
        return {
            "comment": comment_text(f"pass every {names[eff.zone]} {unparse(eff.step, ir)} seat(s) on"),
            "code": f"pass_zone_items(st, {eff.zone}, {e(eff.step)})",
        }
    if isinstance(eff, Gather):
        one = eff.owner is not None
        return {
            "comment": comment_text(f"gather {names[eff.frm]} into {names[eff.to]}" + (f" of {unparse(eff.owner, ir)}" if one else "")),
            "code": f"gather_items(st, {eff.frm}, {eff.to}, {'True' if one else 'False'}, {e(eff.owner) if one else '0'})",
        }
    if isinstance(eff, Shuffle):
        return {
            "comment": comment_text(f"shuffle {whose(eff.zone, eff.owner)}"),
            "code": f"shuffle_items(st, {eff.zone}, {e(eff.owner)})",
        }
    raise AssertionError(eff)  # pragma: no cover
