"""Kuhn poker and Leduc hold'em (specs/kuhn-poker.yaml, specs/leduc-poker.yaml) play by
OpenSpiel's rules, on both engines. The rules are quoted from OpenSpiel's source
(google-deepmind/open_spiel, open_spiel/games/kuhn_poker/kuhn_poker.cc and
open_spiel/games/leduc_poker/leduc_poker.cc), the text the specs copy.

A deal is chosen with ``new_state(seed, start_zones=...)``: the deck's order, top first,
replaces the start shuffle, and the start effects deal from its top (the first card to the
first player)."""

from __future__ import annotations

import pytest

from conftest import ENGINES, SPECS, get_game
from midgardc.errors import SpecError
from midgardc.engines import load

KUHN = str(SPECS / "kuhn-poker.yaml")
LEDUC = str(SPECS / "leduc-poker.yaml")


def dealt(spec: str, engine: str, cards: list[str], seed: int = 0):
    """A new hand whose deck is ``cards`` on top (by text, top first), the rest after."""
    game = get_game(spec, None, engine)
    zs = game.ir.zones
    order = [zs.texts.index(c) for c in cards]
    rest = [k for k in range(zs.n_kinds) for _ in range(zs.zones[0].start[k])]
    for k in order:
        rest.remove(k)
    slots = [order + rest] + [[0] * zs.n_kinds for _ in range(zs.n_slots - 1)]
    return game.new_state(seed, start_zones=slots)


def play(state, moves: str):
    for m in moves.split():
        state.apply(m)
    return state


def chips(state, name: str) -> list[int]:
    i = state.game.ir.counters.index(name)
    return [state.core.counters[p][i] for p in range(2)]


# --------------------------------------------------------------------------- Kuhn


@pytest.mark.parametrize("engine", ENGINES)
def test_kuhn_deal_one_card_each_seen_by_its_owner(engine):
    # "Give card `move` to player `history_.size()`": one card each, the third stays out
    s = dealt(KUHN, engine, ["K", "J"])
    zones = s.zones()
    assert zones["cards"]["first"]["king"] == 1 and zones["cards"]["second"]["jack"] == 1
    assert zones["deck"]["game"] == ["queen"]
    mine, theirs = s.observation(0)["zones"]["cards"]["first"], s.observation(0)["zones"]["cards"]["second"]
    assert mine == {"size": 1, "items": ["K"]} and theirs == {"size": 1, "items": None}
    # "pot_(kAnte * game->NumPlayers())": one chip each to start
    assert chips(s, "in_pot") == [1, 1]
    assert [m.text for m in s.legal_moves()] == ["pass", "bet"]  # "return {kPass, kBet}"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "cards, moves, returns",
    [
        # "Nobody bet; the winner is the person with the highest card dealt"
        (["K", "Q"], "pass pass", [1, -1]),
        (["J", "Q"], "pass pass", [-1, 1]),
        # "There was betting; so the winner is the person with the highest card who stayed in"
        (["J", "K"], "bet pass", [1, -1]),
        (["K", "J"], "pass bet pass", [-1, 1]),
        (["Q", "K"], "pass bet bet", [-2, 2]),
        (["K", "Q"], "bet bet", [2, -2]),
    ],
)
def test_kuhn_returns_are_chips(engine, cards, moves, returns):
    # "returns[player] = (player == winner_) ? (pot_ - bet) : -bet"
    s = play(dealt(KUHN, engine, cards), moves)
    assert s.is_terminal()
    assert s.returns() == returns
    assert s.ranks() == ((1, 2) if returns[0] > 0 else (2, 1))  # ranks follow the chips


@pytest.mark.parametrize("engine", ENGINES)
def test_kuhn_a_pass_facing_a_bet_folds(engine):
    s = play(dealt(KUHN, engine, ["K", "Q"]), "pass bet")
    assert not s.is_terminal() and s.current_player() == 0  # the first player answers the bet
    play(s, "pass")
    assert chips(s, "folded") == [1, 0] and s.returns() == [-1, 1]


# --------------------------------------------------------------------------- Leduc


