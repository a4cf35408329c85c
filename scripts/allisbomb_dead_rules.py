#!/usr/bin/env python3
"""How often each dead-position rule fires on random playouts, per configuration.

    python scripts/allisbomb_dead_rules.py [--deals 150] [--seed 9] [--config LABEL ...]

For each configuration (default: base+all and the six expansions, each with and without
the HANDS helper pack, rulebook G "Hands"), plays `--deals` uniform deals to their end by
uniformly random legal moves (plain-Python rules, `rules.State.iter_children`) and asks
`prune.dead_reason` at every position entered. Prints the share of positions each rule
proves dead (None: no rule fires), and of the lost playouts, how many were proven dead
before their last position. A rule that fires rarely on random lines is a weak proof for
that configuration's exhaustive search too (every lost line is searched to its end).
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SIX = "base+mosquitos+dream_guide+gifts+the_juice+waking_up+all"
DEFAULT = ("base+all", "base+all+hands", SIX, SIX + "+hands")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=150)
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--config", nargs="*", default=list(DEFAULT))
    args = ap.parse_args()

    import numpy as np

    from solvers.allisbomb.deals import shuffles
    from solvers.allisbomb.prune import dead_reason
    from solvers.allisbomb.rules import Outcome, new_game
    from solvers.allisbomb.solver import compiled
    from solvers.allisbomb.study import matrix_configs

    by_label = {c.label(): c for c in matrix_configs()}
    for label in args.config:
        if label not in by_label:
            print(f"unknown configuration {label!r} (not in the study matrix)", file=sys.stderr)
            return 2
    for label in args.config:
        cfg = by_label[label]
        n = compiled(cfg).cards.n
        rnd = random.Random(args.seed)
        fired: collections.Counter[str | None] = collections.Counter()
        lost = proven = 0
        for deck in shuffles(n, args.deals, np.random.default_rng([args.seed, n])):
            s = new_game(cfg, [int(c) for c in deck])
            seen_dead = False
            while not s.is_over():
                reason = dead_reason(s)
                fired[reason] += 1
                seen_dead = seen_dead or reason is not None
                kids = [st for _, st in s.iter_children()]
                if not kids:
                    break
                s = rnd.choice(kids)
            if s.outcome is Outcome.LOSS:
                lost += 1
                proven += seen_dead
        total = sum(fired.values())
        shares = ", ".join(
            f"{k or 'none'} {v / total:.3f}"
            for k, v in sorted(fired.items(), key=lambda kv: -kv[1])
        )
        print(
            f"{label}: {total} positions; {shares}; lost playouts proven dead before the end {proven} of {lost}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
