"""Batches of games (midgardc.batch): every slot is the game the State API plays from the
same seed with the same actions — observations, masks, players, rewards, done flags and
new games after the end included."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from midgardc.batch import Batch  # noqa: E402
from midgardc.research.tensor import python_tensor  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LONG = bool(os.environ.get("MIDGARDC_LONG"))
CASES = [  # (spec, variant, players, steps: each slot finishes a game or more)
    ("specs/classics/connect-four.yaml", None, None, 100),  # a plain game
    ("specs/magic-mids.yaml", None, 3, 200),  # dice
    ("specs/midgard-vikings.yaml", None, 3, 240),  # zones, hidden hands, shuffles
    ("specs/meridian.yaml", None, 2, 100),  # decks, stacks
    ("specs/midgard.yaml", "odin", None, 100),
]


class Mirror:
    """Slot i of a batch, played through the State API."""

    def __init__(self, batch: Batch, slot: int):
        self.batch, self.slot, self.k = batch, slot, 0
        self.new_game()

    def new_game(self) -> None:
        self.state = self.batch.game.new_state(self.batch.game_seed(self.slot, self.k))
        self.k += 1
        self.roll()

    def roll(self) -> None:
        while self.state.is_chance_node():
            self.state.sample_chance()

    def play(self, action: int) -> tuple[list[float], bool, bool]:
        self.state.apply(int(action))
        self.roll()
        if not self.state.is_terminal():
            return [0.0] * self.batch.game.ir.n_players, False, False
        result = self.state.returns(), True, bool(self.state.core.ply_limited)
        self.final = self.state  # (what final_obs shows)
        self.new_game()
        return result


def _check(batch: Batch, mirrors: list[Mirror]) -> None:
    for i, m in enumerate(mirrors):
        p = m.state.current_player()
        assert batch.player[i] == p
        assert np.flatnonzero(batch.mask[i]).tolist() == m.state.legal_move_ids()
        assert np.array_equal(batch.obs[i], python_tensor(m.state, p)), f"slot {i}, ply {m.state.ply()}"
        if batch.done[i]:  # the finished game as every seat saw it, kept past the auto-reset
            for seat in range(batch.game.ir.n_players):
                assert np.array_equal(batch.final_obs[i, seat], python_tensor(m.final, seat)), f"slot {i}, seat {seat}"


def _check_seats(batch: Batch, mirrors: list[Mirror]) -> None:
    seats = batch.observe_seats()
    for i, m in enumerate(mirrors):
        for seat in range(batch.game.ir.n_players):
            assert np.array_equal(seats[i, seat], python_tensor(m.state, seat)), f"slot {i}, seat {seat}"


CASES.append(("specs/classics/connect-four.yaml", None, None, 60, 3))  # step_random beyond the kept legal actions
IDS = [Path(c[0]).stem + ("-room" if len(c) > 4 else "") for c in CASES]


@pytest.mark.parametrize("spec,variant,players,steps,room", [c if len(c) > 4 else (*c, 512) for c in CASES], ids=IDS)
def test_a_batch_plays_the_games_of_the_state_api(spec, variant, players, steps, room) -> None:
    batch = Batch(str(ROOT / spec), 3, variant, players, seed=9, room=room, move_ids=True)  # (the State API speaks move ids; tests/test_action_space.py maps them)
    mirrors = [Mirror(batch, i) for i in range(3)]
    _check(batch, mirrors)
    rng = np.random.default_rng(9)
    ended = 0
    for step in range(steps * (5 if LONG else 1)):
        if step % 2:
            actions = np.array([rng.choice(np.flatnonzero(batch.mask[i])) for i in range(3)])
            batch.step(actions)
            for i, m in enumerate(mirrors):
                rewards, done, truncated = m.play(actions[i])
                assert batch.rewards[i].tolist() == rewards and bool(batch.done[i]) == done and bool(batch.truncated[i]) == truncated
                ended += done
        else:  # actions drawn in C: some legal move of each mirror must give what the slot shows
            batch.step_random()
            for i, m in enumerate(mirrors):
                _follow(m, batch, i)
                ended += int(batch.done[i])
        _check(batch, mirrors)
        if step % 17 == 0:
            _check_seats(batch, mirrors)
    assert batch.games_started() == [m.k for m in mirrors]
    assert ended >= 3, "too few games ended: auto-reset untested"


def _position(core) -> tuple:
    return tuple(str(getattr(core, f)) for f in ("board", "heights", "hands", "counters", "current", "ply", "roll", "deck", "drawn", "up", "discards", "zones"))


def _follow(mirror: Mirror, batch: Batch, i: int) -> None:
    """Advance ``mirror`` by the move step_random() took in slot ``i``: a legal move whose
    result (dice rolled, a new game if it ended) is the slot's state, with the slot's
    rewards and flags (after the last move of a game, several moves give the same new game:
    the one whose finished game is the slot's final_obs)."""
    now = _position(batch.core(i))
    shown = (batch.rewards[i].tolist(), bool(batch.done[i]), bool(batch.truncated[i]))
    for move in mirror.state.legal_move_ids():
        probe = Mirror.__new__(Mirror)
        probe.batch, probe.slot, probe.k, probe.state = mirror.batch, mirror.slot, mirror.k, mirror.state.clone()
        if probe.play(move) == shown and _position(probe.state.core) == now and (not shown[1] or _final_shown(batch, i, probe.final)):
            mirror.state, mirror.k, mirror.final = probe.state, probe.k, getattr(probe, "final", None)
            return
    raise AssertionError(f"slot {i}: no legal move gives the batch's state and result")


SEEDED = [("specs/classics/connect-four.yaml", None, None), ("specs/magic-mids.yaml", None, 3)]  # (the second: dice)


@pytest.mark.parametrize("spec,variant,players", SEEDED, ids=[Path(c[0]).stem for c in SEEDED])
def test_reset_with_a_seed_slots_and_save_restore(spec, variant, players) -> None:
    batch = Batch(str(ROOT / spec), 4, variant, players, seed=9, move_ids=True)
    for _ in range(7):
        batch.step_random()
    # reset(seed): the batch a new Batch(seed) is, and the same random steps after it
    batch.reset(seed=4)
    fresh = Batch(batch.game, 4, seed=4, move_ids=True)
    assert batch.games_started() == fresh.games_started() == [1] * 4 and batch.seed == 4
    for _ in range(30):
        for a, b in zip(batch._arrays(), fresh._arrays()):
            assert np.array_equal(a, b)
        batch.step_random()
        fresh.step_random()
    # save, step, restore: the same steps again, to the bit
    saved = batch.save()
    seen = []
    for _ in range(25):
        batch.step_random()
        seen.append([a.copy() for a in batch._arrays()] + [batch.games_started()])
    batch.restore(saved)
    assert np.array_equal(batch.obs, saved.arrays[0])
    for want in seen:
        batch.step_random()
        got = [a.copy() for a in batch._arrays()] + [batch.games_started()]
        assert all(np.array_equal(x, y) for x, y in zip(got[:-1], want[:-1])) and got[-1] == want[-1]
    with pytest.raises(ValueError, match="another batch"):
        Batch(batch.game, 3).restore(saved)
    # per-slot reset: the chosen slots start their next game, the others go on
    mirrors = [Mirror.__new__(Mirror) for _ in range(4)]
    for i, m in enumerate(mirrors):  # (replayed: each slot's current game from its seed and moves)
        m.batch, m.slot, m.k = batch, i, batch.games_started()[i]
    before = batch.obs.copy()
    started = batch.games_started()
    batch.reset_slots(np.array([False, True, False, True]))
    assert batch.games_started() == [started[0], started[1] + 1, started[2], started[3] + 1]
    assert np.array_equal(batch.obs[[0, 2]], before[[0, 2]])
    for i in (1, 3):
        m = mirrors[i]
        m.new_game()
        assert np.array_equal(batch.obs[i], python_tensor(m.state, m.state.current_player()))
        assert np.flatnonzero(batch.mask[i]).tolist() == m.state.legal_move_ids()
        assert not batch.done[i] and not batch.rewards[i].any()
    batch.reset_slots([0])
    assert batch.games_started()[0] == started[0] + 1
    with pytest.raises(IndexError, match="slots 0..3"):
        batch.reset_slots([4])


def _final_shown(batch: Batch, i: int, final) -> bool:
    return all(np.array_equal(batch.final_obs[i, seat], python_tensor(final, seat)) for seat in range(batch.game.ir.n_players))


def test_illegal_actions_are_refused() -> None:
    batch = Batch(str(ROOT / "specs/classics/connect-four.yaml"), 2, seed=1, move_ids=True)  # (42 landing cells: most are illegal at the start)
    illegal = int(np.flatnonzero(batch.mask[1] == 0)[0])
    with pytest.raises(ValueError, match="game 1: action"):
        batch.step(np.array([int(np.flatnonzero(batch.mask[0])[0]), illegal]))
    with pytest.raises(ValueError, match="one action per game"):
        batch.step(np.array([0]))


def test_batch_of_a_prebuilt_game_and_its_seeds() -> None:
    from midgardc.engines import load

    game = load(str(ROOT / "specs/classics/tic-tac-toe.yaml"), engine="compiled")
    batch = Batch(game, 2, seed=5)
    assert batch.game is game and batch.obs.shape == (2, batch.schema.size)
    assert batch.game_seed(1, 0) != batch.game_seed(0, 0) != batch.game_seed(0, 1)
    assert batch.games_started() == [1, 1]
    batch.reset()
    assert batch.games_started() == [2, 2]
    with pytest.raises(ValueError, match="at least one game"):
        Batch(game, 0)
    with pytest.raises(ValueError, match="compiled"):
        Batch(load(str(ROOT / "specs/classics/tic-tac-toe.yaml"), engine="interpreted"), 1)


def test_bench_reports_batch_rates() -> None:
    import json

    from click.testing import CliRunner

    from midgardc.batch import bench
    from midgardc.cli import cli
    from midgardc.engines import load

    spec = str(ROOT / "specs/classics/tic-tac-toe.yaml")
    r = bench(load(spec, engine="compiled"), [1, 8], steps=400, playouts=50)
    assert [b["batch"] for b in r["batches"]] == [1, 8] and r["playout_plies_per_s"] > 0 and r["playouts"] == 50
    assert [b["steps"] for b in r["batches"]] == [400, 400] and all(b["steps_per_s"] > 0 for b in r["batches"])
    out = CliRunner().invoke(cli, ["bench", spec, "--batch", "64", "--batch", "2", "--steps", "100", "-n", "50", "--runs", "3", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["runs"] == 3
    rows = data["results"][0]["batches"]
    assert [(b["batch"], b["steps"]) for b in rows] == [(64, 20 * 64), (2, 100)]
    text = CliRunner().invoke(cli, ["bench", spec, "--batch", "4", "--steps", "100", "-n", "50"]).stdout
    assert "random playouts:" in text and "vs playout plies/s" in text and "22 floats, 9 actions" in text
