"""Partial rolls (chance.keep): a roll that keeps some dice and throws the others.

tests/data/keep_dice.yaml (three ordered dice of three faces; a keep move sets dice aside,
the next roll throws only the others) is played by both back ends: the same seed gives the
same rolls and moves (a kept die draws nothing from the chance stream), a partial roll's
outcomes are those its kept dice allow, each equally likely, and perft agrees.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ENGINES, get_game
from midgardc.errors import SpecError
from midgardc.runtime.game import perft
from midgardc.runtime.interpreter import random_move
from midgardc.runtime.rng import Rng, derive_seed
from midgardc.spec.lower import load_game_ir

KEEP = str(Path(__file__).parent / "data" / "keep_dice.yaml")
SEED = 4_242
GAMES = 150


def _traces(engine, n: int, seed: int) -> list[list[int]]:
    out = []
    for i in range(n):
        game_seed = derive_seed(seed, i)
        core, rng, moves = engine.new_core(game_seed), Rng(game_seed), []
        while not core.terminal:
            move = random_move(core, rng)
            core.apply(move)
            moves.append(move)
        out.append(moves)
    return out


def test_both_engines_play_the_same_games_with_partial_rolls() -> None:
    interp = get_game(KEEP).engine
    comp = get_game(KEEP, None, "compiled").engine
    traces = _traces(interp, GAMES, SEED)
    keep = next(a for a in interp.ir.actions if a.name == "keep")
    lo, hi = interp.ir.actions.index(keep), None
    lo = sum(a.size for a in interp.ir.actions[:lo])
    hi = lo + keep.size
    partial = sum(1 for t in traces for m in t if lo <= m < hi and m != lo)  # keep moves that keep a die
    assert partial > GAMES  # partial rolls are played, many times
    for i, trace in enumerate(traces):
        assert comp.playout_trace(derive_seed(SEED, i)) == trace, f"game {i}"
    assert comp.playouts(GAMES, SEED) == interp.playouts(GAMES, SEED)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_partial_roll_keeps_the_set_aside_dice_and_throws_the_others(engine) -> None:
    game = get_game(KEEP, None, engine)
    state = game.new_state(3)
    assert len(state.legal_moves()) == 27  # the first throw: every die, 3 ** 3 outcomes
    state.apply("roll:H-low-mid")
    state.apply("keep:101")  # set aside dice 0 and 2, throw die 1 again
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [m.text for m, _ in outcomes] == ["roll:H-low-mid", "roll:H-mid-mid", "roll:H-H-mid"]
    assert [p for _, p in outcomes] == pytest.approx([1 / 3] * 3)
    assert [w for _, w in state.chance_weights()] == [1, 1, 1]
    with pytest.raises(Exception):
        state.apply("roll:low-low-low")  # die 0 is kept: it shows H
    rolled = state.sample_chance()
    assert rolled.text.startswith("roll:H-") and rolled.text.endswith("-mid")
    state.apply("keep:000")  # nothing kept: a full throw again
    assert len(state.legal_moves()) == 27
    state.apply("roll:low-low-low")
    assert "keep:000" not in [m.text for m in state.legal_moves()]  # two throws again: no more
    state.apply("bank")
    assert state.is_chance_node() and len(state.legal_moves()) == 27  # bank cleared held[]


def test_kept_dice_draw_nothing_from_the_chance_stream() -> None:
    """A roll keeping two of three dice draws one number from the stream, the thrown
    die's face; both engines roll the same dice through keeps and banks."""
    state = get_game(KEEP).new_state(11)
    state.apply("roll:low-low-low")
    state.apply("keep:110")
    stream = Rng(state.core.rng.state)
    face = ["low", "mid", "H"][stream.below(3)]
    assert state.sample_chance().text == f"roll:low-low-{face}"
    assert state.core.rng.state == stream.state  # one draw, no more
    a = get_game(KEEP, None, "interpreted").new_state(11)
    b = get_game(KEEP, None, "compiled").new_state(11)
    for moves in (["roll:low-low-low", "keep:110"], ["keep:011"], ["bank"], ["keep:001"]):
        for m in moves:
            a.apply(m)
            b.apply(m)
        assert a.sample_chance() == b.sample_chance()


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_perft_counts_partial_rolls_alike_in_both_engines(depth) -> None:
    interp, comp = get_game(KEEP), get_game(KEEP, None, "compiled")
    assert comp.engine.perft(depth) == perft(interp.new_state(), depth)


def _refused(tmp_path: Path, text: str) -> SpecError:
    path = tmp_path / "keep.yaml"
    path.write_text(text)
    with pytest.raises(SpecError) as err:
        load_game_ir(str(path))
    return err.value


def test_keep_needs_ordered_dice_with_a_positioned_error(tmp_path: Path) -> None:
    text = Path(KEEP).read_text().replace("  ordered: true\n", "")
    err = _refused(tmp_path, text)
    assert "chance.keep needs ordered dice" in str(err) and "ordered: true" in err.hint
    assert err.pos.line == text.splitlines().index('  keep: "held[i] == 1"') + 1


def test_keep_is_a_condition_on_the_die_number(tmp_path: Path) -> None:
    text = Path(KEEP).read_text().replace('keep: "held[i] == 1"', 'keep: "held[i] + 1"')
    err = _refused(tmp_path, text)
    assert err.pos.line == text.splitlines().index('  keep: "held[i] + 1"') + 1
    assert "condition" in str(err)
    err = _refused(tmp_path, Path(KEEP).read_text().replace('keep: "held[i] == 1"', 'keep: "held[j] == 1"'))
    assert "'j'" in str(err)
