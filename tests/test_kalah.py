"""Kalah (specs/classics/kalah.yaml), rule by rule, in both back ends; the rules as the
standard (Wikipedia "Kalah") rules give them, paraphrased in each test. Positions are set
with ``load(counters=...)``: the seeds are a counter array, seeds[c]."""

from __future__ import annotations

import os

import pytest

from conftest import ENGINES, SPECS, get_game
from test_differential import check_games

KALAH = str(SPECS / "classics" / "kalah.yaml")


@pytest.fixture(params=ENGINES)
def game(request):
    return get_game(KALAH, None, request.param)


def seeds(state) -> dict:
    return {k[6:-1]: v for k, v in state.to_json()["counters"].items() if k.startswith("seeds[")}


def position(game, houses: dict, to_move: str, stores=(0, 0)):
    """Every house empty but those given; the stores hold ``stores`` (south, north)."""
    ir = game.ir
    rows = [list(r) for r in ir.counter_init]
    game_row = rows[-1]
    for c in ir.board.cell_names:
        game_row[ir.counters.index(f"seeds[{c}]")] = houses.get(c, 0)
    game_row[ir.counters.index("seeds[store_s]")] = stores[0]
    game_row[ir.counters.index("seeds[store_n]")] = stores[1]
    state = game.new_state()
    state.core.load([0] * ir.board.n_cells, [[] for _ in ir.players], ir.players.index(to_move), counters=rows)
    return state


def test_the_start_four_seeds_in_each_house_and_empty_stores(game):
    state = game.new_state()
    assert seeds(state) == {**{f"{s}{i}": 4 for s in "sn" for i in range(1, 7)}, "store_s": 0, "store_n": 0}
    assert [m.text for m in state.legal_moves()] == ["s1", "s2", "s3", "s4", "s5", "s6"]


def test_sowing_goes_counter_clockwise_into_the_own_store_but_not_the_opponents(game):
    # a player removes all seeds from one of their houses and, moving counter-clockwise,
    # drops one in each house in turn, including their own store but not the opponent's
    state = position(game, {"n1": 14, "s1": 1}, "north")
    state.apply("n1")  # n2..n6, store_n, s1..s6, (store_s skipped), n1, n2
    after = seeds(state)
    assert after["store_s"] == 0 and after["store_n"] == 1
    assert after["n1"] == 1 and after["n2"] == 2 and [after[f"n{i}"] for i in range(3, 7)] == [1, 1, 1, 1]
    assert after["s1"] == 2 and [after[f"s{i}"] for i in range(2, 7)] == [1, 1, 1, 1, 1]
    assert state.current_player_name() == "south"


def test_a_last_seed_in_the_own_store_gives_another_turn(game):
    # if the last sown seed lands in the player's store, the player moves again
    state = game.new_state()
    state.apply("s3")  # s4, s5, s6, store_s
    assert seeds(state)["store_s"] == 1
    assert state.current_player_name() == "south"
    state.apply("s1")  # s2 .. s5: not the store
    assert state.current_player_name() == "north"


def test_a_last_seed_in_an_own_empty_house_captures_the_opposite_house(game):
    # if the last sown seed lands in an empty house of the player and the opposite house
    # holds seeds, that seed and the opposite seeds go to the player's store
    state = position(game, {"s1": 1, "s4": 2, "n5": 3, "n1": 2}, "south")
    state.apply("s1")  # the seed falls into s2, empty; n5 is opposite s2
    after = seeds(state)
    assert after["store_s"] == 4 and after["s2"] == 0 and after["n5"] == 0 and after["s1"] == 0
    assert state.current_player_name() == "north"


def test_no_capture_when_the_opposite_house_is_empty(game):
    state = position(game, {"s1": 1, "n1": 2}, "south")
    state.apply("s1")
    assert seeds(state)["s2"] == 1 and seeds(state)["store_s"] == 0


def test_no_capture_in_an_opponents_empty_house(game):
    state = position(game, {"s6": 2, "s1": 1, "n2": 1}, "south")
    state.apply("s6")  # store_s, then n1 (empty, but north's)
    assert seeds(state)["n1"] == 1 and seeds(state)["store_s"] == 1


def test_the_end_sweep(game):
    # when one player no longer has seeds in any house the game ends; the other player
    # moves all their remaining seeds to their store; the most seeds in store wins
    state = position(game, {"s6": 1, "n1": 2, "n4": 5}, "south", stores=(20, 20))
    state.apply("s6")  # into store_s: south's houses are empty
    assert state.is_terminal()
    assert seeds(state)["store_s"] == 21 and seeds(state)["store_n"] == 27
    assert all(v == 0 for k, v in seeds(state).items() if not k.startswith("store"))
    assert state.to_json()["winner"] == "north"


def test_kalah_plays_the_same_games_in_both_engines():
    check_games(KALAH, None, 200, 2026)


@pytest.mark.skipif(not os.environ.get("MIDGARDC_LONG"), reason="1,000 interpreter games; set MIDGARDC_LONG=1")
def test_kalah_thousand_games_move_for_move():
    check_games(KALAH, None, 1000, 11)


def test_the_text_board_writes_the_seeds_in_the_places(game):
    from midgardc.runtime.view import render_text

    state = game.new_state()
    state.apply("s6")
    text = render_text(state, color=False)
    assert "n6 4  n5 4  n4 4  n3 5  n2 5  n1 5" in text
    assert "store_n 0" in text and "store_s 1" in text and "s5 4  s6 0" in text


def test_render_numbers_must_be_a_cell_array_of_numbers(tmp_path):
    from midgardc.errors import SpecError
    from midgardc.spec.lower import load_game_ir

    text = open(KALAH).read().replace("  numbers: seeds", "  numbers: in_hand")
    path = tmp_path / "k.yaml"
    path.write_text(text)
    with pytest.raises(SpecError) as info:
        load_game_ir(str(path))
    assert "render.numbers names a game counter array of numbers with one cell index" in str(info.value)
    line = next(i for i, t in enumerate(text.splitlines(), start=1) if t.startswith("  numbers: in_hand"))
    assert f":{line}:12:" in str(info.value).splitlines()[0]


def test_perft_counts_an_extra_turn_as_a_move_and_both_engines_agree():
    from midgardc.runtime.game import perft

    compiled = get_game(KALAH, None, "compiled").engine
    interpreted = get_game(KALAH, None, "interpreted")
    # depth 2: s3 ends in the store, so south moves again from 5 houses (s3 is empty);
    # each of the 5 other moves gives north its 6 houses: 5 + 5 * 6 = 35
    counts = [compiled.perft(d) for d in range(1, 6)]
    assert counts[:2] == [6, 35]
    assert [perft(interpreted.new_state(), d) for d in range(1, 4)] == counts[:3]


def test_the_stores_and_houses_have_readable_names():
    """The panels name the stores as the table does ("seeds in south's store"), not by the
    spec's cell names (seeds[store_s]); the score keeps its name, "store"."""
    from midgardc.runtime.ending import key_label
    from midgardc.spec.lower import load_game_ir
    from midgardc.web.views import counter_labels

    ir = load_game_ir(KALAH)
    shown = counter_labels(ir)
    assert shown["seeds[store_s]"] == "seeds in south's store" and shown["seeds[store_n]"] == "seeds in north's store"
    assert shown["seeds[s1]"] == "seeds in house [s1]" and key_label(ir, "store") == "store"
