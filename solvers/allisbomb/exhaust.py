"""Every Blitz deal: decide each of the 13!/3! = 1,037,836,800 deals once (rulebook G, "Blitz").

Blitz plays the 13 distinct base cards left after "you remove one card from each of the
duplicate pairs". Setup (rulebook B) draws 3 cards and EQUIPS them: the equipped cards
are a set, not a sequence, so two shuffles that differ only in the order of their first
three cards are the same game (the kernel's setup position is the same row). A *Blitz deal*
here is therefore one shuffle with its first three cards in increasing card id, and the
deals are numbered by their lexicographic order (`deal_rank`, `deal_of_rank`): rank
r = (index of the equipped 3-set among the C(13, 3) = 286 sets, in lexicographic order)
* 10! + (lexicographic rank of the order of the other 10 cards). Each deal stands for the
3! = 6 shuffles that reach it, so the share of winnable deals is the share of winnable
uniform shuffles.

The study (`exhaust_study`) cuts a range of ranks into blocks of at most `BLOCK` deals,
one runner case each, and blocks into chunks (resumable, local processes or Dask). A block
builds its decks in Numba (`_fill_decks`) and decides them in one kernel call
(`solver.solve_batch`'s `kernel.solve_many`; the deals it leaves undecided go on through
`escalate.solve_escalating`, one call per pass). A block's row holds counts, positions
and CPU seconds, never one row per deal. `sample_study` decides uniform random deals
instead (for an estimate with its interval when the whole range is out of reach).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd
from numba import njit

from solvers.allisbomb.cards import load_cards
from solvers.allisbomb.config import GameConfig
from solvers.allisbomb.escalate import Escalation, solve_escalating
from solvers.allisbomb.kernel import CODE_LOSS, CODE_UNDECIDED, CODE_WIN
from solvers.common.errors import BadInput
from solvers.common.runner import ChunkSpec, Study
from solvers.common.stats import wilson_undecided

#: Digest of the project files this module imports (solvers.common.numba_deps).
NUMBA_DEPENDS_ON = "2f8cf459cd66ccff"

BLITZ = GameConfig(blitz=True)
#: Cards in a Blitz deck, and how many setup EQUIPS (rulebook B).
N_CARDS, N_EQUIPPED = 13, 3
#: Every Blitz deal: 13! / 3!.
N_DEALS = math.factorial(N_CARDS) // math.factorial(N_EQUIPPED)
#: Deals decided per kernel call, and per runner case (a block: its decks are 13 int64
#: each, 6.8 MB).
BLOCK = 1 << 16
#: Node limits of `exhaust`: the first pass decides all but a few deals; the rest escalate.
ESCALATION = Escalation(first=100_000, ceiling=51_200_000)
#: Positions each move order of the portfolio searches before the first switch: 200, not
#: the solver's 1,000: 11% fewer positions per Blitz deal (mean 280 against 313 on two sets of
#: 20,000 uniform deals; 100 gave 279, 400 gave 289).
FIRST_BUDGET = 200
#: Deals per chunk of the runner (part of a study's identity).
DEFAULT_CHUNK = 1_000_000

EXHAUST_COLUMNS = (
    "case",
    "first_rank",
    "stop_rank",
    "deals",
    "wins",
    "losses",
    "undecided",
    "positions",
    "max_positions",
    "hardest_rank",
    "cpu_seconds",
)


def _tables(n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(factorials 0..n, binomial table C[i, j] for i <= n, j <= k) as int64."""
    fact = np.array([math.factorial(i) for i in range(n + 1)], np.int64)
    binom = np.array([[math.comb(i, j) for j in range(k + 1)] for i in range(n + 1)], np.int64)
    return fact, binom


_FACT, _BINOM = _tables(N_CARDS, N_EQUIPPED)


@njit(cache=True)
def _fill_decks(ranks, n, k, fact, binom, out):
    """Write the deal of each rank (see the module doc) into the rows of `out` [m, n]."""
    free = np.empty(n, np.int64)
    rest = fact[n - k]
    for r in range(ranks.shape[0]):
        sub, perm = divmod(ranks[r], rest)
        # the sub-th k-subset of 0..n-1 in lexicographic order
        c = 0
        for i in range(k):
            while True:
                left = binom[n - c - 1, k - i - 1]  # subsets whose i-th card is c
                if sub < left:
                    break
                sub -= left
                c += 1
            out[r, i] = c
            c += 1
        m = 0
        j = 0
        for c in range(n):
            if j < k and out[r, j] == c:
                j += 1
            else:
                free[m] = c
                m += 1
        # the perm-th order of the free cards (lexicographic)
        for i in range(n - k):
            f = fact[n - k - 1 - i]
            q, perm = divmod(perm, f)
            out[r, k + i] = free[q]
            for t in range(q, n - k - 1 - i):
                free[t] = free[t + 1]


