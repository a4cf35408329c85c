"""Kernel against reference on a card file that uses the extended effect vocabulary.

The 20-action file (tests/allisbomb/data/vocab_actions.toml, custom cards, base game, one
player) is solved deal by deal by the plain-Python reference search and by the kernel
(`solver.solve`, plain search, `--reps` calls per deal), interleaved, at one node limit;
both must count the same positions. Prints nodes per CPU-second of each and their ratio.
`--cards FILE` runs another card file instead (e.g. the file as it was before its `next`
steps, `git show REV:tests/allisbomb/data/vocab_actions.toml`, to see what they cost).

    nice -n 15 python scripts/bench/bench_allisbomb_vocab.py [--deals 20] [--node-limit 3000]
        [--reps 20] [--seed 15] [--cards FILE] [--json FILE]

`--json FILE` also writes the figures, with the card file's digest, the commit and the
load average at the start and the end.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bombsolve.solvers.allisbomb import (  # noqa: E402
    Options,
    load_cards,
    prepare,
    reference_search,
    solve,
)

FILE = ROOT / "tests" / "allisbomb" / "data" / "vocab_actions.toml"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--node-limit", type=int, default=3000)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--cards", type=Path, default=FILE)
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = ap.parse_args()
    load_start = os.getloadavg()
    cfg = Options(cards_file=args.cards, allow_nonstandard=True)
    cs = load_cards(cfg)
    rng = np.random.default_rng(args.seed)
    decks = [rng.permutation(cs.n) for _ in range(args.deals)]
    solve(cfg, decks[0], node_limit=10, portfolio=False)  # compile or load first
    ref_t = ker_t = 0.0
    nodes = 0
    verdicts: dict[str, int] = {}
    for deck in decks:
        t = time.process_time()
        b = reference_search(prepare(cfg, deck), node_limit=args.node_limit)
        ref_t += time.process_time() - t
        t = time.process_time()
        for _ in range(args.reps):
            a = solve(cfg, deck, node_limit=args.node_limit, portfolio=False)
        ker_t += (time.process_time() - t) / args.reps
        if (a.outcome, a.nodes) != (b.outcome, b.nodes):
            raise SystemExit(
                f"disagree: kernel {a.outcome}/{a.nodes}, reference {b.outcome}/{b.nodes}"
            )
        nodes += a.nodes
        verdicts[a.outcome] = verdicts.get(a.outcome, 0) + 1
    print(
        f"cards: {args.cards.name} (custom), base, 1 player; {args.deals} deals, seed {args.seed}, "
        f"node limit {args.node_limit:,}; verdicts {verdicts}; {nodes:,} positions"
    )
    print(
        f"reference {nodes / ref_t:,.0f} nodes/CPU-s; kernel (solve) {nodes / ker_t:,.0f} "
        f"nodes/CPU-s; ratio {ref_t / ker_t:.1f}x"
    )
    if args.json:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        doc = {
            "cards": str(
                args.cards.relative_to(ROOT) if args.cards.is_relative_to(ROOT) else args.cards
            ),
            "cards_sha256": hashlib.sha256(args.cards.read_bytes()).hexdigest(),
            "config": "base, 1 player, custom cards (allow_nonstandard)",
            "deals": args.deals,
            "seed": args.seed,
            "node_limit": args.node_limit,
            "kernel_reps": args.reps,
            "verdicts": verdicts,
            "positions": nodes,
            "reference_cpu_s": ref_t,
            "kernel_cpu_s": ker_t,
            "reference_nodes_per_cpu_s": nodes / ref_t,
            "kernel_nodes_per_cpu_s": nodes / ker_t,
            "ratio_kernel_over_reference": ref_t / ker_t,
            "commit": commit,
            "load_average_start": list(load_start),
            "load_average_end": list(os.getloadavg()),
        }
        args.json.write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
