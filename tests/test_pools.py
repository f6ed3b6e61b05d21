"""Places off the board (pools:, tests/data/pools.yaml), in both back ends: a per-player
reserve with starting pieces, placing from it (legal only while it holds one), a cell's
piece moved into a pool, pool-to-pool moves, a game pool, the queries, the observation
(a hidden pool), the text view, the tensors, the position hash and the picture. And the
type checker's positioned errors."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from conftest import ENGINES, get_game
from midgardc.errors import SpecError
from midgardc.runtime.game import replay
from midgardc.runtime.view import render_text
from midgardc.spec.lower import load_game_ir
from test_differential import check_games, snapshot

POOLS = str(Path(__file__).parent / "data" / "pools.yaml")


def texts(state) -> list[str]:
    return [m.text for m in state.legal_moves()]


def pool(state, player: int, name: str, viewer=None) -> dict:
    """A per-player pool's non-zero counts, {"owner,kind": n}, as ``viewer`` sees them
    (None: the whole truth)."""
    j = state.to_json() if viewer is None else state.observation(viewer)
    counters = j["players"][player]["counters"]
    return {k[len(name) + 1 : -1]: v for k, v in counters.items() if k.startswith(name + "[") and v != 0}


@pytest.mark.parametrize("engine", ENGINES)
def test_place_from_a_reserve_until_it_is_empty(engine) -> None:
    game = get_game(POOLS, None, engine)
    state = game.new_state()
    assert pool(state, 0, "reserve") == {"white,man": 5, "white,chief": 1}
    assert state.to_json()["counters"] == {"supply[white,man]": 1, "supply[white,chief]": 0, "supply[black,man]": 1, "supply[black,chief]": 0}
    assert "a1" in texts(state) and "Ka1" not in texts(state)  # the chief needs a man beside it
    state = replay(game, ["a1", "c3", "a2", "c2", "a3", "c1", "b3", "b2"])  # white: 4 men placed
    assert pool(state, 0, "reserve") == {"white,man": 1, "white,chief": 1}
    # drop needs more men than chiefs in the reserve: 1 man, 1 chief -> only the chief
    assert not any(m in texts(state) for m in ("b1",)) and "Kb1" in texts(state)
    state.apply("Kb1")  # the chief comes out of the reserve
    assert pool(state, 0, "reserve") == {"white,man": 1}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_taken_piece_goes_into_the_takers_pool_and_is_ransomed_back(engine) -> None:
    game = get_game(POOLS, None, engine)
    state = replay(game, ["a1", "b1", "a2", "xa1"])  # black takes white's a1 prisoner
    assert state.to_json()["board"]["a1"] is None  # the cell is empty again
    assert pool(state, 1, "prisoners") == {"white,man": 1}
    # only its holder sees the prisoners pool; everyone sees the reserves
    assert pool(state, 1, "prisoners", viewer=1) == {"white,man": 1}
    assert all(v is None for k, v in state.observation(0)["players"][1]["counters"].items() if k.startswith("prisoners["))
    state.apply("c1")
    assert "ransom" in texts(state)
    state.apply("ransom")  # the prisoner goes home; black's man comes out of the supply
    assert pool(state, 1, "prisoners") == {}
    assert pool(state, 0, "reserve") == {"white,man": 3, "white,chief": 1}
    assert pool(state, 1, "reserve") == {"black,man": 5, "black,chief": 1}
    assert state.to_json()["counters"]["supply[black,man]"] == 0
    text = render_text(state, color=False)
    assert "reserve: white/man 3, white/chief 1, black/man 0, black/chief 0" in text
    assert "game: supply: white/man 1, white/chief 0, black/man 0, black/chief 0" in text


def test_an_empty_pool_makes_the_move_ungeneratable() -> None:
    """ransom takes from two pools: once the supply has no man of black's, it is not legal
    even with a prisoner to give back."""
    game = get_game(POOLS, None, "interpreted")
    state = replay(game, ["a1", "b1", "a2", "xa1", "c1", "ransom", "b2", "xb2"])  # black ransomed once, and takes again
    assert pool(state, 1, "prisoners") == {"white,man": 1}
    state.apply("c2")
    assert state.to_json()["counters"]["supply[black,man]"] == 0
    assert "ransom" not in texts(state)


def test_pools_are_counter_columns_after_the_counters() -> None:
    ir = load_game_ir(POOLS)
    assert ir.counters[:4] == ("reserve[white,man]", "reserve[white,chief]", "reserve[black,man]", "reserve[black,chief]")
    assert ir.counters[-4:] == ("supply[white,man]", "supply[white,chief]", "supply[black,man]", "supply[black,chief]")
    assert ir.counter_visible[4:8] == ("owner",) * 4
    assert ir.counter_init[0][:4] == (5, 1, 0, 0) and ir.counter_init[1][:4] == (0, 0, 5, 1)
    assert ir.counter_init[2][-4:] == (1, 0, 1, 0)
    assert len(ir.history.counters) == 12  # every column of the three pools is hashed


def test_both_engines_play_the_same_games() -> None:
    check_games(POOLS, None, 150, 21)


def test_both_engines_agree_after_every_move_and_write_the_same_tensors() -> None:
    from midgardc.research.tensor import native_tensor, python_tensor

    gi, gc = get_game(POOLS, None, "interpreted"), get_game(POOLS, None, "compiled")
    rng = random.Random(9)
    seen_keys: set[int] = set()
    for seed in range(4):
        a, b = gi.new_state(seed), gc.new_state(seed)
        while not a.is_terminal():
            moves = a.legal_move_ids()
            assert moves == b.legal_move_ids()
            m = rng.choice(moves)
            a.apply_unchecked(m)
            b.apply_unchecked(m)
            assert snapshot(a.core) == snapshot(b.core)
            # the position hash covers the pools (history.position lists them)
            assert a.core.position_key(0) == b.core.position_key(0) and a.core.times_seen() == b.core.times_seen()
            seen_keys.add(a.core.position_key(0))
            for p in range(2):
                expected = python_tensor(a, p)
                assert np.array_equal(python_tensor(b, p), expected)
                assert np.array_equal(native_tensor(b, p), expected)
    assert len(seen_keys) > 20


def test_the_pools_are_part_of_the_position() -> None:
    """The same board, black to move, but other pool contents: another position."""
    for engine in ENGINES:
        game = get_game(POOLS, None, engine)
        a = replay(game, ["a1", "b1", "a2", "xa1", "c1"])  # black holds a1's man prisoner
        b = replay(game, ["c1", "b1", "a2"])
        assert a.to_json()["board"] == b.to_json()["board"] and a.to_json()["current"] == b.to_json()["current"] == "black"
        assert a.core.position_key(1) != b.core.position_key(1)



def test_the_picture_draws_each_pool_as_a_tray() -> None:
    from midgardc.render.svg import render_svg

    game = get_game(POOLS, None, "interpreted")
    state = replay(game, ["a1", "b1", "a2", "xa1"])
    svg = render_svg(state, None)
    for tray in ("reserve:white", "reserve:black", "prisoners:white", "prisoners:black", "supply"):
        assert f'data-place="{tray}"' in svg
    assert "Reserve of white" in svg
    # the pools' columns are drawn as trays, not listed again among the counters
    assert "reserve[white,man]" not in svg and "supply[black,man]" not in svg
    # black's prisoners pool is seen by black only: white sees its count as ?
    trays = {}
    for viewer in (0, 1):
        pic = render_svg(state, viewer)
        part = pic.split('data-place="prisoners:black"', 1)[1].split("</g>", 1)[0]
        trays[viewer] = part
    assert "×1" in trays[1] and "×?" in trays[0] and "×1" not in trays[0]


STACKS = str(Path(__file__).parent / "data" / "pool_stacks.yaml")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_stack_goes_into_a_pool_whole_and_comes_out_one_by_one(engine) -> None:
    game = get_game(STACKS, None, engine)
    state = replay(game, ["a1x3", "c2x1", "bank:a1"])
    assert pool(state, 0, "bank") == {"red,block": 3}
    assert state.to_json()["board"]["a1"] is None
    state.apply("b2x1")
    state.apply("out:a1")  # one block, a stack of 1
    assert pool(state, 0, "bank") == {"red,block": 2}
    assert state.to_json()["board"]["a1"] == {"owner": "red", "height": 1}


def test_pools_with_stacks_play_the_same_games_in_both_engines() -> None:
    check_games(STACKS, None, 100, 5)


# --------------------------------------------------------------------------- errors

BASE = """midgardc: 1
game: {name: t, players: [a, b]}
pieces: {man: {}}
pools:
  reserve: {pieces: {man: 3}}
  box: {of: game}
