"""Specs written in the language as it was (issue 27: "Specs written in today's language
keep working (the `midgardc: 1` version)"): every spec of ``specs/`` as it stood at commit
0a76fe6, kept unchanged in ``tests/data/legacy_specs/``, still loads and plays exactly as
the current spec of the same name: the same legal moves (ids and text) at every ply of a
few short random games, and the same perft. Micro Midgard and Vikings have since been
rewritten (action rows, graph rows, items named by their zones): their moves are the
same, so the two forms are compared like every other spec."""

from __future__ import annotations

from pathlib import Path

import pytest

from midgardc.engines import load
from midgardc.runtime.game import perft
from midgardc.runtime.interpreter import random_move
from midgardc.runtime.rng import Rng

ROOT = Path(__file__).resolve().parents[1]
LEGACY = ROOT / "tests" / "data" / "legacy_specs"
SPECS = sorted(str(p.relative_to(LEGACY)) for p in LEGACY.rglob("*.yaml"))
SEEDS = (0, 1)
PLIES = 24  # per game: short, the point is the moves of the opening plies, not whole games
# perft depth 2 where the first two plies are cheap to list on the interpreter; depth 1
# where a ply's moves each need a lookahead (Go, chess) or a roll (Yahtzee)
DEPTH = {spec: 1 for spec in ("classics/go.yaml", "classics/chess.yaml", "classics/crazyhouse.yaml", "classics/yahtzee.yaml", "midgard-vikings.yaml", "meridian.yaml")}


def test_every_spec_of_the_day_is_kept() -> None:
    """The legacy folder holds a copy of every spec that specs/ held at 0a76fe6 (20)."""
    assert len(SPECS) == 20 and all((ROOT / "specs" / s).exists() for s in SPECS)


def trace(game) -> list:
    """Each ply of a few short random games: the legal moves' ids and texts, and the move."""
    out = []
    for seed in SEEDS:
        state = game.new_state(seed)
        core, rng = state.core, Rng(seed)
        for _ in range(PLIES):
            if core.terminal:
                break
            legal = list(core.legal()) if not core.chance else []
            move = random_move(core, rng)
            out.append((legal, [state.move_text(m) for m in legal], move, state.move_text(move)))
            core.apply(move)
    return out


@pytest.mark.parametrize("spec", SPECS)
def test_a_legacy_spec_plays_as_the_current_one(spec: str) -> None:
    old, new = (load(str(path), engine="interpreted") for path in (LEGACY / spec, ROOT / "specs" / spec))
    assert trace(old) == trace(new)
    depth = DEPTH.get(spec, 2)
    assert perft(old.new_state(0), depth) == perft(new.new_state(0), depth)
