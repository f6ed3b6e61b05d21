"""Player counts chosen per match: a spec lists the counts it supports and patches its
setup per count (stash sizes, board size); the engine is built per spec, variant and
count; matches seat every player first equally often whatever the count.

tests/data/dice.yaml supports 2, 3 (the default) and 4 players: 8, 6 and 4 stones each,
and a fourth row for four players.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import SPECS
from midgardc.cli import cli
from midgardc.compiler.build import module_stem
from midgardc.errors import SpecError
from midgardc.matches import run_match
from midgardc.players.registry import parse_players
from midgardc.runtime.game import replay
from midgardc.engines import load
from midgardc.runtime.rng import derive_seed
from midgardc.spec.lower import list_player_counts, load_game_ir
from test_chance import _interpreter_games

DICE = str(Path(__file__).parent / "data" / "dice.yaml")
TICTACTOE = str(SPECS / "classics" / "tic-tac-toe.yaml")
SEED = 4242

_games: dict = {}


def game(n, engine="interpreted", variant=None):
    key = (n, engine, variant)
    if key not in _games:
        _games[key] = load(DICE, variant, engine, n_players=n)
    return _games[key]


def test_each_count_gets_its_own_setup() -> None:
    assert list_player_counts(DICE) == (2, 3, 4)
    two, three, four = (load_game_ir(DICE, None, n) for n in (2, 3, 4))
    assert two.players == ("red", "blue") and three.players == ("red", "blue", "green")
    assert four.players == ("red", "blue", "green", "yellow")
    assert [h[0] for h in two.hand_init] == [8, 8]
    assert [h[0] for h in three.hand_init] == [6, 6, 6]
    assert [h[0] for h in four.hand_init] == [4, 4, 4, 4]
    assert two.board.n_cells == three.board.n_cells == 12 and four.board.n_cells == 16
    assert dict(four.board.props)["column"][four.board.cell_names.index("c4")] == 3


def test_the_default_count_and_a_variant_that_changes_it() -> None:
    assert load_game_ir(DICE).n_players == 3
    assert load_game_ir(DICE, "ordered").n_players == 2
    assert load_game_ir(DICE, "ordered", 4).n_players == 4
    assert load_game_ir(TICTACTOE, None, 2).n_players == 2  # a spec without counts: its own


@pytest.mark.parametrize(
    "spec, n, message",
    [
        (DICE, 5, "this game is played by 2, 3 or 4 players, not 5"),
        (DICE, 1, "this game is played by 2, 3 or 4 players, not 1"),
        (TICTACTOE, 3, "this game is played by exactly 2 players, not 3"),
    ],
)
def test_an_unsupported_count_is_a_clear_error(spec, n, message) -> None:
    with pytest.raises(SpecError) as info:
        load_game_ir(spec, None, n)
    assert message in str(info.value)
    assert f"{Path(spec).name}:" in str(info.value)  # points into the spec


def test_bad_player_counts_sections_are_rejected(tmp_path: Path) -> None:
    base = Path(DICE).read_text()
    cases = {
        "  five: {}\n": "player_counts keys are numbers of players (1 to 8) or 'default', got 'five'",
        # found by the fuzzer (test_fuzz's short campaign): '02' was read as 2 and then not found
        "  '02': {}\n": "player_counts keys are numbers of players (1 to 8) or 'default', got '02'",
        "  5: {}\n": "game.players names 4 players; a 5-player game needs 5",
        "  6: {variants: {}}\n": "a player-count patch cannot patch 'variants'",
    }
    for extra, message in cases.items():
        path = tmp_path / "spec.yaml"
        path.write_text(base.replace("  3: {}\n", "  3: {}\n" + extra))
        with pytest.raises(SpecError, match=message.replace("(", r"\(").replace(")", r"\)")):
            for n in list_player_counts(str(path)):
                load_game_ir(str(path), None, n)
    path = tmp_path / "spec.yaml"
    path.write_text(base.replace("  default: 3\n", "  default: 7\n"))
    with pytest.raises(SpecError, match=r"player_counts.default must be one of the listed counts \(2, 3 or 4\)"):
        load_game_ir(str(path))


def test_each_count_is_its_own_engine() -> None:
    stems = [module_stem(load_game_ir(DICE, None, n)) for n in (2, 3, 4)]
    assert stems == ["dice__2p", "dice", "dice__4p"]
    assert module_stem(load_game_ir(DICE, "ordered", 3)) == "dice__ordered__3p"


@pytest.mark.parametrize("n", [2, 4])
def test_both_engines_play_the_same_games_at_every_count(n) -> None:
    interp, comp = game(n).engine, game(n, "compiled").engine
    traces, stats = _interpreter_games(interp, 1000, SEED)
    for i, trace in enumerate(traces):
        assert comp.playout_trace(derive_seed(SEED, i)) == trace, f"game {i}"
    assert comp.playouts(1000, SEED) == stats
    assert sum(stats["wins"]) + stats["shared"] + stats["draws"] + stats["ply_limited"] == 1000 and len(stats["wins"]) == n


@pytest.mark.parametrize("n", [3, 4])
def test_seats_rotate_so_each_player_sits_first_equally_often(tmp_path: Path, n) -> None:
    record = tmp_path / "games.jsonl"
    players = parse_players(",".join(["random"] * n))
    run_match(game(n), DICE, players, games=2 * n, seed=1, record=str(record))
    lines = [json.loads(x) for x in record.read_text().splitlines()]
    assert all(line["players_count"] == n and len(line["seat_names"]) == n for line in lines)
    for seat in range(n):
        sitting = Counter(line["seats"][seat] for line in lines)
        assert sorted(sitting.values()) == [2] * n, f"seat {seat}: {sitting}"
    for line in lines:  # and each record replays in the game of its count
        state = replay(game(n), line["moves"])
        assert state.is_terminal() and state.scores() == line["result"]["keys"]


def _cli(*args: str):
    """The command in-process (click's runner): exit_code, stdout, stderr."""
    result = CliRunner().invoke(cli, list(args))
    result.returncode = result.exit_code
    return result


def test_match_picks_the_count_from_the_players(tmp_path: Path) -> None:
    record = tmp_path / "four.jsonl"
    out = _cli("match", DICE, "--players", "random,random,greedy,random", "--games", "4", "--seed", "3", "--engine", "interpreted", "--record", str(record))
    assert out.returncode == 0, out.stderr
    assert "as yellow" in out.stdout and "4 games" in out.stdout
    again = _cli("replay", DICE, "--record", str(record), "--game", "3")
    assert again.returncode == 0, again.stderr
    assert "result matches the record" in again.stderr
    bad = _cli("match", DICE, "--players", "random,random,random,random,random", "--games", "1")
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
    assert "5 players were given; " in bad.stderr and "is played by 2, 3 or 4 players" in bad.stderr


def test_single_position_commands_take_a_player_count() -> None:
    out = _cli("moves", DICE, "--player-count", "4", "--moves", "roll:S-S")
    assert out.returncode == 0 and len(out.stdout.split()) == 16
    out = _cli("replay", DICE, "--players-count", "2", "--moves", "roll:1-1 a1", "--json")
    assert out.returncode == 0 and [p["name"] for p in json.loads(out.stdout)["players"]] == ["red", "blue"]
    out = _cli("perft", DICE, "--player-count", "5", "--depth", "1")
    assert out.returncode == 1 and "this game is played by 2, 3 or 4 players, not 5" in out.stderr
    assert "Traceback" not in out.stderr
    out = _cli("validate", DICE)
    assert out.returncode == 0 and "(4 players): ok" in out.stdout and "[ordered] (2 players): ok" in out.stdout
