"""Declared action spaces (spec action_space:, midgardc/spec/action_space.py): Connect
Four's 7 columns and chess's 4,672 AlphaZero moves, numbered as OpenSpiel numbers them;
random games through the map equal OpenSpiel's native games move for move."""

import random

import numpy as np
import pytest

from midgardc.engines import load
from midgardc.errors import SpecError
from midgardc.research.actions import action_map

pyspiel = pytest.importorskip("pyspiel")
from midgardc.research.openspiel_game import load_game  # noqa: E402  (needs pyspiel)

C4 = "specs/classics/connect-four.yaml"
CHESS = "specs/classics/chess.yaml"


# OpenSpiel's chess numbers castling apart (4673 kingside, 4672 queenside, beyond the
# 4,672); AlphaZero's encoding, and the spec's, write it as the king's two-square move
# (e1g1: square 32, plane 31; e1c1: plane 28), since the id depends on the move alone
CASTLING = {4673: 32 * 73 + 31, 4672: 32 * 73 + 28}


def _native_player(native_name: str, p: int) -> int:
    # OpenSpiel's chess seats Black as player 0; the spec seats White first
    return 1 - p if native_name == "chess" else p


@pytest.mark.parametrize("spec,native,games", [(C4, "connect_four", 30), (CHESS, "chess", 6)])
def test_random_games_equal_native_openspiel(spec, native, games):
    """Random games: the same legal action ids at every step, the same returns at the end."""
    ours, theirs = load_game(spec), pyspiel.load_game(native)
    assert ours.num_distinct_actions() == (7 if native == "connect_four" else 4672)
    rng = random.Random(7)
    for _ in range(games):
        a, b = ours.new_initial_state(), theirs.new_initial_state()
        while not b.is_terminal():
            assert not a.is_terminal()
            assert _native_player(native, a.current_player()) == b.current_player()
            legal = a.legal_actions()
            theirs_ids = {CASTLING.get(x, x): x for x in b.legal_actions()}
            assert legal == sorted(theirs_ids), (str(b), sorted(set(legal) ^ set(theirs_ids)))
            action = rng.choice(legal)
            assert a.action_to_string(a.current_player(), action)
            a.apply_action(action)
            b.apply_action(theirs_ids[action])
        if a.is_terminal():  # (chess: OpenSpiel may end a game first by its own draw rules)
            assert a.returns() == [b.returns()[_native_player(native, p)] for p in range(2)]


def test_connect_four_actions_are_columns():
    game = load(C4, engine="interpreted")
    amap = action_map(game)
    assert amap.size == 7
    assert amap.table[0][game.move_id("a1")] == 0 and amap.table[1][game.move_id("g6")] == 6


# AlphaZero indices in OpenSpiel's layout (square = file * 8 + rank from the mover's side,
# id = square * 73 + plane), worked out by hand from the layout in specs/classics/chess.yaml
KNOWN = [
    ("white", "e2e4", (4 * 8 + 1) * 73 + 9 + 2 + 7 - 1),   # 2 up the file: plane 17
    ("white", "g1f3", (6 * 8 + 0) * 73 + 65 + 2 + 1),      # knight -1 file, +2 ranks: plane 68
    ("white", "a7a8r", (0 * 8 + 6) * 73 + 0),              # rook underpromotion, straight
    ("white", "b7c8n", (1 * 8 + 6) * 73 + 6 + 1),          # knight underpromotion, capturing right
    ("black", "e7e5", (4 * 8 + 1) * 73 + 17),              # Black's e7e5 is White's e2e4
    ("white", "h1a1", (7 * 8 + 0) * 73 + 23),              # 7 files left along the rank
]


@pytest.mark.parametrize("seat,text,index", KNOWN)
def test_chess_known_indices(seat, text, index):
    game = load(CHESS, engine="interpreted")
    amap = action_map(game)
    assert amap.size == 4672
    assert amap.table[game.ir.players.index(seat)][game.move_id(text)] == index


def test_chess_known_indices_are_openspiels():
    theirs = pyspiel.load_game("chess")
    board = theirs.new_initial_state().board()
    for seat, text, index in KNOWN:
        if seat == "white":  # (the move need not be legal to be encoded)
            assert pyspiel.chess.action_to_move(index, board).to_lan() == text


def test_chess_map_is_a_bijection_on_legal_moves():
    """Over random positions: every legal move has an id, no two share one, and the
    map back (the adapter's) gives the move again."""
    game = load(CHESS, engine="interpreted")
    amap = action_map(game)
    rng = random.Random(3)
    positions = 0
    for g in range(4):
        state = game.new_state(g)
        while not state.is_terminal() and state.ply() < 120:
            moves = state.legal_move_ids()
            ids = amap.ids(state.current_player(), moves)  # raises on a gap or a clash
            assert sorted(ids.values()) == sorted(moves)
            assert all(0 <= a < 4672 for a in ids)
            positions += 1
            state.apply(rng.choice(moves))
    assert positions > 200