board: {topology: square, rows: 2, cols: 2}
actions:
  put:
    params: {c: cell}
    where: WHERE
    effects: EFFECTS
ranking: {score: "reserve(p)"}
"""


@pytest.mark.parametrize(
    "where, effects, message, line, col",
    [
        ("empty(c)", "[{place: {piece: man, at: c, from: reserve}}]", "'reserve' is a per-player pool: say whose, e.g. reserve(mover)", 12, 49),
        ("empty(c)", "[{place: {piece: man, at: c, from: box(a)}}]", "'box' is a pool of the game (one for the whole game): write it without a player", 12, 53),
        ("empty(c)", "[{place: {piece: man, at: c, from: reservoir(a)}}]", "unknown pool 'reservoir' in 'from'", 12, 49),
        ("empty(c)", "[{place: {piece: king, at: c, from: reserve(a)}}]", "unknown piece kind 'king'", 12, 31),
        ("empty(c)", "[{move: {from: c, to: box, piece: man}}]", "move.piece is for a move out of a pool", 12, 41),
        ("empty(c)", "[{move: {from: box, to: c}}]", "a move out of pool 'box' says which piece", 12, 22),
        ("empty(c)", "[{place: {piece: man, at: c, from: reserve(c)}}]", "expected a player here, but this is a cell", 12, 57),
        ('"reserve(c) > 0"', "[]", "argument 1 of pool 'reserve' must be a player (whose pool it is), got a cell", 11, 21),
        ('"reserve > 0"', "[]", "'reserve' is a per-player pool: say whose", 11, 13),
        ('"box(a) > 0"', "[]", "argument 1 of pool 'box' must be a piece kind, got a player", 11, 17),
        ('"reserve(a, man, a) > 0"', "[]", "pool 'reserve' is read reserve(PLAYER) or reserve(PLAYER, KIND)", 11, 13),
    ],
)
def test_pool_errors(tmp_path, where, effects, message, line, col) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(BASE.replace("WHERE", where).replace("EFFECTS", effects))
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path))
    text = str(info.value)
    assert message in text, text
    assert f":{line}:{col}:" in text.splitlines()[0], text


@pytest.mark.parametrize(
    "pools, message, line, col",
    [
        ("  reserve: {pieces: {king: 3}}\n", "pool 'reserve' holds pieces; 'king' is not a kind of piece", 5, 22),
        ("  reserve: {of: table}\n", "a pool is 'of' player (each player has one) or game (one for the game), not 'table'", 5, 17),
        ("  box: {of: game, visible: owner}\n", "a pool of the game has no owner", 5, 28),
        ("  man: {}\n", "pool 'man' has the name of another thing of the spec", 5, 3),
        ("  reserve: {}\ndefine:\n  reserve(player p): 1\n", "'reserve' is already defined", 7, 3),
    ],
)
def test_pool_declaration_errors(tmp_path, pools, message, line, col) -> None:
    path = tmp_path / "t.yaml"
    text = BASE.replace("  reserve: {pieces: {man: 3}}\n  box: {of: game}\n", pools).replace("WHERE", "empty(c)").replace("EFFECTS", "[]").replace("reserve(p)", "1")
    path.write_text(text)
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path))
    out = str(info.value)
    assert message in out, out
    assert f":{line}:{col}:" in out.splitlines()[0], out


def test_a_render_place_of_a_pools_name_draws_it_instead(tmp_path) -> None:
    path = tmp_path / "t.yaml"
    text = BASE.replace("WHERE", "empty(c)").replace("EFFECTS", "[]")
    path.write_text(text)
    places = [p.name for p in load_game_ir(str(path)).render.present.places]
    assert places == ["reserve:a", "reserve:b", "box"]
    path.write_text(text + 'render:\n  places:\n    box: {label: The box, holds: {man: "box[p, man]"}}\n')
    present = load_game_ir(str(path)).render.present
    assert [(p.name, p.label) for p in present.places] == [("box", "The box"), ("reserve:a", "reserve of a"), ("reserve:b", "reserve of b")]
