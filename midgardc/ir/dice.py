"""Partial rolls: the dice a roll keeps (``chance.keep``).

``KeepChanceIR`` is a ``ChanceIR`` whose roll throws only some of the dice: ``keep`` is a
condition on the local ``KEEP_VAR`` (the die's number, from 0), read on the state before
the roll; a die for which it holds keeps the face it shows (a die not rolled yet is always
thrown). Only ordered dice keep (each outcome is then equally likely among those the kept
dice allow, so every weight stays 1).

Sampling (both back ends): die by die, a kept die's face is its current face and draws
nothing from the stream; any other die is ``below(faces)`` as usual. The outcomes of a
partial roll are those whose kept dice show their current faces, ascending."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Optional, Sequence

from .nodes import ChanceIR, Expr

KEEP_VAR = "i"  # the die's number in chance.keep


@dataclass(frozen=True)
class KeepChanceIR(ChanceIR):
    keep: Optional[Expr] = None


def keep_of(chance: Optional[ChanceIR]) -> Optional[Expr]:
    """The keep condition of a game's dice, or None (every roll throws every die)."""
    return getattr(chance, "keep", None)


def kept_outcomes(chance: ChanceIR, roll: Sequence[int], kept: Sequence[bool]) -> list[int]:
    """The outcome indices (ascending, without ``base``) a roll keeping ``kept`` dice can
    give: ordered outcomes are the draws in mixed radix, die 0 most significant."""
    n = chance.n_faces
    choices = [(roll[k],) if kept[k] and roll[k] >= 0 else range(n) for k in range(chance.dice)]
    out = []
    for faces in product(*choices):
        draw = 0
        for f in faces:
            draw = draw * n + f
        out.append(draw)
    return out
