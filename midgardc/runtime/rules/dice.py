"""The interpreter's dice rules (``chance.keep``, ``into``, ``when``; see midgardc/ir/dice.py):
which dice a due roll keeps, its outcomes and sampling, where it lands and whether a turn
opens with one, as the compiled engine's dice section."""

from __future__ import annotations

from ...ir.dice import KEEP_VAR, into_of, keep_of, kept_outcomes, when_of


class Dice:
    """Part of ``Core`` (midgardc/runtime/interpreter.py)."""

    def kept_dice(self) -> list[bool]:
        """For each die: whether the due roll keeps its face (shown and kept by chance.keep)."""
        keep = keep_of(self.prog.ir.chance)
        if keep is None:
            return [False] * len(self.roll)
        fn = self.prog.fn(keep)
        return [self.roll[k] >= 0 and bool(fn(self, {KEEP_VAR: k})) for k in range(len(self.roll))]

    def roll_outcomes(self) -> list[int]:
        """The due roll's outcomes as move ids, ascending."""
        chance = self.prog.ir.chance
        if keep_of(chance) is None:
            return list(range(chance.base, chance.base + len(chance.outcomes)))
        return [chance.base + o for o in kept_outcomes(chance, self.roll, self.kept_dice())]

    def sample_chance(self) -> int:
        """The outcome of the due roll drawn from the state's chance stream (advancing it;
        the caller applies it): die by die, see ChanceIR; a kept die draws nothing."""
        chance = self.prog.ir.chance
        kept = self.kept_dice()
        draw = 0
        for k in range(chance.dice):
            face = self.roll[k] if kept[k] else self.rng.below(chance.n_faces)
            draw = draw * chance.n_faces + face
        return chance.base + chance.draw_outcome[draw]

    def land_roll(self, faces) -> None:
        """A roll's outcome comes up: into the roller's counter array (chance.into: how
        many dice show each face), or as the public roll."""
        into = into_of(self.prog.ir.chance)
        if into is None:
            self.roll = list(faces)
            return
        row = self.counters[self.current]
        for f in range(self.prog.ir.chance.n_faces):
            row[into + f] = 0
        for f in faces:
            row[into + f] += 1

    def roll_due(self) -> bool:
        """chance.when, read as a turn opens (True without one)."""
        when = when_of(self.prog.ir.chance)
        return when is None or bool(self.prog.fn(when)(self, {}))
