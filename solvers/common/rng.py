"""SplitMix64 (Steele, Lea, Flood 2014): a tiny generator that a Numba kernel can copy bit
for bit, so that a reference engine and its kernel deal the same cards from the same seed.

Each game's kernel carries its own `@njit` twin of `SplitMix64.next` on a one-cell uint64
array; the differential tests check that both give the same games.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1


class SplitMix64:
    """SplitMix64 over Python ints.

    >>> SplitMix64(0).next()
    16294208416658607535
    """

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """Return the next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return an integer in [0, n) by modulo reduction (bias below n / 2**64)."""
        return self.next() % n
