"""The generic half of every compiled engine: what does not depend on the spec.

A compiled engine is two extension modules. The spec's *rules module* (generated from
the templates in ``midgardc/compiler/templates``) holds only C-level code: the state
layout, tables, move generation, effects, end and ranking, and the hot loops (random
games, perft, traces, the tensor fill) with direct calls. It exports a table of sizes,
flags and function pointers (``vtable.pxi``) as the capsule ``RULES``. The *generic
module* (``generic.pyx``, compiled once per midgardc version and shared by every game)
holds the Python-facing ``Core``, ``playouts()``/``rollouts()``/``perft()``/
``playout_trace()``, batches, tensors' Python side and MCTS; it sees a state as opaque
bytes and calls the game through the table. See docs/design.md, "Building engines".

This package reads its own source files only; it imports nothing from the compiler.
"""

from __future__ import annotations

import os

HERE = os.path.dirname(os.path.abspath(__file__))
VTABLE = os.path.join(HERE, "vtable.pxi")
GENERIC = os.path.join(HERE, "generic.pyx")


def vtable_text() -> str:
    """The table's declaration, copied verbatim into both modules (and so into both keys)."""
    with open(VTABLE, encoding="utf-8") as fh:
        return fh.read()


def generic_source() -> str:
    """The generic module's whole source: generic.pyx with the table's text in place of
    its ``include`` line (one self-contained file, hashed for its build key)."""
    with open(GENERIC, encoding="utf-8") as fh:
        text = fh.read()
    return text.replace('include "vtable.pxi"\n', vtable_text())
