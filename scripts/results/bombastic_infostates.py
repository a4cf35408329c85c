"""Count information states to a given depth with the Numba counter, one opening at a time.

    python scripts/results/bombastic_infostates.py --depth 2 --player both --budget 900
    python scripts/results/bombastic_infostates.py --bench      # Numba against Python, one run

For each player and each depth 1..D, the count for each ordered pair of opening face-up
cards is appended to results/bombastic/infostates_by_opening.csv as soon as it is known,
with the knowledge states it added to the memo and its wall and CPU seconds (the
machine is shared: CPU seconds are the fair measure), so a long count can be
spread over several runs (`--budget` stops after the opening that crosses it; openings
already in the file are skipped, and a re-run ends with the same counts). The memo lives
for one run and is shared by the openings (a pair and its swap share every state). When
every opening of a depth is in, the totals go to results/bombastic/infostates.csv: per
player and depth, the information states, the knowledge states searched for that depth
and the seconds (sums over its openings). Default rules (Options()).
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bombsolve.solvers.bombastic import (  # noqa: E402
    Card,
    Memo,
    MemoFull,
    Options,
    count_opening,
    openings,
)

FIELDS = [
    "player",
    "depth",
    "card_a",
    "card_b",
    "information_states",
    "states",
    "seconds",
    "cpu_seconds",
]
TOTAL_FIELDS = [
    "player",
    "turns",
    "information_states",
    "knowledge_states_searched",
    "seconds",
    "cpu_seconds",
]


def _read(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with path.open() as f:
        return list(csv.DictReader(f))


def write_totals(by_opening: Path, totals: Path, options: Options) -> list[dict]:
    """Sum the per-opening rows of every complete (player, depth) into `totals`."""
    rows = _read(by_opening)
    n_open = len(openings(options))
    out = []
    for player in "XO":
        out.append(dict(zip(TOTAL_FIELDS, (player, 0, n_open, 0, 0.0, 0.0), strict=True)))
        depth = 1
        while True:
            got = [r for r in rows if r["player"] == player and int(r["depth"]) == depth]
            pairs = {(r["card_a"], r["card_b"]) for r in got}
            if len(pairs) < n_open:
                break
            out.append(
                {
                    "player": player,
                    "turns": depth,
                    "information_states": sum(int(r["information_states"]) for r in got),
                    "knowledge_states_searched": sum(int(r["states"]) for r in got),
                    "seconds": round(sum(float(r["seconds"]) for r in got), 1),
                    "cpu_seconds": round(sum(float(r["cpu_seconds"]) for r in got), 1),
                }
            )
            depth += 1
    tmp = totals.with_suffix(".tmp")
    with tmp.open("w", newline="") as f:
        w = csv.DictWriter(f, TOTAL_FIELDS)
        w.writeheader()
        w.writerows(out)
    tmp.replace(totals)
    return out


def bench(depth: int, player: str) -> dict:
    """Count the same thing with both engines back to back (Numba compiled first).

    Times are CPU seconds of this process (the machine is shared; both run on one core).
    """
    from bombsolve.solvers.bombastic import count_infostates, count_infostates_fast

    p = "XO".index(player)
    count_infostates_fast(1, p, Options(alarms=False, removed=(0, 1, 2, 3)))  # compile
    t = time.process_time()
    fast = count_infostates_fast(depth, p)
    t_fast = time.process_time() - t
    t = time.process_time()
    ref = count_infostates(depth, p)
    t_ref = time.process_time() - t
    assert ref.by_depth == fast.by_depth
    out = {
        "count": f"{player}, depth {depth}: {fast.by_depth[-1]:,} information states",
        "python": f"{ref.nodes:,} knowledge states in {t_ref:.2f} CPU s = {ref.nodes / t_ref:,.0f}/s",
        "numba": f"{fast.nodes:,} knowledge states in {t_fast:.3f} CPU s = "
        f"{fast.nodes / t_fast:,.0f}/s",
        "states per second, numba / python": round((fast.nodes / t_fast) / (ref.nodes / t_ref), 1),
        "time for the same count, python / numba": round(t_ref / t_fast, 1),
    }
    for k, v in out.items():
        print(f"{k}: {v}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--depth", type=int, default=2, help="count depths 1..DEPTH")
    ap.add_argument("--player", choices=["X", "O", "both"], default="both")
    ap.add_argument("--budget", type=float, default=900.0, help="seconds (soft)")
    ap.add_argument("--max-log2-slots", type=int, default=25, help="memo limit (2**25: 4 GiB)")
    root = Path(__file__).resolve().parents[2]
    ap.add_argument("--out-dir", default=str(root / "results/bombastic"))
    ap.add_argument("--bench", action="store_true", help="time both engines at depth 1, O")
    args = ap.parse_args()
    if args.bench:
        bench(1, "O" if args.player == "both" else args.player)
        return
    out_dir = Path(args.out_dir)
    by_opening = out_dir / "infostates_by_opening.csv"
    options = Options()
    done = {(r["player"], int(r["depth"]), r["card_a"], r["card_b"]) for r in _read(by_opening)}
    # Compile (or load the cached kernel) before any opening is timed.
    count_opening(2, 5, 1, 0, Options(alarms=False, removed=(0, 1, 3, 4)), Memo(10))
    t0 = time.perf_counter()
    new_file = not by_opening.exists()
    players = "XO" if args.player == "both" else args.player
    with by_opening.open("a", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        if new_file:
            w.writeheader()
        for player in players:
            memo = Memo(20, args.max_log2_slots)
            for depth in range(1, args.depth + 1):
                for a, b in openings(options):
                    names = (Card(a).name, Card(b).name)
                    if (player, depth, *names) in done:
                        continue
                    t, cpu = time.perf_counter(), time.process_time()
                    before = memo.searched
                    try:
                        n = count_opening(a, b, depth, "XO".index(player), options, memo)
                    except MemoFull as e:
                        print(f"{player} depth {depth} {names}: {e}; stopping", flush=True)
                        return
                    row = dict(zip(FIELDS[:4], (player, depth, *names), strict=True))
                    row.update(
                        information_states=n,
                        states=memo.searched - before,
                        seconds=round(time.perf_counter() - t, 2),
                        cpu_seconds=round(time.process_time() - cpu, 2),
                    )
                    w.writerow(row)
                    f.flush()
                    print(row, flush=True)
                    if time.perf_counter() - t0 > args.budget:
                        print("budget reached; re-run to continue")
                        write_totals(by_opening, out_dir / "infostates.csv", options)
                        return
    for row in write_totals(by_opening, out_dir / "infostates.csv", options):
        print(row)


if __name__ == "__main__":
    main()
