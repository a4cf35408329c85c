"""Time the All Is Bomb kernel of this tree against the kernel of a git revision, interleaved.

Benchmarks on a shared machine drift by 2x from minute to minute, so comparing two runs made
at different times says little. This script loads both kernels into one process (the
revision's `kernel.py` and `prune.py` are written to a temporary directory under other
module names, with their own Numba cache) and times them alternately on the same deals
(`solve_many`, plain search, one Numba call per chunk of deals, process CPU time), checking
that both count the same positions and reach the same verdicts. It prints each side's
total of the fastest call per chunk (the least disturbed by other processes) and the
median and spread of the per-repetition ratio.

Two identical kernels timed this way in one process differed by up to 15% (A/A ratios
0.86-0.98 on an idle machine, each process tight within itself): a placement effect
fixed for the life of a process, not preemption. So, by default:
- both sides use one set of tables and search stacks (`--own-tables` gives each its own),
  and one generation counter, so memory placement cannot favour a side; the huge pages
  (AnonHugePages) backing them are printed;
- `--aa REV2` (e.g. HEAD, with a clean tree) adds a third side, REV2's kernel loaded like
  REV's: the A/A calibration `aa/new`, measured beside `old/new` under the same load;
- `--first old|new` chooses which side is loaded (compiled or read from the cache) and
  allocated first;
- `--processes N` runs N fresh processes of this script, `--first` alternating, and prints
  the median of the per-process ratios with their range; `--json FILE` writes them.
Instruction counts, which do not depend on placement or load at all, are in
scripts/bench/count_allisbomb_instructions.py.

    python scripts/bench/compare_allisbomb_kernels.py [--rev e37f41d] [--aa HEAD] [--deals 300]
        [--reps 9] [--chunk 20] [--node-limit 20000] [--config base|all|juice|six]
        [--processes 6] [--json FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import inspect
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bombsolve.solvers.common.numba_target import configure  # noqa: E402

configure()  # the command line's target (numba_target), before any kernel is defined

from bombsolve.solvers.allisbomb import (  # noqa: E402
    EXPANSIONS,
    MAX_DEPTH,
    Options,
    compiled,
    load_cards,
    table_bits_for,
    uses_extended,
    win_info,
    zeros_aligned,
)
from bombsolve.solvers.allisbomb import deals as D  # noqa: E402
from bombsolve.solvers.allisbomb import kernel_module as new_kernel  # noqa: E402

CONFIGS = {
    "base": Options(),
    "all": Options(expansions=("all",)),
    "juice": Options(expansions=("the_juice",), hands=True),
    "six": Options(expansions=EXPANSIONS),
}
#: The revision's modules loaded side by side with this tree's, in import order (a revision
#: without one of them, e.g. before copy keys, simply lacks it). Each one's imports of the
#: others are rewritten to the renamed copies, so the revision's kernel runs with its own
#: state layout, pruning and copy-key code.
REV_MODULES = ("layout", "copies", "prune", "kernel")
#: Where each module of this tree lives now ("cards" -> "cards.cards"), for a revision from
#: before the rooms, whose modules import one another as bombsolve.solvers.allisbomb.NAME.
ROOM_OF = {
    p.stem: f"{p.parent.name}.{p.stem}"
    for p in (ROOT / "solvers" / "allisbomb").glob("*/*.py")
    if p.stem != "__init__"
}
FLAT_IMPORT = re.compile(rf"from solvers\.allisbomb\.({'|'.join(ROOM_OF)}) import ")


def resolve(rev: str) -> str:
    """The commit a revision name stands for."""
    got = subprocess.run(
        ["git", "rev-parse", "--verify", f"{rev}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if got.returncode != 0:
        raise SystemExit(f"--rev {rev!r}: not a commit of this repository")
    return got.stdout.strip()


def load_revision(rev: str, suffix: str = "rev") -> dict:
    """The revision's modules (`REV_MODULES`, those it has) by name, imported from a
    directory of the temporary area named after it (rewritten only when changed,
    so Numba's cache there stays valid) as `<name>_<suffix>`, plus its step-row width
    under "step_width". Two revisions loaded with different suffixes live side by side."""
    sha = resolve(rev)

    flat: set[str] = set()

    def show(name: str) -> str | None:
        # a revision before the rooms has its modules flat in solvers/allisbomb/
        for folder in ("solvers/allisbomb/kernel", "solvers/allisbomb"):
            got = subprocess.run(
                ["git", "show", f"{sha}:{folder}/{name}.py"],
                cwd=ROOT,
                capture_output=True,
                text=True,
            )
            if got.returncode == 0:
                if folder == "solvers/allisbomb":
                    flat.add(name)
                return got.stdout
        return None

    sources = {name: show(name) for name in (*REV_MODULES, "program")}
    if sources["kernel"] is None:
        raise SystemExit(f"revision {rev} has no All Is Bomb kernel module")
    have = [m for m in REV_MODULES if sources[m] is not None]
    # a commit's own name, or for a name like HEAD that moves, one of the sources' digest
    # (so a cache stays valid while the kernel's sources do not change)
    digest = hashlib.sha1("".join(sources[m] for m in have).encode()).hexdigest()[:12]
    tag = rev if sha.startswith(rev.lower()) else f"src{digest}"
    tmp = Path(tempfile.gettempdir()) / f"abrev_{tag}"
    tmp.mkdir(exist_ok=True)
    for name in have:
        src = sources[name]
        for other in have:
            for home in ("bombsolve.solvers.allisbomb.kernel", "bombsolve.solvers.allisbomb"):
                src = src.replace(f"from {home}.{other} import ", f"from {other}_{suffix} import ")
        if name in flat:
            # what a flat revision takes from this tree (the card model, the move order)
            # is now in a room
            src = FLAT_IMPORT.sub(
                lambda m: f"from bombsolve.solvers.allisbomb.{ROOM_OF[m[1]]} import ", src
            )
        path = tmp / f"{name}_{suffix}.py"
        if not path.exists() or path.read_text() != src:
            path.write_text(src)
    # another revision's modules of the same names, loaded before, are left to their holders
    for name in REV_MODULES:
        sys.modules.pop(f"{name}_{suffix}", None)
    sys.path.insert(0, str(tmp))
    try:
        mods = {name: importlib.import_module(f"{name}_{suffix}") for name in have}
    finally:
        sys.path.remove(str(tmp))
    width = re.search(r"^STEP_WIDTH = (\d+)", sources["program"] or "", re.M)
    mods["step_width"] = int(width.group(1)) if width else None
    mods["sha"] = sha
    return mods


def revision_info(mods: dict, cs, steps: np.ndarray) -> np.ndarray:
    """The `info` array the revision's kernel reads: the win conditions, then the tables of
    the revision's own `prune.extend_info`, then (a revision with copy keys) the copy-group
    table of its own `copies.extend_copies`, as its `program.compile_program` built them."""
    info = mods["prune"].extend_info(cs, win_info(cs))
    if "copies" in mods:
        info = mods["copies"].extend_copies(cs, info, steps)
    return info


def huge_kb(arr: np.ndarray) -> int | None:
    """kB of transparent huge pages (AnonHugePages in /proc/self/smaps) in the mapping
    that holds the start of arr's memory; None where smaps cannot be read."""
    addr = arr.ctypes.data
    try:
        text = Path("/proc/self/smaps").read_text()
    except OSError:
        return None
    inside = False
    for line in text.splitlines():
        head = re.match(r"^([0-9a-f]+)-([0-9a-f]+) ", line)
        if head:
            inside = int(head.group(1), 16) <= addr < int(head.group(2), 16)
        elif inside and line.startswith("AnonHugePages:"):
            return int(line.split()[1])
    return None


class Memory:
    """The tables and search stacks of the runners, shared by every runner whose kernel
    has the same layout (shapes and dtypes), and one generation counter for all: an entry
    another kernel stored has an older generation, so it reads as empty (kernel._tt_find)."""

    def __init__(self, share: bool = True):
        self.share = share
        self.sets: dict = {}
        self.gen = [1]

    def get(self, key, make):
        if not self.share:
            return make()
        if key not in self.sets:
            self.sets[key] = make()
        return self.sets[key]

    def placement(self) -> list[dict]:
        """Per set of tables: each table's size (MB) and its mapping's AnonHugePages."""
        return [
            {
                "tables_MB": [round(t.nbytes / 2**20, 2) for t in tables],
                "AnonHugePages_kB": [huge_kb(t) for t in tables],
            }
            for tables, _fa, _fb in self.sets.values()
        ]


def runner(K, info, cfg, decks, node_limit, steps=None, memory: Memory | None = None):
    """A function that solves `decks` with kernel module K and returns (cpu s, out arrays).
    Its tables and stacks come from `memory` (shared with the other runners of the same
    layout) or, without one, are its own."""
    c = compiled(cfg)
    p = c.prog
    cap = 1 << table_bits_for(node_limit)
    memory = memory or Memory(share=False)
    # the key's length: the row's key words (layout.py) or, before it, the packed words
    words = K.key_words(p.n, c.n_tracked) if hasattr(K, "pack_state") else K.key_words(p.n)
    params = inspect.signature(K.solve_many.py_func).parameters

    # Tables start on a 2 MB boundary (numpy asks for transparent huge pages for arrays of
    # 4 MB and more, which the operating system grants only for their 2 MB-aligned parts).
    def zeros(shape):
        return zeros_aligned(shape, np.uint64, align=1 << 21)

    if "entries" in params:  # an index of slots over the entries (kernel._tt_find)
        shapes = ((cap,), (cap, K.tt_entry_words(p.n)))
    else:  # kernels before: a tag array and a key-word array
        shapes = ((cap,), (cap, words))
    L = K.state_len(p.n)
    probe = K._frames(1, L)  # the stacks' layout, to tell which kernels can share them
    key = ("entries" in params, shapes, tuple((a.shape[1:], a.dtype.str) for a in probe))

    def make():
        return (
            tuple(zeros(s) for s in shapes),
            K._frames(MAX_DEPTH, L),
            K._frames(MAX_DEPTH, L),
        )

    tables, fa, fb = memory.get(key, make)
    steps = p.steps if steps is None else steps
    prog = (p.number, p.keyword, p.step_start, p.step_count, steps, info)
    common = (p.n, cfg.players, *prog, c.gift_ids, c.n_gifts)
    if "ext" in params:  # kernels since the extended steps are called through addresses
        # (their `extended_entries` took the steps array at first, then the program's flag)
        takes = next(iter(inspect.signature(K.extended_entries).parameters))
        common += (K.extended_entries(steps if takes == "steps" else uses_extended(steps)),)
    if "tracked" in params:
        common += (c.tracked, c.n_tracked)  # kernels before the play marks moved into the row
    gen = memory.gen

    def run(rows):
        out = [np.zeros(len(rows), np.int64) for _ in range(4)]
        t = time.process_time()
        gen[0] = K.solve_many(
            rows, *common, *tables, gen[0], node_limit, MAX_DEPTH, *out, *tables, 0, 1000,
            fa, fb,
        )  # fmt: skip
        return time.process_time() - t, out

    return run


def same_or(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """b where a equals it (shape, dtype, values), so equal inputs are one array; else a."""
    return b if a.dtype == b.dtype and np.array_equal(a, b) else a


def build(args, cfg) -> tuple[np.ndarray, dict, Memory]:
    """The deals and the runners by side ("old", "new", and "aa" with --aa), loaded and
    allocated in the order --first gives, each called once (compile or cache load)."""
    cs = load_cards(cfg)
    prog = compiled(cfg).prog
    memory = Memory(share=not args.own_tables)
    revs = {"old": args.rev, **({"aa": args.aa} if args.aa else {})}
    inputs = {}
    new_info = prog.info.copy()
    for side, rev in revs.items():
        mods = load_revision(rev, suffix="rev" if side == "old" else "aa")
        # the revision's kernel reads the first columns of this tree's step rows (the
        # stand-in cards use no op of a later vocabulary; the outputs are compared anyway)
        width = mods["step_width"] or prog.steps.shape[1]
        steps = same_or(np.ascontiguousarray(prog.steps[:, :width]), prog.steps)
        info = revision_info(mods, cs, steps)
        if side == "old" and "copies" not in mods:
            # a revision before copy keys counts positions without them: so does this tree
            new_info[-1] = 0
        inputs[side] = (mods["kernel"], info, steps)
    for side, (K, info, steps) in inputs.items():
        inputs[side] = (K, same_or(info, new_info), steps)
    inputs["new"] = (new_kernel, new_info, prog.steps)
    rng = np.random.default_rng(args.seed)
    if args.min_nodes:
        pool = D.shuffles(cs.n, 50 * args.deals, rng)
        probe = runner(new_kernel, new_info, cfg, pool, args.node_limit)
        decks = pool[probe(pool)[1][1] >= args.min_nodes][: args.deals]
        if not len(decks):
            raise SystemExit(f"no deal of >= {args.min_nodes:,} positions in {len(pool):,}")
    else:
        decks = D.shuffles(cs.n, args.deals, rng)
    order = ["new", *revs] if args.first == "new" else [*revs, "new"]
    runs = {}
    for side in order:
        K, info, steps = inputs[side]
        runs[side] = runner(K, info, cfg, decks, args.node_limit, steps, memory)
        runs[side](decks[:2])  # compile or load before timing (and before the next side)
    return decks, {s: runs[s] for s in ["old", *(["aa"] if args.aa else []), "new"]}, memory


def time_sides(args, decks, runs: dict) -> dict:
    """Each side's call per chunk per repetition (CPU s), the sides in rotating order,
    outputs checked equal; plus the positions counted."""
    chunks = [decks[i : i + args.chunk] for i in range(0, len(decks), args.chunk)]
    names = list(runs)
    times = {k: np.zeros((args.reps, len(chunks))) for k in names}
    nodes = 0
    for r in range(args.reps):
        for j, rows in enumerate(chunks):
            # Short timed calls, the sides back to back in rotating order: a call that
            # another process preempted is slow, so each chunk's fastest call over the
            # repetitions is the estimate, and the sum over chunks is the total.
            shift = (r + j) % len(names)
            outs = {}
            for name in names[shift:] + names[:shift]:
                times[name][r, j], outs[name] = runs[name](rows)
            for name in names:
                for k in range(4):
                    if not np.array_equal(outs[name][k], outs["new"][k]):
                        raise SystemExit(f"the kernels disagree ({name}: output {k}, chunk {j})")
            if r == 0:
                nodes += int(outs["new"][1].sum())
    return {"times": times, "nodes": nodes, "chunks": len(chunks)}


def one_process(args) -> dict:
    cfg = CONFIGS[args.config]
    decks, runs, memory = build(args, cfg)
    got = time_sides(args, decks, runs)
    times, nodes = got["times"], got["nodes"]
    best = {k: float(v.min(axis=0).sum()) for k, v in times.items()}
    res = {
        "config": args.config,
        "deals": len(decks),
        "seed": args.seed,
        "min_nodes": args.min_nodes,
        "node_limit": args.node_limit,
        "positions": nodes,
        "reps": args.reps,
        "chunks": got["chunks"],
        "first": args.first,
        "shared_tables": memory.share and len(memory.sets) == 1,
        "table_sets": len(memory.sets),
        "placement": memory.placement(),
        "cpu_best_s": best,
        "ratio_old_new": best["old"] / best["new"],
    }
    per_rep = times["old"].sum(axis=1) / times["new"].sum(axis=1)
    res["ratio_old_new_per_rep"] = [float(x) for x in per_rep]
    if "aa" in times:
        res["ratio_aa_new"] = best["aa"] / best["new"]
        res["ratio_aa_new_per_rep"] = [
            float(x) for x in times["aa"].sum(axis=1) / times["new"].sum(axis=1)
        ]
    print(
        f"{args.config}, {len(decks)} deals (seed {args.seed}"
        + (f", those of >= {args.min_nodes:,} positions" if args.min_nodes else "")
        + f"), node limit {args.node_limit:,}, {nodes:,} positions, same outputs; "
        f"{args.reps} repetitions of {got['chunks']} chunks; loaded first: {args.first}; "
        + ("one set of tables and stacks for all sides" if res["shared_tables"] else "")
        + (f"{len(memory.sets)} sets of tables" if not res["shared_tables"] else "")
    )
    for p in res["placement"]:
        print(f"  tables {p['tables_MB']} MB, AnonHugePages {p['AnonHugePages_kB']} kB")
    labels = {"old": f"old {args.rev}", "aa": f"A/A {args.aa}", "new": "new (this tree)"}
    for name in times:
        print(
            f"  {labels[name]:>16}: {1e3 * best[name]:7.1f} ms CPU (sum of each chunk's fastest "
            f"call), {nodes / best[name] / 1e6:.2f} M positions/s"
        )
    pr = np.array(res["ratio_old_new_per_rep"])
    print(
        f"  speed-up old/new: {res['ratio_old_new']:.3f} on the fastest calls; per repetition "
        f"median {np.median(pr):.3f} (min {pr.min():.3f}, max {pr.max():.3f})"
    )
    if "aa" in times:
        pa = np.array(res["ratio_aa_new_per_rep"])
        print(
            f"  A/A aa/new:       {res['ratio_aa_new']:.3f} on the fastest calls; per "
            f"repetition median {np.median(pa):.3f} (min {pa.min():.3f}, max {pa.max():.3f})"
        )
    return res


def summarize(per: list[dict], key: str) -> dict:
    vals = np.array([p[key] for p in per if key in p])
    return {
        "median": float(np.median(vals)),
        "min": float(vals.min()),
        "max": float(vals.max()),
        "values": [round(float(v), 4) for v in vals],
    }


def many_processes(args) -> dict:
    """--processes N: N fresh processes, --first alternating; the median of their ratios."""
    per = []
    for i in range(args.processes):
        with tempfile.NamedTemporaryFile(suffix=".json") as f:
            cmd = [sys.executable, __file__, *_child_args(args), "--first"]
            cmd += ["old" if i % 2 == 0 else "new", "--json", f.name]
            got = subprocess.run(cmd, capture_output=True, text=True)
            if got.returncode != 0:
                raise SystemExit(f"process {i + 1} failed:\n{got.stdout}{got.stderr}")
            per.append(json.loads(Path(f.name).read_text()))
        line = (
            f"  process {i + 1} (first {per[-1]['first']}): old/new {per[-1]['ratio_old_new']:.3f}"
        )
        if "ratio_aa_new" in per[-1]:
            line += f", A/A {per[-1]['ratio_aa_new']:.3f}"
        print(line, flush=True)
    out = {k: per[0][k] for k in ("config", "deals", "seed", "node_limit", "positions", "reps")}
    out.update(rev=args.rev, rev_sha=resolve(args.rev), processes=args.processes)
    out["old_new"] = summarize(per, "ratio_old_new")
    s = out["old_new"]
    print(
        f"{args.config}: old {args.rev}/new over {len(per)} processes: median {s['median']:.3f} "
        f"(min {s['min']:.3f}, max {s['max']:.3f})"
    )
    if args.aa:
        out.update(aa=args.aa, aa_sha=resolve(args.aa))
        out["aa_new"] = summarize(per, "ratio_aa_new")
        s = out["aa_new"]
        print(
            f"{args.config}: A/A {args.aa}/new over {len(per)} processes: median "
            f"{s['median']:.3f} (min {s['min']:.3f}, max {s['max']:.3f})"
        )
    out["per_process"] = per
    return out


def _child_args(args) -> list[str]:
    got = ["--rev", args.rev, "--deals", str(args.deals), "--reps", str(args.reps)]
    got += ["--chunk", str(args.chunk), "--node-limit", str(args.node_limit)]
    got += ["--seed", str(args.seed), "--config", args.config, "--min-nodes", str(args.min_nodes)]
    if args.aa:
        got += ["--aa", args.aa]
    if args.own_tables:
        got += ["--own-tables"]
    return got


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", default="e37f41d")
    ap.add_argument("--aa", default=None, metavar="REV2", help="A/A calibration side")
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
    ap.add_argument("--first", choices=("old", "new"), default="old")
    ap.add_argument("--own-tables", action="store_true", help="each side its own tables")
    ap.add_argument("--processes", type=int, default=1)
    ap.add_argument("--json", type=Path, default=None)
    return ap


def main() -> None:
    args = parser().parse_args()
    if args.processes < 1:
        raise SystemExit(f"--processes {args.processes}: expected 1 or more")
    res = many_processes(args) if args.processes > 1 else one_process(args)
    if args.json:
        args.json.write_text(json.dumps(res, indent=1) + "\n")


if __name__ == "__main__":
    main()
