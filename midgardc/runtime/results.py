"""Who won, by how much: one place that turns ranking keys into results for every back end.

A finished game gives each seat a **rank** from its ranking keys (``ranking:``, compared
first key first, ``lower_is_better`` keys negated): 1 + the number of seats strictly
ahead of it, so tied seats share a rank and the next rank is skipped ("1, 1, 3"). Every
result is derived from the ranks, here and nowhere else:

* the seats ranked 1 are the **leaders**. One leader is a *win* (the others lose); k
  leaders of n seats with 1 < k < n *share first place* (the others lose); all n seats
  ranked 1 (n > 1) is a *draw* (a two-player tie stays a draw).
* each seat's **share** of the win is 1/k for each of the k leaders and 0 for the others:
  the shares of a game add up to 1 (a draw: 1/n each). MCTS backs up the share as its
  reward in [0, 1] (two players: win 1, draw 1/2, loss 0).
* **returns** are ``n * share - 1``: a sole winner ``n - 1``, the others ``-1``; k tied
  leaders ``n/k - 1`` each; a draw 0 for everyone. They add up to 0 in every game of any
  number of seats (OpenSpiel's zero-sum convention); two players get the usual +1 / -1 / 0.
  (A one-seat game, where zero-sum says nothing, returns 1 for the win.)
* a game **stopped** by ``game.max_plies`` has no result of the rules: no ranks (None),
  no winner, returns 0 and a share of 1/n each (the neutral value a search backs up), and
  it is counted apart from wins, draws and losses ("stopped") and left out of Elo.

The compiled engine folds random games with the same rules in C (``outcome()`` and
``run_playouts()`` in ``compiler/templates``); ``summarize_core`` is the interpreter's side.
"""

from __future__ import annotations

from typing import Optional, Sequence

from ..errors import SpecError
from ..ir.nodes import GameIR

WIN, SHARED, DRAW, LOSS, STOPPED = "win", "shared", "draw", "loss", "stopped"


def rank_tuple(ir: GameIR, keys: Sequence[int]) -> tuple[int, ...]:
    """A player's keys with ``lower_is_better`` ones negated: bigger tuples rank higher."""
    return tuple(-k if rk.lower_is_better else k for k, rk in zip(keys, ir.ranking))


def ranks_of(ir: GameIR, keys: Sequence[Sequence[int]], ply_limited: bool = False) -> Optional[tuple[int, ...]]:
    """Each seat's rank (1 = first; equal keys, equal rank; "1, 1, 3"), or None for a game
    stopped by the ply limit."""
    if ply_limited:
        return None
    tuples = [rank_tuple(ir, k) for k in keys]
    return tuple(1 + sum(1 for other in tuples if other > mine) for mine in tuples)


def leaders(ranks: Optional[Sequence[int]]) -> list[int]:
    """The seats ranked first (none for a stopped game)."""
    return [] if ranks is None else [s for s, r in enumerate(ranks) if r == 1]


def sole_winner(ranks: Optional[Sequence[int]]) -> Optional[int]:
    """The one seat ranked first alone, or None (a shared first place, a draw, stopped)."""
    top = leaders(ranks)
    return top[0] if len(top) == 1 else None


def game_outcome(ranks: Optional[Sequence[int]]) -> str:
    """The game as a whole: ``win`` (one leader), ``shared`` (some but not all seats share
    first), ``draw`` (every seat of several shares first) or ``stopped``."""
    if ranks is None:
        return STOPPED
    k = len(leaders(ranks))
    return WIN if k == 1 else DRAW if k == len(ranks) else SHARED


def seat_outcome(ranks: Optional[Sequence[int]], seat: int) -> str:
    """One seat's result: ``win``, ``shared`` (first with others, not all), ``draw``,
    ``loss`` or ``stopped``."""
    whole = game_outcome(ranks)
    if whole in (STOPPED, DRAW):
        return whole
    assert ranks is not None
    return LOSS if ranks[seat] != 1 else whole


def shares_of(ranks: Optional[Sequence[int]], n: int) -> list[float]:
    """Each seat's share of the win: 1/k for each of k leaders, 0 for the others; 1/n
    each for a stopped game. They add up to 1."""
    if ranks is None:
        return [1.0 / n] * n
    k = len(leaders(ranks))
    return [1.0 / k if r == 1 else 0.0 for r in ranks]


def leader_return(n: int, k: int) -> float:
    """What each of k leaders of an n-seat game gets (the others get -1): ``(n - k) / k``,
    and 1 in a one-seat game (a puzzle solved), where zero-sum would say nothing."""
    return 1.0 if n == 1 else (n - k) / k


def returns_from_ranks(ranks: Optional[Sequence[int]], n: int) -> list[float]:
    """``n * share - 1`` per seat: zero-sum; 0 for everyone in a draw or a stopped game."""
    if ranks is None:
        return [0.0] * n
    k = len(leaders(ranks))
    return [leader_return(n, k) if r == 1 else -1.0 for r in ranks]


