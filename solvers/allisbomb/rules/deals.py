"""Deals: deck sizes, permutation ranks, uniform shuffles and deck strings.

A deal is a permutation of the card ids 0..n-1, top card first. Its rank is its index in
the lexicographic order of all n! permutations (exact, Python ints), so any deal can be
re-run alone with `--rank R` and its configuration's options (`commands.rerun_command`). Copies of a card (the two JOKERs) are distinct ids, so
deals that differ only by swapping copies have different ranks; every physical shuffle
is equally likely either way. The rank is kept per id because the studies record it and
`--rank R` must replay their exact deal; `deck_rank` is the rank of the physical deck (the
same for every order of a card's copies), the rank `--deck` gives.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from bombsolve.solvers.allisbomb.cards.cards import CardSet, load_cards
from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.common.errors import BadInput, nearest


def deck_size(config: Options) -> int:
    """The number of cards in the game's deck (18 base, 13 Blitz, ...)."""
    return load_cards(config).n


def rank(perm) -> int:
    """Lexicographic rank of a permutation of 0..n-1 (0 is the identity).

    >>> rank([0, 1, 2]), rank([2, 1, 0])
    (0, 5)
    """
    perm = [int(x) for x in perm]
    n = len(perm)
    if sorted(perm) != list(range(n)):
        raise BadInput(f"not a permutation of 0..{n - 1}: {perm}")
    r = 0
    remaining = list(range(n))
    for i, x in enumerate(perm):
        j = remaining.index(x)
        r += j * math.factorial(n - 1 - i)
        remaining.pop(j)
    return r


def physical(perm, labels: Sequence[str]) -> list[int]:
    """`perm` with the copies of each repeated card renumbered in deck order (its first
    copy from the top gets the card's lowest id): the deal `parse_deck` reads from the
    same card names, so two deals that differ only by which copy is which map to one.

    >>> physical([2, 1, 0], ["JOKER", "KING", "JOKER"])
    [0, 1, 2]
    """
    ids: dict[str, list[int]] = {}
    for i, lab in enumerate(labels):
        ids.setdefault(lab, []).append(i)
    nxt = {lab: iter(v) for lab, v in ids.items()}
    return [next(nxt[labels[int(c)]]) for c in perm]


def deck_rank(perm, labels: Sequence[str]) -> int:
    """The rank of the physical deck `perm` (`physical`): independent of which copy of a
    repeated card is which; equal to `rank` for a deal read by `parse_deck`."""
    return rank(physical(perm, labels))


def unrank(r: int, n: int) -> list[int]:
    """The permutation of 0..n-1 with lexicographic rank r; BadInput if r is out of range.

    >>> unrank(5, 3)
    [2, 1, 0]
    """
    r = int(r)
    if not 0 <= r < math.factorial(n):
        raise BadInput(f"rank {r} out of range: a deck of {n} cards has ranks 0..{n}!-1")
    remaining = list(range(n))
    out = []
    for i in range(n):
        f = math.factorial(n - 1 - i)
        j, r = divmod(r, f)
        out.append(remaining.pop(j))
    return out


def shuffle(n: int, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random deal of n cards (NumPy's Fisher-Yates `permutation`)."""
    return rng.permutation(n).astype(np.int64)


def shuffles(n: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """`count` independent uniform deals as an int array [count, n] (for `solve_batch`)."""
    return rng.permuted(np.tile(np.arange(n, dtype=np.int64), (count, 1)), axis=1)


def deal_from_seed(config: Options, seed: int) -> list[int]:
    """The deal `bombsolve allisbomb --seed N` plays: `np.random.default_rng(N)`."""
    return shuffle(deck_size(config), np.random.default_rng(seed)).tolist()


def parse_deck(text: str, cards: CardSet) -> list[int]:
    """Parse 'NAME,NAME,...' (card labels, top card first, any case) into card ids.

    Every card of the game must appear exactly once (copies as often as there are).
    Raises BadInput naming an unknown card (with the nearest label) or the missing/extra ones.
    """
    free: dict[str, list[int]] = {}
    for i, lab in enumerate(cards.labels):
        free.setdefault(lab.upper(), []).append(i)
    labels = sorted(set(cards.labels))
    out: list[int] = []
    extra: list[str] = []
    for raw in text.split(","):
        name = " ".join(raw.split()).upper()
        if not name:
            continue
        if name not in free:
            raise BadInput(
                f"unknown card {raw.strip()!r}{nearest(name, [x.upper() for x in labels])}; "
                f"expected card names of {cards.config.label()}: {', '.join(labels)}"
            )
        if free[name]:
            out.append(free[name].pop(0))
        else:
            extra.append(name)
    missing = [lab for lab, ids in free.items() for _ in ids]
    if extra or missing:
        parts = []
        if missing:
            parts.append("missing " + ", ".join(sorted(missing)))
        if extra:
            parts.append("extra " + ", ".join(sorted(extra)))
        raise BadInput(
            f"deck does not match the {cards.n} cards of {cards.config.label()}: "
            + "; ".join(parts)
        )
    return out


def deck_string(deck, cards: CardSet) -> str:
    """The deck as 'NAME,NAME,...' (top first), accepted back by `parse_deck`."""
    return ",".join(cards.labels[int(c)] for c in deck)
