"""Match results folded game by game into integer sums.

Only sums are kept (never per-game lists), so memory does not grow with the number of
games and the totals are the same whatever order parallel workers finish in.

Each game counts by its ranks (midgardc/runtime/results.py): for a player, a win (first
alone), a shared first place (first with some but not all seats), a draw (every seat
first), a loss, or a stop (the ply limit ended the game: no result). Stopped games are
counted apart, never as draws, and are left out of the head-to-head counts (and so of Elo).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..runtime.results import DRAW, LOSS, SHARED, STOPPED, WIN, rank_tuple
from .stats import pairwise_scores

if TYPE_CHECKING:  # pragma: no cover
    from ..ir.nodes import GameIR
    from .results import GameResult


class Tally:
    def __init__(self, ir: "GameIR", labels: Sequence[str]):
        self.ir = ir
        self.labels = list(labels)
        self.seat_names = list(ir.players)
        n, seats = len(self.labels), len(self.seat_names)
        self.games = 0
        self.draws = 0
        self.plies = 0
        self.margin = 0
        self.ply_limited = 0
        self.plies_sq = 0  # sums of squares, for standard deviations
        self.margin_sq = 0
        self.shared = 0  # games whose first place was shared by some, not all, seats
        self.played = [0] * n  # games each player took part in (a tournament's players sit out some)
        self.drawn = [0] * n
        self.wins = [0] * n  # first alone
        self.shared_firsts = [0] * n  # first together with some, not all, of the others
        self.lost = [0] * n
        self.stopped = [0] * n
        self.wins_by_seat = [[0] * seats for _ in range(n)]
        self.games_by_seat = [[0] * seats for _ in range(n)]
        self.diff = [0] * n  # own first key minus the best other seat's, summed
        self.payoff = [0] * n  # a returns: spec's payoff counter (chips), summed (whole numbers)
        # Head to head: each game broken into two-player outcomes by rank (any number of
        # seats): pair_wins[a][b] = games in which a ranked above b, and so on.
        self.pair_wins = [[0] * n for _ in range(n)]
        self.pair_draws = [[0] * n for _ in range(n)]
        self.pair_games = [[0] * n for _ in range(n)]

    def add(self, result: "GameResult") -> None:
        self.games += 1
        self.plies += result.plies
        self.margin += result.margin
        self.ply_limited += int(result.ply_limited)
        self.plies_sq += result.plies * result.plies
        self.margin_sq += result.margin * result.margin
        firsts = [rank_tuple(self.ir, k)[0] if self.ir.ranking else 0 for k in result.keys]
        counters = {WIN: self.wins, SHARED: self.shared_firsts, DRAW: self.drawn, LOSS: self.lost, STOPPED: self.stopped}
        for seat, player in enumerate(result.seats):
            self.games_by_seat[player][seat] += 1
            self.played[player] += 1
            counters[result.seat_outcome(seat)][player] += 1
            others = [f for s, f in enumerate(firsts) if s != seat]
            self.diff[player] += firsts[seat] - (max(others) if others else 0)
            if result.returns is not None:
                self.payoff[player] += int(result.returns[seat])
        if result.ranks is not None:  # a stopped game has no ranks: no pairwise results
            for a, b, score in pairwise_scores([(-r,) for r in result.ranks]):
                pa, pb = result.seats[a], result.seats[b]
                self.pair_games[pa][pb] += 1
                self.pair_games[pb][pa] += 1
                if score == 0.5:
                    self.pair_draws[pa][pb] += 1
                    self.pair_draws[pb][pa] += 1
                else:
                    winner, loser = (pa, pb) if score == 1.0 else (pb, pa)
                    self.pair_wins[winner][loser] += 1
        outcome = result.outcome
        if outcome == DRAW:
            self.draws += 1
        elif outcome == SHARED:
            self.shared += 1
        elif outcome == WIN:
            seat = result.leaders[0]
            self.wins_by_seat[result.seats[seat]][seat] += 1

    def pair_points(self) -> list[list[float]]:
        """What each player scored against each other (a win 1, a draw 1/2), for ratings."""
        n = len(self.labels)
        return [[self.pair_wins[a][b] + self.pair_draws[a][b] / 2 for b in range(n)] for a in range(n)]

    def summary(self) -> dict:
        """The numbers of the results table, as plain JSON-ready values."""
        g = self.games

        def mean(total: int) -> float:
            return round(total / g, 3) if g else 0.0

        players = []
        for p, label in enumerate(self.labels):
            players.append(
                {
                    "name": label,
                    "games": self.played[p],
                    "wins": self.wins[p],
                    "shared": self.shared_firsts[p],
                    "draws": self.drawn[p],
                    "losses": self.lost[p],
                    "stopped": self.stopped[p],
                    "win_pct": round(100.0 * self.wins[p] / g, 2) if g else 0.0,
                    "wins_by_seat": dict(zip(self.seat_names, self.wins_by_seat[p])),
                    "games_by_seat": dict(zip(self.seat_names, self.games_by_seat[p])),
                    "mean_diff": mean(self.diff[p]),
                    **({"returns": self.payoff[p], "mean_returns": round(self.payoff[p] / self.played[p], 4) if self.played[p] else 0.0} if self.ir.returns is not None else {}),
                }
            )
        return {
            "games": g,
            "players": players,
            "draws": self.draws,
            "shared": self.shared,
            "mean_plies": mean(self.plies),
            "mean_margin": mean(self.margin),
            "ply_limited": self.ply_limited,
        }
