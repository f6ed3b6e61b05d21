"""AlphaZero on any two-player, perfect-information spec, through the OpenSpiel adapter.

``python -m midgardc.research.alphazero SPEC --minutes 20`` trains, saves a checkpoint and
evaluates the agent against a uniformly random player and against ``mcts:100``.

Why not ``open_spiel.python.algorithms.alpha_zero`` itself: in OpenSpiel 2.0.2 it is
built on JAX, Flax, Optax, Orbax and Chex (hundreds of MB installed, a JIT compile per
process), which the ``research`` extra cannot carry without making every ``make test``
setup slow, and whose per-process compile and memory do not fit two shared cores (it is
the opt-in extra ``alphazero``; docs/research.md shows it running on a spec). This
module keeps OpenSpiel's recipe and its search: ``open_spiel.python.algorithms.mcts``'s
``MCTSBot`` with PUCT child selection, Dirichlet noise at the root of self-play searches,
visit counts (moves sampled from them for the first ``Config.temperature_drop`` moves,
then the most visited) as the policy target, the game's outcome as the value target, a
replay buffer, and a learner that trains on it while the actors play on. Only the network
is ours: a small multi-layer perceptron in numpy (``Net``), trained with Adam, whose input
is the adapter's observation tensor of the player to move, seats rotated to put the mover
first (``seat_orders``).

The opponent ``mcts:100`` is OpenSpiel's ``MCTSBot`` with 100 simulations, UCT constant 2,
one uniformly random rollout per leaf and the MCTS-Solver (``solve=True``): the opponent
OpenSpiel's AlphaZero evaluates against. The agent plays with its own search
(``--simulations``, no noise, the most visited move). Seats alternate game by game.

Self-play and evaluation games run in ``--actors`` worker processes, each with its own copy
of the compiled engine; the learner runs in the main process. Every round
prints one progress line; the checkpoint (a ``.npz``) is rewritten atomically each round.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Optional, Sequence

# one BLAS thread per process, set before numpy loads (when this module loads it): the
# actors already fill the cores, and a learner's BLAS threads spinning against them took
# 25x the CPU of one thread (0.07 against 0.003 s a step of batch 256, 2 cores shared)
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

# the game's seat to move is the only seat whose view the network reads
_TWO = 2


@dataclass
class Config:
    """Everything a worker needs to rebuild the game and the searches (pickles small)."""

    spec: str
    variant: str = ""
    engine: str = "compiled"
    simulations: int = 100  # the agent's searches in evaluation
    train_simulations: int = 50  # and in self-play (fewer: more games a minute)
    uct_c: float = 2.0
    dirichlet: tuple[float, float] = (0.25, 1.0)  # (epsilon, alpha) of the root noise
    temperature_drop: int = 10  # moves sampled from the visit counts before playing the most visited
    mcts_simulations: int = 100  # the mcts opponent's
    hidden: tuple[int, ...] = (256, 256)


# ----------------------------------------------------------------------------- network


class Net:
    """A multi-layer perceptron with a policy head (logits over the action ids) and a value
    head (tanh, the mover's outcome scaled to [-1, 1]), trained with Adam in numpy. Inputs
    are divided by ``scale`` (per feature, fixed at the first round) so that raw counts in
    an observation tensor do not swamp the board's 0/1 planes."""

    def __init__(self, n_in: int, n_actions: int, hidden: Sequence[int], seed: int = 0):
        rng = np.random.default_rng(seed)
        sizes = [n_in, *hidden]
        self.params: dict[str, np.ndarray] = {}
        for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
            self.params[f"w{i}"] = (rng.standard_normal((a, b)) * math.sqrt(2.0 / a)).astype(np.float32)
            self.params[f"b{i}"] = np.zeros(b, np.float32)
        h = sizes[-1]
        self.params["wp"] = (rng.standard_normal((h, n_actions)) * 0.01).astype(np.float32)
        self.params["bp"] = np.zeros(n_actions, np.float32)
        self.params["wv"] = (rng.standard_normal((h, 1)) * 0.01).astype(np.float32)
        self.params["bv"] = np.zeros(1, np.float32)
        self.scale = np.ones(n_in, np.float32)
        self.n_layers = len(hidden)
        self._adam: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._t = 0

    # the weights travel to the workers each round: a plain dict of arrays
    def state(self) -> dict[str, Any]:
        return {"params": self.params, "scale": self.scale, "n_layers": self.n_layers}

    @classmethod
    def from_state(cls, st: dict[str, Any]) -> "Net":
        net = cls.__new__(cls)
        net.params = {k: np.asarray(v, np.float32) for k, v in st["params"].items()}
        net.scale = np.asarray(st["scale"], np.float32)
        net.n_layers = int(st["n_layers"])
        net._adam, net._t = {}, 0
        return net

    def _hidden(self, x: np.ndarray) -> list[np.ndarray]:
        acts = [x / self.scale]
        for i in range(self.n_layers):
            acts.append(np.maximum(acts[-1] @ self.params[f"w{i}"] + self.params[f"b{i}"], 0.0))
        return acts

    def predict(self, obs: np.ndarray, mask: np.ndarray) -> tuple[float, np.ndarray]:
        """(value for the mover, policy over the action ids, 0 where illegal) of one position."""
        h = self._hidden(obs[None, :])[-1]
        logits = (h @ self.params["wp"] + self.params["bp"])[0]
        v = float(np.tanh(h @ self.params["wv"] + self.params["bv"])[0, 0])
        return v, _masked_softmax(logits[None, :], mask[None, :])[0]

    def loss_and_grads(self, x: np.ndarray, mask: np.ndarray, pi: np.ndarray, z: np.ndarray) -> tuple[float, float, dict[str, np.ndarray]]:
        """(policy loss, value loss, their sum's gradient per parameter) on a batch: the
        cross-entropy to the search's policy plus the squared error to the outcome."""
        p = self.params
        acts = self._hidden(x)
        h = acts[-1]
        n = x.shape[0]
        probs = _masked_softmax(h @ p["wp"] + p["bp"], mask)
        v = np.tanh(h @ p["wv"] + p["bv"])[:, 0]
        policy_loss = float(-(pi * np.log(probs + 1e-9)).sum() / n)
        value_loss = float(((v - z) ** 2).mean())
        grads: dict[str, np.ndarray] = {}
        d_logits = (probs - pi) / n
        d_v = (2.0 * (v - z) * (1.0 - v * v) / n)[:, None]
        grads["wp"], grads["bp"] = h.T @ d_logits, d_logits.sum(0)
        grads["wv"], grads["bv"] = h.T @ d_v, d_v.sum(0)
        dh = d_logits @ p["wp"].T + d_v @ p["wv"].T
        for i in reversed(range(self.n_layers)):
            dh = dh * (acts[i + 1] > 0)
            grads[f"w{i}"], grads[f"b{i}"] = acts[i].T @ dh, dh.sum(0)
            if i:
                dh = dh @ p[f"w{i}"].T
        return policy_loss, value_loss, grads

    def train_step(self, x: np.ndarray, mask: np.ndarray, pi: np.ndarray, z: np.ndarray, lr: float, l2: float) -> tuple[float, float]:
        """One Adam step on a batch (``loss_and_grads`` plus L2 on the weights). Returns
        (policy loss, value loss) before the step."""
        p = self.params
        policy_loss, value_loss, grads = self.loss_and_grads(x, mask, pi, z)
        self._t += 1
        b1, b2 = 0.9, 0.999
        for k, g in grads.items():
            if k.startswith("w"):
                g = g + l2 * p[k]
            m, s = self._adam.get(k, (np.zeros_like(g), np.zeros_like(g)))
            m = b1 * m + (1 - b1) * g
            s = b2 * s + (1 - b2) * g * g
            self._adam[k] = (m, s)
            step = lr * (m / (1 - b1**self._t)) / (np.sqrt(s / (1 - b2**self._t)) + 1e-8)
            p[k] = (p[k] - step).astype(p[k].dtype)
        return policy_loss, value_loss


def _masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask > 0, logits, -1e30)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z) * (mask > 0)
    return e / e.sum(axis=1, keepdims=True)


