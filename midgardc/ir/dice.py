"""Partial and private rolls: the dice a roll keeps (``chance.keep``), where a roll lands
(``chance.into``) and when one is due (``chance.when``).

``DiceRulesIR`` is a ``ChanceIR`` with those rules (each None when the spec does not give it).

**keep**: a roll throws only some of the dice: ``keep`` is a
condition on the local ``KEEP_VAR`` (the die's number, from 0), read on the state before
the roll; a die for which it holds keeps the face it shows (a die not rolled yet is always
thrown). Only ordered dice keep (each outcome is then equally likely among those the kept
dice allow, so every weight stays 1).

Sampling (both back ends): die by die, a kept die's face is its current face and draws
nothing from the stream; any other die is ``below(faces)`` as usual. The outcomes of a
partial roll are those whose kept dice show their current faces, ascending.

**into**: the first column of a per-player counter array of numbers indexed by face: a roll
sets the roller's (the player whose turn it opens) elements to how many dice show each face
and leaves the public roll (``die``, ``rolled``) as it was; whoever may not see that array
(its ``visible``) sees the roll's move written ``name:?``. So a private roll is a hidden
counter, and everything that hides counters (observations, tensors, samples) hides it.

**when**: a condition read as a turn starts (after setup, a move, a pass; the turn's player
is the mover): a roll is due only when it holds (default: at the start of every turn)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Optional, Sequence

from .chance import ChanceIR
from .nodes import Expr

KEEP_VAR = "i"  # the die's number in chance.keep


@dataclass(frozen=True)
class DiceRulesIR(ChanceIR):
    keep: Optional[Expr] = None
    into: Optional[int] = None
    when: Optional[Expr] = None


def keep_of(chance: Optional[ChanceIR]) -> Optional[Expr]:
    """The keep condition of a game's dice, or None (every roll throws every die)."""
    return getattr(chance, "keep", None)


def into_of(chance: Optional[ChanceIR]) -> Optional[int]:
    """The first column of the counter array a roll lands in, or None (the public roll)."""
    return getattr(chance, "into", None)


def when_of(chance: Optional[ChanceIR]) -> Optional[Expr]:
    """The condition under which a turn opens with a roll, or None (every turn does)."""
    return getattr(chance, "when", None)


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
