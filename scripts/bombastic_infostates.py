"""Count information states to a given depth, one opening pair of face-up cards at a time.

    python scripts/bombastic_infostates.py --depth 2 --player O --budget 600

The count for each ordered pair of opening cards is appended to a CSV (default
results/bombastic/infostates_by_opening.csv) as soon as it is known, with the knowledge
states searched so far and the seconds taken, so a long count can be spread over
several runs (`--budget` stops after the pair that crosses it; pairs already in the
file are skipped). The memo lives only for one run. Depth 1 takes seconds; depth 2
takes minutes per opening pair (see the README).
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solvers.bombastic.infostates import _Counter  # noqa: E402
from solvers.bombastic.rules import ALARM_CARDS, Card, Options, State  # noqa: E402
from solvers.bombastic.tiles import ARR, N_ARR  # noqa: E402

FIELDS = ["player", "depth", "card_a", "card_b", "information_states", "states", "seconds"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--player", choices=["X", "O"], default="O")
    ap.add_argument("--budget", type=float, default=600.0, help="seconds (soft)")
    root = Path(__file__).resolve().parents[1]
    ap.add_argument("--out", default=str(root / "results/bombastic/infostates_by_opening.csv"))
    args = ap.parse_args()
    p = "XO".index(args.player)
    out = Path(args.out)
    done = set()
    if out.exists():
        with out.open() as f:
            for r in csv.DictReader(f):
                if (r["player"], int(r["depth"])) == (args.player, args.depth):
                    done.add((r["card_a"], r["card_b"]))
    options = Options()
    cards = [int(c) for c in options.deck_cards()]
    regular = [c for c in cards if c not in ALARM_CARDS]
    counter = _Counter(p, options)
    t0 = time.perf_counter()
    new_file = not out.exists()
    with out.open("a", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        if new_file:
            w.writeheader()
        for a in regular:
            for b in regular:
                names = (Card(a).name, Card(b).name)
                if a == b or names in done:
                    continue
                deck = [c for c in cards if c not in (a, b)]
                st = State(options=options, tiles=ARR[0].tolist(), face_up=[a, b], deck=deck)
                t = time.perf_counter()
                n = counter.count(st, np.ones(N_ARR, dtype=bool), args.depth)
                row = dict(zip(FIELDS[:4], (args.player, args.depth, *names), strict=True))
                row.update(
                    information_states=n,
                    states=counter.nodes,
                    seconds=round(time.perf_counter() - t, 1),
                )
                w.writerow(row)
                f.flush()
                print(row, flush=True)
                if time.perf_counter() - t0 > args.budget:
                    print("budget reached; re-run to continue")
                    return


if __name__ == "__main__":
    main()
