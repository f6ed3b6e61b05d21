"""Property tests: whatever moves are chosen, a Midgard game stays legal and ends.

Hypothesis picks the move at every ply (as an index into the legal list); the invariants
are stated from the rulebook, independently of the engine's own code.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import MIDGARD, get_game

CHOICES = st.lists(st.integers(min_value=0, max_value=10_000), min_size=130, max_size=130)


def empty_groups(ir, board, member):
    seen, groups = set(), []
    for start in range(ir.board.n_cells):
        if start in seen or not member(start):
            continue
        group, todo = {start}, [start]
        while todo:
            for n in ir.board.neighbours[todo.pop()]:
                if n not in group and member(n):
                    group.add(n)
                    todo.append(n)
        seen |= group
        groups.append(group)
    return groups


def check_invariants(state, variant):
    ir = state.game.ir
    board = state.core.board[: ir.board.n_cells]
    nbrs = ir.board.neighbours
    seeded = dict(ir.board.props)["seeded"]
    # tiles are conserved: "Each player receives a set of ... 70 tiles"
    for p in range(2):
        on_board = sum(1 for v in board if v and ir.piece_owner(v) == p)
        assert on_board + state.core.hands[p][0] == 70
    terraformed = lambda c: board[c] != 0  # noqa: E731
    blizzard = lambda c: not board[c] and (seeded[c] or any(terraformed(n) for n in nbrs[c]))  # noqa: E731
    ice = lambda c: not board[c] and not blizzard(c)  # noqa: E731
    # every legal move is an ice cell (rule 1), and every ice cell is a legal move
    if not state.is_terminal():
        legal = set(state.legal_move_ids())
        assert legal == {c for c in range(ir.board.n_cells) if ice(c)}
    # base rules: no enclosed blizzard region is left unfilled after a move (rule 2),
    # unless a player ran out of tiles and the game ended
    if variant != "odin" and min(state.core.hands[0][0], state.core.hands[1][0]) > 0:
        for group in empty_groups(ir, board, blizzard):
            assert any(ice(n) for c in group for n in nbrs[c]), sorted(group)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(choices=CHOICES, variant=st.sampled_from([None, "odin", "loki"]))
def test_random_games_stay_legal_and_end(choices, variant):
    game = get_game(MIDGARD, variant, "interpreted")
    state = game.new_state()
    for ply, choice in enumerate(choices):
        check_invariants(state, variant)
        if state.is_terminal():
            break
        legal = state.legal_move_ids()
        state.apply(legal[choice % len(legal)])
    # "When all the cells on the board are occupied ... or one player runs out of tiles":
    # at most one drop per cell, so a game ends within 124 moves
    assert state.is_terminal() and state.ply() <= 124
    assert state.to_json()["winner"] in ("sea", "land")
    if variant == "odin":  # the end assessment fills every empty cell (or a hand ran out)
        board = state.core.board[:-1]
        assert all(board) or min(state.core.hands[0][0], state.core.hands[1][0]) == 0


@settings(max_examples=15, deadline=None)
@given(choices=st.lists(st.integers(min_value=0, max_value=1000), min_size=1, max_size=40))
def test_clone_is_independent_and_json_round_trips(choices):
    import json

    game = get_game(MIDGARD, None, "interpreted")
    state = game.new_state()
    for choice in choices:
        if state.is_terminal():
            break
        legal = state.legal_move_ids()
        state.apply(legal[choice % len(legal)])
    snapshot = json.dumps(state.to_json(), sort_keys=True)
    copy = state.clone()
    if not copy.is_terminal():
        copy.apply(copy.legal_move_ids()[0])
    assert json.dumps(state.to_json(), sort_keys=True) == snapshot
    # replaying the recorded moves gives the same position
    from midgardc.runtime.game import replay

    again = replay(game, state.to_json()["moves"])
    assert json.dumps(again.to_json(), sort_keys=True) == snapshot
