"""Observations and player views: what a seat may see, and that players see nothing more.

Meridian's rulebook: "Each player shuffles his deck of cards, then picks the 2 top cards of
his deck and turns them face up." The order of a deck is nobody's to see (its size is);
face-up items and discarded items are on the table. ``tests/data/cards.yaml`` is a small
deck game of the same kind (its own comment: "each player has a deck of five cards ...
shuffled by the game's seed, with two face up").
"""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

from conftest import MIDGARD, ROOT, SPECS, get_game
from midgardc.matches import play_game
from midgardc.players.greedy import GreedyPlayer
from midgardc.players.mcts import MctsPlayer
from midgardc.players.script import ScriptPlayer
from midgardc.players.uniform import RandomPlayer
from midgardc.players.view import PlayerView
from midgardc.runtime.game import Game, State, replay
from midgardc.engines import load
from midgardc.runtime.observe import observation_string
from midgardc.runtime.rng import Rng

MERIDIAN = str(SPECS / "meridian.yaml")
CARDS = str(ROOT / "tests" / "data" / "cards.yaml")
TTT = str(SPECS / "classics" / "tic-tac-toe.yaml")

_loaded: dict = {}


def game_of(spec: str, players: int, engine: str = "interpreted") -> Game:
    key = (spec, players, engine)
    if key not in _loaded:
        _loaded[key] = load(spec, n_players=players, engine=engine)
    return _loaded[key]


def random_line(game: Game, seed: int, plies: int) -> list[str]:
    """The first ``plies`` moves of a uniformly random game (fewer if it ends sooner)."""
    state, rng = game.new_state(seed), Rng(seed)
    moves = []
    while not state.is_terminal() and len(moves) < plies:
        legal = state.legal_moves()
        move = legal[rng.below(len(legal))]
        state.apply(move)
        moves.append(move.text)
    return moves


def positions(game: Game, seed: int, plies: int) -> list[State]:
    """Every position of a random game's first ``plies`` moves (the start included)."""
    line = random_line(game, seed, plies)
    return [replay(game, line[:i], seed) for i in range(len(line) + 1)]


def remaining_decks(state: State) -> list[list[str]]:
    texts = state.game.ir.deck.texts
    core = state.core
    return [[texts[k] for k in core.deck[p][core.drawn[p] :]] for p in range(state.game.ir.n_players)]


MERIDIAN_GAMES = [(MERIDIAN, 2), (MERIDIAN, 3), (CARDS, 2)]


@pytest.mark.parametrize("spec, players", MERIDIAN_GAMES, ids=["meridian-2p", "meridian-3p", "cards-2p"])
def test_no_observation_shows_the_order_of_any_deck(spec: str, players: int) -> None:
    game = game_of(spec, players, "compiled")
    for state in positions(game, seed=5, plies=30)[::3]:
        decks = remaining_decks(state)
        truth = state.to_json()["players"]
        for viewer in range(players):
            obs = state.observation(viewer)
            for p, entry in enumerate(obs["players"]):
                zones = entry["zones"]
                assert zones["deck"] == {"size": len(decks[p]), "items": None}  # the size only
                assert zones["up"]["items"] == truth[p]["zones"]["up"]  # face up: on the table
                assert zones["discard"]["items"] == truth[p]["zones"]["discard"]
            text = observation_string(state, viewer)
            for deck in decks:
                if len(deck) >= 3:
                    assert json.dumps(deck, separators=(",", ":")) not in text
            # another order of every deck is observed the same: the order is not in it
            for seed in range(3):
                other = PlayerView(state, viewer).determinize(Rng(seed))
                assert other.observation(viewer) == obs


@pytest.mark.parametrize("spec, players", MERIDIAN_GAMES, ids=["meridian-2p", "meridian-3p", "cards-2p"])
def test_both_engines_give_equal_observations_and_equal_samples(spec: str, players: int) -> None:
    line = random_line(game_of(spec, players, "compiled"), seed=9, plies=12)
    states = [replay(game_of(spec, players, engine), line, 9) for engine in ("interpreted", "compiled")]
    for viewer in range(players):
        assert states[0].observation_string(viewer) == states[1].observation_string(viewer)
        samples = [PlayerView(s, viewer).determinize(Rng(4)) for s in states]
        assert remaining_decks(samples[0]) == remaining_decks(samples[1])
        assert samples[0].to_json() == samples[1].to_json()


def test_only_the_player_to_move_is_shown_its_legal_moves() -> None:
    game = game_of(MERIDIAN, 2, "compiled")
    for state in positions(game, seed=2, plies=6):
        mover = state.current_player()
        for viewer in range(2):
            obs = state.observation(viewer)
            if viewer == mover:
                assert obs["legal"] == [m.text for m in state.legal_moves()]
                assert PlayerView(state, viewer).legal_move_ids() == state.legal_move_ids()
            else:
                assert "legal" not in obs
                assert PlayerView(state, viewer).legal_moves() == []


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_sample_keeps_every_size_and_total_and_changes_the_hidden_order(engine: str) -> None:
    game = game_of(MERIDIAN, 2, engine)
    state = replay(game, random_line(game_of(MERIDIAN, 2, "compiled"), 3, 8), 3)
    before = state.to_json()
    truth = remaining_decks(state)
    orders = set()
    for seed in range(8):
        sample = PlayerView(state, 0).determinize(Rng(seed))
        decks = remaining_decks(sample)
        for p in range(2):
            assert sorted(decks[p]) == sorted(truth[p])  # each deck: same size, same items
            assert sample.to_json()["players"][p]["zones"]["up"] == before["players"][p]["zones"]["up"]
        assert sample.history == state.history and sample.ply() == state.ply()
        orders.add(json.dumps(decks))
    assert len(orders) == 8  # 22-item decks: every seed deals another order
    assert state.to_json() == before  # the state itself is left alone


