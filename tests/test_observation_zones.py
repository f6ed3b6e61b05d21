"""Observations of zones and hidden counters: nothing owner-only of another player, nothing
face down, ever reaches a player's observation, a script player or a sample.

The games are the test specs ``tests/data/draft.yaml`` (its own words: "A shuffled stock
(a game pile that nobody sees) deals three items into a player's draft hand (only its owner
sees it); every player picks one item of their hand into "picked" (owner-only: the others
see just that it grew by one)") and ``tests/data/phases.yaml`` ("a hidden tally (seen by its
owner only) counts claims on the edge"). The design (issue 4, section 2): sizes of zones are
always public.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from conftest import ROOT
from midgardc.matches import play_game
from midgardc.players.mcts import MctsPlayer
from midgardc.players.script import ScriptPlayer
from midgardc.players.uniform import RandomPlayer
from midgardc.players.view import PlayerView
from midgardc.runtime.game import Game, State, replay
from midgardc.engines import load
from midgardc.runtime.observe import places
from midgardc.runtime.rng import Rng

DRAFT = str(ROOT / "tests" / "data" / "draft.yaml")
PHASES = str(ROOT / "tests" / "data" / "phases.yaml")

_loaded: dict = {}


def game_of(spec: str, engine: str = "compiled", players: int = 3) -> Game:
    key = (spec, engine, players)
    if key not in _loaded:
        _loaded[key] = load(spec, n_players=players, engine=engine)
    return _loaded[key]


def random_line(game: Game, seed: int, plies: int = 10_000) -> list[str]:
    state, rng = game.new_state(seed), Rng(seed)
    moves = []
    while not state.is_terminal() and len(moves) < plies:
        legal = state.legal_moves()
        move = legal[rng.below(len(legal))]
        state.apply(move)
        moves.append(move.text)
    return moves


def positions(game: Game, seed: int, plies: int = 10_000) -> list[State]:
    line = random_line(game, seed, plies)
    state = game.new_state(seed)
    out = [state.clone()]
    for move in line:
        state.apply(move)
        out.append(state.clone())
    return out


def test_owner_only_and_face_down_zones_show_their_size_only() -> None:
    game = game_of(DRAFT)
    ir = game.ir
    for state in positions(game, seed=3)[::2]:
        truth = state.zones()
        for viewer, me in enumerate(ir.players):
            obs = state.observation(viewer)
            for z in ir.zones.zones:
                for owner, content in truth[z.name].items():
                    shown = obs["zones"][z.name][owner]
                    size = len(content) if z.ordered else sum(content.values())
                    assert shown["size"] == size  # sizes are always public
                    seen = z.visible == "all" or (z.visible == "owner" and owner == me)
                    assert (shown["items"] is not None) == seen, (z.name, owner, me)
            # every other arrangement of what it cannot see is observed the same, but for
            # the legal moves: a rule may read what the mover cannot see (draft.yaml's "cut"
            # needs an apple on top of the face-down stock), and the rules tell the mover
            for seed in range(2):
                other = PlayerView(state, viewer).determinize(Rng(seed)).observation(viewer)
                other.pop("legal", None)
                assert other == {k: v for k, v in obs.items() if k != "legal"}


def test_another_players_pick_is_a_question_mark_and_ones_own_is_written() -> None:
    game = game_of(DRAFT)
    final = positions(game, seed=5, plies=12)[-1]
    for viewer in range(3):
        moves = final.observation(viewer)["moves"]
        for text, mover, seen in zip((game.move_text(m) for m in final.history), final.movers, moves):
            if text.startswith("pick:"):
                assert seen == (text if mover == viewer else "pick:?")
            else:
                assert seen == text


def test_both_engines_observe_and_sample_zones_alike() -> None:
    line = random_line(game_of(DRAFT), 8)
    for plies in range(0, len(line), 3):
        states = [replay(game_of(DRAFT, engine), line[:plies], 8) for engine in ("interpreted", "compiled")]
        for viewer in range(3):
            assert states[0].observation_string(viewer) == states[1].observation_string(viewer)
            samples = [PlayerView(s, viewer).determinize(Rng(11 + plies)) for s in states]
            assert samples[0].zones() == samples[1].zones()
            assert samples[0].to_json() == samples[1].to_json()
            # legality read from the sample, not from the real state (a rule may read the stock)
            assert samples[0].legal_move_ids() == samples[1].legal_move_ids()


@pytest.mark.parametrize("engine", ["interpreted", "compiled"])
def test_a_sample_keeps_every_zone_size_and_the_hidden_kinds_and_varies(engine: str) -> None:
    state = replay(game_of(DRAFT, engine), random_line(game_of(DRAFT), 2, plies=9), 2)
    viewer = 1
    hidden = [p for p in places(state) if not p.seen_by(viewer)]
    shown = [p for p in places(state) if p.seen_by(viewer)]
    arrangements = set()
    for seed in range(6):
        sample = PlayerView(state, viewer).determinize(Rng(seed))
        after = {(p.zone, p.owner): p for p in places(sample)}
        for p in shown:
            assert after[(p.zone, p.owner)].items == p.items  # what it sees is left alone
        for p in hidden:
            assert len(after[(p.zone, p.owner)].items) == len(p.items)
        assert Counter(k for p in hidden for k in after[(p.zone, p.owner)].items) == Counter(k for p in hidden for k in p.items)
        arrangements.add(tuple(after[(p.zone, p.owner)].items for p in hidden))
    assert len(arrangements) > 1


def test_hidden_counters_and_the_scores_that_read_them_are_null_until_the_end() -> None:
    game = game_of(PHASES)
    ir = game.ir
    edge = ir.counters.index("edge")
    assert ir.counter_visible[edge] == "owner"
    states = positions(game, seed=4)
    assert states[-1].is_terminal()
    for state in states[::3] + [states[-1]]:
        truth = state.to_json()
        for viewer in range(3):
            obs = state.observation(viewer)
            for p, entry in enumerate(obs["players"]):
                assert entry["counters"]["edge"] == (truth["players"][p]["counters"]["edge"] if p == viewer else None)
                assert entry["counters"]["points"] == truth["players"][p]["counters"]["points"]
                if state.is_terminal() or p == viewer:
                    assert entry["score"] == truth["players"][p]["score"]
                else:
                    assert set(entry["score"].values()) == {None}  # the key reads the tally
            assert obs["counters"] == truth["counters"]  # the game counters are public
            sample = PlayerView(state, viewer).determinize(Rng(1))
            mine = state.core.counters[viewer][edge]
            assert [sample.core.counters[p][edge] for p in range(3)] == [mine] * 3  # "as mine"
            if not state.is_terminal():  # (at the end the keys are public, estimates are not fitted to them)
                assert sample.observation(viewer) == obs


def _dump_script(tmp_path: Path) -> tuple[str, Path]:
    out = tmp_path / "seen.jsonl"
    path = tmp_path / "dump.py"
    path.write_text(
        "import json\n"
        f"OUT = {str(out)!r}\n"
        "def choose(observation, legal_moves, rng):\n"
        "    with open(OUT, 'a') as f:\n"
        "        f.write(json.dumps(observation) + '\\n')\n"
        "    return legal_moves[rng.below(len(legal_moves))]\n"
    )
    return str(path), out


def test_a_script_player_never_receives_another_players_hand_or_pick(tmp_path: Path) -> None:
    path, out = _dump_script(tmp_path)
    game = game_of(DRAFT)
    result = play_game(game, [ScriptPlayer(path), RandomPlayer(), RandomPlayer()], 0, seed=13)
    seen = [json.loads(line) for line in out.read_text().splitlines()]
    state = game.new_state(result.seed)
    truths = []
    for move in result.moves:
        if state.current_player() == 0:
            truths.append(state.observation(0))
        state.apply(move)
    assert seen == truths  # exactly its observations, so only what north may see
    for obs in seen:
        for name, zone in obs["zones"].items():
            for owner, shown in zone.items():
                if name in ("draft", "picked") and owner != "north" or name in ("stock", "bag"):
                    assert shown["items"] is None
        assert not any(m.startswith("pick:") and m != "pick:?" for m, mover in zip(obs["moves"], state.movers) if mover != 0)


def test_information_set_mcts_plays_the_draft_legally_and_alike_on_both_engines() -> None:
    line = random_line(game_of(DRAFT), 6, plies=4)
    trees = []
    for engine in ("interpreted", "compiled"):
        state = replay(game_of(DRAFT, engine), line, 6)
        view = PlayerView(state, state.current_player())
        assert view.hides_something
        root = MctsPlayer(iterations=12).search(view, Rng(2))
        trees.append(sorted((m, c.visits, c.avail, c.reward) for m, c in zip(root.moves, root.children)))
    assert trees[0] == trees[1]
    result = play_game(game_of(DRAFT), [MctsPlayer(iterations=10), RandomPlayer(), MctsPlayer(iterations=10)], 0, seed=1)
    assert replay(game_of(DRAFT, "interpreted"), result.moves, result.seed).is_terminal()