@pytest.mark.parametrize("engine", ENGINES)
def test_leduc_betting(engine):
    s = dealt(LEDUC, engine, ["Qs", "Kh", "Jh"])
    # "Can't just randomly fold; only allow fold when under pressure"
    assert [m.text for m in s.legal_moves()] == ["call", "raise"]
    play(s, "raise")  # "raise_amount = (round_ == 1 ? kFirstRaiseAmount : ...)": 2 in round 1
    assert chips(s, "in_pot") == [3, 1]
    assert [m.text for m in s.legal_moves()] == ["fold", "call", "raise"]
    play(s, "raise")  # the second raise of the round: "if (num_raises_ < 2)"
    assert chips(s, "in_pot") == [3, 5]
    assert [m.text for m in s.legal_moves()] == ["fold", "call"]
    play(s, "call")
    # "Round 2: A single public card"; the starting player acts first again
    assert s.zones()["public"]["game"]["jack_of_hearts"] == 1
    assert s.current_player() == 0 and s.observation(1)["zones"]["public"]["game"]["items"] == ["Jh"]
    play(s, "call raise")  # kSecondRaiseAmount: 4 in round 2
    assert chips(s, "in_pot") == [5, 9]
    play(s, "call")
    assert s.is_terminal() and s.returns() == [-9, 9]  # K beats Q, no pair


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "cards, returns",
    [
        (["Js", "Kh", "Jh"], [1, -1]),  # "Pair! ... put higher than every singles combo"
        (["Qs", "Kh", "Jh"], [-1, 1]),  # "Otherwise card value dominates"
        (["Qs", "Qh", "Jh"], [0, 0]),  # "Split the pot among the winners"
        (["Ks", "Qh", "Qs"], [-1, 1]),  # a pair of queens beats a king
    ],
)
def test_leduc_showdown(engine, cards, returns):
    s = play(dealt(LEDUC, engine, cards), "call call call call")
    assert s.is_terminal() and s.returns() == returns


@pytest.mark.parametrize("engine", ENGINES)
def test_leduc_a_fold_ends_the_hand(engine):
    # "Only one left in? They get the pot!"
    s = play(dealt(LEDUC, engine, ["Ks", "Jh", "Qh"]), "call raise fold")
    assert s.is_terminal() and s.returns() == [-1, 1]
    assert s.zones()["public"]["game"] == dict.fromkeys(s.game.ir.zones.names, 0)  # never dealt


def test_both_engines_play_a_chosen_deal_alike():
    for cards in (["Kh", "Js", "Qs"], ["Jh", "Js", "Kh"]):
        states = [dealt(LEDUC, e, cards) for e in ENGINES]
        for m in "raise call raise raise call".split():
            for s in states:
                s.apply(m)
            assert states[0].zones() == states[1].zones() and states[0].core.counters == states[1].core.counters
        assert states[0].returns() == states[1].returns()


# --------------------------------------------------------------------------- the returns: option


def _spec(tmp_path, returns: str, payoff: str = "1") -> str:
    path = tmp_path / "payoff.yaml"
    path.write_text(
        "game: {name: payoff, players: [a, b]}\n"
        "board: {topology: graph, nodes: [x]}\n"
        "counters: {won: 0, turn: {start: 0, of: game}}\n"
        "actions:\n  go: {effects: [{add: {counter: turn, to: 1}}]}\n"
        "end:\n  when: [turn == 1]\n"
        f"  effects: [{{set: {{counter: won, of: a, to: {payoff}}}}}, {{set: {{counter: won, of: b, to: -1}}}}]\n"
        f"returns: {returns}\n"
        "ranking: {won: won(p)}\n",
        encoding="utf-8",
    )
    return str(path)


@pytest.mark.parametrize(
    "returns, message, col",
    [
        ("{counter: wins, min: -1, max: 1}", "there is no counter 'wins'", 20),
        ("{counter: turn, min: -1, max: 1}", "'turn' is a game counter", 20),
        ("{counter: won, min: 1, max: 2}", "must enclose 0", 38),
        ("{counter: won, max: 1}", "needs a 'min' key", 10),
    ],
)
def test_returns_errors_are_positioned(tmp_path, returns, message, col):
    with pytest.raises(SpecError) as err:
        load(_spec(tmp_path, returns))
    assert message in err.value.message
    assert (err.value.pos.line, err.value.pos.col) == (9, col)


@pytest.mark.parametrize("engine", ENGINES)
def test_returns_must_be_zero_sum_and_in_bounds(tmp_path, engine):
    good = load(_spec(tmp_path, "{counter: won, min: -1, max: 1}"), engine=engine).new_state()
    good.apply("go")
    assert good.returns() == [1.0, -1.0]
    bad = load(_spec(tmp_path, "{counter: won, min: -1, max: 1}", payoff="2"), engine=engine).new_state()
    bad.apply("go")
    with pytest.raises(SpecError) as err:
        bad.returns()
    assert "adding up to 1, not 0" in str(err.value) and err.value.pos.line == 9


