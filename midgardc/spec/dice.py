"""Lowering of ``chance``: the dice's faces and outcomes (LowerChance), and the dice's
rules: ``chance.keep`` (the dice a roll keeps), ``chance.into``
(the counter array a private roll lands in) and ``chance.when`` (when a roll is due); see
midgardc/ir/dice.py."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Optional

from ..errors import SpecError, did_you_mean
from ..ir.dice import KEEP_VAR, DiceRulesIR
from ..ir.chance import ChanceIR, chance_tables
from ..ir.nodes import BOOL, FACE, INT, Action
from .actions import _can_write_prefix
from .schema import MAX_DRAWS, MAX_FACES, MAX_MOVES
from .yamlpos import YMap, YNode, YScalar


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


class LowerChance:
    """The ``chance`` section, for the Lowerer (spec/lower.py): the dice's faces, their
    outcomes' move ids after the actions', and then the dice's rules above."""

    def lower_chance(self, node: Optional[YNode]) -> Optional[ChanceIR]:
        """The dice: their faces become names usable in conditions (type face)."""
        if node is None:
            return None
        body = self.keys(node, "chance", "'chance'")
        name = self.ident(self.scalar(body["name"], str, "chance.name"), body["name"].pos, "chance.name") if "name" in body else "roll"
        dice = self.scalar(body["dice"], int, "chance.dice", 1, 16)
        ordered = self.scalar(body["ordered"], bool, "chance.ordered") if "ordered" in body else False
        fnode = body["faces"]
        if not isinstance(fnode, YMap) or not 1 <= len(fnode.items) <= MAX_FACES:
            raise SpecError(f"chance.faces maps 1 to {MAX_FACES} face names to their values, e.g. {{ace: 1, blank: 0}}", fnode.pos)
        if len(fnode.items) ** dice > MAX_DRAWS:
            raise SpecError(f"{len(fnode.items)} faces on {dice} dice make {len(fnode.items) ** dice} draws (limit {MAX_DRAWS})", body["dice"].pos)
        faces, texts, values = [], [], []
        for face, fbody in fnode.items.items():
            fpos = fnode.key_pos[face]
            self.ident(face, fpos, "face name")
            if face in self.names.constants:
                raise SpecError(f"face '{face}' has the same name as a player, piece kind or direction", fpos)
            text, value = face, len(faces)
            if isinstance(fbody, YMap):
                fbody = self.keys(fbody, "face", f"face '{face}'")
                text = self.scalar(fbody["text"], str, "a face's text") if "text" in fbody else face
                value = self.scalar(fbody["value"], int, "a face's value", -(2**31), 2**31 - 1) if "value" in fbody else value
            elif fbody is not None and not (isinstance(fbody, YScalar) and fbody.value is None):
                value = self.scalar(fbody, int, "a face's value", -(2**31), 2**31 - 1)
            if not text or any(ch.isspace() or ch in ",-:" for ch in text):
                raise SpecError(f"face text {text!r} may not be empty or contain spaces, commas, '-' or ':' (it is part of a move's text)", fpos)
            if text in texts:
                raise SpecError(f"two faces are written {text!r}; a roll's text would not say which", fpos)
            self.names.constants[face] = (len(faces), FACE)
            faces.append(face)
            texts.append(text)
            values.append(value)
        self.names.has_chance = True
        outcomes, weights, draw_outcome = chance_tables(len(faces), dice, ordered)
        return ChanceIR(name, tuple(faces), tuple(texts), tuple(values), dice, ordered, outcomes, weights, draw_outcome)

    def place_chance(self, chance: ChanceIR, actions: tuple[Action, ...], node: YNode) -> ChanceIR:
        """The outcomes' move ids follow the actions'."""
        if any(a.name == chance.name for a in actions):
            raise SpecError(f"the roll is called '{chance.name}', like an action; give it another chance.name", node.pos)
        prefix = chance.name + ":"
        for a in actions:
            values = [self.value_texts(a.params[part]) if isinstance(part, int) else () for part in a.notation]
            if _can_write_prefix(a.notation, values, prefix):
                raise SpecError(
                    f"action '{a.name}' can write a move starting '{prefix}', as the roll's outcomes are written, so a move's text would not say which is meant",
                    node.pos,
                    "give the roll another chance.name, or the action a notation (and cell names) that cannot start with it",
                )
        base = sum(a.size for a in actions)
        if base + len(chance.outcomes) > MAX_MOVES:
            raise SpecError(f"too many possible moves: {base:,} of the actions and {len(chance.outcomes):,} outcomes of the roll; the limit is {MAX_MOVES:,} in all", node.pos)
        return lower_dice_rules(self, replace(chance, base=base), self.keys(node, "chance", "'chance'"))
