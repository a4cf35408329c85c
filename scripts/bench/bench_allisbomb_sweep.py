#!/usr/bin/env python3
"""Benchmark All Is Bomb sweeps: deals per CPU-second, the old sweep path against the new.

    nice -n 10 python scripts/bench/bench_allisbomb_sweep.py [--reps 3] [--rev REV] [--out FILE]
    nice -n 10 python scripts/bench/bench_allisbomb_sweep.py --dask [--deals 4000]   (pool vs Dask)

For base, Blitz, base+all and all six expansions (stand-in cards), on the same seeded deals
(`deals.shuffles`, default_rng(--seed)), timed alternately in one process (process CPU
time, so other processes on the machine count as little as possible), repetition by
repetition:

- sweep: what `study.sweep_chunk` spends per deal: one `solver.solve_batch` call per deal
  (to time each deal), one pass at the sweep's node limit (3,000,000), plus the deal's rank,
  setup position and EQUIPPED labels for its row;
- old: the search calls alone (one call per deal, one pass at 3,000,000);
- new: one kernel call for all the deals with the escalation policy (escalate.py: a first
  pass at 3,000,000 positions, the undecided again at doubled limits up to 51,200,000); for
  Blitz as `exhaust` runs it (first pass 100,000, the portfolio's first switch at 200);
- small: (not Blitz) the same escalation from a first pass at 200,000: why the default
  first pass is not small.

Verdicts must agree wherever both decided. Prints deals per CPU-second of each (its
fastest repetition), the ratios new/sweep and new/old (medians over repetitions of the
paired times), and the undecided deals. With --rev, also this tree's kernel against the kernel of git
revision REV (plain search, `solve_many`, as scripts/bench/compare_allisbomb_kernels.py loads it).
Last, the kernel against the plain-Python reference search (`search.reference_search`) on
base deals: the same positions, the ratio of CPU time per deal.

--dask runs the earlier benchmark instead: the same base sweep on one process, a process
pool and a real local Dask cluster (the Dask path's overhead).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

#: Deals per configuration and repetition (sized for about a minute on a quiet core).
DEALS = {"base": 400, "blitz": 2000, "base+all": 200, "six": 60}


def _configs():
    from bombsolve.solvers.allisbomb import EXPANSIONS, Options

    return {
        "base": Options(),
        "blitz": Options(blitz=True),
        "base+all": Options(expansions=("all",)),
        "six": Options(expansions=EXPANSIONS),
    }


def main() -> int:
    if "--dask" in sys.argv[1:]:
        return dask_overhead([a for a in sys.argv[1:] if a != "--dask"])
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the deal counts")
    ap.add_argument("--rev", default=None, help="also time the kernel of this git revision")
    ap.add_argument("--reference-deals", type=int, default=20)
    ap.add_argument(
        "--blitz-groups", type=int, default=2, help="groups of 6,720 deals for the exhaust's rows"
    )
    ap.add_argument("--out", default=None, help="JSON summary")
    args = ap.parse_args()

    import numpy as np

    from bombsolve.solvers.allisbomb import (
        CODE_UNDECIDED,
        DEFAULT_CARDS,
        PORTFOLIO_FIRST,
        SWEEP_NODE_LIMIT,
        Escalation,
        compiled,
        exhaust,
        prepare,
        solve_batch,
        solve_escalating,
    )
    from bombsolve.solvers.allisbomb import deals as D

    load = round(os.getloadavg()[0], 2)
    summary = {"cards": DEFAULT_CARDS, "seed": args.seed, "reps": args.reps, "load_at_start": load}
    print(f"All Is Bomb sweep benchmark, {DEFAULT_CARDS} cards, seed {args.seed}, load {load}")
    rows = {}
    for name, cfg in _configs().items():
        n = compiled(cfg).cards.n
        decks = D.shuffles(
            n, max(1, int(DEALS[name] * args.scale)), np.random.default_rng(args.seed)
        )
        policy = exhaust.ESCALATION if cfg.blitz else Escalation()
        budget = exhaust.FIRST_BUDGET if cfg.blitz else PORTFOLIO_FIRST
        cs = compiled(cfg).cards

        def old(decks=decks, cfg=cfg):
            out = np.zeros(len(decks), np.int64)
            for i in range(len(decks)):
                out[i] = solve_batch(cfg, decks[i : i + 1], node_limit=SWEEP_NODE_LIMIT)["code"][0]
            return out

        def sweep(decks=decks, cfg=cfg, cs=cs):
            # old, plus what study.sweep_chunk does per deal besides the search: its rank,
            # its setup position (for the EQUIPPED labels) and the labels
            out = old(decks, cfg)
            for d in decks:
                D.rank(d)
                ",".join(cs.labels[c] for c in prepare(cs, d.tolist()).equipped(0))
            return out

        def new(decks=decks, cfg=cfg, policy=policy, budget=budget):
            return solve_escalating(cfg, decks, policy, budget)["code"]

        def small(decks=decks, cfg=cfg):
            return solve_escalating(cfg, decks, Escalation(200_000))["code"]

        paths = {"sweep": sweep, "old": old, "new": new}
        if not cfg.blitz:
            paths["small"] = small
        times = {k: [] for k in paths}
        codes = {}
        old(decks[:1]), new()  # compile or load, and fill the tables once
        for r in range(args.reps):
            names = list(paths)[:: 1 if r % 2 == 0 else -1]
            for label in names:
                t0 = time.process_time()
                codes[label] = paths[label]()
                times[label].append(time.process_time() - t0)
        both = (codes["old"] != CODE_UNDECIDED) & (codes["new"] != CODE_UNDECIDED)
        if not (codes["old"][both] == codes["new"][both]).all():
            raise SystemExit(f"{name}: the two paths disagree on a decided deal")
        m = len(decks)
        t = {k: np.array(v) for k, v in times.items()}
        row = {"deals": m}
        for k in paths:
            row[f"{k}_deals_per_cpu_s"] = round(m / t[k].min(), 1)
        for k in [p for p in paths if p != "new"]:
            ratio = t[k] / t["new"]
            row[f"new_over_{k}_median"] = round(float(np.median(ratio)), 3)
            row[f"new_over_{k}_min_max"] = [
                round(float(ratio.min()), 3),
                round(float(ratio.max()), 3),
            ]
        row["undecided_old"] = int((codes["old"] == CODE_UNDECIDED).sum())
        row["undecided_new"] = int((codes["new"] == CODE_UNDECIDED).sum())
        row["us_per_deal"] = {k: round(1e6 * t[k].min() / m, 1) for k in paths}
        rows[name] = row
        print(
            f"  {name:>9}: {m:5} deals, deals/CPU-s: sweep {row['sweep_deals_per_cpu_s']:9.1f}  old "
            f"{row['old_deals_per_cpu_s']:9.1f}  new {row['new_deals_per_cpu_s']:9.1f}; new/sweep "
            f"x{row['new_over_sweep_median']}, new/old x{row['new_over_old_median']} (medians of "
            f"{args.reps}); undecided {row['undecided_old']} -> {row['undecided_new']}"
            + (
                f"; escalating from 200,000: {row['small_deals_per_cpu_s']:.1f} deals/CPU-s "
                f"(new/small x{row['new_over_small_median']})"
                if "small" in paths
                else ""
            ),
            flush=True,
        )
    summary["sweep"] = rows
    summary["blitz_exhaust"] = _blitz_exhaust(args.blitz_groups, args.reps, args.seed)
    if args.rev:
        summary["kernel_vs_rev"] = _kernel_vs_rev(args.rev, args.seed)
    summary["kernel_vs_reference"] = _kernel_vs_reference(args.reference_deals, args.seed)
    if args.out:
        from bombsolve.solvers.common.files import write_text_atomic

        write_text_atomic(args.out, json.dumps(summary, indent=1) + "\n")
    return 0


def _blitz_exhaust(groups: int, reps: int, seed: int) -> dict:
    """What `exhaust` spends per Blitz deal: the per-deal batch (`exhaust.decide`: one kernel
    call, portfolio search, a fresh table per deal) against the shared-table batch
    (`exhaust.decide_shared` with a fresh table per repetition, as a chunk makes one), on
    the deals of `groups` random groups (`blitz_ranks.group_decks`: the order the full
    exhaust runs them in), and on as many uniform random deals (where deals rarely meet).
    Same verdicts required; times alternate within each repetition."""
    import numpy as np

    from bombsolve.solvers.allisbomb import blitz_ranks as R
    from bombsolve.solvers.allisbomb import exhaust as E

    rng = np.random.default_rng(seed)
    g = np.sort(rng.choice(R.n_groups(), size=groups, replace=False))
    gdecks, granks = R.group_decks(g)
    udecks = E.decks_of_ranks(rng.integers(0, E.N_DEALS, len(granks)))
    E.decide(granks[:2]), E.decide_shared(gdecks[:2])  # compile or load
    out = {"groups": [int(x) for x in g], "deals": int(len(granks))}
    for name, decks in (("groups", gdecks), ("uniform", udecks)):
        paths = {
            "per_deal": lambda d=decks: E.solve_escalating(
                E.BLITZ, d, E.ESCALATION, E.FIRST_BUDGET
            ),
            "shared": lambda d=decks: E.decide_shared(d, E.SharedTable()),
        }
        times = {k: [] for k in paths}
        res = {}
        for r in range(reps):
            for k in list(paths)[:: 1 if r % 2 == 0 else -1]:
                t0 = time.process_time()
                res[k] = paths[k]()
                times[k].append(time.process_time() - t0)
        if not (res["per_deal"]["code"] == res["shared"]["code"]).all():
            raise SystemExit(f"blitz {name}: the shared table changed a verdict")
        t = {k: np.array(v) for k, v in times.items()}
        m = len(decks)
        row = {
            "us_per_deal": {k: round(1e6 * t[k].min() / m, 2) for k in paths},
            "positions_per_deal": {k: round(float(res[k]["nodes"].mean()), 1) for k in paths},
            "per_deal_over_shared_median": round(float(np.median(t["per_deal"] / t["shared"])), 3),
            "losses": int((res["shared"]["code"] == 0).sum()),
            "undecided": int((res["shared"]["code"] == 2).sum()),
        }
        out[name] = row
        print(
            f"  blitz exhaust, {name} ({m} deals): us/deal per-deal {row['us_per_deal']['per_deal']}"
            f"  shared {row['us_per_deal']['shared']}  (x{row['per_deal_over_shared_median']}, "
            f"median of {reps}); positions/deal {row['positions_per_deal']['per_deal']} -> "
            f"{row['positions_per_deal']['shared']}; same verdicts",
            flush=True,
        )
    return out


def _kernel_vs_rev(rev: str, seed: int) -> dict:
    """This tree's kernel against revision `rev`'s, plain search on the same deals.

    This tree's side runs with the copy-symmetric table keys off (`program.copy_keys`).
    Where `rev` has the same dead-position proofs, both count the same positions and what
    is timed is the rest of the kernel (the keys themselves are not timed here); where
    the proofs differ, the positions differ too, so each configuration reports the ratio
    of positions beside the ratio of time, and the verdicts must agree on every deal both
    decide."""
    import numpy as np

    sys.path.insert(0, str(ROOT / "scripts" / "bench"))
    from compare_allisbomb_kernels import load_revision, runner

    from bombsolve.solvers.allisbomb import (
        CODE_UNDECIDED,
        compiled,
        copy_keys,
        load_cards,
        win_info,
    )
    from bombsolve.solvers.allisbomb import deals as D
    from bombsolve.solvers.allisbomb import kernel_module as new_kernel

    out = {}
    mods = load_revision(rev)  # the revision's modules by name
    KR, PR = mods["kernel"], mods["prune"]
    for name, cfg in _configs().items():
        cs = load_cards(cfg)
        decks = D.shuffles(cs.n, 100, np.random.default_rng(seed))
        old = runner(KR, PR.extend_info(cs, win_info(cs)), cfg, decks, 20_000)
        new = runner(new_kernel, compiled(cfg).prog.info, cfg, decks, 20_000)
        with copy_keys(cfg, False):
            old(decks[:2]), new(decks[:2])
        t_old, t_new = [], []
        for _ in range(3):
            a, oa = old(decks)
            with copy_keys(cfg, False):
                b, ob = new(decks)
            both = (oa[0] != CODE_UNDECIDED) & (ob[0] != CODE_UNDECIDED)
            if not (oa[0][both] == ob[0][both]).all():
                raise SystemExit(f"{name}: kernel {rev} and this tree disagree on a verdict")
            t_old.append(a)
            t_new.append(b)
        ratio = float(np.median(np.array(t_old) / np.array(t_new)))
        nodes = float(oa[1].sum() / max(1, ob[1].sum()))
        same = all(np.array_equal(x, y) for x, y in zip(oa, ob, strict=True))
        out[name] = {
            "deals": 100,
            "node_limit": 20_000,
            "old_over_new": round(ratio, 3),
            "positions_old_over_new": round(nodes, 3),
            "undecided": [
                int((oa[0] == CODE_UNDECIDED).sum()),
                int((ob[0] == CODE_UNDECIDED).sum()),
            ],
            "same_outputs": same,
        }
        print(
            f"  kernel {rev} / this tree, {name}: time x{ratio:.3f} (median of 3), positions "
            f"x{nodes:.3f}, undecided {out[name]['undecided'][0]} -> {out[name]['undecided'][1]}"
            + (", same outputs" if same else ", same verdicts where both decide")
        )
    return out


def _kernel_vs_reference(deals: int, seed: int) -> dict:
    """CPU time per base deal, the reference search against the kernel's plain search."""
    import numpy as np

    from bombsolve.solvers.allisbomb import Options, compiled, prepare, reference_search, solve
    from bombsolve.solvers.allisbomb import deals as D

    cfg = Options()
    cs = compiled(cfg).cards
    decks = D.shuffles(cs.n, deals, np.random.default_rng(seed + 1))
    solve(cfg, decks[0].tolist(), portfolio=False, check=False)
    t_ref = t_ker = 0.0
    nodes = 0
    for d in decks:
        t0 = time.process_time()
        ref = reference_search(prepare(cs, d.tolist()), node_limit=200_000)
        t1 = time.process_time()
        ker = solve(cfg, d.tolist(), node_limit=200_000, portfolio=False, check=False)
        t2 = time.process_time()
        if (ref.outcome, ref.nodes) != (ker.outcome, ker.nodes):
            raise SystemExit("kernel and reference disagree")
        t_ref += t1 - t0
        t_ker += t2 - t1
        nodes += ker.nodes
    ratio = t_ref / t_ker
    print(
        f"  kernel vs reference, base, {deals} deals, {nodes:,} positions (same counts): "
        f"x{ratio:.1f} ({nodes / t_ker / 1e6:.2f} M positions/CPU-s against "
        f"{nodes / t_ref / 1e3:.1f} k)"
    )
    return {"deals": deals, "positions": nodes, "ratio": round(ratio, 1)}


