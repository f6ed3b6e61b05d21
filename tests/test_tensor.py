"""Observation tensors (midgardc.research.tensor): fixed shape, equal on both back ends, and
showing exactly what ``state.observation(player)`` shows."""

from __future__ import annotations

import os
import random
from collections import Counter

import numpy as np
import pytest

from conftest import SPECS, get_game
from midgardc.ir.values import counter_text
from midgardc.research.tensor import native_facts, native_tensor, observation_tensor, python_tensor, schema
from midgardc.engines import load
from midgardc.spec.lower import list_player_counts, list_variants

LONG = bool(os.environ.get("MIDGARDC_LONG"))
ALL_SPECS = sorted(str(p.relative_to(SPECS)) for p in list(SPECS.glob("*.yaml")) + list(SPECS.glob("classics/*.yaml")))

CASES = ["classics/tic-tac-toe.yaml", "magic-mids.yaml", "midgard-vikings.yaml", "meridian.yaml", "midgard.yaml"]


def _walk(spec: str, seed: int, plies: int, variant=None, players=None):
    """Pairs of (interpreted, compiled) states along one random game."""
    if players is None:
        gi, gc = get_game(str(SPECS / spec), variant, "interpreted"), get_game(str(SPECS / spec), variant, "compiled")
    else:
        gi, gc = (load(str(SPECS / spec), variant, engine=e, n_players=players) for e in ("interpreted", "compiled"))
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


def _every_game():
    for spec in ALL_SPECS:
        if not LONG:
            yield pytest.param(spec, None, None, id=spec)
            continue
        for variant in [None, *list_variants(str(SPECS / spec))]:
            for n in list_player_counts(str(SPECS / spec), variant) or (None,):
                yield pytest.param(spec, variant, n, id=f"{spec}-{variant or 'base'}-{n or 'default'}")


@pytest.mark.parametrize("spec,variant,players", list(_every_game()))
def test_compiled_writer_equals_the_python_writer(spec, variant, players):
    """The C writer (into a caller's buffer) gives the Python writer's tensor for every viewer
    along random games, on the interpreter's state and on the compiled one."""
    buf = None
    for seed in (1, 2) if not LONG else (1, 2, 3, 4):
        for a, b in _walk(spec, seed=seed, plies=60 if LONG else 30, variant=variant, players=players):
            sch = schema(b.game.ir)
            if buf is None:
                buf = np.full(sch.size, 7.0, dtype=np.float32)  # stale values must be overwritten
            for p in range(b.game.ir.n_players):
                expected = python_tensor(a, p)
                assert np.array_equal(python_tensor(b, p), expected)
                assert native_tensor(b, p, buf) is buf
                assert np.array_equal(buf, expected), f"viewer {p} at ply {b.core.ply}: parts differ: " + ", ".join(
                    part.name for part in sch.parts if not np.array_equal(sch.view(buf, part.name), sch.view(expected, part.name))
                )


def test_every_schema_part_has_a_compiled_writer():
    """The layout handed to C names every part of the schema (none is silently left 0)."""
    from midgardc.compiler.tensor import TENSOR_PARTS

    for spec in ALL_SPECS:
        ir = get_game(str(SPECS / spec), None, "interpreted").ir
        facts = native_facts(ir)
        sch = schema(ir)
        assert {p.name for p in sch.parts} <= set(TENSOR_PARTS)
        assert [facts.layout[TENSOR_PARTS.index(p.name)] for p in sch.parts] == [p.offset for p in sch.parts]
        assert facts.layout[-1] == sch.size


def test_compiled_tensor_refuses_a_wrong_buffer():
    g = get_game(str(SPECS / "classics" / "tic-tac-toe.yaml"), None, "compiled")
    s = g.new_state(0)
    with pytest.raises(ValueError):
        native_tensor(s, 2)
    with pytest.raises(ValueError):
        native_tensor(s, 0, np.zeros(3, np.float32))
    wide = np.zeros(schema(g.ir).size, np.float64)  # another dtype: written through a copy
    assert np.array_equal(observation_tensor(s, 0, wide), python_tensor(s, 0))


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
@pytest.mark.parametrize("spec", ["midgard-vikings.yaml", "meridian.yaml"])
def test_tensor_shows_what_the_observation_shows(spec, engine):
    seen_hidden = False
    for pair in _walk(spec, seed=5, plies=40):
        a = pair[0] if engine == "interpreted" else pair[1]
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
                        # a typed counter (a place, a card kind, a cell) is its value's
                        # index in the tensor, its name in the observation
                        shown = None if kn[q, j] == 0 else counter_text(ir, i, int(vals[q, j]))
                        assert (kn[q, j], shown) == ((0, None) if v is None else (1, v))
                        assert kn[q, j] == 1 or vals[q, j] == 0
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
