"""Who won, by how much: one place that turns ranking keys into results for every back end."""

from __future__ import annotations

from typing import Optional, Sequence

from ..ir.nodes import GameIR


def rank_tuple(ir: GameIR, keys: Sequence[int]) -> tuple[int, ...]:
    """A player's keys with ``lower_is_better`` ones negated: bigger tuples rank higher."""
    return tuple(-k if rk.lower_is_better else k for k, rk in zip(keys, ir.ranking))


def winner_of(ir: GameIR, keys: Sequence[Sequence[int]], ply_limited: bool = False) -> Optional[int]:
    """The unique best player, or None for a draw (several share the best keys, or the
    game was stopped by the ply limit: an unfinished game is a draw, whatever the keys)."""
    if ply_limited:
        return None
    tuples = [rank_tuple(ir, k) for k in keys]
    best = max(tuples)
    top = [p for p, t in enumerate(tuples) if t == best]
    return top[0] if len(top) == 1 else None


def margin_of(ir: GameIR, keys: Sequence[Sequence[int]]) -> int:
    """First ranking key: best player's value minus the runner-up's (0 for one player)."""
    firsts = sorted((rank_tuple(ir, k)[0] for k in keys), reverse=True)
    return firsts[0] - firsts[1] if len(firsts) > 1 else 0


def returns_of(ir: GameIR, keys: Sequence[Sequence[int]], ply_limited: bool = False) -> list[float]:
    """+1 for the winner, -1 for the others; 0 for everyone in a draw (ply limit included)."""
    w = winner_of(ir, keys, ply_limited)
    return [0.0] * ir.n_players if w is None else [1.0 if p == w else -1.0 for p in range(ir.n_players)]


def empty_stats(ir: GameIR) -> dict:
    return {"games": 0, "wins": [0] * ir.n_players, "draws": 0, "plies": 0, "margin": 0, "ply_limited": 0}


def add_result(stats: dict, winner: Optional[int], plies: int, margin: int, ply_limited: bool) -> dict:
    stats["games"] += 1
    if winner is None:
        stats["draws"] += 1
    else:
        stats["wins"][winner] += 1
    stats["plies"] += plies
    stats["margin"] += margin
    stats["ply_limited"] += int(ply_limited)
    return stats


def summarize_core(ir: GameIR, core, stats: Optional[dict]) -> dict:
    """Fold one finished core (any back end with keys()/ply/ply_limited) into ``stats``."""
    stats = stats if stats is not None else empty_stats(ir)
    if core is None:
        return stats
    keys = core.keys()
    return add_result(stats, winner_of(ir, keys, core.ply_limited), core.ply, margin_of(ir, keys), core.ply_limited)