def deal_of_rank(r: int) -> list[int]:
    """The Blitz deal (card ids, top first; the first three increasing) of rank r.

    >>> deal_of_rank(0)
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    >>> deal_of_rank(N_DEALS - 1)
    [10, 11, 12, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    """
    r = int(r)
    if not 0 <= r < N_DEALS:
        raise BadInput(f"Blitz deal rank {r} out of range: expected 0..{N_DEALS - 1:,}")
    out = np.zeros((1, N_CARDS), np.int64)
    _fill_decks(np.array([r], np.int64), N_CARDS, N_EQUIPPED, _FACT, _BINOM, out)
    return out[0].tolist()


def deal_rank(deck) -> int:
    """The rank of a Blitz shuffle's deal (any order of its first three cards).

    >>> deal_rank([2, 0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    0
    """
    deck = [int(c) for c in deck]
    if sorted(deck) != list(range(N_CARDS)):
        raise BadInput(f"a Blitz deck holds each card id 0..{N_CARDS - 1} once, not {deck}")
    first = sorted(deck[:N_EQUIPPED])
    sub = 0
    c = 0
    for i, x in enumerate(first):
        while c < x:
            sub += math.comb(N_CARDS - c - 1, N_EQUIPPED - i - 1)
            c += 1
        c = x + 1
    free = [c for c in range(N_CARDS) if c not in first]
    perm = 0
    for i, x in enumerate(deck[N_EQUIPPED:]):
        j = free.index(x)
        perm += j * math.factorial(N_CARDS - N_EQUIPPED - 1 - i)
        free.pop(j)
    return sub * math.factorial(N_CARDS - N_EQUIPPED) + perm


def decks_of_ranks(ranks: np.ndarray) -> np.ndarray:
    """The deals of many ranks as an int64 array [m, 13] (for `solver.solve_batch`)."""
    ranks = np.ascontiguousarray(ranks, dtype=np.int64)
    out = np.zeros((ranks.shape[0], N_CARDS), np.int64)
    _fill_decks(ranks, N_CARDS, N_EQUIPPED, _FACT, _BINOM, out)
    return out


def parse_ranks(text: str | None) -> tuple[int, int]:
    """'A:B' (a half-open range of deal ranks; either end may be left out) -> (A, B)."""
    if not text:
        return 0, N_DEALS
    parts = text.split(":")
    try:
        if len(parts) != 2:
            raise ValueError
        a = int(parts[0].replace("_", "").replace(",", "")) if parts[0].strip() else 0
        b = int(parts[1].replace("_", "").replace(",", "")) if parts[1].strip() else N_DEALS
    except ValueError:
        raise BadInput(f"--ranks {text!r}: expected A:B, two deal ranks (e.g. 0:100000)") from None
    if not 0 <= a < b <= N_DEALS:
        raise BadInput(f"--ranks {text!r}: expected 0 <= A < B <= {N_DEALS:,}")
    return a, b


def decide(ranks: np.ndarray, policy: Escalation = ESCALATION) -> dict[str, np.ndarray]:
    """Decide the Blitz deals of `ranks` in one kernel call (then one per escalation pass for
    the few left undecided); `escalate.solve_escalating`'s arrays."""
    return solve_escalating(BLITZ, decks_of_ranks(ranks), policy, FIRST_BUDGET)


def _row(case: int, ranks: np.ndarray, res: dict[str, np.ndarray], cpu: float) -> dict:
    code, nodes = res["code"], res["nodes"]
    hardest = int(np.argmax(nodes))
    return {
        "case": case,
        "first_rank": int(ranks.min()),
        "stop_rank": int(ranks.max()) + 1,
        "deals": len(ranks),
        "wins": int((code == CODE_WIN).sum()),
        "losses": int((code == CODE_LOSS).sum()),
        "undecided": int((code == CODE_UNDECIDED).sum()),
        "positions": int(nodes.sum()),
        "max_positions": int(nodes[hardest]),
        "hardest_rank": int(ranks[hardest]),
        "cpu_seconds": cpu,
    }


def _frame(rows: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=list(EXHAUST_COLUMNS))


def exhaust_chunk(params: Mapping[str, Any], chunk: ChunkSpec) -> pd.DataFrame:
    """Decide the blocks of one chunk (the runner's chunk function): case k holds the deals
    of ranks first + k * block up to the range's end; one row of counts per block
    (`EXHAUST_COLUMNS`). `cpu_seconds` is the one column that is not reproducible."""
    policy = Escalation(**params["escalation"])
    first, stop, block = (int(params[k]) for k in ("first_rank", "stop_rank", "block"))
    rows = []
    for case in range(chunk.start, chunk.stop):
        a = first + case * block
        ranks = np.arange(a, min(a + block, stop), dtype=np.int64)
        t0 = time.process_time()
        res = decide(ranks, policy)
        rows.append(_row(case, ranks, res, time.process_time() - t0))
    return _frame(rows)


