"""Two back ends, one meaning: the compiled engine plays exactly like the interpreter.

For the same spec, variant and seed both produce the same game move for move, the same
state after every move, and the same aggregate playout results. The interpreter is the
oracle. Compiled engines are built once per session (cached by content hash); the costly
part is the interpreter's games, so each is played once and checked several ways.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from conftest import MIDGARD, MIDGARD_VARIANTS, SPECS, get_game
from midgardc.compiler import build
from midgardc.ir.compound import step_blocks
from midgardc.runtime.game import perft as generic_perft
from midgardc.runtime.interpreter import random_move
from midgardc.runtime.results import summarize_core
from midgardc.runtime.rng import Rng, derive_seed
from midgardc.spec.lower import list_variants

SAMPLER = str(Path(__file__).parent / "data" / "sampler.yaml")
REGIONS = str(Path(__file__).parent / "data" / "regions.yaml")
DICE = str(Path(__file__).parent / "data" / "dice.yaml")  # chance, player counts
CAPTURES = str(Path(__file__).parent / "data" / "captures.yaml")  # remove, extra_turn
PHASES = str(Path(__file__).parent / "data" / "phases.yaml")  # game counters, next_turn
PHASE_RULES = str(Path(__file__).parent / "data" / "phase_rules.yaml")  # phases: stages and steps of a turn
SEED = 20_240_607
GAMES = 1000  # per Midgard variant, in the slow run


def engines(spec: str, variant=None):
    return get_game(spec, variant, "interpreted").engine, get_game(spec, variant, "compiled").engine


def interpreter_games(engine, n: int, seed: int, sampling: str = "whole") -> tuple[list[list[int]], dict]:
    """Games 0..n-1 of ``playouts(n, seed, sampling=sampling)`` on the interpreter: their
    moves and the aggregate results (the same loop as InterpretedEngine.playouts, keeping
    the moves)."""
    blocks = step_blocks(engine.ir) if sampling == "steps" else None
    traces, stats = [], None
    for i in range(n):
        game_seed = derive_seed(seed, i)
        core = engine.new_core(game_seed)  # (the seed of its chance stream, for dice)
        rng = Rng(game_seed)
        moves = []
        while not core.terminal:
            move = random_move(core, rng, blocks)
            core.apply(move)
            moves.append(move)
        traces.append(moves)
        stats = summarize_core(engine.ir, core, stats)
    return traces, stats


def check_games(spec: str, variant, n: int, seed: int, sampling: str = "whole") -> None:
    interp, comp = engines(spec, variant)
    traces, stats = interpreter_games(interp, n, seed, sampling)
    for i, trace in enumerate(traces):
        got = comp.playout_trace(derive_seed(seed, i), sampling=sampling)
        assert got == trace, f"game {i} (seed {derive_seed(seed, i)}): first difference at ply {_first_difference(got, trace)}"
    assert comp.playouts(n, seed, sampling=sampling) == stats


def _first_difference(a: list[int], b: list[int]) -> int:
    return next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def every_spec() -> list[tuple[str, object]]:
    out = []
    for path in build.spec_files(str(SPECS)) + [SAMPLER, REGIONS, DICE, CAPTURES, PHASES, PHASE_RULES]:
        for variant in [None, *list_variants(path)]:
            out.append((path, variant))
    return out


def spec_id(item) -> str:
    path, variant = item
    return os.path.basename(path) + (f"[{variant}]" if variant else "")


# --------------------------------------------------------------------------- whole games


LONG = bool(os.environ.get("MIDGARDC_LONG"))


@pytest.mark.slow
@pytest.mark.skipif(not LONG, reason="4,000 interpreter games of Midgard; set MIDGARDC_LONG=1")
@pytest.mark.parametrize("variant", MIDGARD_VARIANTS, ids=str)
def test_midgard_thousand_games_move_for_move(variant):
    """What the long run adds: 1,000 games per Midgard variant (the default run plays 60 of
    each in test_every_spec_plays_the_same_games, with another seed)."""
    check_games(MIDGARD, variant, GAMES, SEED)


# Specs whose interpreted games are dear play fewer in every run (all 60 with MIDGARDC_LONG=1):
# chess plays about 0.3 random games/s on the interpreter (about 400 plies each), 60 took 185 s.
# Shogi: about 35 plies/s (its random games run to hundreds of plies, 792 on average): one.
QUICK_GAMES = {"chess.yaml": 6, "crazyhouse.yaml": 5, "shogi.yaml": 1}


@pytest.mark.parametrize("item", every_spec(), ids=spec_id)
def test_every_spec_plays_the_same_games(item):
    # every spec under specs/ (and the feature sampler): a quick check in every run
    check_games(item[0], item[1], QUICK_GAMES.get(os.path.basename(item[0]), 60) if not LONG else 60, SEED + 1)


def test_region_searches_that_stop_early_change_nothing():
    # The compiled region search stops at the first sign that a region is open and grows
    # the rest only after a fill, before the next seed. tests/data/regions.yaml has many
    # seeds per assessment, open regions beside closed ones and membership that each fill
    # changes board-wide: dropping that late growth, or the check that joins a search to
    # an unfinished open region, makes many (resp. nearly all) of these games differ.
    check_games(REGIONS, None, 300, SEED + 3)
    # ... and with a priority the compiled search evaluates cell by cell (no cell set)
    check_games(REGIONS, "counted-priority", 300, SEED + 4)
    # ... and with regions that may hold pieces (members that are not all empty)
    check_games(REGIONS, "held-cells", 300, SEED + 5)


@pytest.mark.parametrize("variant", ["short-hands", "short-hands-counted", "short-hands-walked"])
def test_a_winner_short_of_pieces_takes_back_the_same_cells(variant):
    # Hands of 14 stones run out while regions are won: a sole winner short of a stone for
    # a priority cell takes one back from a non-priority cell it won earlier in the same
    # assessment (about one game in 15-50 here), on the set search with a priority set or
    # a priority tested cell by cell, and on the cell-by-cell search
    check_games(REGIONS, variant, 300, SEED + 6)


def test_interpreter_playouts_is_the_loop_these_tests_use():
    interp, comp = engines(MIDGARD, "loki")
    assert interp.playouts(12, 5) == interpreter_games(interp, 12, 5)[1] == comp.playouts(12, 5)


def test_playout_traces_with_plain_seeds():
    for spec, variant in [(MIDGARD, None), (MIDGARD, "odin"), (SAMPLER, None)]:
        interp, comp = engines(spec, variant)
        for seed in (0, 1, 2**64 - 1, -1, 2**70 + 3):  # seeds are taken modulo 2**64
            assert comp.playout_trace(seed) == interp.playout_trace(seed)


def test_playouts_edge_cases():
    interp, comp = engines(MIDGARD, "odin")
    assert comp.playouts(0, 1) == interp.playouts(0, 1)
    assert comp.playouts(3, -7) == interp.playouts(3, -7)
    assert comp.playouts(1, 2**64 + 9) == interp.playouts(1, 9)


# --------------------------------------------------------------------------- states


def snapshot(core) -> tuple:
    return (
        core.legal(),
        core.keys(),
        core.board,
        core.hands,
        core.counters,
        core.current,
        core.last,
        core.ply,
        core.passes,
        bool(core.terminal),
        bool(core.ply_limited),
        core.roll,
        bool(core.chance),
        core.zones,
    )


@pytest.mark.parametrize(
    "item",
    [(MIDGARD, v) for v in MIDGARD_VARIANTS]
    + [(SAMPLER, None), (SAMPLER, "short"), (str(SPECS / "classics" / "tic-tac-toe.yaml"), None), (DICE, None), (DICE, "ordered"), (CAPTURES, None), (PHASES, None), (PHASE_RULES, None)]
    + [(str(SPECS / "kuhn-poker.yaml"), None), (str(SPECS / "leduc-poker.yaml"), None)]
    + [(str(SPECS / "classics" / "liars-dice.yaml"), None), (str(SPECS / "classics" / "yahtzee.yaml"), None)],  # private and partial rolls
    ids=spec_id,
)
def test_state_agrees_after_every_move(item):
    interp, comp = engines(*item)
    rng = random.Random(hash(spec_id(item)) & 0xFFFF)
    for game in range(12):
        a, b = interp.new_core(), comp.new_core()
        assert snapshot(a) == snapshot(b)
        while not a.terminal:
            move = rng.choice(a.legal())
            before = b.clone()
            a.apply(move)
            b.apply(move)
            assert snapshot(a) == snapshot(b), f"game {game}, ply {a.ply}, after move {move}"
            if move < interp.ir.n_action_moves:
                assert before.ply == b.ply - 1  # clones are independent
            else:  # a roll is not a ply: the clone still has its roll due
                assert before.chance and not before.terminal
        assert b.legal() == []


def test_playout_trace_from_a_position():
    interp, comp = engines(MIDGARD)
    a, b = interp.new_core(), comp.new_core()
    for move in [5, 60, 90, 17, 33, 121]:
        a.apply(move)
        b.apply(move)
    snap = snapshot(b)
    for seed in range(20):
        assert comp.playout_trace(seed, b) == interp.playout_trace(seed, a)
    assert snapshot(b) == snap  # the position itself is untouched


def test_loaded_positions_agree():
    interp, comp = engines(MIDGARD, "loki")
    rng = random.Random(3)
    n = interp.ir.board.n_cells
    for _ in range(30):
        board = [rng.choice([0, 0, 1, 2]) for _ in range(n)]
        hands = [[rng.randint(0, 5)], [rng.randint(0, 5)]]
        current = rng.randint(0, 1)
        a, b = interp.new_core(), comp.new_core()
        a.load(board, hands, current, 1 - current, 7)
        b.load(board, hands, current, 1 - current, 7)
        assert snapshot(a) == snapshot(b)
        seed = rng.getrandbits(64)
        assert comp.playout_trace(seed, b) == interp.playout_trace(seed, a)


@pytest.mark.parametrize("spec", [MIDGARD, str(SPECS / "classics" / "go.yaml")], ids=["midgard", "go"])
def test_a_core_loaded_again_after_play_agrees(spec):
    # the compiled State keeps some cell sets and their dilations as pieces are put and
    # taken (keep_dilations()); loading a position into a core that has played (fewer or
    # other occupied cells) must start them afresh
    interp, comp = engines(spec)
    rng = random.Random(5)
    n = interp.ir.board.n_cells
    b = comp.new_core()
    for _ in range(12):
        move_rng = Rng(rng.getrandbits(32))
        for _ in range(rng.randint(0, 30)):
            if b.terminal:
                break
            b.apply(random_move(b, move_rng))
        board = [rng.choice([0, 0, 0, 1, 2]) for _ in range(n)]
        current = rng.randint(0, 1)
        hands = [list(h) for h in interp.ir.hand_init]
        a = interp.new_core()
        a.load(board, hands, current, 1 - current, 7)
        b.load(board, hands, current, 1 - current, 7)
        assert snapshot(a) == snapshot(b)
        seed = rng.getrandbits(64)
        assert comp.playout_trace(seed, b) == interp.playout_trace(seed, a)


def test_loaded_counters_agree():
    # load(counters=...) sets every player's counters (rule tests start from positions
    # with points or resources); without it the counters are kept, in both back ends
    interp, comp = engines(SAMPLER)
    rng = random.Random(5)
    n = interp.ir.board.n_cells
    for _ in range(20):
        board = [rng.choice([0, 0, 1, 2, 3]) for _ in range(n)]
        hands = [[rng.randint(0, 7), rng.randint(0, 3)] for _ in range(3)]
        counters = [[rng.randint(-9, 9), rng.randint(-9, 9)] for _ in range(3)] + [[0, 0]]  # then the game's row
        a, b = interp.new_core(), comp.new_core()
        a.load(board, hands, 1, 0, 3, counters=counters)
        b.load(board, hands, 1, 0, 3, counters=counters)
        assert a.counters == b.counters == counters
        assert snapshot(a) == snapshot(b)
        seed = rng.getrandbits(64)
        assert comp.playout_trace(seed, b) == interp.playout_trace(seed, a)
        a.load(board, hands, 0)
        b.load(board, hands, 0)
        assert a.counters == b.counters == counters
    for core in (interp.new_core(), comp.new_core()):
        with pytest.raises(ValueError, match="counters"):
            core.load([0] * n, [[1, 1]] * 3, 0, counters=[[0, 0]] * 3)  # the game's row missing


def test_bad_moves_and_loads_are_refused():
    _, comp = engines(MIDGARD)
    core = comp.new_core()
    with pytest.raises(ValueError, match="out of range"):
        core.apply(124)
    with pytest.raises(ValueError, match="out of range"):
        core.apply(-1)
    with pytest.raises(ValueError):
        core.load([0] * 3, [[1], [1]], 0)
    with pytest.raises(ValueError):
        core.load([7] * 124, [[1], [1]], 0)


def test_cores_pickle():
    import pickle

    _, comp = engines(MIDGARD)
    core = comp.new_core()
    core.apply(40)
    again = pickle.loads(pickle.dumps(core))
    assert snapshot(again) == snapshot(core)


# --------------------------------------------------------------------------- perft


@pytest.mark.parametrize(
    "item, depth",
    [((SAMPLER, None), 3), ((SAMPLER, "short"), 2), ((str(SPECS / "classics" / "tic-tac-toe.yaml"), None), 4), ((MIDGARD, "loki"), 2)],
    ids=lambda x: spec_id(x) if isinstance(x, tuple) else str(x),
)
def test_perft_in_c_matches_the_generic_perft(item, depth):
    game_i = get_game(item[0], item[1], "interpreted")
    game_c = get_game(item[0], item[1], "compiled")
    for d in range(depth + 1):
        expected = generic_perft(game_i.new_state(), d)
        assert game_c.engine.perft(d) == expected == generic_perft(game_c.new_state(), d)


def test_perft_counts_only_sequences_of_exactly_the_depth():
    # the standard definition (published perft tables): a game that ended earlier is no leaf
    ttt = str(SPECS / "classics" / "tic-tac-toe.yaml")
    game = get_game(ttt, None, "compiled")
    assert game.engine.perft(9) == generic_perft(game.new_state(), 9) == 127_872  # games that last all 9 plies
    assert game.engine.perft(10) == generic_perft(game.new_state(), 10) == 0  # every game is over by ply 9


# --------------------------------------------------------------------------- code without cell sets


def test_cell_by_cell_code_plays_the_same_games(monkeypatch):
    # Boards too large for cell sets get cell-by-cell code; force it on the sampler (all
    # kinds of rules) and on Midgard to check that path move for move too.
    from midgardc.compiler.emit import expressions
    from midgardc.runtime.compiled import CompiledEngine

    monkeypatch.setattr(expressions, "MAX_SET_CELLS", 0)
    for spec, variant in [(SAMPLER, None), (MIDGARD, None), (REGIONS, None)]:
        interp = get_game(spec, variant, "interpreted").engine
        # the generator's files are unchanged, so the cache key needs the change named
        comp = CompiledEngine(interp.ir, build.build_engine(interp.ir, tag="MAX_SET_CELLS=0"))
        assert comp.module.__name__ != build.module_name(interp.ir)
        assert "cellset_" not in build.generate_source(interp.ir)
        traces, stats = interpreter_games(interp, 40, SEED + 2)
        for i, trace in enumerate(traces):
            assert comp.playout_trace(derive_seed(SEED + 2, i)) == trace
        assert comp.playouts(40, SEED + 2) == stats
