"""The MCTS player: its parameters, the engines' rollouts it stands on, determinism across
back ends and worker counts, tactics it must not miss, and legal play in every spec."""

from __future__ import annotations

import os

import pytest

from conftest import MIDGARD, SPECS, get_game
from midgardc.compiler.build import spec_files
from midgardc.errors import MidgardcError
from midgardc.matches import play_game, run_match
from midgardc.players import PlayerSpec, kinds_help, parse_player, parse_players, player_labels
from midgardc.players.mcts import MctsPlayer, determinize
from midgardc.players.view import PlayerView
from midgardc.runtime.game import replay, summed_returns
from midgardc.runtime.results import summed_shares
from midgardc.runtime.rng import Rng, derive_seed
from midgardc.spec.lower import list_variants

TTT = str(SPECS / "classics" / "tic-tac-toe.yaml")
HEX = str(SPECS / "classics" / "hex.yaml")
REVERSI = str(SPECS / "classics" / "reversi.yaml")

# x has a1 b1 and o has a2 b2; x to move: c1 completes the bottom row at once (and
# anything else lets o complete the middle row with c2).
WIN_LINE, WIN_MOVE = "a1 a2 b1 b2", "c1"
# x has a1 c1, o has b2; o to move: only b1 stops x's bottom row next move.
BLOCK_LINE, BLOCK_MOVE = "a1 b2 c1", "b1"


def every_spec() -> list[tuple[str, object]]:
    return [(path, variant) for path in spec_files(str(SPECS)) for variant in [None, *list_variants(path)]]


def spec_id(item) -> str:
    path, variant = item
    return os.path.basename(path) + (f"[{variant}]" if variant else "")


# -- parameters ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, param",
    [
        ("mcts", ""),
        (" mcts ", ""),
        ("mcts:500", "iterations=500"),
        ("mcts:iterations=500", "iterations=500"),
        ("mcts:iterations=2000,c=0.3", "iterations=2000"),  # c=0.3 is the default
        ("mcts:iterations=2000,c=1.4", "iterations=2000,c=1.4"),
        ("mcts:c=0.70,iterations=2000", "iterations=2000,c=0.7"),  # table order, normalised
        ("mcts:c=2", "c=2"),
        ("mcts:c=2.0", "c=2"),
        ("mcts:iterations=1000", ""),  # all defaults: the same player as plain mcts
        ("mcts: iterations = 30 , rollouts=4", "iterations=30,rollouts=4"),
        ("mcts:c=0", "c=0"),
    ],
)
def test_mcts_specs_have_one_canonical_text_that_parses_back(text: str, param: str) -> None:
    spec = parse_player(text)
    assert spec == PlayerSpec("mcts", param)
    assert spec.text == ("mcts:" + param if param else "mcts")
    assert parse_player(spec.text) == spec
    assert parse_players(spec.text) == [spec]


def test_parameters_reach_the_player() -> None:
    player = parse_player("mcts:iterations=30,c=0.5,rollouts=3").make()
    assert isinstance(player, MctsPlayer)
    assert (player.iterations, player.c, player.rollouts, player.name) == (30, 0.5, 3, "mcts:iterations=30,c=0.5,rollouts=3")
    default = parse_player("mcts").make()
    assert (default.iterations, default.c, default.rollouts) == (1000, 0.3, 1)


def test_a_part_with_equals_and_no_colon_belongs_to_the_previous_player() -> None:
    specs = parse_players("random,mcts:iterations=2000,c=2,greedy")
    assert [s.text for s in specs] == ["random", "mcts:iterations=2000,c=2", "greedy"]
    assert parse_players(",".join(s.text for s in specs)) == specs
    assert parse_players("mcts,c=2,mcts:10") == [PlayerSpec("mcts", "c=2"), PlayerSpec("mcts", "iterations=10")]
    assert player_labels(parse_players("mcts:10,mcts:iterations=10")) == ["mcts:iterations=10#1", "mcts:iterations=10#2"]