def save_checkpoint(path: str, net: Net, meta: dict[str, Any]) -> None:
    """Write the network and how it was made to ``path`` (.npz) atomically: a crash never
    leaves half a checkpoint."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(suffix=".npz", dir=folder)
    os.close(fd)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as an open() would have made it, not mkstemp's 0600
        np.savez(tmp, scale=net.scale, meta=np.array(json.dumps(meta)), **{"p_" + k: v for k, v in net.params.items()})
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def load_checkpoint(path: str) -> tuple[Net, dict[str, Any]]:
    """The network and metadata ``save_checkpoint`` wrote."""
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
        params = {k[2:]: data[k] for k in data.files if k.startswith("p_")}
        net = Net.from_state({"params": params, "scale": data["scale"], "n_layers": meta["n_layers"]})
    return net, meta


# ----------------------------------------------------------------------------- games


_WORKER: dict[str, Any] = {}


def _game(cfg: Config) -> Any:
    """The adapter's game for ``cfg``, loaded once per process."""
    key = (cfg.spec, cfg.variant, cfg.engine)
    if _WORKER.get("key") != key:
        from midgardc.research.openspiel_game import load_game

        _WORKER["key"], _WORKER["game"] = key, load_game(cfg.spec, cfg.variant or None, engine=cfg.engine)
    return _WORKER["game"]


