"""Observation tensors (midgardc.research.tensor): fixed shape, equal on both back ends, and
showing exactly what ``state.observation(player)`` shows."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from conftest import SPECS, get_game
from midgardc.research.tensor import observation_tensor, schema

CASES = ["classics/tic-tac-toe.yaml", "magic-mids.yaml", "midgard-vikings.yaml", "meridian.yaml", "midgard.yaml"]


def _walk(spec: str, seed: int, plies: int):
    """Pairs of (interpreted, compiled) states along one random game."""
    gi, gc = get_game(str(SPECS / spec), None, "interpreted"), get_game(str(SPECS / spec), None, "compiled")
    a, b = gi.new_state(seed), gc.new_state(seed)
    rng = random.Random(seed)
    yield a, b
    for _ in range(plies):
        if a.is_terminal():
            return
        moves = a.legal_move_ids()
        assert moves == b.legal_move_ids()
        m = rng.choice(moves)
        a.apply_unchecked(m)
        b.apply_unchecked(m)
        yield a, b


@pytest.mark.parametrize("spec", CASES)
def test_both_engines_give_identical_tensors(spec):
    sch = schema(get_game(str(SPECS / spec), None, "interpreted").ir)
    assert schema(get_game(str(SPECS / spec), None, "compiled").ir) == sch
    for a, b in _walk(spec, seed=3, plies=60):
        for p in range(a.game.ir.n_players):
            ta, tb = observation_tensor(a, p), observation_tensor(b, p)
            assert ta.shape == sch.shape and ta.dtype == np.float32
            assert np.array_equal(ta, tb)


@pytest.mark.parametrize("spec", ["midgard-vikings.yaml", "meridian.yaml"])
def test_tensor_shows_what_the_observation_shows(spec):
    seen_hidden = False
    for a, _ in _walk(spec, seed=5, plies=40):
        ir = a.game.ir
        sch = schema(ir)
        for p in range(ir.n_players):
            t = observation_tensor(a, p)
            obs = a.observation(p)
            known, items, size = sch.view(t, "places_known"), sch.view(t, "places_items"), sch.view(t, "places_size")
            contents = [e for pl in obs["players"] for e in pl.get("zones", {}).values()]
            contents += [e for owners in obs.get("zones", {}).values() for e in owners.values()]
            assert len(contents) == len(known)
            for n, entry in enumerate(contents):
                assert size[n] == entry["size"]
                if entry["items"] is None:
                    seen_hidden = True
                    assert known[n] == 0 and not items[n].any()
                else:
                    assert known[n] == 1
                    counts = Counter(entry["items"])
                    assert {ir.item_texts[k]: int(v) for k, v in enumerate(items[n]) if v} == dict(counts)
            if ir.player_counters:
                vals, kn = sch.view(t, "counters"), sch.view(t, "counters_known")
                for q, pl in enumerate(obs["players"]):
                    for j, i in enumerate(ir.player_counters):
                        v = pl["counters"][ir.counters[i]]
                        assert (kn[q, j], vals[q, j]) == ((0, 0) if v is None else (1, v))
    assert seen_hidden


def test_board_planes_and_turn():
    g = get_game(str(SPECS / "classics" / "tic-tac-toe.yaml"), None, "compiled")
    s = g.new_state(0)
    s.apply("b2")
    sch = schema(g.ir)
    t = observation_tensor(s, 1)
    board = sch.view(t, "board")
    cell = g.ir.board.cell_names.index("b2")
    assert board[0, :, cell].sum() == 1 and board.sum() == 1
    assert list(sch.view(t, "current")) == [0, 1]
    assert "board" in str(sch) and str(sch.size) in str(sch)


def test_schema_printer(capsys):
    from midgardc.research.tensor import main

    assert main([str(SPECS / "magic-mids.yaml"), "-", "3"]) == 0
    out = capsys.readouterr().out
    assert "roll" in out and "(3, 6)" in out and "(total)" in out
    assert main([str(SPECS / "nope.yaml")]) == 1
    assert "error:" in capsys.readouterr().err
