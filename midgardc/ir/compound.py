"""Compound moves: one move made of several steps by the same player, written as one
notation and counted as one move. Two kinds: steps of one action repeated while one is
legal (``continue:``, a multi-jump: ``Chain``), and a first step followed by one step of a
different kind (``then:``, move a piece and then shoot from where it landed: ``Then``).

An action with ``continue:`` is a *step*. After a step's effects, while ``going`` holds
on the state it left (and fewer than ``limit`` steps were made), the same player must make
another step of the same action whose first parameter is ``value`` (an expression of the
step's parameters, read after its effects), if any such step is legal; the move ends when
none is. The whole moves starting with one legal first step are found by a depth-first
search over the steps, continuations in ascending order of their step ids; the k-th of
them (from 0) has the id ``base + first_step * ways + k``, where ``first_step`` is the
mixed-radix binding of the first step's parameters. Triggers run once, after the last
step, with the last step's parameters.

An action with ``then:`` is a move of two steps. Its parameters are the first step's and
then the second step's, so a whole move is one binding of them all, its id the usual
mixed radix (``base + binding``: it does not depend on the position) and its text the two
notations joined (``d1-d7/g7``). A binding is legal when the first step's ``where`` holds,
and then the second step's ``where`` holds on the state the first step's effects left
(read with every parameter); a first step that no second step can follow is no move.
The move's effects are the first step's and then the second step's (``Action.effects``
holds both, ``Then.effects`` says how many are the first step's), its triggers run once,
after both, with every parameter. The legal moves are listed like any action's, first
step's parameters slowest: for each legal first step, its effects on a copy of the state,
then the second step's parameter loops on that copy.

With ``most`` (an integer expression, read on the state a whole move leaves before its
triggers, with its last step's parameters) only the whole moves of the action with the
greatest value in the position are legal ("the sequence capturing the most pieces must be
taken"). Then ``k`` counts only the whole moves of the first step that reach the greatest
value among that first step's own whole moves: a first step with a legal move reaches
the action's greatest value, so its legal moves are exactly those, and a move can be
played knowing its first step alone.

The rules are ``midgardc/runtime/rules/compound.py`` (Python) and
``midgardc/compiler/emit/compound.py`` (C)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

MAX_STEPS = 64  # the most steps a compound move may declare (continue.limit)
MAX_WAYS = 4096  # the most whole moves one first step may start (continue.ways)
MAX_NEXT = 4096  # the most bindings of a step with one value of its first parameter (a stack buffer)


@dataclass(frozen=True)
class Chain:
    """``Action.chain``: how a step goes on (see the module's text)."""

    value: "object"  # Expr: the next step's first parameter, read after this step's effects
    going: Optional["object"]  # Expr (condition) or None: the move may go on after this step
    notation: tuple[Union[str, int], ...]  # each further step: literal text and parameter indices
    limit: int  # the most steps in one move
    ways: int  # id slots per first step: the most whole moves one first step starts
    step_size: int  # how many bindings the step's parameters have (Action.size // ways)
    most: Optional["object"] = None  # Expr (int) or None: only the whole moves with its greatest value are legal


@dataclass(frozen=True)
class Then:
    """``Action.then``: the second step of a move of two steps (see the module's text)."""

    first: int  # how many of the action's parameters are the first step's (the rest: the second's)
    effects: int  # how many of the action's effects are the first step's (the rest: the second's)
    where: "object"  # Expr: the second step's condition, on the state after the first step's effects


def step_blocks(ir: "object") -> tuple[tuple[int, int, int], ...]:
    """``(base, end, radix)`` of each action of two steps (``then:``): its moves are the ids
    ``base .. end - 1``, and the whole moves of one first step are ``radix`` consecutive
    ids (the second step's parameters vary fastest), so ``base + (m - base) // radix *
    radix`` names move m's first step. Random playouts that draw step by step
    (``sampling: steps``, runtime/sampling.py and templates/playouts.pyx.j2) group the
    legal list by it."""
    out = []
    for a in ir.actions:
        if a.then is None:
            continue
        radix = 1
        for p in a.params[a.then.first :]:
            radix *= {"cell": ir.board.n_cells, "player": ir.n_players, "kind": ir.n_kinds, "dir": len(ir.board.directions), "item": ir.n_item_kinds}.get(p.type, p.hi - p.lo + 1)
        out.append((a.base, a.base + a.size, radix))
    return tuple(out)