def test_a_bad_declaration_is_one_error(tmp_path):
    text = open(C4).read().replace('drop: "col(t)"', 'drop: "col(t) + height(t)"')
    path = tmp_path / "c4.yaml"
    path.write_text(text)
    with pytest.raises(SpecError, match="col\\(cell\\), row\\(cell\\) or abs"):
        load(str(path), engine="interpreted")


@pytest.mark.parametrize("spec", [C4, CHESS])
def test_batch_through_the_map_plays_the_move_ids_game(spec):
    """A batch stepped with declared ids and one stepped with the same moves' engine ids
    keep equal observations; the mask is the map of the legal moves."""
    from midgardc.batch import Batch

    ours, moves = Batch(spec, 3, seed=5), Batch(spec, 3, seed=5, move_ids=True)
    amap = action_map(ours.game)
    assert ours.n_actions == amap.size and moves.n_actions == ours.game.ir.n_action_moves
    rng = np.random.default_rng(1)
    for _ in range(150):
        chosen, plain = [], []
        for i in range(3):
            ids = amap.ids(int(ours.player[i]), np.flatnonzero(moves.mask[i]).tolist())
            assert sorted(ids) == np.flatnonzero(ours.mask[i]).tolist()
            a = int(rng.choice(sorted(ids)))
            chosen.append(a)
            plain.append(ids[a])
        ours.step(np.array(chosen))
        moves.step(np.array(plain))
        assert np.array_equal(ours.obs, moves.obs) and np.array_equal(ours.done, moves.done)


def test_batch_sample_draws_from_the_legal_weights():
    from midgardc.batch import Batch

    batch = Batch(CHESS, 4, seed=2)
    probs = np.zeros((4, batch.n_actions), np.float32)
    probs[:, 0] = 5.0  # an illegal action's weight never counts
    legal = [int(np.flatnonzero(batch.mask[i])[3]) for i in range(4)]
    probs[np.arange(4), legal] = 1.0
    batch.sample(probs)
    assert batch.chosen.tolist() == legal
    # all weight on illegal actions: uniform over the legal ones, always a legal one
    for _ in range(50):
        before = batch.mask.copy()
        batch.sample(probs)
        assert all(before[i, batch.chosen[i]] for i in range(4))
    with pytest.raises(ValueError, match="probs"):
        batch.sample(np.zeros((4, 7), np.float32))


# A toy game on a board of 2 rows and 3 columns whose second player faces the other way
# (forward: s): with action_space.forward its rows count from its own side, as chess's
# Black counts its ranks from the 8th (specs/classics/chess.yaml).
FACING = """midgardc: 1
game: {name: facing, players: [north, south], max_plies: 6}
pieces: {stone: {hand: 3}}
board: {topology: square, rows: 2, cols: 3}
player_props:
  ahead: {north: n, south: s}
  across: {north: n, south: e}
actions:
  drop: {params: {c: cell}, where: "empty(c)", effects: [place: {piece: stone, at: c}], notation: "{c}"}
end: {no_moves: pass}
ranking: {won: "0"}
action_space:
  size: 6
  forward: ahead
  ids:
    drop: "row(c) * 3 + col(c)"
"""


def test_forward_counts_rows_from_the_movers_side(tmp_path):
    path = tmp_path / "facing.yaml"
    path.write_text(FACING)
    game = load(str(path), engine="interpreted")
    table = action_map(game).table
    ids = {cell: (int(table[0][game.move_id(cell)]), int(table[1][game.move_id(cell)])) for cell in ("a1", "c1", "a2", "b2")}
    # north counts rows from the bottom (a1 is row 0); south from the top (a2 is its row 0)
    assert ids == {"a1": (0, 3), "c1": (2, 5), "a2": (3, 0), "b2": (4, 1)}


@pytest.mark.parametrize("forward, words", [
    ("across", "south's forward is neither north's nor its opposite"),
    ("behind", "there is no 'behind'"),
])
def test_a_bad_forward_is_one_error_at_its_place(tmp_path, forward, words):
    text = FACING.replace("  forward: ahead", f"  forward: {forward}")
    path = tmp_path / "facing.yaml"
    path.write_text(text)
    with pytest.raises(SpecError) as info:
        load(str(path), engine="interpreted")
    assert words in info.value.message
    assert info.value.pos.line == text.splitlines().index(f"  forward: {forward}") + 1