# the parts of the observation tensor (midgardc.research.tensor) whose first axis is the
# seat: the network reads them rotated so that the player to move is always seat 0
SEAT_PARTS = ("board", "hand", "counters", "counters_known", "current")


def seat_orders(game: Any) -> list[np.ndarray]:
    """Per mover, the index array that rotates the tensor's seat axes to put the mover
    first (the same position seen by either player looks alike to the network: half the
    positions to learn). A counter whose value names a player is left as it is."""
    sch, n = game.schema, game.num_players()
    orders = []
    for mover in range(n):
        order = np.arange(sch.size)
        for part in sch.parts:
            if part.name in SEAT_PARTS and part.shape[0] == n:
                idx = np.arange(part.offset, part.offset + part.size).reshape(part.shape)
                order[part.offset : part.offset + part.size] = np.roll(idx, -mover, axis=0).reshape(-1)
        orders.append(order)
    return orders


def _observe(state: Any, mover: int, orders: list[np.ndarray]) -> np.ndarray:
    """The network's input: the mover's observation tensor, seats rotated (``seat_orders``)."""
    return np.asarray(state.observation_tensor(mover), np.float32)[orders[mover]]


def _utility_scale(game: Any) -> float:
    return max(abs(game.min_utility()), abs(game.max_utility()), 1e-9)


def _evaluator(net: Net, scale: float, orders: list[np.ndarray]) -> Any:
    from open_spiel.python.algorithms import mcts

    seen: dict[bytes, tuple[float, np.ndarray]] = {}

    def infer(state: Any, mover: int) -> tuple[float, np.ndarray]:
        # MCTSBot asks for a leaf's value, then for its prior when it is next reached:
        # the network sees only the observation, so its answer is kept by observation
        # (with the legal moves in the key: a rule reading history can change them alone)
        obs = _observe(state, mover, orders)
        mask = np.asarray(state.legal_actions_mask(mover), np.float32)
        key = obs.tobytes() + mask.tobytes()
        found = seen.get(key)
        if found is None:
            if len(seen) > 200_000:
                seen.clear()
            found = seen[key] = net.predict(obs, mask)
        return found

    class NetEvaluator(mcts.Evaluator):
        """The network's value (for the mover, in the game's utility units) and policy."""

        def evaluate(self, state: Any) -> np.ndarray:
            mover = state.current_player()
            v, _ = infer(state, mover)
            out = np.full(_TWO, -v * scale)
            out[mover] = v * scale
            return out

        def prior(self, state: Any) -> list[tuple[int, float]]:
            if state.is_chance_node():
                return state.chance_outcomes()
            mover = state.current_player()
            _, policy = infer(state, mover)
            return [(a, float(policy[a])) for a in state.legal_actions(mover)]

    return NetEvaluator()


def _agent(game: Any, cfg: Config, net: Net, rng: np.random.RandomState, noise: bool) -> Any:
    from open_spiel.python.algorithms import mcts

    return mcts.MCTSBot(
        game, cfg.uct_c, cfg.train_simulations if noise else cfg.simulations, _evaluator(net, _utility_scale(game), seat_orders(game)), solve=False,
        dirichlet_noise=cfg.dirichlet if noise else None, child_selection_fn=mcts.SearchNode.puct_value,
        random_state=rng, dont_return_chance_node=True,
    )


def _chance(state: Any, rng: np.random.RandomState) -> int:
    actions, probs = zip(*state.chance_outcomes())
    return int(rng.choice(actions, p=probs))


