"""Learning-ready views of the observation tensor (midgardc/research/view.py): the mover's
point of view, normalised counts, the (C, H, W) layout with named planes, history planes;
the same floats from the interpreter, the compiled engine and the C batch."""

from __future__ import annotations

import numpy as np
import pytest

from midgardc.engines import load
from midgardc.errors import SpecError
from midgardc.research.tensor import observation_tensor
from midgardc.research.view import Positions, ViewOptions, make_view, view_options
from midgardc.runtime.rng import Rng

CHESS = "specs/classics/chess.yaml"
GO = "specs/classics/go.yaml"
C4 = "specs/classics/connect-four.yaml"


def play(game, moves, view=None):
    """A state after ``moves`` (texts), with the positions a view's history shows."""
    state = game.new_state(0)
    past = Positions(view) if view is not None else None
    for text in moves:
        if past is not None:
            past.push(state)
        state.apply(text)
    return state, past


def random_positions(game, view, n, seed, max_plies=60):
    """(state, positions) after random plies of ``n`` games."""
    rng = Rng(seed)
    out = []
    for g in range(n):
        state = game.new_state(g)
        past = Positions(view)
        for _ in range(rng.below(max_plies)):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.sample_chance()
                continue
            legal = state.legal_move_ids()
            past.push(state)
            state.apply_unchecked(legal[rng.below(len(legal))])
        out.append((state, past))
    return out


@pytest.mark.parametrize("section, message", [
    ("observation: {forward: nowhere}", "no 'nowhere'"),
    ("observation: {scale: {discs: 21}}", "unknown 'discs'"),
    ("observation: {scale: {repetition: 3}}", "needs a history"),
    ("observation: {scale: {fours: [1, 1]}}", "above the minimum"),
    ("observation: {history: 0}", "observation.history"),
])
def test_a_bad_observation_section_is_one_error(tmp_path, section, message):
    path = tmp_path / "c4.yaml"
    path.write_text(open(C4).read() + "\n" + section + "\n")
    with pytest.raises(SpecError, match=message) as err:
        load(str(path), engine="interpreted")
    assert err.value.pos is not None and err.value.pos.line > 1


def test_options_read_from_words():
    assert view_options(None) is None and view_options("raw") is None
    assert view_options("canonical+normalised") == ViewOptions(canonical=True, normalised=True)
    assert view_options("learning,history=4") == ViewOptions(True, True, True, 4)
    assert view_options({"spatial": True}) == ViewOptions(spatial=True)
    for bad in ("sideways", "history=0", {"flip": True}):
        with pytest.raises(ValueError):
            view_options(bad)


@pytest.mark.parametrize("spec, mirrored", [(CHESS, True), (C4, False)])
def test_canonical_view_is_the_other_seat_swapped_and_mirrored(spec, mirrored):
    """Seat 1's mover view shows its own pieces as 'me', on a board mirrored top to bottom
    where the spec declares opposite forward directions (chess), as is otherwise."""
    game = load(spec, engine="interpreted")
    view = make_view(game.ir, "canonical,spatial,history=1")
    absolute = make_view(game.ir, "spatial,history=1")
    assert view.describe()["mirrored_for"] == (["black"] if mirrored else [])
    for state, past in random_positions(game, view, 6, seed=3):
        mine, theirs = view.tensor(state, 1), absolute.tensor(state, 0)
        flip = (lambda a: a[::-1]) if mirrored else (lambda a: a)
        for kind in game.ir.kinds:
            me, other = game.ir.players[1], game.ir.players[0]
            assert np.array_equal(mine[view.plane(f"board[me,{kind}]")], flip(theirs[absolute.plane(f"board[{me},{kind}]")]))
            assert np.array_equal(mine[view.plane(f"board[+1,{kind}]")], flip(theirs[absolute.plane(f"board[{other},{kind}]")]))
        # seat 0's mover view is the absolute one
        assert np.array_equal(view.tensor(state, 0), theirs)


def test_canonical_view_of_both_seats_in_the_mirrored_start_of_chess():
    """The start of chess is symmetric: both seats see the same board in their own view."""
    game = load(CHESS, engine="interpreted")
    view = make_view(game.ir, "canonical,spatial,history=1")
    state = game.new_state(0)
    a, b = view.tensor(state, 0), view.tensor(state, 1)
    for kind in game.ir.kinds:
        for seat in ("me", "+1"):
            plane = view.plane(f"board[{seat},{kind}]")
            assert np.array_equal(a[plane], b[plane])
    assert a[view.plane("current[me]")].all() and not b[view.plane("current[me]")].any()


@pytest.mark.parametrize("spec", [CHESS, GO, C4, "specs/leduc-poker.yaml", "specs/classics/kalah.yaml", "specs/classics/yahtzee.yaml"])
def test_normalised_values_lie_in_0_1(spec):
    game = load(spec, engine="interpreted")
    view = make_view(game.ir, "canonical,normalised")
    low, high = view.bounds()
    assert (low == 0).all() and (high == 1).all()
    for state, past in random_positions(game, view, 5, seed=11):
        for p in range(game.ir.n_players):
            t = view.tensor(state, p, past)
            assert t.dtype == np.float32 and t.min() >= 0 and t.max() <= 1