def payoff_returns(ir: GameIR, counters: Sequence[Sequence[int]], ply_limited: bool = False) -> list[float]:
    """A ``returns:`` spec's returns: each seat's payoff counter (0 each for a stopped
    game). The spec promises they add up to 0 and lie in its min..max: a game that breaks
    the promise is an error of the spec, reported at its ``returns:``."""
    spec = ir.returns
    assert spec is not None
    n = ir.n_players
    if ply_limited:
        return [0.0] * n
    values = [int(counters[p][spec.counter]) for p in range(n)]
    if sum(values) != 0:
        raise SpecError(f"returns: the payoff counter '{spec.name}' ends this game at {values}, adding up to {sum(values)}, not 0 (returns must be zero-sum)", spec.pos)
    for v in values:
        if not spec.lo <= v <= spec.hi:
            raise SpecError(f"returns: the payoff counter '{spec.name}' ends this game at {v}, outside min {spec.lo} .. max {spec.hi}", spec.pos)
    return [float(v) for v in values]


def winner_of(ir: GameIR, keys: Sequence[Sequence[int]], ply_limited: bool = False) -> Optional[int]:
    """The unique best player, or None (a shared first place, a draw, a stopped game)."""
    return sole_winner(ranks_of(ir, keys, ply_limited))


def margin_of(ir: GameIR, keys: Sequence[Sequence[int]]) -> int:
    """First ranking key: best player's value minus the runner-up's (0 for one player)."""
    firsts = sorted((rank_tuple(ir, k)[0] for k in keys), reverse=True)
    return firsts[0] - firsts[1] if len(firsts) > 1 else 0


def returns_of(ir: GameIR, keys: Sequence[Sequence[int]], ply_limited: bool = False) -> list[float]:
    """The returns of a finished game (see the module doc)."""
    return returns_from_ranks(ranks_of(ir, keys, ply_limited), ir.n_players)


# -- many games at once: the stats dict of playouts() and rollouts() -----------------------------
#
# games, plies, margin and ply_limited are sums; wins[p] counts p's sole wins; draws the games
# every seat shared first; shared the games some but not all seats shared first; firsts[p][k-1]
# the games p was ranked first together with k-1 others (firsts[p][0] == wins[p]). So
# games == sum(wins) + shared + draws + ply_limited, and everything above is exact integers.


def empty_stats(ir: GameIR) -> dict:
    n = ir.n_players
    return {"games": 0, "wins": [0] * n, "draws": 0, "shared": 0, "firsts": [[0] * n for _ in range(n)], "plies": 0, "margin": 0, "ply_limited": 0}


def add_result(stats: dict, ranks: Optional[Sequence[int]], plies: int, margin: int) -> dict:
    stats["games"] += 1
    whole = game_outcome(ranks)
    if whole == STOPPED:
        stats["ply_limited"] += 1
    else:
        top = leaders(ranks)
        for p in top:
            stats["firsts"][p][len(top) - 1] += 1
        if whole == WIN:
            stats["wins"][top[0]] += 1
        elif whole == DRAW:
            stats["draws"] += 1
        else:
            stats["shared"] += 1
    stats["plies"] += plies
    stats["margin"] += margin
    return stats


def summarize_core(ir: GameIR, core, stats: Optional[dict]) -> dict:
    """Fold one finished core (any back end with keys()/ply/ply_limited) into ``stats``."""
    stats = stats if stats is not None else empty_stats(ir)
    if core is None:
        return stats
    keys = core.keys()
    return add_result(stats, ranks_of(ir, keys, bool(core.ply_limited)), core.ply, margin_of(ir, keys))


def summed_shares(stats: dict) -> list[float]:
    """Per seat, the summed share of the win over the games of ``stats`` (a stopped game
    1/n each): what MCTS backs up. Exact for two players (halves)."""
    firsts = stats["firsts"]
    n = len(firsts)
    stopped = stats["ply_limited"] / n
    out = []
    for row in firsts:
        total = 0.0  # added one by one, first to last (as the C search does; not sum(), whose
        for j, c in enumerate(row):  # float rounding changed in Python 3.12)
            if c:
                total = total + c / (j + 1)
        out.append(total + stopped)
    return out


def summed_returns(stats: dict) -> list[float]:
    """Per seat, the summed returns of the games of ``stats``: each time ranked first with
    k-1 others ``(n-k)/k``, each loss -1, a stopped game 0."""
    firsts = stats["firsts"]
    n = len(firsts)
    decided = stats["games"] - stats["ply_limited"]
    out = []
    for row in firsts:
        firsts_total = sum(row)
        out.append(sum(c * leader_return(n, j + 1) for j, c in enumerate(row) if c) - float(decided - firsts_total))
    return out