def self_play(task: tuple[dict[str, Any], Config, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[float]]:
    """One self-play game: (observations, legal masks, search policies, value targets,
    returns), one row per decision."""
    weights, cfg, seed = task
    game = _game(cfg)
    net = Net.from_state(weights)
    rng = np.random.RandomState(seed)
    bot = _agent(game, cfg, net, rng, noise=True)
    n_actions = game.num_distinct_actions()
    obs, masks, policies, movers = [], [], [], []
    orders = seat_orders(game)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_chance(state, rng))
            continue
        mover = state.current_player()
        root = bot.mcts_search(state)
        policy = np.zeros(n_actions, np.float32)
        for child in root.children:
            policy[child.action] = child.explore_count
        policy /= policy.sum()
        action = int(rng.choice(n_actions, p=policy)) if moves < cfg.temperature_drop else root.best_child().action
        obs.append(_observe(state, mover, orders))
        masks.append(state.legal_actions_mask(mover))
        policies.append(policy)
        movers.append(mover)
        state.apply_action(action)
        moves += 1
    returns = state.returns()
    scale = _utility_scale(game)
    z = np.array([returns[m] / scale for m in movers], np.float32)
    return np.asarray(obs, np.float32), np.asarray(masks, np.float32), np.asarray(policies, np.float32), z, list(returns)


def eval_game(task: tuple[dict[str, Any], Config, str, int, int]) -> float:
    """One game of the agent (no noise, most visited move) in seat ``seat`` against
    ``opponent`` ("random" or "mcts"); the agent's return."""
    from open_spiel.python.algorithms import mcts

    weights, cfg, opponent, seat, seed = task
    game = _game(cfg)
    rng = np.random.RandomState(seed)
    agent = _agent(game, cfg, Net.from_state(weights), rng, noise=False)
    other = None
    if opponent == "mcts":
        other = mcts.MCTSBot(game, 2.0, cfg.mcts_simulations, mcts.RandomRolloutEvaluator(1, rng), solve=True, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_chance(state, rng))
        elif state.current_player() == seat:
            state.apply_action(agent.step(state))
        elif other is not None:
            state.apply_action(other.step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return float(state.returns()[seat])


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, mid - half), min(1.0, mid + half)


@dataclass
class Score:
    opponent: str
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def line(self) -> str:
        n = self.games
        parts = []
        for what, k in (("win", self.wins), ("draw", self.draws), ("loss", self.losses)):
            lo, hi = wilson(k, n)
            parts.append(f"{what} {k}/{n} = {k / max(n, 1):.1%} [{lo:.1%}, {hi:.1%}]")
        return f"vs {self.opponent}: " + "; ".join(parts)


# ----------------------------------------------------------------------------- training


