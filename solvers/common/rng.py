"""SplitMix64 (Steele, Lea, Flood 2014): the one random generator, tiny enough that a Numba
kernel copies it bit for bit, so that a reference engine and its kernel deal the same
cards from the same seed.

Each game's kernel carries its own `@njit` twin of `SplitMix64.next` on a one-cell uint64
array; the differential tests check that both give the same games. Two bounded draws:
`below` by modulo reduction (All Is Bomb, Bombastic, Catch the Bomber) and `below_exact`
by rejection (Bomb the Dragon), each matched by its games' kernels.
"""

from __future__ import annotations

from typing import Any

MASK64 = (1 << 64) - 1
#: The golden-ratio increment of the state.
GAMMA = 0x9E3779B97F4A7C15


def splitmix64(x: int) -> tuple[int, int]:
    """Advance a splitmix64 state; return (new_state, output)."""
    x = (x + GAMMA) & MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return x, z ^ (z >> 31)


def derive_seed(seed: int, stream: int) -> int:
    """Return the seed of one independent stream of a game's `seed`: the seed mixed with the
    stream number, then two splitmix64 outputs (the second from the first)."""
    _, a = splitmix64((seed & MASK64) ^ ((stream * 0xD1B54A32D192ED03) & MASK64))
    _, b = splitmix64(a)
    return b


class SplitMix64:
    """SplitMix64 over Python ints.

    >>> SplitMix64(0).next()
    16294208416658607535
    """

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """Return the next 64-bit output."""
        self.state, out = splitmix64(self.state)
        return out

    def below(self, n: int) -> int:
        """Return an integer in [0, n) by modulo reduction (bias below n / 2**64)."""
        return self.next() % n

    def below_exact(self, n: int) -> int:
        """Return a uniform integer in [0, n) for 1 <= n < 2**32.

        Lemire's multiply-and-reject on the top 32 bits of each output: exact uniformity,
        and almost never a division (Bomb the Dragon's kernel does the same).
        """
        if not 0 < n < (1 << 32):
            raise ValueError("below_exact(n) needs 1 <= n < 2**32")
        m = (self.next() >> 32) * n
        low = m & 0xFFFFFFFF
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = (self.next() >> 32) * n
                low = m & 0xFFFFFFFF
        return m >> 32

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle in place: Fisher-Yates from the end, each index by `below_exact`."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below_exact(i + 1)
            items[i], items[j] = items[j], items[i]
