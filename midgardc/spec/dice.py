"""Lowering of the dice's rules: ``chance.keep`` (the dice a roll keeps), ``chance.into``
(the counter array a private roll lands in) and ``chance.when`` (when a roll is due); see
midgardc/ir/dice.py."""

from __future__ import annotations

from dataclasses import fields

from ..errors import SpecError, did_you_mean
from ..ir.dice import KEEP_VAR, DiceRulesIR
from ..ir.chance import ChanceIR
from ..ir.nodes import BOOL, FACE, INT
from .yamlpos import YMap


def lower_dice_rules(self, chance: ChanceIR, node: YMap) -> ChanceIR:
    """``chance`` with its rules (read once the counters, definitions and actions are
    known), or as it is without any."""
    if not any(k in node for k in ("keep", "into", "when")):
        return chance
    keep = into = when = None
    if "keep" in node:
        if not chance.ordered:
            raise SpecError(
                "chance.keep needs ordered dice: a roll that keeps some dice tells them apart",
                node.key_pos["keep"],
                "add 'ordered: true' to chance",
            )
        keep = self.condition(node["keep"], {KEEP_VAR: INT}, BOOL)
    if "into" in node:
        inode = node["into"]
        name = self.scalar(inode, str, "chance.into")
        arrays = self.names.arrays
        if name not in arrays:
            raise SpecError(f"chance.into names a counter array; '{name}' is not one", inode.pos, did_you_mean(name, list(arrays)) or "e.g. counters: {dice: {index: face, visible: owner}}")
        first, per_player, dims, typ = arrays[name]
        if not per_player or typ != INT or len(dims) != 1 or dims[0][0] != FACE:
            raise SpecError(
                f"chance.into names a per-player counter array of numbers indexed by face (how many of the roller's dice show each face); '{name}' is not one",
                inode.pos,
                f"declare it as {name}: {{index: face, visible: owner}}",
            )
        if keep is not None:
            raise SpecError("chance.into and chance.keep do not go together: a roll kept in a counter array has no public dice to keep", inode.pos)
        into = first
    if "when" in node:
        when = self.condition(node["when"], {}, BOOL)
    return DiceRulesIR(**{f.name: getattr(chance, f.name) for f in fields(chance)}, keep=keep, into=into, when=when)