def sample_chunk(params: Mapping[str, Any], chunk: ChunkSpec) -> pd.DataFrame:
    """Decide uniform random deals: case k is a block of ranks drawn with replacement by a
    generator on the case's own seed (so the deals do not depend on the chunking); rows as
    `exhaust_chunk`'s (`first_rank`/`stop_rank` then are the block's smallest rank and one
    past its largest)."""
    policy = Escalation(**params["escalation"])
    total, block = int(params["sample"]), int(params["block"])
    rows = []
    for case, seed in zip(range(chunk.start, chunk.stop), chunk.case_seeds(), strict=True):
        m = min(block, total - case * block)
        rng = np.random.default_rng(int(seed))
        ranks = np.sort(rng.integers(0, N_DEALS, size=m, dtype=np.int64))
        t0 = time.process_time()
        res = decide(ranks, policy)
        rows.append(_row(case, ranks, res, time.process_time() - t0))
    return _frame(rows)


def _blocks(deals: int, chunk_deals: int) -> tuple[int, int, int]:
    """(deals per block, blocks, blocks per chunk) for `deals` deals in chunks of about
    `chunk_deals` (rounded down to whole blocks of at most BLOCK deals)."""
    if chunk_deals < 1:
        raise BadInput(f"--chunk-size {chunk_deals} is not positive; expected deals per chunk")
    block = min(BLOCK, chunk_deals)
    return block, -(-deals // block), max(1, chunk_deals // block)


def _params(policy: Escalation) -> dict[str, Any]:
    return {
        "config": BLITZ.label(),
        "deal": "a shuffle with its 3 EQUIPPED cards in increasing id (13!/3! deals)",
        "escalation": policy.to_dict(),
        "search": "solver.solve_batch (portfolio of two move orders), per escalation pass",
        "first_budget": FIRST_BUDGET,
    }


def exhaust_study(
    first: int = 0,
    stop: int = N_DEALS,
    chunk_size: int = DEFAULT_CHUNK,
    policy: Escalation = ESCALATION,
) -> Study:
    """The study deciding the Blitz deals of ranks [first, stop) for `runner.run_study`, in
    chunks of about `chunk_size` deals (whole blocks of at most BLOCK deals)."""
    if not 0 <= first < stop <= N_DEALS:
        raise BadInput(f"ranks {first}:{stop}: expected 0 <= A < B <= {N_DEALS:,}")
    block, cases, per_chunk = _blocks(stop - first, chunk_size)
    params = {**_params(policy), "first_rank": int(first), "stop_rank": int(stop), "block": block}
    return Study(
        name="allisbomb.exhaust",
        params=params,
        n_cases=cases,
        seed=0,  # nothing is random: every deal of the range
        chunk_fn=exhaust_chunk,
        chunk_size=per_chunk,
        input_files=load_cards(BLITZ).files,
    )


def sample_study(
    deals: int, seed: int, chunk_size: int = DEFAULT_CHUNK, policy: Escalation = ESCALATION
) -> Study:
    """The study deciding `deals` uniform random Blitz deals (SeedSequence(seed) children)."""
    if deals < 1:
        raise BadInput(f"--sample {deals} is not positive; expected 1 or more")
    block, cases, per_chunk = _blocks(deals, chunk_size)
    return Study(
        name="allisbomb.exhaust-sample",
        params={**_params(policy), "sample": int(deals), "block": block},
        n_cases=cases,
        seed=int(seed),
        chunk_fn=sample_chunk,
        chunk_size=per_chunk,
        input_files=load_cards(BLITZ).files,
    )


def summarize(df: pd.DataFrame, total: int, sampled: bool = False) -> dict[str, Any]:
    """The counts of a finished (or partial) study: wins as an exact fraction of the deals
    decided, the CPU cost per deal, the hardest deal; for a sample, the Wilson interval."""
    deals = int(df["deals"].sum()) if len(df) else 0
    wins = int(df["wins"].sum()) if len(df) else 0
    und = int(df["undecided"].sum()) if len(df) else 0
    cpu = float(df["cpu_seconds"].sum()) if len(df) else 0.0
    out: dict[str, Any] = {
        "config": BLITZ.label(),
        "cards": "stand-in",
        "deals": deals,
        "of": int(total),
        "complete": deals == total,
        "wins": wins,
        "losses": int(df["losses"].sum()) if len(df) else 0,
        "undecided": und,
        "positions": int(df["positions"].sum()) if len(df) else 0,
        "cpu_seconds": round(cpu, 3),
        "us_per_deal": round(1e6 * cpu / deals, 2) if deals else None,
    }
    if len(df):
        h = df.loc[df["max_positions"].idxmax()]
        out["hardest"] = {"rank": int(h["hardest_rank"]), "positions": int(h["max_positions"])}
    if sampled:
        lo, hi = wilson_undecided(wins, und, deals) if deals else (0.0, 1.0)
        out.update({"rate": wins / deals if deals else None, "lo": lo, "hi": hi})
    elif deals and und == 0:
        f = Fraction(wins, deals)
        out["fraction"] = f"{wins}/{deals}"
        out["fraction_reduced"] = f"{f.numerator}/{f.denominator}"
        out["rate"] = wins / deals
    return out
