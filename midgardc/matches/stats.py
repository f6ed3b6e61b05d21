"""Statistics for match and tournament tables: pure functions over counts and sums.

Results tables get intervals, not just rates: 60 wins in 100 games is a different claim
from 6 in 10. Everything here is plain Python over small numbers (a tournament has a
handful of players), so there is no numpy dependency and results are bit-for-bit the
same on every machine.
"""

from __future__ import annotations

import math
from itertools import combinations
from typing import Optional, Sequence

Z95 = 1.959963984540054  # two-sided 95% normal quantile
ELO_SCALE = 400.0 / math.log(10.0)  # Elo points per natural-log unit of odds


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial rate: unlike rate ± z·se it stays inside [0, 1]
    and is honest at 0% and 100%. No trials: the whole of [0, 1]."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if successes <= 0 else max(0.0, centre - half)  # exact ends: no 0.9999999999999999
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


def mean_sd(n: int, total: float, total_sq: float) -> tuple[float, float]:
    """Mean and sample standard deviation from a count and running sums (the tallies keep
    sums, not lists, so memory does not grow with the number of games)."""
    if n <= 0:
        return (0.0, 0.0)
    mean = total / n
    if n == 1:
        return (mean, 0.0)
    var = max(0.0, (total_sq - total * total / n) / (n - 1))
    return (mean, math.sqrt(var))


def pairwise_scores(ranks: Sequence[Sequence[int]]) -> list[tuple[int, int, float]]:
    """A game of any number of seats as two-player outcomes: ``(a, b, score of a)`` for
    every pair of seats a < b, from their rank tuples (bigger is better; equal: a draw).
    A two-seat game gives exactly one pair, so one rating method serves every seat count."""
    out = []
    for a, b in combinations(range(len(ranks)), 2):
        ra, rb = tuple(ranks[a]), tuple(ranks[b])
        out.append((a, b, 1.0 if ra > rb else 0.0 if ra < rb else 0.5))
    return out


def elo_ratings(
    points: Sequence[Sequence[float]],
    games: Sequence[Sequence[int]],
    prior_draws: float = 2.0,
    z: float = Z95,
) -> list[tuple[float, float]]:
    """Elo ratings and the half-width of their 95% interval, BayesElo style.

    A Bradley–Terry model, P(i beats j) = 1 / (1 + 10^((r_j - r_i)/400)), fitted by
    maximum likelihood with draws counted as half a win. ``points[i][j]`` is what i scored
    against j (wins + draws/2) in ``games[i][j]`` games. Each player also gets
    ``prior_draws`` virtual draws against an opponent rated 0, so a 100% or 0% score gives a
    large but finite rating instead of infinity. Ratings are shifted to average 0; the
    interval comes from the Fisher information (the curvature of the log-likelihood) of
    those centred ratings.
    """
    n = len(games)
    if n == 0:
        return []
    x = [0.0] * n  # natural units: x = r / ELO_SCALE
    half = prior_draws / 2.0

    def loglik(v: list[float]) -> float:
        total = 0.0
        for i in range(n):
            total += half * (_log_sigmoid(v[i]) + _log_sigmoid(-v[i]))
            for j in range(i + 1, n):
                g = games[i][j]
                if g:
                    s = points[i][j]
                    total += s * _log_sigmoid(v[i] - v[j]) + (g - s) * _log_sigmoid(v[j] - v[i])
        return total

    current = loglik(x)
    for _ in range(100):
        grad, hess = _derivatives(x, points, games, half)
        step = _solve([[-h for h in row] for row in hess], grad)  # Newton: (-H) step = grad
        if step is None:
            break
        scale = 1.0
        while True:  # halve the step until the (concave) likelihood does not fall
            trial = [xi + scale * si for xi, si in zip(x, step)]
            value = loglik(trial)
            if value >= current - 1e-12:
                break
            scale /= 2
            if scale < 1e-9:
                return _finish(x, points, games, half, z)
        x, current = trial, value
        if max(abs(scale * s) for s in step) < 1e-10:
            break
    return _finish(x, points, games, half, z)


def _finish(
    x: list[float], points: Sequence[Sequence[float]], games: Sequence[Sequence[int]], half: float, z: float
) -> list[tuple[float, float]]:
    n = len(x)
    _, hess = _derivatives(x, points, games, half)
    cov = _inverse([[-h for h in row] for row in hess])
    mean = sum(x) / n
    out = []
    for i in range(n):
        if cov is None:
            var = float("inf")
        else:  # variance of x_i - mean(x): e_i - 1/n applied to cov from both sides
            row_i = sum(cov[i]) / n
            total = sum(sum(r) for r in cov) / (n * n)
            var = cov[i][i] - 2 * row_i + total
        out.append(((x[i] - mean) * ELO_SCALE, z * math.sqrt(max(var, 0.0)) * ELO_SCALE))
    return out


def _log_sigmoid(t: float) -> float:
    return -math.log1p(math.exp(-t)) if t >= 0 else t - math.log1p(math.exp(t))


def _sigmoid(t: float) -> float:
    if t >= 0:
        return 1.0 / (1.0 + math.exp(-t))
    e = math.exp(t)
    return e / (1.0 + e)


def _derivatives(
    x: Sequence[float], points: Sequence[Sequence[float]], games: Sequence[Sequence[int]], half: float
) -> tuple[list[float], list[list[float]]]:
    n = len(x)
    grad = [0.0] * n
    hess = [[0.0] * n for _ in range(n)]
    for i in range(n):
        p0 = _sigmoid(x[i])  # the prior's virtual opponent, rated 0
        grad[i] += half * (1.0 - 2.0 * p0)
        hess[i][i] -= 2.0 * half * p0 * (1.0 - p0)
        for j in range(i + 1, n):
            g = games[i][j]
            if not g:
                continue
            p = _sigmoid(x[i] - x[j])
            resid = points[i][j] - g * p
            grad[i] += resid
            grad[j] -= resid
            w = g * p * (1.0 - p)
            hess[i][i] -= w
            hess[j][j] -= w
            hess[i][j] += w
            hess[j][i] += w
    return grad, hess


def _inverse(m: Sequence[Sequence[float]]) -> Optional[list[list[float]]]:
    """Gauss–Jordan with partial pivoting; None when singular."""
    n = len(m)
    a = [list(row) + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(m)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        inv = 1.0 / a[col][col]
        a[col] = [v * inv for v in a[col]]
        for r in range(n):
            if r != col and a[r][col] != 0.0:
                f = a[r][col]
                a[r] = [v - f * w for v, w in zip(a[r], a[col])]
    return [row[n:] for row in a]


def _solve(m: Sequence[Sequence[float]], b: Sequence[float]) -> Optional[list[float]]:
    inv = _inverse(m)
    if inv is None:
        return None
    return [sum(r * v for r, v in zip(row, b)) for row in inv]
