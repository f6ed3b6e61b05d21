"""Cards: per-player decks shuffled by the game's seed, face-up cards and discard piles,
read with face_up / in_deck / discarded / deck_left / item_has and changed by the discard
and draw effects. tests/data/cards.yaml (2 and 3 players) uses all of it: each player has
five cards, two face up; a turn plays one. Both back ends deal and play alike.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from midgardc.cli import cli
from midgardc.errors import SpecError
from midgardc.runtime.game import perft, replay
from midgardc.engines import load
from midgardc.spec.lower import load_game_ir

CARDS = str(Path(__file__).parent / "data" / "cards.yaml")
DECK = ["1", "2", "3", "4", "1-2"]  # the deck as written in the spec

_games: dict = {}


def game_of(engine: str, n: int = 2):
    key = (engine, n)
    if key not in _games:
        _games[key] = load(CARDS, engine=engine, n_players=n)
    return _games[key]


@pytest.fixture(params=["interpreted", "compiled"])
def game(request):
    return game_of(request.param)


def zones(state, p: int) -> dict:
    return state.to_json()["players"][p]["zones"]


def test_a_seed_fixes_the_shuffle_and_the_deal(game):
    decks = set()
    for seed in range(12):
        a, b = zones(game.new_state(seed), 0), zones(game.new_state(seed), 0)
        assert a == b  # the same seed deals the same cards
        assert len(a["up"]) == 2 and len(a["deck"]) == 3 and a["discard"] == []
        assert sorted(a["up"] + a["deck"]) == sorted(DECK)  # every card once
        decks.add(tuple(a["deck"]))
    assert len(decks) > 3  # and different seeds shuffle differently


def test_both_engines_deal_alike():
    for n in (2, 3):
        a, b = game_of("interpreted", n), game_of("compiled", n)
        for seed in (0, 1, 17, 2**63 + 5):
            sa, sb = a.new_state(seed), b.new_state(seed)
            assert sa.to_json()["players"] == sb.to_json()["players"]
            assert [tuple(d) for d in sa.core.deck] == [tuple(d) for d in sb.core.deck]


def test_playing_a_card_discards_it_and_turns_up_the_next(game):
    state = game.new_state(3)
    before = zones(state, 0)
    card = before["up"][0]
    move = next(m for m in state.legal_moves() if m.text.startswith(card + ":"))
    state.apply(move)
    after = zones(state, 0)
    assert after["discard"] == [card]
    assert sorted(after["up"]) == sorted(before["up"][1:] + before["deck"][:1])
    assert after["deck"] == before["deck"][1:]


def test_only_face_up_cards_and_the_columns_they_show_are_legal(game):
    state = game.new_state(4)
    up = zones(state, 0)["up"]
    for move in state.legal_moves():
        card, _, cell = move.text.partition(":")
        if card == "skip":
            assert cell in up
            continue
        assert card in up
        column = "abcd".index(cell[0]) + 1
        assert str(column) in card.split("-")


def test_the_game_ends_when_every_card_is_played(game):
    rng = random.Random(5)
    for seed in range(5):
        state = game.new_state(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_moves()))
        assert state.ply() == 2 * len(DECK)  # one card a turn
        for p in range(2):
            assert sorted(zones(state, p)["discard"]) == sorted(DECK)


def test_states_agree_after_every_move():
    for n in (2, 3):
        a_game, b_game = game_of("interpreted", n), game_of("compiled", n)
        rng = random.Random(n)
        for seed in range(30):
            a, b = a_game.new_state(seed), b_game.new_state(seed)
            while not a.is_terminal():
                assert a.legal_move_ids() == b.legal_move_ids()
                move = rng.choice(a.legal_move_ids())
                a.apply(move)
                b.apply(move)
                assert a.to_json() == b.to_json()
                assert a.core.up == b.core.up and a.core.discards == b.core.discards and a.core.drawn == b.core.drawn


@pytest.mark.parametrize("n", [2, 3])
def test_random_games_agree(n):
    a, b = game_of("interpreted", n).engine, game_of("compiled", n).engine
    for seed in range(300):
        assert b.playout_trace(seed) == a.playout_trace(seed), f"seed {seed}"
    assert a.playouts(300, 9) == b.playouts(300, 9)


def test_perft_counts_the_players_moves(game):
    # the shuffle is fixed by the seed, so perft branches on the players' moves only
    state = game.new_state(0)
    first = len(state.legal_moves())
    assert perft(state, 1) == first
    assert perft(state, 2) == sum(len(s.legal_moves()) for s in _children(state))


def _children(state):
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        yield child


def test_replay_with_a_seed_shows_the_cards():
    run = CliRunner().invoke(cli, ["replay", CARDS, "--moves", "", "--seed", "3", "--json", "--engine", "interpreted"])
    assert run.exit_code == 0, run.output
    players = json.loads(run.output)["players"]
    assert all(set(p["zones"]) == {"deck", "up", "discard"} for p in players)
    up = players[0]["zones"]["up"][0]
    moves = [m for m in ["1:a1", "2:b1", "3:c1", "4:d1", "1-2:a1"] if m.startswith(up + ":")]
    run = CliRunner().invoke(cli, ["replay", CARDS, "--moves", moves[0], "--seed", "3", "--json", "--engine", "interpreted"])
    assert run.exit_code == 0, run.output
    assert json.loads(run.output)["players"][0]["zones"]["discard"] == [up]


def test_show_lists_the_cards():
    run = CliRunner().invoke(cli, ["show", CARDS, "--engine", "interpreted"])
    assert run.exit_code == 0, run.output
    assert "face up:" in run.output and "deck: 3 left" in run.output


def _broken(tmp_path, old: str, new: str) -> str:
    text = Path(CARDS).read_text()
    assert old in text
    path = tmp_path / "broken.yaml"
    path.write_text(text.replace(old, new, 1))
    return str(path)


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("    low: {values: [1, 2], text: \"1-2\"}\n", "    low: {values: [1, 2], text: \"1\"}\n", "two items are written '1'"),
        ("    one: {values: [1], text: \"1\"}", "    one: {values: 1, text: \"1\"}", "shows a list of numbers"),
        ("  up: 2\n", "  up: 9\n", "deck.up must be between 0 and 5"),
        ("    one: {values: [1], text: \"1\"}", "    red: {values: [1], text: \"1\"}", "same name as a player"),
        ("face_up(mover, k) > 0 and item_has", "face_up(mover, c) > 0 and item_has", "argument 2 of 'face_up' must be an item"),
    ],
)
def test_bad_cards_are_refused(tmp_path, old, new, message):
    with pytest.raises(SpecError, match=message):
        load_game_ir(_broken(tmp_path, old, new))


def test_card_words_need_a_cards_section(tmp_path):
    text = Path(CARDS).read_text()
    start = text.index("deck:\n  items:")
    end = text.index("actions:")
    path = tmp_path / "nocards.yaml"
    path.write_text(text[:start] + text[end:])
    with pytest.raises(SpecError, match="deck"):
        load_game_ir(str(path))


def test_moves_and_show_take_the_seed_that_shuffles():
    for seed in (3, 4):
        run = CliRunner().invoke(cli, ["moves", CARDS, "--seed", str(seed)])
        assert run.exit_code == 0, run.output
        assert run.output.split() == [m.text for m in game_of("interpreted").new_state(seed).legal_moves()]
    run = CliRunner().invoke(cli, ["show", CARDS, "--seed", "4", "--no-color"])
    up = game_of("interpreted").new_state(4).to_json()["players"][0]["zones"]["up"]
    assert f"face up: {' '.join(up)};" in run.output


def test_compiled_perft_starts_from_the_dealt_decks():
    # the native perft starts from new_state(0), like the generic one on the interpreter
    comp = game_of("compiled")
    for depth in (1, 2, 3):
        assert comp.engine.perft(depth) == perft(game_of("interpreted").new_state(0), depth)


def test_deck_copies_deal_every_kind_that_many_times(tmp_path):
    # `deck.copies: 2`: a deck made of two sets of the cards (Meridian's two-player game,
    # whose 26 cards are two 13-card sets), except a kind with a count of its own (`low`)
    path = _broken(tmp_path, "  up: 2\n", "  up: 2\n  copies: 2\n")
    text = Path(path).read_text().replace('low: {values: [1, 2], text: "1-2"}', 'low: {values: [1, 2], text: "1-2", count: 1}')
    Path(path).write_text(text)
    assert load_game_ir(path).deck.counts == (2, 2, 2, 2, 1)
    a, b = load(path, engine="interpreted"), load(path, engine="compiled")
    for seed in (0, 5):
        sa, sb = a.new_state(seed), b.new_state(seed)
        cards = zones(sa, 0)
        assert sorted(cards["up"] + cards["deck"]) == sorted(DECK[:4] * 2 + ["1-2"])
        assert sa.to_json()["players"] == sb.to_json()["players"]
    for seed in range(20):
        assert b.engine.playout_trace(seed) == a.engine.playout_trace(seed), f"seed {seed}"
    with pytest.raises(SpecError, match="deck.copies must be between 1 and 256, got 0"):
        load_game_ir(_broken(tmp_path, "  up: 2\n", "  up: 2\n  copies: 0\n"))
