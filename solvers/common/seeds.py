"""Seeds of the games of one run, every game its own draw from one ``SeedSequence``
(DESIGN.md, "Truth of results").

Game *i* of a run rooted at ``seed`` has the seed that case *i* of a study with the same
root and chunks of `PLAY_CHUNK` gets from the study runner (`ChunkSpec.case_seeds`): word
``i % PLAY_CHUNK`` of ``SeedSequence(seed, spawn_key=(i // PLAY_CHUNK, 0))``. Two roots
give unrelated sequences, so ``--seed 0`` and ``--seed 1`` share no game (the old
``seed + i`` numbering shared all but one), and a longer run starts with the games of a
shorter one.

>>> a, b = game_seeds(0, 2000), game_seeds(1, 2000)
>>> len(set(a.tolist()) & set(b.tolist()))
0
>>> bool((game_seeds(0, 1500)[:700] == game_seeds(0, 700)).all())
True
"""

from __future__ import annotations

import numpy as np

#: Games per ``SeedSequence`` child (one child per block keeps seeding cheap: 10^6 games
#: cost 1,000 children, not 10^6).
PLAY_CHUNK = 1000

#: How a command's JSON and captions name the seeding.
SEEDING = f"game i's seed: word i mod {PLAY_CHUNK} of SeedSequence(seed, spawn_key=(i // {PLAY_CHUNK}, 0))"


def game_seeds(seed: int, n: int) -> np.ndarray:
    """One uint64 seed per game 0..n-1 of the run rooted at `seed` (see module doc)."""
    if n < 0:
        raise ValueError(f"game count {n} is negative")
    return run_seeds(seed, 0, n)


def run_seeds(seed: int, start: int, stop: int) -> np.ndarray:
    """The seeds of games [start, stop) of the run rooted at `seed`: the slice
    ``game_seeds(seed, stop)[start:]``, computed from the blocks of `PLAY_CHUNK` games that
    hold it alone (so a chunk of a long run costs its own games, not the run's).

    >>> bool((run_seeds(7, 990, 2010) == game_seeds(7, 2010)[990:]).all())
    True
    """
    parts = [np.empty(0, dtype=np.uint64)]
    for block in range(start // PLAY_CHUNK, -(-stop // PLAY_CHUNK)):
        base = block * PLAY_CHUNK
        words = np.random.SeedSequence(int(seed), spawn_key=(block, 0)).generate_state(
            min(stop, base + PLAY_CHUNK) - base, dtype=np.uint64
        )
        parts.append(words[max(start - base, 0) :])
    return np.concatenate(parts)


def child_seed(seed: int, *key: int) -> int:
    """A 63-bit root for a sub-study (e.g. one pairing of a tournament) of the run rooted
    at `seed`: the first word of ``SeedSequence(seed, spawn_key=key)``, so that sub-studies
    of one run, and of runs with other roots, never share games as ``seed + k`` would."""
    word = np.random.SeedSequence(int(seed), spawn_key=tuple(int(k) for k in key))
    return int(word.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))