def dask_overhead(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--deals", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chunk-size", type=int, default=250)
    ap.add_argument(
        "--out",
        default=str(ROOT / "results" / "allisbomb" / "benchmarks" / "sweep_bench.json"),
        help="JSON",
    )
    args = ap.parse_args(argv)

    from bombsolve.solvers.allisbomb import Options, solve_batch, sweep_study
    from bombsolve.solvers.common.cluster import LocalDaskCluster
    from bombsolve.solvers.common.files import write_text_atomic
    from bombsolve.solvers.common.runner import run_study

    cores = len(os.sched_getaffinity(0))
    load = round(os.getloadavg()[0], 2)
    study = sweep_study(
        [Options()], args.deals, args.seed, heuristic_deals=0, chunk_size=args.chunk_size
    )
    t0 = time.perf_counter()
    solve_batch(Options(), [list(range(18))], node_limit=10)
    print(f"first-run compile/load: {time.perf_counter() - t0:.2f} s")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, kwargs in (("1 process", {"workers": 1}), (f"pool x{cores}", {"workers": cores})):
            t0 = time.perf_counter()
            results[name] = run_study(study, Path(tmp) / name, progress=False, **kwargs)
            results[name + " s"] = time.perf_counter() - t0
        with LocalDaskCluster(Path(tmp), n_workers=cores) as cluster:
            t0 = time.perf_counter()
            results["dask"] = run_study(
                study, Path(tmp) / "dask", scheduler=cluster.address, progress=False
            )
            results["dask s"] = time.perf_counter() - t0

    base = results["1 process"].drop(columns=["seconds"])
    for name in (f"pool x{cores}", "dask"):
        assert base.equals(results[name].drop(columns=["seconds"])), f"{name} table differs"
    undecided = int((results["1 process"]["outcome"] == "undecided").sum())
    print(
        f"base set, {args.deals} deals, seed {args.seed}, chunks of {args.chunk_size}, "
        f"{undecided} undecided; tables identical across the three runs"
    )
    for name in ("1 process", f"pool x{cores}", "dask"):
        s = results[name + " s"]
        print(
            f"  {name:>10}: {s:8.2f} s  {args.deals / s:9.1f} deals/s  ({args.deals / s / (1 if name == '1 process' else cores):.1f} per core)"
        )
    pool_s, dask_s = results[f"pool x{cores} s"], results["dask s"]
    print(f"Dask overhead against the process pool: {100 * (dask_s / pool_s - 1):+.1f}%")
    print(
        f"1,000,000 base deals at the pool's rate: {1e6 / (args.deals / pool_s) / 60:.1f} minutes "
        "(goal: 15)"
    )
    summary = {
        "config": "base (stand-in cards)",
        "deals": args.deals,
        "seed": args.seed,
        "chunk_size": args.chunk_size,
        "cores": cores,
        "load_average_at_start": load,
        "undecided": undecided,
        "tables_identical": True,
        "seconds": {
            k: round(results[k + " s"], 2) for k in ("1 process", f"pool x{cores}", "dask")
        },
        "dask_overhead_vs_pool_percent": round(100 * (dask_s / pool_s - 1), 1),
    }
    write_text_atomic(args.out, json.dumps(summary, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
