"""Measure dead-position pruning (solvers/allisbomb/prune.py): with and without, one run.

For each configuration, the same seeded deals are solved twice by `solve_batch` (the
default portfolio search) at a fixed node limit: once with pruning off, once on. Printed
per configuration and mode: deals decided (win / loss / undecided), positions searched
(sum over deals) and CPU seconds; and a check that every deal decided both ways got the
same verdict. The Numba cache is warmed before anything is timed.

    python scripts/allisbomb_prune_bench.py                      # 200 deals, limit 200,000
    python scripts/allisbomb_prune_bench.py --deals 50 --node-limit 50000 --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from solvers.allisbomb import program
from solvers.allisbomb.cards import load_cards
from solvers.allisbomb.config import EXPANSIONS, GameConfig
from solvers.allisbomb.solver import solve_batch

CONFIGS = {
    "base": GameConfig(),
    "base+all": GameConfig(expansions=("all",)),
    "base+the_juice+hands": GameConfig(expansions=("the_juice",), hands=True),
    "all six expansions": GameConfig(expansions=EXPANSIONS),
}


def run(config: GameConfig, decks: np.ndarray, node_limit: int, on: bool) -> dict:
    """Solve `decks` with pruning on or off; counts, positions and CPU seconds."""
    with program.pruning(config, on):
        t0 = time.process_time()
        out = solve_batch(config, decks, node_limit=node_limit)
        cpu = time.process_time() - t0
    code = out["code"]
    return {
        "win": int((code == 1).sum()),
        "loss": int((code == 0).sum()),
        "undecided": int((code == 2).sum()),
        "positions": int(out["nodes"].sum()),
        "cpu_s": round(cpu, 2),
        "code": code,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--node-limit", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    args = ap.parse_args()
    t_warm = time.perf_counter()
    for config in CONFIGS.values():  # compile or load the Numba cache: not timed below
        solve_batch(config, np.arange(load_cards(config).n)[None, :], node_limit=100)
    print(f"Numba warm-up {time.perf_counter() - t_warm:.1f} s (not counted)")
    print(
        f"{args.deals} deals per configuration, seed {args.seed}, node limit "
        f"{args.node_limit:,}, portfolio search, stand-in cards, one process "
        f"(load average {os.getloadavg()[0]:.2f})\n"
    )
    print("| configuration | pruning | win | loss | undecided | positions | CPU s |")
    print("|---|---|---|---|---|---|---|")
    rows = []
    for label, config in CONFIGS.items():
        n = load_cards(config).n
        rng = np.random.default_rng(args.seed)
        decks = np.stack([rng.permutation(n) for _ in range(args.deals)])
        res = {}
        for on in (False, True):
            r = run(config, decks, args.node_limit, on)
            res[on] = r
            print(
                f"| {label} | {'on' if on else 'off'} | {r['win']} | {r['loss']} | "
                f"{r['undecided']} | {r['positions']:,} | {r['cpu_s']:.2f} |",
                flush=True,
            )
        both = (res[False]["code"] != 2) & (res[True]["code"] != 2)
        differ = int((res[False]["code"][both] != res[True]["code"][both]).sum())
        if differ:
            print(f"!! {label}: {differ} deals decided both ways with different verdicts")
        for on in (False, True):
            row = {k: v for k, v in res[on].items() if k != "code"}
            rows.append({"config": label, "pruning": on, **row, "verdicts_differ": differ})
    total = {on: sum(r["cpu_s"] for r in rows if r["pruning"] == on) for on in (False, True)}
    print(f"\nCPU seconds in all: off {total[False]:.1f}, on {total[True]:.1f}")
    if args.json:
        meta = {"deals": args.deals, "node_limit": args.node_limit, "seed": args.seed}
        with open(args.json, "w") as fh:
            json.dump({**meta, "rows": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
