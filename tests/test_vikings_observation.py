"""Midgard (Vikings): what each player may see.

The rulebook: "Tokens are kept face-down. You may look at tokens you've collected at any
time, but your opponents may not." The draft is semi-secret: "Each player chooses one card
from their draft set to keep and places it in their supply" (a player's draft set, pick and
supply are theirs to see; the spec declares them `visible: owner`), and the three decks and
the doom tokens are shuffled face down ("Shuffle each of the three decks separately, then
place them face down"; "Shuffle the ten doom tokens face down"). Gold cards are revealed
when play begins ("All players reveal their gold cards") and played cards lie face up.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import SPECS
from midgardc.matches import play_game
from midgardc.players.script import ScriptPlayer
from midgardc.players.uniform import RandomPlayer
from midgardc.players.view import PlayerView
from midgardc.engines import load
from midgardc.runtime.rng import Rng

VIKINGS = str(SPECS / "midgard-vikings.yaml")
OWN = ("draft", "picked", "supply")  # visible: owner
FACE_DOWN = ("bronze", "silver", "gold", "doom_pile")  # visible: none
TOKENS = ("tokens[jotunheim]", "tokens[mannheim]", "tokens[alfheim]")  # face-down kingdom tokens, visible: owner
_games: dict = {}


def game_of(n: int, engine: str = "compiled"):
    if (n, engine) not in _games:
        _games[n, engine] = load(VIKINGS, n_players=n, engine=engine)
    return _games[n, engine]


def positions(game, seed: int, every: int = 7):
    """States along one random game (every ``every``-th ply and the last before the end)."""
    state = game.new_state(seed)
    rng = Rng(seed)
    out = []
    while not state.is_terminal():
        if state.ply() % every == 0:
            out.append(state.clone())
        legal = state.legal_moves()
        state.apply(legal[rng.below(len(legal))])
    return out


def check_hidden(obs: dict, viewer: str, players: list[str]) -> None:
    zones = obs["zones"]
    for z in OWN:
        for p in players:
            entry = zones[z][p]
            assert (entry["items"] is None) == (p != viewer), (z, p, viewer)
    for z in FACE_DOWN:
        assert zones[z]["game"]["items"] is None, z
    for z in ("revealed", "played"):
        assert all(zones[z][p]["items"] is not None for p in players), z
    for entry in obs["players"]:
        for t in TOKENS:
            assert (entry["counters"][t] is None) == (entry["name"] != viewer), (t, entry["name"], viewer)


@pytest.mark.parametrize("n", [3, 5])
def test_hands_picks_supplies_tokens_and_decks_are_hidden_from_the_others(n) -> None:
    game = game_of(n)
    players = list(game.ir.players)
    for state in positions(game, seed=n * 11):
        for v, viewer in enumerate(players):
            check_hidden(state.observation(v), viewer, players)


@pytest.mark.parametrize("n", [3, 4])
def test_an_observation_does_not_change_when_what_is_hidden_changes(n) -> None:
    """Deal everything the viewer cannot see again at random (the other hands, picks and
    supplies, the deck orders, the others' tokens): the viewer's observation is the same,
    so nothing hidden leaks into it, not even through the move list."""
    game = game_of(n)
    changed = 0
    for state in positions(game, seed=5 + n, every=11):
        for v in range(n):
            truth = state.observation(v)
            sample = PlayerView(state, v).determinize(Rng(v + 100 * state.ply()))
            assert sample.observation(v) == truth
            changed += sample.zones() != state.zones()
    assert changed > 0  # the samples really did move hidden items


def test_the_move_list_hides_other_players_picks() -> None:
    game = game_of(3)
    state = game.new_state(3)
    rng = Rng(3)
    while "pick" not in " ".join(m.text for m in state.legal_moves()) or state.current_player() != 0:
        legal = state.legal_moves()
        state.apply(legal[rng.below(len(legal))])
    for _ in range(3):  # red, green and blue each pick a card
        state.apply(state.legal_moves()[0])
    seen_by_red = state.observation(0)["moves"][-3:]
    truth = state.to_json()["moves"][-3:]
    assert seen_by_red[0] == truth[0]  # red's own pick
    assert all(m != t and "?" in m for m, t in zip(seen_by_red[1:], truth[1:]))  # the others': hidden


def test_a_script_player_never_receives_another_hand_or_the_deck_order(tmp_path: Path) -> None:
    out = tmp_path / "seen.jsonl"
    script = tmp_path / "dump.py"
    script.write_text(
        "import json\n"
        f"OUT = {str(out)!r}\n"
        "def choose(observation, legal_moves, rng):\n"
        "    with open(OUT, 'a') as f:\n"
        "        f.write(json.dumps(observation) + '\\n')\n"
        "    return legal_moves[rng.below(len(legal_moves))]\n"
    )
    game = game_of(3)
    result = play_game(game, [ScriptPlayer(str(script)), RandomPlayer(), RandomPlayer()], 0, seed=8)
    seen = [json.loads(line) for line in out.read_text().splitlines()]
    players = list(game.ir.players)
    assert len(seen) > 20 and all(s["observer"] == players[0] for s in seen)
    for obs in seen:
        check_hidden(obs, players[0], players)
    # and the truth at the end: the others' supplies and tokens were never shown
    state = game.new_state(result.seed)
    for move in result.moves:
        state.apply(move)
    assert state.is_terminal()
