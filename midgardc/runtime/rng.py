"""The one random number generator of midgardc: SplitMix64.

Both back ends implement exactly this (the generated engine in C, here in Python), so a
seed means the same game everywhere. ``below(n)`` is Lemire's multiply-shift on the high
32 bits: cheap in C, exact in Python, and identical in both.
"""

from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def derive_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run started with ``seed`` (independent of workers)."""
    return mix64((seed + (index + 1) * GOLDEN) & MASK)


class Rng:
    __slots__ = ("state",)

    def __init__(self, seed: int = 0):
        self.state = seed & MASK

    def next64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK
        return mix64(self.state)

    def below(self, n: int) -> int:
        """A number in 0..n-1 (n >= 1, n < 2^32)."""
        return ((self.next64() >> 32) * n) >> 32

    def random(self) -> float:
        return (self.next64() >> 11) * (1.0 / (1 << 53))