def test_chess_planes_against_the_start_and_a_hand_made_position():
    game = load(CHESS, engine="interpreted")
    view = make_view(game.ir, "spatial,normalised,history=1")
    d = view.describe()
    assert view.shape[1:] == (8, 8) and d["cells"][0][0] == "a8" and d["cells"][7][4] == "e1"
    t = view.tensor(game.new_state(0), 0)
    assert t[view.plane("board[white,pawn]")][6].all() and t[view.plane("board[white,pawn]")].sum() == 8
    assert t[view.plane("board[white,king]")][7, 4] == 1 and t[view.plane("board[black,queen]")][0, 3] == 1
    # no piece is ever in hand: a promotion converts the pawn in place (promotes: {to: [...]})
    assert not t[view.plane("hand[white,queen]")].any()
    state, _ = play(game, ["e2e4", "a7a6", "e4e5", "d7d5"])
    t = view.tensor(state, 0)
    ep = view.plane("en_passant")  # a cell-valued counter: its own plane, the cell marked
    assert t[ep][2, 3] == 1 and t[ep].sum() == 1  # d6, which the e5 pawn may take
    assert t[view.plane("quiet_moves")].max() == 0 and t[view.plane("current[white]")].all()


def test_go_planes_and_its_hand_normalised():
    game = load(GO, engine="interpreted")
    view = make_view(game.ir, "canonical,spatial,normalised")
    assert view.options.history == 8  # the spec's observation.history
    state, past = play(game, ["e5", "c3"], view)
    t = view.tensor(state, 0, past)  # black to move: black is "me"
    assert t[view.plane("board[me,stone]")][4, 4] == 1 and t[view.plane("board[+1,stone]")][6, 2] == 1
    assert np.allclose(t[view.plane("hand[me,stone]")], 9999 / 10000)
    assert t[view.plane("board-1[me,stone]")][6, 2] == 0 and t[view.plane("board-1[me,stone]")][4, 4] == 1
    assert t[view.plane("board-2[me,stone]")].sum() == 0  # the empty start
    assert t[view.plane("board-3[me,stone]")].sum() == 0  # before the start: zeros


def test_connect_four_planes():
    game = load(C4, engine="interpreted")
    view = make_view(game.ir, "learning")
    assert view.shape == (8, 6, 7)
    assert view.describe()["planes"][:2] == ["board[me,disc]", "board[+1,disc]"]
    state, _ = play(game, ["d1", "d2", "e1"])
    t = view.tensor(state, 1)
    assert t[view.plane("board[+1,disc]")][5, 3] == 1 and t[view.plane("board[+1,disc]")][5, 4] == 1
    assert t[view.plane("board[me,disc]")][4, 3] == 1 and t[view.plane("board[me,disc]")].sum() == 1
    assert np.allclose(t[view.plane("hand[me,disc]")], 20 / 42)  # the pieces in the game


def test_chess_history_and_repetition():
    """The knights out and back: the start position again (seen twice), and the history
    planes show the positions before, newest first."""
    game = load(CHESS, engine="interpreted")
    view = make_view(game.ir, "spatial")
    moves = ["g1f3", "g8f6", "f3g1", "f6g8"]
    state, past = play(game, moves, view)
    t = view.tensor(state, 0, past)
    assert t[view.plane("repetition")].max() == 2
    kn = lambda j, who: t[view.plane(f"board{j}[{who},knight]")]
    assert kn("", "black")[0, 6] == 1 and kn("-1", "black")[2, 5] == 1  # g8 now, f6 before
    assert kn("-1", "white")[7, 6] == 1 and kn("-2", "white")[5, 5] == 1  # g1 back, f3 before
    assert kn("-3", "white")[5, 5] == 1 and kn("-3", "black")[0, 6] == 1  # after the first move
    assert kn("-4", "white")[7, 6] == 1 and kn("-5", "white").sum() == 0  # the start; before it none
    normal = make_view(game.ir, "normalised")
    assert np.isclose(normal.tensor(state, 0, past)[normal.plane("repetition")], 2 / 3)


@pytest.mark.parametrize("spec", [CHESS, GO, C4, "specs/leduc-poker.yaml", "specs/classics/kalah.yaml"])
def test_interpreter_and_compiled_give_the_same_views(spec):
    interp, comp = load(spec, engine="interpreted"), load(spec, engine="compiled")
    for obs in ("learning", "canonical,normalised,history=3"):
        view = make_view(interp.ir, obs)
        cview = make_view(comp.ir, obs)
        for (a, pa), (b, pb) in zip(random_positions(interp, view, 4, seed=5), random_positions(comp, cview, 4, seed=5)):
            for p in range(interp.ir.n_players):
                assert np.array_equal(observation_tensor(a, p), observation_tensor(b, p))
                assert np.array_equal(view.tensor(a, p, pa), cview.tensor(b, p, pb))