@dataclass
class Buffer:
    """The replay buffer: the newest ``capacity`` positions."""

    capacity: int
    rows: dict[str, np.ndarray] = field(default_factory=dict)
    size: int = 0
    head: int = 0  # where the next position goes

    def add(self, **cols: np.ndarray) -> None:
        n = len(next(iter(cols.values())))
        for name, col in cols.items():
            if name not in self.rows:
                self.rows[name] = np.zeros((self.capacity, *col.shape[1:]), np.float32)
        for i in range(n):  # positions wrap around the ring one by one
            for name, col in cols.items():
                self.rows[name][self.head] = col[i]
            self.head = (self.head + 1) % self.capacity
            self.size = min(self.size + 1, self.capacity)

    def sample(self, n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        idx = rng.integers(0, self.size, size=n)
        return {k: v[idx] for k, v in self.rows.items()}


def _check_game(game: Any, spec: str) -> None:
    import pyspiel

    from midgardc.errors import MidgardcError

    t = game.get_type()
    if game.num_players() != _TWO or t.information != pyspiel.GameType.Information.PERFECT_INFORMATION:
        raise MidgardcError(f"{spec}: AlphaZero here needs a two-player game of perfect information (this spec has {game.num_players()} players, {t.information.name.lower().replace('_', ' ')})")


def _pool(actors: int) -> Any:
    # fork: the workers start with the engine the parent loaded; the learner stays here
    return multiprocessing.get_context("fork").Pool(actors)


def train(cfg: Config, minutes: float, seed: int = 0, actors: int = 2, games_per_round: int = 16, batch: int = 256,
          reuse: float = 24.0, buffer_size: int = 50_000, lr: float = 1e-3, l2: float = 1e-4, rounds: Optional[int] = None,
          checkpoint: Optional[str] = None, out: Any = None, pool: Any = None) -> Net:
    """Self-play and learn until ``minutes`` have passed (or ``rounds`` rounds), printing a
    line per round and rewriting ``checkpoint`` after each. Returns the network.

    As in OpenSpiel's AlphaZero the actors do not wait for the learner: while the learner
    trains on round r's games, the actors already play round r + 1 with the weights of
    round r - 1. Each round the learner takes ``reuse`` x (new positions) / ``batch``
    steps, so a position is sampled about ``reuse`` times while it is in the buffer."""
    out = out or sys.stdout
    game = _game(cfg)
    _check_game(game, cfg.spec)
    n_in = len(game.new_initial_state().observation_tensor(0))
    net = Net(n_in, game.num_distinct_actions(), cfg.hidden, seed)
    meta = {"config": asdict(cfg), "n_layers": net.n_layers, "seed": seed, "rounds": 0, "games": 0, "positions": 0}
    buf = Buffer(buffer_size)
    rng = np.random.default_rng(seed)
    start = time.monotonic()
    own = pool is None
    pool = pool or _pool(actors)

    def play(first_game: int) -> Any:
        weights = net.state()
        weights = {**weights, "params": {k: v.copy() for k, v in weights["params"].items()}}
        return pool.map_async(self_play, [(weights, cfg, int(seed * 1_000_003 + first_game + i)) for i in range(games_per_round)], chunksize=1)

    def more(rnd: int) -> bool:
        return rnd < rounds if rounds is not None else time.monotonic() - start < minutes * 60

    try:
        rnd = games = positions = 0
        print(f"alphazero: {cfg.spec}: {n_in} inputs, {game.num_distinct_actions()} actions, network {list(cfg.hidden)}, "
              f"{cfg.train_simulations} simulations a move in self-play, {actors} actors, {games_per_round} games a round, "
              f"{'%g minutes' % minutes if rounds is None else '%d rounds' % rounds}", file=out, flush=True)
        pending = play(0)
        while pending is not None:
            t0 = time.monotonic()
            results = pending.get()
            rnd += 1
            t_wait = time.monotonic() - t0
            new = 0
            outcomes = [0, 0, 0]  # first seat won, drawn, lost
            for x, mask, pi, z, returns in results:
                if rnd == 1:  # fix the input scale on the first round's positions
                    net.scale = np.maximum(net.scale, np.abs(x).max(axis=0))
                buf.add(x=x, mask=mask, pi=pi, z=z)
                new += len(x)
                outcomes[0 if returns[0] > returns[1] else 1 if returns[0] == returns[1] else 2] += 1
            games += len(results)
            positions += new
            pending = play(games) if more(rnd) else None
            t1 = time.monotonic()
            steps = max(1, round(new * reuse / batch))
            losses = np.zeros(2)
            for _ in range(steps):
                b = buf.sample(min(batch, buf.size), rng)
                losses += net.train_step(b["x"], b["mask"], b["pi"], b["z"], lr, l2)
            losses /= steps
            meta.update(rounds=rnd, games=games, positions=positions, minutes=(time.monotonic() - start) / 60)
            if checkpoint:
                save_checkpoint(checkpoint, net, meta)
            print(f"round {rnd}: {games} games, {positions} positions (buffer {buf.size}); first seat +{outcomes[0]} ={outcomes[1]} -{outcomes[2]}; "
                  f"{steps} steps, policy loss {losses[0]:.3f}, value loss {losses[1]:.3f}; "
                  f"waited {t_wait:.1f} s for games, learned {time.monotonic() - t1:.1f} s, elapsed {(time.monotonic() - start) / 60:.1f} min",
                  file=out, flush=True)
    finally:
        if own:
            pool.terminate()
            pool.join()
    return net


def evaluate(cfg: Config, net: Net, opponent: str, games: int, seed: int = 0, actors: int = 2, out: Any = None, pool: Any = None) -> Score:
    """``games`` games against ``opponent`` ("random" or "mcts"), seats alternating."""
    out = out or sys.stdout
    score = Score("uniform random" if opponent == "random" else f"mcts:{cfg.mcts_simulations} (OpenSpiel MCTSBot, random rollouts, solver)")
    if games <= 0:
        return score
    weights = net.state()
    tasks = [(weights, cfg, opponent, g % _TWO, int(seed * 1_000_003 + 7_919 + g)) for g in range(games)]
    own = pool is None
    pool = pool or _pool(actors)
    t0 = time.monotonic()
    try:
        for g, r in enumerate(pool.imap(eval_game, tasks, chunksize=1), 1):
            if r > 0:
                score.wins += 1
            elif r < 0:
                score.losses += 1
            else:
                score.draws += 1
            if g % 20 == 0 or g == games:
                print(f"  {opponent}: {g}/{games} games, +{score.wins} ={score.draws} -{score.losses}, {time.monotonic() - t0:.0f} s", file=out, flush=True)
    finally:
        if own:
            pool.terminate()
            pool.join()
    return score


def main(argv: Optional[list[str]] = None) -> int:
    from midgardc.errors import MidgardcError

    ap = argparse.ArgumentParser(prog="python -m midgardc.research.alphazero", description=__doc__.split("\n\n")[0])
    ap.add_argument("spec", help="a two-player, perfect-information spec (an action_space keeps the network's policy small)")
    ap.add_argument("--variant", default="")
    ap.add_argument("--minutes", type=float, default=20.0, help="training time (evaluation comes after it)")
    ap.add_argument("--rounds", type=int, default=None, help="stop after this many rounds instead of after --minutes")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--actors", type=int, default=2, help="worker processes for self-play and evaluation")
    ap.add_argument("--simulations", type=int, default=100, help="the agent's MCTS simulations a move in evaluation")
    ap.add_argument("--train-simulations", type=int, default=50, help="its MCTS simulations a move in self-play")
    ap.add_argument("--games-per-round", type=int, default=16)
    ap.add_argument("--reuse", type=float, default=24.0, help="how often the learner samples a position, on average (steps a round: reuse x new positions / 256)")
    ap.add_argument("--hidden", default="256,256", help="hidden layer widths")
    ap.add_argument("--checkpoint", default=None, help="where to save the network (default: alphazero-SPECNAME.npz here)")
    ap.add_argument("--load", default=None, help="skip training: evaluate this checkpoint")
    ap.add_argument("--eval-random", type=int, default=200, help="games against uniform random")
    ap.add_argument("--eval-mcts", type=int, default=100, help="games against mcts:--mcts-simulations")
    ap.add_argument("--mcts-simulations", type=int, default=100)
    args = ap.parse_args(argv)
    try:
        hidden = tuple(int(w) for w in args.hidden.split(","))
    except ValueError:
        print(f"error: --hidden takes widths like 256,256, not {args.hidden!r}", file=sys.stderr)
        return 1
    spec = os.path.abspath(args.spec)
    if not os.path.isfile(spec):
        print(f"error: no spec file {args.spec}", file=sys.stderr)
        return 1
    cfg = Config(spec=spec, variant=args.variant, simulations=args.simulations, train_simulations=args.train_simulations, mcts_simulations=args.mcts_simulations, hidden=hidden)
    checkpoint = args.checkpoint or f"alphazero-{os.path.splitext(os.path.basename(spec))[0]}.npz"
    try:
        _check_game(_game(cfg), args.spec)
        with _pool(args.actors) as pool:
            if args.load:
                net, meta = load_checkpoint(args.load)
                cfg = Config(**{**meta["config"], "spec": spec, "simulations": args.simulations, "mcts_simulations": args.mcts_simulations,
                                "dirichlet": tuple(meta["config"]["dirichlet"]), "hidden": tuple(meta["config"]["hidden"])})
                print(f"loaded {args.load}: {meta['rounds']} rounds, {meta['games']} games, {meta['positions']} positions", flush=True)
            else:
                net = train(cfg, args.minutes, args.seed, args.actors, args.games_per_round, reuse=args.reuse, rounds=args.rounds, checkpoint=checkpoint, pool=pool)
                print(f"checkpoint: {checkpoint}", flush=True)
            scores = [evaluate(cfg, net, opp, n, args.seed, args.actors, pool=pool) for opp, n in (("random", args.eval_random), ("mcts", args.eval_mcts))]
    except MidgardcError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    print(f"agent: {cfg.simulations} simulations a move, no noise; seats alternate")
    for s in scores:
        if s.games:
            print(s.line())
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