@pytest.mark.parametrize(
    "text, message",
    [
        ("mcts:iters=5", "player 'mcts' has no parameter 'iters'; did you mean 'iterations'?"),
        ("mcts:cc=1", "player 'mcts' has no parameter 'cc'; did you mean 'c'?"),
        ("mcts:depth=3", "player 'mcts' has no parameter 'depth'"),
        ("mcts:iterations=0", "player 'mcts': iterations=0 is out of range (1 .. 10000000)"),
        ("mcts:iterations=abc", "player 'mcts': iterations must be a whole number between 1 and 10000000, not 'abc'"),
        ("mcts:iterations=1e3", "iterations must be a whole number"),
        ("mcts:iterations=-5", "iterations must be a whole number"),
        ("mcts:c=-1", "player 'mcts': c=-1 is out of range (0 .. 100)"),
        ("mcts:c=nan", "player 'mcts': c must be a number between 0 and 100, not 'nan'"),
        ("mcts:c=inf", "c must be a number"),
        ("mcts:c=1,c=2", "player 'mcts': parameter 'c' is given twice"),
        ("mcts:500,iterations=5", "parameter 'iterations' is given twice"),
        ("mcts:", "player 'mcts': nothing after ':'"),
        ("mcts:=5", "a parameter without a name"),
        ("mcts:c=1,5", "unknown player '5'"),
        ("c=1,random", "parameter 'c=1' comes before any player"),
        ("random,c=2", "player 'random' takes no parameter"),
        ("mcst", "unknown player 'mcst'; did you mean 'mcts'?"),
    ],
)
def test_bad_mcts_parameters_are_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(MidgardcError) as info:
        parse_players(text)
    assert message in str(info.value)


def test_kinds_help_shows_how_mcts_is_written() -> None:
    assert "mcts[:ITERATIONS] or mcts:iterations=N,c=X,rollouts=N" in kinds_help()


# -- rollouts in the engines -----------------------------------------------------------------

ROLLOUT_POSITIONS = [
    (TTT, None, ""),
    (TTT, None, BLOCK_LINE),
    (TTT, "misere", "a1 b2"),
    (MIDGARD, None, ""),
    (MIDGARD, None, "5.3 7.7 L4 4.4"),
    (MIDGARD, "odin", "4.4 9.0"),
    (HEX, None, "a1 k11"),
    (REVERSI, None, ""),
]


@pytest.mark.parametrize("spec, variant, line", ROLLOUT_POSITIONS, ids=[f"{os.path.basename(s)}[{v}]:{ln}" for s, v, ln in ROLLOUT_POSITIONS])
def test_rollouts_are_the_same_on_both_engines_and_sum_the_returns_of_those_games(spec: str, variant, line: str) -> None:
    states = [replay(get_game(spec, variant, engine), line.split()) for engine in ("interpreted", "compiled")]
    n, seed = 12, 2024
    interpreted, compiled = (s.game.engine.rollouts(s.core, n, seed) for s in states)
    assert interpreted == compiled
    sums = [s.rollout_returns(n, seed) for s in states]
    assert sums[0] == sums[1]
    # the same n games, replayed one by one through the public API, return the same sum
    state = states[0]
    expected = [0.0] * len(sums[0])
    for i in range(n):
        game = state.clone()
        for move in state.game.engine.playout_trace(derive_seed(seed, i), state.core):
            game.apply(move)
        expected = [a + b for a, b in zip(expected, game.returns())]
    assert sums[0] == expected
    assert states[1].ply() == len(line.split())  # the position itself is left alone


def test_rollouts_from_a_finished_game_repeat_its_result() -> None:
    for engine in ("interpreted", "compiled"):
        state = replay(get_game(TTT, None, engine), (WIN_LINE + " " + WIN_MOVE).split())
        assert state.is_terminal()
        assert state.rollout_returns(5, 1) == [5.0, -5.0]
        assert state.rollout_returns(0, 1) == [0.0, 0.0]