@pytest.mark.parametrize("spec, line", [(TTT, "b2 a1"), (MIDGARD, "5.3 7.7")], ids=["tic-tac-toe", "midgard"])
def test_a_sample_with_nothing_hidden_is_a_copy_and_draws_nothing(spec: str, line: str) -> None:
    state = replay(get_game(spec, None, "compiled"), line.split())
    view = PlayerView(state, state.current_player())
    rng = Rng(123)
    sample = view.determinize(rng)
    assert rng.state == 123
    assert not view.hides_something
    assert sample is not state and sample.to_json() == state.to_json()
    sample.apply(sample.legal_moves()[0])
    assert state.ply() == len(line.split())


def test_the_view_has_no_way_back_to_the_state() -> None:
    state = game_of(MERIDIAN, 2).new_state(0)
    view = PlayerView(state, 0)
    view.observation  # computed and cached: still only plain data
    reachable = list(gc.get_referents(view))  # everything the view object itself holds
    reachable += [getattr(view, name) for name in dir(view) if not name.startswith("__")]
    for value in reachable:
        assert value is not state and value is not state.core
        assert not isinstance(value, State)
    with pytest.raises((AttributeError, TypeError)):
        vars(view)
    with pytest.raises(AttributeError):
        view.state = state  # type: ignore[attr-defined]  (no room for one either)


def _dump_script(tmp_path: Path) -> tuple[str, Path]:
    out = tmp_path / "seen.jsonl"
    body = (
        "import json\n"
        f"OUT = {str(out)!r}\n"
        "def choose(observation, legal_moves, rng):\n"
        "    with open(OUT, 'a') as f:\n"
        "        f.write(json.dumps({'observation': observation, 'legal': [m.text for m in legal_moves]}) + '\\n')\n"
        "    return legal_moves[rng.below(len(legal_moves))]\n"
    )
    path = tmp_path / "dump.py"
    path.write_text(body)
    return str(path), out


def test_a_script_player_receives_its_observation_and_never_a_deck_order(tmp_path: Path) -> None:
    path, out = _dump_script(tmp_path)
    game = game_of(MERIDIAN, 2, "compiled")
    result = play_game(game, [ScriptPlayer(path), RandomPlayer()], 0, seed=21)  # game 0: the script sits first
    seen = [json.loads(line) for line in out.read_text().splitlines()]
    assert seen and all(s["observation"]["observer"] == "orange" for s in seen)
    # the same observations, position by position, as the real state gives the script's seat
    state = game.new_state(result.seed)
    turns = []
    for move in result.moves:
        if state.current_player() == 0:
            turns.append(state)
        state = state.clone()
        state.apply(move)
    assert len(turns) == len(seen)
    for truth, got in zip(turns, seen):
        assert got["observation"] == truth.observation(0)
        assert got["legal"] == [m.text for m in truth.legal_moves()]
        text = json.dumps(got)
        for deck in remaining_decks(truth):
            if len(deck) >= 3:
                assert json.dumps(deck) not in text


def test_greedy_and_mcts_play_legally_on_samples() -> None:
    game = game_of(MERIDIAN, 2, "compiled")
    for players in ([GreedyPlayer(), RandomPlayer()], [MctsPlayer(iterations=20), GreedyPlayer()]):
        result = play_game(game, players, 1, seed=4)
        final = replay(game_of(MERIDIAN, 2), result.moves, result.seed)  # the interpreter checks every move
        assert final.is_terminal()


def test_information_set_search_is_the_same_on_both_engines() -> None:
    line = random_line(game_of(MERIDIAN, 2, "compiled"), 6, 40)  # late: short rollouts
    trees = []
    for engine in ("interpreted", "compiled"):
        state = replay(game_of(MERIDIAN, 2, engine), line, 6)
        view = PlayerView(state, state.current_player())
        assert view.hides_something
        root = MctsPlayer(iterations=10).search(view, Rng(8))
        trees.append(sorted((m, c.visits, c.avail, c.reward) for m, c in zip(root.moves, root.children)))
    assert trees[0] == trees[1]
    assert sum(v for _, v, _, _ in trees[0]) == 10


def test_information_set_mcts_beats_random_on_meridian() -> None:
    # ten games, seats alternating; a random player wins about half of such games
    game = game_of(MERIDIAN, 2, "compiled")
    wins = 0
    for index in range(10):
        seat = index % 2
        players = [RandomPlayer(), RandomPlayer()]
        players[seat] = MctsPlayer(iterations=60)
        result = play_game(game, players, 0, seed=100 + index)
        wins += result.winner == seat
    assert wins >= 8, wins


def test_replay_as_prints_only_that_players_observations(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from midgardc.cli import cli

    line = random_line(game_of(MERIDIAN, 2, "compiled"), 1, 5)
    args = ["replay", MERIDIAN, "--player-count", "2", "--seed", "1", "--moves", " ".join(line), "--json"]
    for who, seat in (("grey", 1), ("0", 0)):
        result = CliRunner().invoke(cli, [*args, "--as", who])
        assert result.exit_code == 0, result.output
        rows = [json.loads(r) for r in result.output.splitlines()]
        assert len(rows) == len(line) + 1
        for i, row in enumerate(rows):
            state = replay(game_of(MERIDIAN, 2, "compiled"), line[:i], 1)
            assert row == state.observation(seat)
            assert ("legal" in row) == (state.current_player() == seat)
            assert all(p["zones"]["deck"]["items"] is None for p in row["players"])
    bad = CliRunner().invoke(cli, [*args, "--as", "purple"])
    assert bad.exit_code == 1
    assert "--as purple" in bad.output and "orange, grey" in bad.output and "Traceback" not in bad.output
