#!/usr/bin/env python3
"""Check a stand-in card set against what the rulebook says of its own difficulty.

    python scripts/allisbomb_standin_targets.py [--cards FILE] [--deals 2000] \
        [--look-deals 300] [--seed 1] [--out DIR]

For every statement of `solvers.allisbomb.targets.TARGETS`: perfect play on --deals deals
and the lookahead player (default budget) on --look-deals deals of each configuration it
compares; met when the 95% intervals do not overlap. Writes DIR/targets.md (the table
the README and the card set's notes quote), targets.json and prints the table. Without
--cards it measures the shipped stand-in set (version 1).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.allisbomb.targets import TARGETS, judge, measure  # noqa: E402
from solvers.common.files import write_text_atomic  # noqa: E402


def _fmt(m, kind: str) -> str:
    if kind == "turns":
        return f"median {m.turns_median:.0f} turns [{m.turns_lo:.0f}, {m.turns_hi:.0f}]"
    lo, hi = m.interval
    return f"{m.rate:.1%} [{lo:.1%}, {hi:.1%}]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=Path, default=None)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--look-deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--node-limit", type=int, default=3_000_000)
    ap.add_argument("--only", default="", help="comma-separated statement numbers (1-based)")
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args()
    chosen = [int(x) for x in a.only.split(",") if x] or list(range(1, len(TARGETS) + 1))
    cache: dict = {}
    t0 = time.perf_counter()

    def get(name: str, player: str):
        key = (name, player)
        if key not in cache:
            deals = a.deals if player == "perfect" else a.look_deals
            cache[key] = measure(name, a.cards, player, deals, a.seed, a.node_limit)
            print(f"  {player:9s} {name:18s} {_fmt(cache[key], 'win')}", file=sys.stderr)
        return cache[key]

    rows = []
    for i in chosen:
        t = TARGETS[i - 1]
        row = {"n": i, "statement": t.statement, "quote": t.quote}
        for player in ("perfect", "lookahead"):
            if player == "lookahead" and a.look_deals == 0:
                continue
            h, e = get(t.harder, player), get(t.easier, player)
            row[player] = {
                "harder": _fmt(h, t.measure),
                "easier": _fmt(e, t.measure),
                "met": judge(t, h, e),
            }
        rows.append(row)
    cards = str(a.cards) if a.cards else "the shipped stand-in set (version 1)"
    lines = [
        f"Cards: {cards} (STAND-IN texts, not the printed cards). Perfect play: {a.deals:,} deals "
        f"per configuration (node limit {a.node_limit:,}); lookahead player: {a.look_deals:,} "
        f"deals; seed {a.seed}; deal i of configuration c is default_rng([seed, c, i]); met = "
        "the 95% Wilson intervals do not overlap (undecided deals against the claim at each "
        "end); turns: median of won games with its order-statistic 95% interval. "
        f"Regenerate: `python scripts/allisbomb_standin_targets.py{' --cards ' + str(a.cards) if a.cards else ''} "
        f"--deals {a.deals} --look-deals {a.look_deals} --seed {a.seed}`.",
        "",
        "| # | rulebook says | compared | perfect play | met | lookahead player | met |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        t = TARGETS[r["n"] - 1]
        cells = []
        for player in ("perfect", "lookahead"):
            if player in r:
                p = r[player]
                cells += [f"{p['harder']} vs {p['easier']}", "yes" if p["met"] else "**no**"]
            else:
                cells += ["not measured", "-"]
        lines.append(
            f'| {r["n"]} | {t.statement} ("{t.quote}") | {t.harder} vs {t.easier} | '
            + " | ".join(cells)
            + " |"
        )
    lines.append(
        "| - | Campaign medals mean something for the lookahead player (gold rare) | "
        "campaign | not measured | - | not measured (no lookahead campaign yet) | **no** |"
    )
    text = "\n".join(lines) + "\n"
    print(text)
    print(f"{time.perf_counter() - t0:.0f} s", file=sys.stderr)
    if a.out:
        write_text_atomic(a.out / "targets.md", text)
        write_text_atomic(a.out / "targets.json", json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
