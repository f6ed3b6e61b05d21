"""Lowering of ``chance.keep``: the dice a roll keeps (see midgardc/ir/dice.py)."""

from __future__ import annotations

from dataclasses import fields

from ..errors import SpecError
from ..ir.dice import KEEP_VAR, KeepChanceIR
from ..ir.nodes import BOOL, INT, ChanceIR
from .yamlpos import YMap


def lower_keep(self, chance: ChanceIR, node: YMap) -> ChanceIR:
    """``chance`` with its ``keep`` condition (read once the counters, definitions and
    actions are known), or as it is without one."""
    if "keep" not in node:
        return chance
    if not chance.ordered:
        raise SpecError(
            "chance.keep needs ordered dice: a roll that keeps some dice tells them apart",
            node.key_pos["keep"],
            "add 'ordered: true' to chance",
        )
    keep = self.condition(node["keep"], {KEEP_VAR: INT}, BOOL)
    return KeepChanceIR(**{f.name: getattr(chance, f.name) for f in fields(chance)}, keep=keep)