@pytest.mark.parametrize("spec", [CHESS, GO, "specs/leduc-poker.yaml", "specs/classics/yahtzee.yaml"])
def test_runs_are_the_element_tables(spec):
    """The runs the C loop reads expand to the element tables numpy applies."""
    ir = load(spec, engine="interpreted").ir
    for obs in ("learning", "canonical,normalised", "spatial,history=2"):
        view = make_view(ir, obs)
        runs = view.runs
        for v in range(ir.n_players):
            got = []
            for r in range(runs.src.shape[1]):
                for u in range(runs.rows[v, r]):
                    for t in range(runs.length[v, r]):
                        src = runs.src[v, r] + u * runs.row_step[v, r] + t * runs.src_step[v, r] if runs.src[v, r] >= 0 else -1
                        a = runs.a[v, r] + u * runs.a_row_step[v, r] + t * runs.a_step[v, r]
                        got.append((src, runs.gate[v, r], runs.op[v, r], a, runs.b[v, r]))
            want = list(zip(view.src[v], view.gate[v], view.op[v], view.a[v], view.b[v]))
            assert len(got) == view.size
            for g, w in zip(got, want):
                assert g[:3] == tuple(w[:3]) and (w[0] < 0 or g[3] == w[3] or w[2] != 2) and g[4] == w[4]
        assert runs.src.shape[1] < view.size  # (constant planes and board rows are runs)


@pytest.mark.parametrize("spec, obs", [(CHESS, "learning"), (GO, "canonical,normalised,history=3"), (C4, "learning"), ("specs/leduc-poker.yaml", "canonical,normalised")])
def test_batch_writes_the_views_of_the_state_api(spec, obs):
    """Batch's C view equals the State API's, slot by slot, the history planes and the
    final observation of a finished game included (actions as move ids, replayed on
    states of the slots' seeds)."""
    from midgardc.batch import Batch

    n = 3
    batch = Batch(spec, n, seed=9, move_ids=True, observation=obs)
    game, view = batch.game, batch.view
    games = [0] * n
    states = [game.new_state(batch.game_seed(i, 0)) for i in range(n)]
    pasts = [Positions(view) for _ in range(n)]
    rng = np.random.default_rng(1)
    ended = 0
    for step in range(40):
        for i in range(n):
            s = states[i]
            assert batch.player[i] == s.current_player()
            assert np.array_equal(batch.obs[i], view.tensor(s, s.current_player(), pasts[i])), (step, i)
        seats = batch.observe_seats()
        assert np.array_equal(seats[0, 1], view.tensor(states[0], 1, pasts[0]))
        actions = np.array([rng.choice(np.flatnonzero(batch.mask[i])) for i in range(n)])
        for i in range(n):
            pasts[i].push(states[i])
            states[i].apply_unchecked(int(actions[i]))
            while states[i].is_chance_node():
                states[i].sample_chance()
        batch.step(actions)
        for i in map(int, np.flatnonzero(batch.done)):
            assert states[i].is_terminal()
            for p in range(game.ir.n_players):
                assert np.array_equal(batch.final_obs[i, p], view.tensor(states[i], p, pasts[i]))
            games[i] += 1
            states[i] = game.new_state(batch.game_seed(i, games[i]))
            pasts[i] = Positions(view)
            ended += 1
    assert spec != C4 or ended  # (a random game of Connect Four ends within 40 moves)


def test_batch_save_restore_keeps_the_history():
    from midgardc.batch import Batch

    batch = Batch(CHESS, 2, observation="spatial,history=3")
    batch.step_random()
    saved = batch.save()
    batch.step_random()
    after = batch.obs.copy()
    batch.restore(saved)
    batch.step_random()
    assert np.array_equal(batch.obs, after)


def test_adapters_take_the_view():
    import pyspiel

    import midgardc.openspiel  # noqa: F401  (registers python_midgardc)
    from midgardc.research.pz import env
    from midgardc.research.single import make

    game = pyspiel.load_game("python_midgardc", {"spec": C4, "observation": "learning", "engine": "interpreted"})
    assert game.observation_tensor_shape() == [8, 6, 7]
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[3])
    viewed = np.array(state.observation_tensor(1)).reshape(8, 6, 7)
    ref = make_view(load(C4, engine="interpreted").ir, "learning")
    assert viewed[ref.plane("board[+1,disc]")][5, 3] == 1
    e = env(C4, engine="interpreted", observation="learning")
    e.reset(seed=0)
    assert e.observe(e.agent_selection)["observation"].shape == (8, 6, 7)
    assert e.observation_space(e.agent_selection)["observation"].shape == (8, 6, 7)
    g = make(C4, engine="interpreted", observation="canonical,normalised")
    obs, _ = g.reset(seed=0)
    assert g.observation_space.contains(obs)


@pytest.mark.parametrize("spec", [C4, CHESS])
def test_adapters_pass_their_api_checks_with_a_view(spec):
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    from midgardc.research.pz import env
    from midgardc.research.single import make

    api_test(env(spec, engine="interpreted", observation="learning"), num_cycles=20, verbose_progress=False)
    check_env(make(spec, engine="interpreted", observation="learning").unwrapped, skip_render_check=True)