# --------------------------------------------------------------- game.horizon and game.remembers


@pytest.mark.parametrize(
    "game, message, at",
    [
        ("horizon: 3, remembers: moves", None, ""),
        ("horizon: 0", "game.horizon must be between 1", "0"),
        ("max_plies: 5, horizon: 6", "more moves than game.max_plies 5", "6"),
        ("remembers: moves", "needs game.horizon", "moves"),
        ("horizon: 3, remembers: everything", "game.remembers must be one of moves", "everything"),
    ],
)
def test_horizon_and_memory_are_checked(tmp_path, game, message, at):
    path = tmp_path / "memory.yaml"
    line = f"game: {{name: memory, players: [a, b], {game}}}"
    path.write_text(
        line + "\n"
        "board: {topology: graph, nodes: [x]}\n"
        "actions:\n  go: {}\n"
        "ranking: {none: 0}\n",
        encoding="utf-8",
    )
    if message is None:
        ir = load(str(path)).ir
        assert (ir.horizon, ir.remembers) == (3, "moves")
        return
    with pytest.raises(SpecError) as err:
        load(str(path))
    assert message in err.value.message
    assert (err.value.pos.line, err.value.pos.col) == (1, line.rindex(at) + 1)  # at the value


# --------------------------------------------------------------------------- the start: option


def test_start_errors_are_positioned(tmp_path):
    path = tmp_path / "start.yaml"
    path.write_text(
        "game: {name: start, players: [a, b]}\nboard: {topology: graph, nodes: [x]}\n"
        "counters: {chips: 0}\nstart:\n  effects: [{add: {counter: chip, to: 1}}]\n"
        "actions: {go: {}}\nranking: {chips: chips(p)}\n",
        encoding="utf-8",
    )
    with pytest.raises(SpecError) as err:
        load(str(path))
    assert "chip" in err.value.message and (err.value.pos.line, err.value.pos.col) == (5, 29)
    path.write_text(path.read_text().replace("chip, to: 1", "chips, to: 2").replace("start:\n  effects", "start:\n  effect"))
    with pytest.raises(SpecError, match="unknown key 'effect'"):
        load(str(path))


@pytest.mark.parametrize("engine", ENGINES)
def test_start_effects_run_once_with_the_first_seat_as_mover(tmp_path, engine):
    path = tmp_path / "start.yaml"
    path.write_text(
        "game: {name: start, players: [a, b]}\nboard: {topology: graph, nodes: [x]}\n"
        "counters: {chips: 0}\nstart:\n  effects: [{add: {counter: chips, to: 2}}]\n"
        "actions: {go: {}}\nend: {when: ['ply == 2']}\nranking: {chips: chips(p)}\n",
        encoding="utf-8",
    )
    s = load(str(path), engine=engine).new_state(5)
    assert s.core.counters[0][0] == 2 and s.core.counters[1][0] == 0 and s.ply() == 0
    play(s, "go go")
    assert s.core.counters[0][0] == 2 and s.is_terminal()


def test_match_reports_the_payoff(tmp_path):
    import json

    from click.testing import CliRunner

    from midgardc.cli import cli

    record = tmp_path / "games.jsonl"
    out = CliRunner().invoke(cli, ["match", KUHN, "--players", "random,greedy", "--games", "40", "--json", "--record", str(record)])
    assert out.exit_code == 0, out.output
    players = json.JSONDecoder().raw_decode(out.output)[0]["players"]  # (then the record line)
    assert sum(p["returns"] for p in players) == 0 and any(p["returns"] for p in players)
    assert all(p["mean_returns"] == round(p["returns"] / 40, 4) for p in players)
    lines = [json.loads(x) for x in record.read_text().splitlines()]
    by_label: dict = {}
    for line in lines:
        for seat, label in zip(line["seat_names"], line["seats"]):
            by_label[label] = by_label.get(label, 0) + line["result"]["returns"][seat]
    assert by_label == {p["name"]: p["returns"] for p in players}
    table = CliRunner().invoke(cli, ["match", KUHN, "--players", "random,greedy", "--games", "40"])
    assert "returns  per game" in table.output
