"""Count the instructions the All Is Bomb kernel of this tree and of a git revision execute
on the same deals (valgrind's callgrind), a measure no other process can disturb.

Timing two kernels in one process on this shared machine moves by 2x with the load, and
even on an idle machine two identical kernels differed by up to 15% from one process to
the next (placement of code and tables). An instruction count is the same on every run:
the two kernels' counts of identical code (the A/A check, `--aa HEAD` on a clean tree) agree
to within a few instructions in millions. It does not see what costs time without
instructions (cache misses, mispredicted branches): `--cache-sim` adds callgrind's simulated
cache and branch misses, and an estimate of cycles from them (Ir + 10 x L1 misses + 100 x
last-level misses + 10 x mispredicted branches, the weights kcachegrind uses), at about
twice the run time. Report it beside a timing (scripts/bench/compare_allisbomb_kernels.py).

The deals, tables, loading and calls are those of compare_allisbomb_kernels.py (plain search,
`solve_many`, one call per chunk); only the calls are counted (callgrind starts with
instrumentation off and the script switches it on around each side's calls with client
requests from a small C helper it compiles with the system's cc). Each side is counted
`--reps` times in rotating order; the counts of a side must agree within 0.1%.

    python scripts/bench/count_allisbomb_instructions.py [--rev b0f6bf9] [--aa HEAD] [--deals 100]
        [--config base|all|juice|six] [--cache-sim] [--json FILE]

Needs valgrind (3.19 works) and cc with valgrind's headers (valgrind/callgrind.h). Each side's
kernel must be in its Numba cache already (a compile under valgrind takes hours): the script
first runs itself once without valgrind to load or compile them.

Valgrind shows a program another processor (its CPUID: here "haswell" with AVX2 but without
AVX-512, GFNI, VAES, ... instead of "rocketlake"), and it cannot run the instructions it
hides (LLVM used GFNI's VGF2P8AFFINEQB in a six-expansion path: SIGILL). So both runs
compile for one explicit target (`count_target`): this host's processor name (the
scheduling LLVM tunes for) and the project's features on it (no AVX-512,
bombsolve.solvers.common.numba_target) less those valgrind does not report. The code counted is the
project's code as compiled on this host except where it would use such an instruction,
and the same for every side; the target and the features turned off are in the JSON.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import compare_allisbomb_kernels as cmp  # noqa: E402

#: The helper's source: valgrind's client requests are inline machine code sequences, so
#: they need a compiled function to be called from Python (ctypes). Outside valgrind they
#: do nothing.
SHIM = r"""
#include <valgrind/callgrind.h>
void cg_start(void) { CALLGRIND_START_INSTRUMENTATION; }
void cg_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; }
void cg_zero(void) { CALLGRIND_ZERO_STATS; }
void cg_dump(const char *what) { CALLGRIND_DUMP_STATS_AT(what); }
"""


def shim(dirpath: Path) -> ctypes.CDLL:
    """The compiled helper (built once into dirpath)."""
    src, lib = dirpath / "cgshim.c", dirpath / "cgshim.so"
    if not lib.exists():
        src.write_text(SHIM)
        got = subprocess.run(
            ["cc", "-O1", "-shared", "-fPIC", "-o", str(lib), str(src)],
            capture_output=True,
            text=True,
        )
        if got.returncode != 0:
            raise SystemExit(f"cc could not build the callgrind helper:\n{got.stderr}")
    cg = ctypes.CDLL(str(lib))
    cg.cg_dump.argtypes = [ctypes.c_char_p]
    return cg


#: Prints the processor features LLVM finds, as a JSON list of the ones on (run under
#: valgrind to see what it reports).
FEATURES_ON = (
    "import json, llvmlite.binding as ll; "
    "print(json.dumps(sorted(k for k, v in ll.get_host_cpu_features().items() if v)))"
)


def count_target() -> tuple[dict[str, str], list[str]]:
    """(NUMBA_CPU_NAME and NUMBA_CPU_FEATURES for both runs, the features turned off for
    valgrind): the kernels' target as compiled on this host (the features already chosen in
    NUMBA_CPU_FEATURES, else the host's), less every feature that is on here but not under
    valgrind (AVX-512 among them, as bombsolve.solvers.common.numba_target leaves it out)."""
    import llvmlite.binding as ll
    from numba.core import config

    name = config.CPU_NAME or ll.get_host_cpu_name()
    chosen = config.CPU_FEATURES or ll.get_host_cpu_features().flatten()
    got = subprocess.run(
        ["valgrind", "--tool=none", "-q", sys.executable, "-c", FEATURES_ON],
        capture_output=True,
        text=True,
    )
    if got.returncode != 0:
        raise SystemExit(f"reading the processor's features under valgrind failed:\n{got.stderr}")
    features, off = drop_unseen(chosen, set(json.loads(got.stdout.strip().splitlines()[-1])))
    return {"NUMBA_CPU_NAME": name, "NUMBA_CPU_FEATURES": features}, off


def drop_unseen(chosen: str, seen: set[str]) -> tuple[str, list[str]]:
    """LLVM's feature string `chosen` with every feature it turns on that is not in `seen`
    turned off, and the features so turned off (in the string's order)."""
    flags, off = [], []
    for flag in chosen.split(","):
        if flag.startswith("+") and flag[1:] not in seen:
            off.append(flag[1:])
            flag = "-" + flag[1:]
        flags.append(flag)
    return ",".join(flags), off


def child(args) -> None:
    """Inside valgrind (or, with --warm, outside it): build the sides and count each."""
    cfg = cmp.CONFIGS[args.config]
    decks, runs, _memory = cmp.build(args, cfg)
    if args.warm:
        return
    cg = shim(Path(args.workdir))
    chunks = [decks[i : i + args.chunk] for i in range(0, len(decks), args.chunk)]
    names = list(runs)
    outs = {}
    for r in range(args.reps):
        shift = r % len(names)
        for name in names[shift:] + names[:shift]:
            cg.cg_start()
            cg.cg_zero()
            got = [runs[name](rows)[1] for rows in chunks]
            cg.cg_dump(f"{name} {r}".encode())
            cg.cg_stop()
            outs[name] = got
        for name in names:
            for a, b in zip(outs[name], outs["new"], strict=True):
                if any((x != y).any() for x, y in zip(a, b, strict=True)):
                    raise SystemExit(f"the kernels disagree ({name} against new)")
    nodes = sum(int(o[1].sum()) for o in outs["new"])
    Path(args.workdir, "meta.json").write_text(json.dumps({"positions": nodes}))


def parse_dumps(workdir: Path) -> dict[str, list[dict[str, int]]]:
    """Per side, per repetition: the event totals of callgrind's dump files."""
    got: dict[str, list[dict[str, int]]] = {}
    for f in sorted(workdir.glob("callgrind.out*")):
        text = f.read_text(errors="replace")
        trig = re.search(r"^desc: Trigger: Client Request: (\w+) (\d+)$", text, re.M)
        events = re.search(r"^events: (.+)$", text, re.M)
        totals = re.search(r"^(?:totals|summary): (.+)$", text, re.M)
        if not (trig and events and totals):
            continue  # the dump at exit, with instrumentation off
        counts = dict(zip(events.group(1).split(), map(int, totals.group(1).split()), strict=True))
        got.setdefault(trig.group(1), []).append(counts)
    return got


def estimate(c: dict[str, int]) -> int | None:
    """Cycles estimated from the simulated misses (kcachegrind's weights), if simulated."""
    if "D1mr" not in c:
        return None
    l1 = c["I1mr"] + c["D1mr"] + c["D1mw"]
    ll = c["ILmr"] + c["DLmr"] + c["DLmw"]
    return c["Ir"] + 10 * l1 + 100 * ll + 10 * (c.get("Bcm", 0) + c.get("Bim", 0))


def main() -> None:
    ap = cmp.parser()
    ap.description = __doc__.splitlines()[0]
    ap.set_defaults(rev="b0f6bf9", deals=100, reps=2)
    ap.add_argument("--cache-sim", action="store_true", help="simulate caches and branches")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--warm", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--workdir", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args)
        return
    if args.reps < 1:
        raise SystemExit(f"--reps {args.reps}: expected 1 or more")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind: not found (expected on PATH)")
    own = [*cmp._child_args(args), "--first", args.first]
    target, off = count_target()
    env = {**os.environ, **target, "PYTHONHASHSEED": "0"}
    with tempfile.TemporaryDirectory(prefix="cgcount_") as work:
        shim(Path(work))
        me = [sys.executable, __file__, "--child", "--workdir", work, *own]
        warm = subprocess.run([*me, "--warm"], capture_output=True, text=True, env=env)
        if warm.returncode != 0:
            raise SystemExit(f"loading the kernels failed:\n{warm.stdout}{warm.stderr}")
        vg = ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--dump-line=no"]
        vg += [f"--callgrind-out-file={work}/callgrind.out.%p"]
        if args.cache_sim:
            vg += ["--cache-sim=yes", "--branch-sim=yes"]
        got = subprocess.run([*vg, *me], capture_output=True, text=True, env=env)
        if got.returncode != 0:
            raise SystemExit(f"the run under valgrind failed:\n{got.stdout}{got.stderr[-3000:]}")
        dumps = parse_dumps(Path(work))
        meta = json.loads(Path(work, "meta.json").read_text())
    if set(dumps) != {"old", "new", *(["aa"] if args.aa else [])}:
        raise SystemExit(f"callgrind's dumps name the sides {sorted(dumps)}: expected old, new")
    res = {
        "config": args.config,
        "deals": args.deals,
        "seed": args.seed,
        "node_limit": args.node_limit,
        "chunk": args.chunk,
        "positions": meta["positions"],
        "rev": args.rev,
        "rev_sha": cmp.resolve(args.rev),
        "aa": args.aa,
        "aa_sha": cmp.resolve(args.aa) if args.aa else None,
        "target": target,
        "features_off_for_valgrind": off,
        "valgrind": subprocess.run(
            ["valgrind", "--version"], capture_output=True, text=True
        ).stdout.strip(),
        "counts": dumps,
    }
    print(
        f"{args.config}, {args.deals} deals (seed {args.seed}), node limit {args.node_limit:,}, "
        f"{meta['positions']:,} positions, same outputs; instructions of the solve calls "
        f"({res['valgrind']}, callgrind), {args.reps} counts per side"
    )
    ir = {}
    cycles = {}  # estimated cycles of each side's least count (with --cache-sim)
    for name, reps in dumps.items():
        vals = [c["Ir"] for c in reps]
        if max(vals) > 1.001 * min(vals):
            raise SystemExit(f"{name}: counts of one side differ by more than 0.1%: {vals}")
        ir[name] = min(vals)
        line = f"  {name:>3}: {ir[name]:,} instructions, {ir[name] / meta['positions']:,.0f} per position"
        c = min(reps, key=lambda c: c["Ir"])
        est = estimate(c)
        if est is not None:
            cycles[name] = est
            line += (
                f"; D1 misses {c['D1mr'] + c['D1mw']:,}, LL misses "
                f"{c['DLmr'] + c['DLmw'] + c['ILmr']:,}, mispredicted "
                f"{c.get('Bcm', 0) + c.get('Bim', 0):,}; cycles est. {est:,}"
            )
        print(line)
    res["ratio_old_new_Ir"] = ir["old"] / ir["new"]
    print(f"  instruction ratio old/new: {res['ratio_old_new_Ir']:.4f}")
    if args.aa:
        res["ratio_aa_new_Ir"] = ir["aa"] / ir["new"]
        print(f"  instruction ratio A/A aa/new: {res['ratio_aa_new_Ir']:.5f}")
    if args.cache_sim:
        res["ratio_old_new_cycles_est"] = cycles["old"] / cycles["new"]
        print(f"  estimated-cycles ratio old/new: {res['ratio_old_new_cycles_est']:.4f}")
        if args.aa:
            res["ratio_aa_new_cycles_est"] = cycles["aa"] / cycles["new"]
            print(f"  estimated-cycles ratio A/A aa/new: {res['ratio_aa_new_cycles_est']:.4f}")
    if args.json:
        args.json.write_text(json.dumps(res, indent=1) + "\n")


if __name__ == "__main__":
    main()
