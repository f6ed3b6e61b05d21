"""How a random player draws a move: from the whole legal list (``whole``, the default)
or step by step (``steps``) for moves of two steps (``then:``).

``steps`` draws as a player who picks a first step and then its second step would, with
the same random numbers in both back ends (the generated engine's ``draw_steps()`` in
templates/playouts.pyx.j2 is this function in C). The legal moves, listed in ascending
id order, come grouped by their first step (ir/compound.py ``step_blocks``); a move of
an action without ``then:`` is a group of its own. One draw ``below(groups)`` picks a
first step uniformly among the distinct first steps that have a legal whole move (a
first step no second step can follow is not in the list, so it is never drawn: the
player must make both steps); then, when that first step has more than one completion,
one draw ``below(its completions)`` picks the second step. A spec without ``then:`` has
groups of one move each, so ``steps`` makes the very draws of ``whole``."""

from __future__ import annotations

from typing import Sequence

from .rng import Rng

SAMPLINGS = ("whole", "steps")  # the names the CLI and the engines' ``sampling`` take


def step_key(blocks: Sequence[tuple[int, int, int]], move: int) -> int:
    """The first move id of ``move``'s first step (``move`` itself outside every block)."""
    for base, end, radix in blocks:
        if base <= move < end:
            return base + (move - base) // radix * radix
    return move


def draw_steps(blocks: Sequence[tuple[int, int, int]], legal: Sequence[int], rng: Rng) -> int:
    """A move of ``legal`` (ascending, not empty) drawn step by step (see the module's text)."""
    starts = [i for i in range(len(legal)) if i == 0 or step_key(blocks, legal[i]) != step_key(blocks, legal[i - 1])]
    g = rng.below(len(starts))
    start = starts[g]
    size = (starts[g + 1] if g + 1 < len(starts) else len(legal)) - start
    return legal[start + rng.below(size)] if size > 1 else legal[start]


def check_sampling(sampling: str) -> bool:
    """True for ``steps``, False for ``whole``; a ValueError names the choices otherwise."""
    if sampling not in SAMPLINGS:
        raise ValueError(f"unknown sampling {sampling!r}: choose one of {', '.join(SAMPLINGS)}")
    return sampling == "steps"