def test_summed_returns_count_wins_losses_draws_and_shared_first_places() -> None:
    # firsts[p][k-1]: games p was first with k-1 others (see midgardc.runtime.results)
    assert summed_returns({"games": 10, "firsts": [[6, 3], [1, 3]], "ply_limited": 0}) == [5.0, -5.0]
    assert summed_returns({"games": 12, "firsts": [[6, 3], [1, 3]], "ply_limited": 2}) == [5.0, -5.0]  # stopped: 0
    assert summed_returns({"games": 4, "firsts": [[0, 0, 4]] * 3, "ply_limited": 0}) == [0.0, 0.0, 0.0]
    assert summed_returns({"games": 3, "firsts": [[3]], "ply_limited": 0}) == [3.0]  # one seat: 1 a win
    # three seats: a sole win +2, two tied leaders +1/2 each, a loss -1
    assert summed_returns({"games": 2, "firsts": [[1, 1, 0], [0, 1, 0], [0, 0, 0]], "ply_limited": 0}) == [2.5, -0.5, -2.0]
    assert summed_shares({"games": 2, "firsts": [[1, 1, 0], [0, 1, 0], [0, 0, 0]], "ply_limited": 0}) == [1.5, 0.5, 0.0]
    assert summed_shares({"games": 2, "firsts": [[1, 0], [0, 0]], "ply_limited": 1}) == [1.5, 0.5]  # stopped: 1/n


# -- the player --------------------------------------------------------------------------------


def _tree(player: MctsPlayer, state, seed: int) -> list[tuple[int, int, float]]:
    root = player.search(state, Rng(seed))
    return sorted((m, c.visits, c.reward) for m, c in zip(root.moves, root.children))


@pytest.mark.parametrize(
    "spec, line, iterations",
    [(TTT, "", 60), (TTT, "b2 a1", 60), (MIDGARD, "", 20), (MIDGARD, "5.3 7.7 L4", 20)],
    ids=["tic-tac-toe-start", "tic-tac-toe-b2-a1", "midgard-start", "midgard-3-moves"],
)
def test_both_engines_grow_the_same_tree_and_choose_the_same_move(spec: str, line: str, iterations: int) -> None:
    player = MctsPlayer(iterations=iterations)
    states = [replay(get_game(spec, None, engine), line.split()) for engine in ("interpreted", "compiled")]
    trees = [_tree(player, s, 7) for s in states]
    assert trees[0] == trees[1]
    assert sum(visits for _, visits, _ in trees[0]) == iterations
    assert player.choose(states[0], Rng(7)) == player.choose(states[1], Rng(7))


def test_the_same_rng_gives_the_same_move_and_the_state_is_left_alone() -> None:
    state = replay(get_game(MIDGARD, None, "compiled"), "5.3 7.7".split())
    before = state.to_json()
    player = MctsPlayer(iterations=200)
    rng_a, rng_b = Rng(99), Rng(99)
    assert player.choose(state, rng_a) == player.choose(state, rng_b)
    assert rng_a.state == rng_b.state
    assert state.to_json() == before and state.history == [state.game.move_id(m) for m in ("5.3", "7.7")]


def test_a_match_is_the_same_with_one_or_two_workers() -> None:
    game = get_game(TTT, None, "compiled")
    players = parse_players("mcts:iterations=40,random")
    runs = []
    for workers in (1, 2):
        results = []
        run_match(game, TTT, players, games=6, seed=3, workers=workers, on_game=results.append)
        runs.append(sorted(results, key=lambda r: r.index))
    assert runs[0] == runs[1]
    assert len(runs[0]) == 6


