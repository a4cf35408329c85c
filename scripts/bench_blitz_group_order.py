"""The whole Blitz count's deal order and table size, on the same deals (rulebook G, "Blitz").

Takes `--sets` random sets of the 9 groups that share their bottom 4 cards
(`blitz_ranks.group_decks`, numbered bottom card slowest) and decides their deals twice with
`exhaust.decide_shared`, one table kept over all of them, in cases of 60,480 deals:

- *old*: the order the whole count used before (groups numbered bottom card fastest, a
  group's top 8 cards in lexicographic order), a table of 2**21 slots;
- *new*: the order it uses now (the deck from the bottom up), `exhaust.SHARED_BITS` slots.

The two runs alternate over `--reps` repetitions (process CPU time); the verdicts must be
the same deals' verdicts.

    python scripts/bench_blitz_group_order.py --seed 16 --sets 4 --reps 2
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from solvers.allisbomb import blitz_ranks as R
from solvers.allisbomb import exhaust as E

CASE = 60_480


def old_order(decks: np.ndarray) -> np.ndarray:
    """The rows' order under the old numbering: the old group number (the bottom card its
    lowest digit, each card ranked among the cards not yet picked), then the top 8
    lexicographic."""
    m = len(decks)
    left = np.ones((m, R.N_CARDS), bool)
    g = np.zeros(m, np.int64)
    mul = 1
    for i in range(R.N_CARDS - R.GROUP_TOP):
        c = decks[:, R.N_CARDS - 1 - i]
        q = (left & (np.arange(R.N_CARDS) < c[:, None])).sum(1)
        g += q * mul
        mul *= R.N_CARDS - i
        left[np.arange(m), c] = False
    return np.lexsort((*(decks[:, j] for j in range(R.GROUP_TOP - 1, -1, -1)), g))


def run(decks: np.ndarray, bits: int) -> tuple[float, np.ndarray, int]:
    table = E.SharedTable(bits)
    t0 = time.process_time()
    out = [E.decide_shared(decks[a : a + CASE], table) for a in range(0, len(decks), CASE)]
    cpu = time.process_time() - t0
    return cpu, np.concatenate([x["code"] for x in out]), int(sum(x["nodes"].sum() for x in out))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--sets", type=int, default=4)
    ap.add_argument("--reps", type=int, default=2)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    sets = np.sort(rng.choice(R.n_groups() // 9, args.sets, replace=False))
    E.decide_shared(R.group_decks(np.array([0]))[0][:50])  # compile or load
    new = np.concatenate([R.group_decks(9 * s + np.arange(9))[0] for s in sets])
    o = old_order(new)
    old = new[o]
    paths = {"old": (old, 21), "new": (new, E.SHARED_BITS)}
    res: dict[str, list] = {k: [] for k in paths}
    for r in range(args.reps):
        for k in list(paths)[:: 1 if r % 2 == 0 else -1]:
            res[k].append(run(*paths[k]))
    if not (res["old"][0][1] == res["new"][0][1][o]).all():
        raise SystemExit("the two orders gave a deal different verdicts")
    m = len(new)
    for k, (_, bits) in paths.items():
        cpu = [round(1e6 * x[0] / m, 2) for x in res[k]]
        print(
            f"{k}: 2**{bits} slots, {m:,} deals, win {(res[k][0][1] == 1).mean():.4%}, "
            f"{res[k][0][2] / m:.1f} positions/deal, us/deal {cpu}"
        )
    print(f"sets {sets.tolist()}, load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
