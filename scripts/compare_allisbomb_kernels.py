"""Time the All Is Bomb kernel of this tree against the kernel of a git revision, interleaved.

Benchmarks on a shared machine drift by 2x from minute to minute, so comparing two runs made
at different times says little. This script loads both kernels into one process (the
revision's `kernel.py` and `prune.py` are written to a temporary directory under other
module names, with their own Numba cache) and times them alternately on the same deals
(`solve_many`, plain search, one Numba call per chunk of deals, process CPU time), checking
that both count the same positions and reach the same verdicts. It prints each side's
total of the fastest call per chunk (the least disturbed by other processes) and the
median and spread of the per-repetition ratio.

    nice -n 5 python scripts/compare_allisbomb_kernels.py [--rev e37f41d] [--deals 300]
        [--reps 9] [--chunk 20] [--node-limit 20000] [--config base|all|juice|six]
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.allisbomb import kernel as new_kernel  # noqa: E402
from solvers.allisbomb.cards import load_cards  # noqa: E402
from solvers.allisbomb.config import EXPANSIONS, GameConfig  # noqa: E402
from solvers.allisbomb.deals import shuffles  # noqa: E402
from solvers.allisbomb.program import win_info  # noqa: E402
from solvers.allisbomb.search import MAX_DEPTH  # noqa: E402
from solvers.allisbomb.solver import compiled, table_bits_for, zeros_aligned  # noqa: E402

CONFIGS = {
    "base": GameConfig(),
    "all": GameConfig(expansions=("all",)),
    "juice": GameConfig(expansions=("the_juice",), hands=True),
    "six": GameConfig(expansions=EXPANSIONS),
}
#: The revision's modules loaded side by side with this tree's, in import order (a revision
#: without one of them, e.g. before copy keys, simply lacks it). Each one's imports of the
#: others are rewritten to the renamed copies, so the revision's kernel runs with its own
#: state layout, pruning and copy-key code.
REV_MODULES = ("layout", "copies", "prune", "kernel")


def load_revision(rev: str) -> dict:
    """The revision's modules (`REV_MODULES`, those it has) by name, imported from a
    directory of the temporary area named after it (rewritten only when changed, so Numba's
    cache there stays valid), plus its step-row width under "step_width"."""
    tmp = Path(tempfile.gettempdir()) / f"abrev_{rev}"
    tmp.mkdir(exist_ok=True)

    def show(name: str) -> str | None:
        got = subprocess.run(
            ["git", "show", f"{rev}:solvers/allisbomb/{name}.py"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        return got.stdout if got.returncode == 0 else None

    sources = {name: show(name) for name in (*REV_MODULES, "program")}
    if sources["kernel"] is None:
        raise SystemExit(f"revision {rev} has no solvers/allisbomb/kernel.py")
    have = [m for m in REV_MODULES if sources[m] is not None]
    for name in have:
        src = sources[name]
        for other in have:
            src = src.replace(
                f"from solvers.allisbomb.{other} import ", f"from {other}_rev import "
            )
        path = tmp / f"{name}_rev.py"
        if not path.exists() or path.read_text() != src:
            path.write_text(src)
    # another revision's modules of the same names, loaded before, are left to their holders
    for name in REV_MODULES:
        sys.modules.pop(f"{name}_rev", None)
    sys.path.insert(0, str(tmp))
    try:
        mods = {name: importlib.import_module(f"{name}_rev") for name in have}
    finally:
        sys.path.remove(str(tmp))
    width = re.search(r"^STEP_WIDTH = (\d+)", sources["program"] or "", re.M)
    mods["step_width"] = int(width.group(1)) if width else None
    return mods


def revision_info(mods: dict, cs, steps: np.ndarray) -> np.ndarray:
    """The `info` array the revision's kernel reads: the win conditions, then the tables of
    the revision's own `prune.extend_info`, then (a revision with copy keys) the copy-group
    table of its own `copies.extend_copies`, as its `program.compile_program` built them."""
    info = mods["prune"].extend_info(cs, win_info(cs))
    if "copies" in mods:
        info = mods["copies"].extend_copies(cs, info, steps)
    return info


def runner(K, info, cfg, decks, node_limit, steps=None):
    """A function that solves `decks` with kernel module K and returns (cpu s, out arrays)."""
    c = compiled(cfg)
    p = c.prog
    cap = 1 << table_bits_for(node_limit)
    # the key's length: the row's key words (layout.py) or, before it, the packed words
    words = K.key_words(p.n, c.n_tracked) if hasattr(K, "pack_state") else K.key_words(p.n)
    params = inspect.signature(K.solve_many.py_func).parameters

    # Both kernels' tables start on a 2 MB boundary, so that they are placed alike (numpy
    # asks for transparent huge pages for arrays of 4 MB and more, which the operating
    # system grants only for their 2 MB-aligned parts). Even so, two identical kernels can
    # differ by up to ~15% on `--config all` in one run and not in the next (seen: 1.16
    # then 1.00 with `--rev HEAD`); placement of the compiled code is the likely cause.
    # Compare there over several runs.
    def zeros(shape):
        return zeros_aligned(shape, np.uint64, align=1 << 21)

    if "entries" in params:  # an index of slots over the entries (kernel._tt_find)
        tables = (zeros((cap,)), zeros((cap, K.tt_entry_words(p.n))))
    else:  # kernels before: a tag array and a key-word array
        tables = (zeros((cap,)), zeros((cap, words)))
    fa = K._frames(MAX_DEPTH, K.state_len(p.n))
    fb = K._frames(MAX_DEPTH, K.state_len(p.n))
    steps = p.steps if steps is None else steps
    prog = (p.number, p.keyword, p.step_start, p.step_count, steps, info)
    common = (p.n, cfg.players, *prog, c.gift_ids, c.n_gifts)
    if "tracked" in params:
        common += (c.tracked, c.n_tracked)  # kernels before the play marks moved into the row
    gen = [1]

    def run(rows):
        out = [np.zeros(len(rows), np.int64) for _ in range(4)]
        t = time.process_time()
        gen[0] = K.solve_many(
            rows, *common, *tables, gen[0], node_limit, MAX_DEPTH, *out, *tables, 0, 1000,
            fa, fb,
        )  # fmt: skip
        return time.process_time() - t, out

    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", default="e37f41d")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--chunk", type=int, default=20, help="deals per timed call")
    ap.add_argument("--node-limit", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--config", choices=sorted(CONFIGS), default="base")
    ap.add_argument(
        "--min-nodes",
        type=int,
        default=0,
        help="keep only the deals whose search enters at least this many positions (drawn "
        "from up to 50x --deals shuffles): the larger searches, whose table leaves the cache",
    )
    args = ap.parse_args()
    cfg = CONFIGS[args.config]
    mods = load_revision(args.rev)
    KR = mods["kernel"]
    cs = load_cards(cfg)
    prog = compiled(cfg).prog
    # the revision's kernel reads the first columns of this tree's step rows (the stand-in
    # cards use no op of a later vocabulary; the outputs are compared below anyway)
    width = mods["step_width"] or prog.steps.shape[1]
    old_steps = np.ascontiguousarray(prog.steps[:, :width])
    old_info = revision_info(mods, cs, old_steps)
    new_info = prog.info.copy()
    if "copies" not in mods:
        # a revision before copy keys counts positions without them: so does this tree here
        new_info[-1] = 0
    rng = np.random.default_rng(args.seed)
    if args.min_nodes:
        pool = shuffles(cs.n, 50 * args.deals, rng)
        new = runner(new_kernel, new_info, cfg, pool, args.node_limit)
        decks = pool[new(pool)[1][1] >= args.min_nodes][: args.deals]
        if not len(decks):
            raise SystemExit(f"no deal of >= {args.min_nodes:,} positions in {len(pool):,}")
    else:
        decks = shuffles(cs.n, args.deals, rng)
    old = runner(KR, old_info, cfg, decks, args.node_limit, old_steps)
    new = runner(new_kernel, new_info, cfg, decks, args.node_limit)
    old(decks[:2])  # compile or load both before timing
    new(decks[:2])
    # Short timed calls (a chunk of deals each), old and new back to back in alternating
    # order: a call that another process preempted is slow, so each chunk's fastest call
    # over the repetitions is the estimate, and the sum over chunks is the total.
    chunks = [decks[i : i + args.chunk] for i in range(0, len(decks), args.chunk)]
    times = {"old": np.zeros((args.reps, len(chunks))), "new": np.zeros((args.reps, len(chunks)))}
    nodes = 0
    for r in range(args.reps):
        for j, rows in enumerate(chunks):
            pair = (
                (("old", old), ("new", new)) if (r + j) % 2 == 0 else (("new", new), ("old", old))
            )
            outs = {}
            for name, fn in pair:
                times[name][r, j], outs[name] = fn(rows)
            for k in range(4):
                if not np.array_equal(outs["old"][k], outs["new"][k]):
                    raise SystemExit(f"the kernels disagree (output {k}, chunk {j})")
            if r == 0:
                nodes += int(outs["new"][1].sum())
    print(
        f"{args.config}, {len(decks)} deals (seed {args.seed}"
        + (f", those of >= {args.min_nodes:,} positions" if args.min_nodes else "")
        + f"), node limit {args.node_limit:,}, "
        f"{nodes:,} positions, same outputs; {args.reps} repetitions of {len(chunks)} chunks"
    )
    best = {k: v.min(axis=0).sum() for k, v in times.items()}
    med = {k: np.median(v.sum(axis=1)) for k, v in times.items()}
    for name, label in (("old", "old " + args.rev), ("new", "new (this tree)")):
        print(
            f"  {label:>16}: {1e3 * best[name]:7.1f} ms CPU (sum of each chunk's fastest call; "
            f"median repetition {1e3 * med[name]:.1f}), {nodes / best[name] / 1e6:.2f} M positions/s"
        )
    ratio = times["old"].sum(axis=1) / times["new"].sum(axis=1)
    print(
        f"  speed-up old/new: {best['old'] / best['new']:.3f} on the fastest calls; per "
        f"repetition median {np.median(ratio):.3f} (min {ratio.min():.3f}, max {ratio.max():.3f})"
    )


if __name__ == "__main__":
    main()