def _tactics(state) -> tuple[list[str], list[str]]:
    """The moves that win at once, and those after which the opponent cannot win at once."""
    mover = state.current_player()
    winning, safe = [], []
    for m in state.legal_moves():
        after = state.clone()
        after.apply(m)
        if after.winner() == mover:
            winning.append(m.text)
        replies = []
        for r in after.legal_moves():
            reply = after.clone()
            reply.apply(r)
            replies.append(reply.winner())
        if 1 - mover not in replies:
            safe.append(m.text)
    return winning, safe


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_mcts_takes_the_win_in_tic_tac_toe(seed: int) -> None:
    game = get_game(TTT, None, "compiled")
    state = replay(game, WIN_LINE.split())
    assert _tactics(state)[0] == [WIN_MOVE]  # the claim, checked without the player
    assert game.move_text(MctsPlayer(iterations=300).choose(state, Rng(seed))) == WIN_MOVE


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_mcts_blocks_the_loss_in_tic_tac_toe(seed: int) -> None:
    game = get_game(TTT, None, "compiled")
    state = replay(game, BLOCK_LINE.split())
    assert _tactics(state) == ([], [BLOCK_MOVE])  # no win, and every other move loses
    assert game.move_text(MctsPlayer(iterations=300).choose(state, Rng(seed))) == BLOCK_MOVE


def test_a_single_legal_move_is_played_without_searching() -> None:
    state = replay(get_game(TTT, None, "compiled"), "b2 a1 c1 a3 a2 c2 b1 b3".split())
    assert [m.text for m in state.legal_moves()] == ["c3"]
    rng = Rng(5)
    assert MctsPlayer(iterations=10_000_000).choose(state, rng) == state.game.move_id("c3")
    assert rng.state == 5  # no draw made: nothing was searched


def test_determinize_hands_the_search_a_copy_of_the_state() -> None:
    state = replay(get_game(TTT, None, "compiled"), "b2".split())
    rng = Rng(0)
    core = determinize(PlayerView(state, state.current_player()), rng)
    core.apply(state.game.move_id("a1"))
    assert state.ply() == 1 and core.ply == 2
    assert rng.state == 0  # nothing is hidden in tic-tac-toe: no draw was made


@pytest.mark.parametrize("item", every_spec(), ids=spec_id)
def test_mcts_plays_every_spec_and_variant_to_the_end_legally(item) -> None:
    path, variant = item
    game = get_game(path, variant, "compiled")
    players = [MctsPlayer(name=f"mcts{s}", iterations=8) for s in range(game.ir.n_players)]
    result = play_game(game, players, 0, seed=11)
    # replayed on the reference interpreter, which checks every move's legality
    final = replay(get_game(path, variant, "interpreted"), result.moves, result.seed)  # the seed deals any decks
    assert final.is_terminal()
    assert tuple(tuple(k) for k in final.keys()) == result.keys


# -- chance: a spec with dice (tests/data/dice.yaml) --------------------------------------

DICE = str(SPECS.parent / "tests" / "data" / "dice.yaml")


def test_chance_outcomes_are_drawn_by_their_odds() -> None:
    from midgardc.players.mcts import draw_outcome

    state = get_game(DICE, None, "interpreted").new_state(5)
    assert state.is_chance_node()
    weights = dict((m.id, w) for m, w in state.chance_weights())
    total = sum(weights.values())
    rng = Rng(123)
    draws = 200 * total
    counts = {m: 0 for m in weights}
    for _ in range(draws):
        counts[draw_outcome(state.core, state.game.ir.chance, rng)] += 1
    for move, weight in weights.items():  # a fixed seed: the same counts every run
        assert abs(counts[move] - 200 * weight) <= 0.25 * 200 * weight + 15, (move, counts[move], 200 * weight)


def test_with_dice_both_engines_grow_the_same_tree_and_play_the_same_game() -> None:
    states = []
    for engine in ("interpreted", "compiled"):
        state = get_game(DICE, None, engine).new_state(3)
        state.sample_chance()  # the first roll: a player is to move
        states.append(state)
    assert states[0].history == states[1].history
    player = MctsPlayer(iterations=60)
    trees = [_tree(player, s, 9) for s in states]
    assert trees[0] == trees[1]
    results = [play_game(get_game(DICE, None, e), [MctsPlayer(name=f"m{s}", iterations=12) for s in range(3)], 2, seed=4) for e in ("interpreted", "compiled")]
    assert results[0] == results[1]
    assert any(m.startswith("roll:") for m in results[0].moves)
    final = replay(get_game(DICE, None, "interpreted"), results[0].moves, results[0].seed)
    assert final.is_terminal() and tuple(tuple(k) for k in final.keys()) == results[0].keys
