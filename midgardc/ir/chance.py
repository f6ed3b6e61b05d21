"""The game's dice as IR: which faces, how many dice, and the outcome tables both back ends
sample from. Kept apart from ``nodes.py`` because only the chance node reads them; the rules
a roll may follow (keep, into, when) are in ``dice.py``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChanceIR:
    """The game's dice: ``dice`` dice of the same ``faces``, rolled at the start of every
    turn (before the player to move chooses). The roll is a chance node whose outcomes
    are move ids ``base + o``.

    Sampling (both back ends, the state's own SplitMix64 stream): die i = ``below(len(faces))``
    for i = 0 .. dice-1, in that order; ``draw`` = mixed radix of the faces drawn (die 0
    most significant); the outcome is ``draw_outcome[draw]``. With ``ordered`` the outcome
    is the draw itself; otherwise the dice are a multiset: an outcome is the faces sorted
    by face index, outcomes listed in lexicographic order of those sorted tuples, and
    ``weights[o]`` is how many of the ``len(faces) ** dice`` equally likely draws give it
    (its probability is ``weights[o] / len(faces) ** dice``)."""

    name: str  # notation prefix: "roll" -> "roll:A-4-blank"
    faces: tuple[str, ...]  # names used in conditions
    texts: tuple[str, ...]  # how each face is written in a move
    values: tuple[int, ...]  # face_value(f)
    dice: int
    ordered: bool
    outcomes: tuple[tuple[int, ...], ...]  # faces per outcome, die by die
    weights: tuple[int, ...]
    draw_outcome: tuple[int, ...]
    base: int = 0

    @property
    def n_faces(self) -> int:
        return len(self.faces)

    @property
    def n_draws(self) -> int:
        return len(self.faces) ** self.dice

    def text(self, outcome: int) -> str:
        return self.name + ":" + "-".join(self.texts[f] for f in self.outcomes[outcome])


def chance_tables(n_faces: int, dice: int, ordered: bool) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
    """(outcomes, weights, draw_outcome) for ``ChanceIR`` (see there for the order)."""
    from itertools import combinations_with_replacement, product

    draws = list(product(range(n_faces), repeat=dice))
    if ordered:
        return tuple(draws), tuple(1 for _ in draws), tuple(range(len(draws)))
    outcomes = list(combinations_with_replacement(range(n_faces), dice))
    index = {o: i for i, o in enumerate(outcomes)}
    draw_outcome = tuple(index[tuple(sorted(d))] for d in draws)
    weights = [0] * len(outcomes)
    for o in draw_outcome:
        weights[o] += 1
    return tuple(outcomes), tuple(weights), draw_outcome
