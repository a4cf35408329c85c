#!/usr/bin/env python3
"""Measure what copy-symmetric transposition keys would save (a measurement, not a change).

    nice -n 10 python scripts/allisbomb_copy_symmetry.py [--deals 40] [--config base]

Two positions that differ only by which copy of a duplicated card (the two JOKERs, ...)
sits where have the same future up to renaming the copies, so the same verdict. This runs
the plain-Python reference search (`search.reference_search`) on the same seeded deals
twice: with the position key as it is, and with `State.key` replaced by its minimum over
every renaming of copies (the product of the permutations of each group of copies), and
reports the positions entered each way (verdicts must agree). Stand-in cards.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--config", choices=("base", "base+all", "six"), default="base")
    ap.add_argument("--node-limit", type=int, default=50_000)
    args = ap.parse_args()

    import numpy as np

    from solvers.allisbomb.config import EXPANSIONS, GameConfig
    from solvers.allisbomb.deals import shuffles
    from solvers.allisbomb.rules import State, _info, new_game
    from solvers.allisbomb.search import reference_search
    from solvers.allisbomb.solver import compiled

    cfg = {
        "base": GameConfig(),
        "base+all": GameConfig(expansions=("all",)),
        "six": GameConfig(expansions=EXPANSIONS),
    }[args.config]
    cs = compiled(cfg).cards
    groups = defaultdict(list)
    for i, lab in enumerate(cs.labels):
        groups[lab].append(i)
    groups = [g for g in groups.values() if len(g) > 1]
    sigmas = []
    for choice in itertools.product(*(itertools.permutations(g) for g in groups)):
        s = list(range(cs.n))
        for g, p in zip(groups, choice, strict=True):
            for a, b in zip(g, p, strict=True):
                s[a] = b
        sigmas.append(s)
    tracked = _info(cs)["tracked"]
    plain_key = State.key

    def canonical_key(self: State) -> tuple:
        best = None
        for s in sigmas:
            zone = [0] * cs.n
            ign = [False] * cs.n
            played = [False] * cs.n
            for c in range(cs.n):
                zone[s[c]] = self.zone[c]
                ign[s[c]] = self.ignited[c]
                played[s[c]] = self.played[c]
            k = (
                tuple(s[c] for c in self.deck),
                tuple(s[c] for c in self.discard),
                tuple(zone),
                tuple(ign),
                s[self.desired] if self.desired >= 0 else self.desired,
                tuple(played[c] for c in tracked),
                min(self.gift_plays, 3),
                self.active,
            )
            if best is None or k < best:
                best = k
        return best

    decks = shuffles(cs.n, args.deals, np.random.default_rng(args.seed))
    totals = {"plain": 0, "canonical": 0}
    und = {"plain": 0, "canonical": 0}
    for d in decks:
        out = {}
        for name, key in (("plain", plain_key), ("canonical", canonical_key)):
            State.key = key
            r = reference_search(new_game(cs, d.tolist()), node_limit=args.node_limit)
            out[name] = r
            totals[name] += r.nodes
            und[name] += r.outcome == "undecided"
        State.key = plain_key
        a, b = out["plain"].outcome, out["canonical"].outcome
        if "undecided" not in (a, b) and a != b:
            raise SystemExit(f"verdicts differ on {d.tolist()}: {a} vs {b}")
    print(
        f"{cfg.label()} (stand-in), {args.deals} deals (seed {args.seed}), node limit "
        f"{args.node_limit:,}, {len(groups)} groups of copies ({len(sigmas)} renamings): "
        f"positions {totals['plain']:,} -> {totals['canonical']:,} "
        f"(x{totals['plain'] / max(totals['canonical'], 1):.3f}); undecided "
        f"{und['plain']} -> {und['canonical']}; same verdicts"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
