#!/usr/bin/env python3
"""Measure the sweep escalation policy (solvers/allisbomb/escalate.py) on seeded deals.

    nice -n 10 python scripts/allisbomb_escalation.py --expansions all6 --deals 3000 \
        --first 200000 --ceiling 51200000 --out results/allisbomb/escalation-six.json

Shuffles `--deals` uniform deals (`deals.shuffles` from `default_rng(--seed)`), decides
them by escalation, and reports per pass: the node limit, how many deals took part, how
many it decided (wins, losses), its CPU seconds; then for the deals still undecided at the
ceiling what they have in common: which cards are over-represented among the three first
EQUIPPED cards, and the mean starting position of each card, against all deals. The stand-in
card texts are used (cards/data); the JSON records the configuration, seed and limits.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--expansions", default="all6", help="comma list, or all6 (every expansion)")
    ap.add_argument("--hands", action="store_true")
    ap.add_argument("--deals", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--first", type=int, default=200_000)
    ap.add_argument("--ceiling", type=int, default=51_200_000)
    ap.add_argument("--out", default=None, help="JSON summary")
    args = ap.parse_args()

    import numpy as np

    from solvers.allisbomb.commands import rerun_command
    from solvers.allisbomb.config import EXPANSIONS, GameConfig, parse_expansions
    from solvers.allisbomb.deals import rank, shuffles
    from solvers.allisbomb.escalate import Escalation, table_bits_for
    from solvers.allisbomb.kernel import CODE_LOSS, CODE_UNDECIDED, CODE_WIN
    from solvers.allisbomb.solver import OUTCOME_NAMES, compiled, solve_batch

    exps = EXPANSIONS if args.expansions == "all6" else parse_expansions(args.expansions)
    config = GameConfig(expansions=tuple(exps), hands=args.hands).validate()
    cs = compiled(config).cards
    decks = shuffles(cs.n, args.deals, np.random.default_rng(args.seed))
    policy = Escalation(args.first, args.ceiling)
    solve_batch(config, decks[:1], node_limit=10)  # compile/load outside the timings

    todo = np.arange(len(decks))
    code = np.full(len(decks), CODE_UNDECIDED)
    nodes = np.zeros(len(decks), np.int64)
    decided_at = np.zeros(len(decks), np.int64)
    passes = []
    print(f"{config.label()} (stand-in cards), {args.deals} deals, seed {args.seed}")
    for limit in policy.limits():
        if todo.size == 0:
            break
        t0 = time.process_time()
        res = solve_batch(config, decks[todo], node_limit=limit, table_bits=table_bits_for(limit))
        cpu = time.process_time() - t0
        nodes[todo] += res["nodes"]
        code[todo] = res["code"]
        decided_at[todo] = limit
        row = {
            "limit": limit,
            "deals": int(todo.size),
            "wins": int((res["code"] == CODE_WIN).sum()),
            "losses": int((res["code"] == CODE_LOSS).sum()),
            "undecided": int((res["code"] == CODE_UNDECIDED).sum()),
            "cpu_s": round(cpu, 2),
        }
        passes.append(row)
        print(
            f"  limit {limit:>11,}: {row['deals']:>6,} deals, {row['wins']:>5,} won, "
            f"{row['losses']:>5,} lost, {row['undecided']:>5,} undecided  ({cpu:8.1f} CPU-s)",
            flush=True,
        )
        todo = todo[res["code"] == CODE_UNDECIDED]

    und = code == CODE_UNDECIDED
    # the hard deals: those the first pass left undecided (what do they have in common?)
    hard_set = decided_at > policy.first
    hard = np.argsort(-nodes)[:5]
    labels = cs.labels
    common = {}
    if hard_set.any():
        und_all = und
        und = hard_set
        eq_all = Counter(labels[c] for d in decks for c in d[:3])
        eq_und = Counter(labels[c] for d in decks[und] for c in d[:3])
        over = {
            lab: round((eq_und[lab] / und.sum()) / (eq_all[lab] / len(decks)), 2)
            for lab in eq_all
            if eq_und[lab]
        }
        pos = np.argsort(decks, axis=1)  # pos[i, c]: where card c starts in deal i (0 = top)
        mean_pos = {
            lab: (round(float(pos[und, c].mean()), 1), round(float(pos[:, c].mean()), 1))
            for c, lab in enumerate(labels)
        }
        shift = sorted(mean_pos.items(), key=lambda kv: kv[1][0] - kv[1][1])
        common = {
            "hard": "undecided after the first pass",
            "equipped_overrepresentation": dict(sorted(over.items(), key=lambda kv: -kv[1])),
            "mean_start_position_hard_vs_all": dict(shift),
            "hard_outcomes": {
                OUTCOME_NAMES[k]: int((code[hard_set] == k).sum()) for k in np.unique(code)
            },
        }
        print(
            f"undecided after the first pass ({args.first:,}): {int(hard_set.sum())}, of which "
            f"{common['hard_outcomes']}; still undecided at {args.ceiling:,}: {int(und_all.sum())}"
        )
        print("  first EQUIPPED cards, rate among the hard deals / rate among all:")
        for lab, r in list(common["equipped_overrepresentation"].items())[:6]:
            print(f"    {lab:<22} x{r}")
        print("  cards starting highest / lowest in the deck vs all deals (mean position):")
        for lab, (a, b) in shift[:4] + shift[-4:]:
            print(f"    {lab:<22} {a:5.1f} vs {b:5.1f}")
    total_cpu = sum(p["cpu_s"] for p in passes)
    print(f"total {total_cpu:.1f} CPU-s; hardest deals (positions over every pass):")
    for i in hard:
        print(
            f"  {rerun_command(config, rank(decks[i]))}: {nodes[i]:,} positions, "
            f"{OUTCOME_NAMES[int(code[i])]}"
        )
    summary = {
        "config": config.label(),
        "cards": "stand-in",
        "deals": args.deals,
        "seed": args.seed,
        "shuffle": "deals.shuffles(n, deals, numpy.random.default_rng(seed))",
        "policy": policy.to_dict(),
        "passes": passes,
        "undecided": int((code == CODE_UNDECIDED).sum()),
        "undecided_ranks": [str(rank(d)) for d in decks[code == CODE_UNDECIDED]],
        "total_cpu_s": round(total_cpu, 1),
        "positions_per_deal": {
            q: int(np.quantile(nodes, float(q))) for q in ("0.5", "0.9", "0.99", "0.999", "1.0")
        },
        "hardest": [
            {"rank": str(rank(decks[i])), "positions": int(nodes[i]), "code": int(code[i])}
            for i in hard
        ],
        "undecided_in_common": common,
    }
    if args.out:
        Path(args.out).write_text(json.dumps(summary, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
