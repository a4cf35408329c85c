"""What card sets richer than the stand-in cost the search: positions, undecided deals, CPU.

For each set (the benchmark sets of scripts/bench/cardsets/, random sets of
scripts/bench/random_sets.py, and the stand-in base game for scale), the same seeded
deals are decided one by one with the sweep's search (`solve_batch`: both move orders,
the default node limit of 3,000,000 positions), and the script prints per set: positions
per deal (median, 99th percentile, max), the share left undecided, the wins, and the mean
process CPU per decided deal.

`--before-python PY` runs every set a second time in a python whose `bombsolve` is another
tree (e.g. a venv with an editable install of an older commit), interleaved set by set
with this tree (which side goes first alternates), and prints after/before ratios measured
in this one run. `--order ignited|passive` has this tree's side try the EQUIPPED CARDS in
a card order (kernel/ordering.py, off by default): `ignited` the shipped table (IGNITED
sides first), `passive` the PASSIVE sides first; with `--before-python` set to this same
python it measures the order against the search by card id in one run. `--shortest LIMIT`
times `--shortest` instead (`solve(..., shortest=True)`: the portfolio decides the deal,
then the kernel's iterative deepening, LIMIT positions each). Each side is a fresh worker process per set (`--worker`), so both load
their kernels alike. On a shared machine keep `--deals` modest (100 a set is a few
minutes a side for the rich sets) and read CPU ratios, not absolute times.

    nice python scripts/bench/rich_sets.py [--deals 100] [--seed 2026] [--random 2]
        [--sets rich_court,...|none] [--extra LABEL=FILE] [--before-python PY]
        [--order ignited|passive] [--shortest LIMIT] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CARDSETS = HERE / "cardsets"
STANDIN = "standin"  # the stand-in base game (no card file)
#: Sets played with an expansion: label, card file, expansions.
WITH_EXPANSIONS = (("rich_court+mosquitos", "rich_court", "mosquitos"),)


def worker(
    cards: str, deals: int, seed: int, expansions: str = "", order: str = "", shortest: int = 0
) -> dict:
    """Decide `deals` seeded deals of one set in this process; per-deal arrays. `order`: ""
    the default search (cards by id), "ignited" ordering.py's shipped card order (IGNITED
    sides first), "passive" the PASSIVE sides first."""
    from bombsolve.solvers.allisbomb import (
        Options,
        compiled,
        load_cards,
        move_order,
        priority_table,
        solve,
        solve_batch,
    )

    exp = tuple(e for e in expansions.split(",") if e)
    if cards == STANDIN:
        cfg = Options(expansions=exp)
    else:
        cfg = Options(cards_file=Path(cards), allow_nonstandard=True, expansions=exp)
    n = load_cards(cfg).n
    rng = np.random.default_rng(seed)
    decks = np.stack([rng.permutation(n) for _ in range(deals)])
    code, nodes, cpu, turns = [], [], [], []
    with move_order(cfg, bool(order)):
        # (the table exists only while the order is on; the shipped one is put back after)
        table = priority_table(compiled(cfg).prog.info, n) if order else None
        shipped = None if table is None else table.copy()
        if order == "passive":
            table[:, 0], table[:, 1] = 0, 1  # PASSIVE sides first (lower is tried first)
        try:
            solve_batch(cfg, decks[:1], node_limit=1000)  # load the kernel before the clock
            if shortest:  # and the deepening's
                solve(cfg, decks[0], node_limit=1000, check=False, shortest=True)
            for deck in decks:
                t = time.process_time()
                if shortest:
                    won = solve(cfg, deck, node_limit=shortest, check=False, shortest=True)
                    cpu.append(time.process_time() - t)
                    code.append({"loss": 0, "win": 1}.get(won.outcome, 2))
                    nodes.append(won.nodes)
                    turns.append(len(won.solution))
                    continue
                res = solve_batch(cfg, deck[None, :])
                cpu.append(time.process_time() - t)
                code.append(int(res["code"][0]))
                nodes.append(int(res["nodes"][0]))
        finally:
            if table is not None:
                table[:] = shipped
    return {"code": code, "nodes": nodes, "cpu": cpu, "turns": turns}


def summary(r: dict) -> dict:
    """The figures of one side of one set (module docstring)."""
    code, nodes, cpu = np.array(r["code"]), np.array(r["nodes"]), np.array(r["cpu"])
    decided = code != 2
    return {
        "deals": int(code.size),
        "wins": int((code == 1).sum()),
        "undecided": int((~decided).sum()),
        "median": float(np.median(nodes)),
        "p99": float(np.percentile(nodes, 99)),
        "max": int(nodes.max()),
        "cpu_decided": float(cpu[decided].mean()) if decided.any() else float("nan"),
        "cpu_total": float(cpu.sum()),
        "turns": int(sum(r.get("turns", []))),  # --shortest: the wins' turns, all deals
    }


def run_side(
    python: str,
    cards: str,
    expansions: str,
    deals: int,
    seed: int,
    order: str = "",
    shortest: int = 0,
) -> dict:
    args = ["--worker", cards, "--expansions", expansions, "--deals", str(deals)]
    args += ["--order", order] if order else []
    args += ["--shortest", str(shortest)] if shortest else []
    out = subprocess.run(
        [python, str(Path(__file__)), *args, "--seed", str(seed)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--random", type=int, default=2, help="random sets (seeds 1..N)")
    ap.add_argument("--sets", default="", help="benchmark set names (default: all; none: none)")
    ap.add_argument("--extra", action="append", default=[], help="LABEL=FILE: another card file")
    ap.add_argument("--before-python", default="")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--worker", default="")
    ap.add_argument("--expansions", default="")
    ap.add_argument("--order", default="", choices=["", "ignited", "passive"])
    ap.add_argument("--shortest", type=int, default=0, help="time --shortest, LIMIT positions")
    a = ap.parse_args()
    if a.worker:
        out = worker(a.worker, a.deals, a.seed, a.expansions, a.order, a.shortest)
        print(json.dumps(out))
        return
    sys.path.insert(0, str(HERE))
    from random_sets import random_set

    names = [s for s in a.sets.split(",") if s] or sorted(p.stem for p in CARDSETS.glob("*.toml"))
    names = [] if names == ["none"] else names
    tmp = Path(tempfile.mkdtemp(prefix="rich_sets_"))
    sets = [(STANDIN, STANDIN, "")] + [(s, str(CARDSETS / f"{s}.toml"), "") for s in names]
    sets += [(lab, str(CARDSETS / f"{f}.toml"), e) for lab, f, e in WITH_EXPANSIONS if f in names]
    for extra in a.extra:
        label, _, path = extra.partition("=")
        sets.append((label, str(Path(path).resolve()), ""))
    for k in range(1, a.random + 1):
        path = tmp / f"random{k}.toml"
        path.write_text(random_set(k))
        sets.append((f"random{k}", str(path), ""))
    sides = [("after", sys.executable)]
    if a.before_python:
        sides.append(("before", a.before_python))
    rows = []
    head = f"{'set':<16} {'side':<6} {'wins':>5} {'undec':>6} {'median':>9} {'p99':>10}"
    print(head + f" {'max':>10} {'cpu/decided':>12}", flush=True)
    for i, (label, cards, expansions) in enumerate(sets):
        order = sides if i % 2 == 0 else sides[::-1]
        row = {"set": label}
        for side, python in order:
            side_order = a.order if side == "after" else ""
            r = run_side(python, cards, expansions, a.deals, a.seed, side_order, a.shortest)
            s = summary(r)
            row[side] = s
            print(
                f"{label:<16} {side:<6} {s['wins']:>5} {s['undecided']:>6} {s['median']:>9,.0f}"
                f" {s['p99']:>10,.0f} {s['max']:>10,} {s['cpu_decided']:>11.3f}s",
                flush=True,
            )
        if "before" in row:
            b, f = row["before"], row["after"]
            row["ratio_cpu_decided"] = f["cpu_decided"] / b["cpu_decided"]
            row["ratio_median"] = f["median"] / b["median"]
            print(
                f"{label:<16} after/before: median positions {row['ratio_median']:.3f}, "
                f"CPU per decided deal {row['ratio_cpu_decided']:.3f}, undecided "
                f"{b['undecided']} -> {f['undecided']}"
                + (f", turns of the wins {b['turns']} -> {f['turns']}" if a.shortest else ""),
                flush=True,
            )
        rows.append(row)
    if a.json:
        meta = {"deals": a.deals, "seed": a.seed, "load": os.getloadavg(), "rows": rows}
        meta["order_after"] = a.order or "by card id (the default)"
        meta["search"] = f"--shortest, {a.shortest:,} positions" if a.shortest else "the sweep's"
        a.json.write_text(json.dumps(meta, indent=1) + "\n")


if __name__ == "__main__":
    main()
