"""Is agent A stronger than agent B? Both seatings on the same deals, as a resumable study.

    nice -n 10 python scripts/results/bombastic_strength.py \
        --a ismcts-heuristic-guarded:2000 --b ismcts-heuristic-guarded:300 --games 2000
    python scripts/results/bombastic_strength.py --workers 2        # two chunks at once, same rows
    python scripts/results/bombastic_strength.py --summary-only     # tables from what is done
    python scripts/results/bombastic_strength.py --time-moves 4     # seconds per decision of A
    python scripts/results/bombastic_strength.py --seed 640000 --out results/bombastic/strength_fresh \
        --reproduces results/bombastic/strength       # the same claim on fresh seeds

Two match studies (`study.match_study`, the shared runner: re-running resumes, chunk by
chunk) with the same seed, so deal g is played once with A as X and once with A as O:
`OUT/a_x/` and `OUT/a_o/`. The summary counts only deals finished in both seatings and
writes `OUT/strength.csv` (per seating and pooled: A's wins, Wilson 95% interval, its
half-width) and `OUT/summary.json`, and the block `--block` (default
`bombastic-strength`) of results/bombastic/README.md. A game
that reaches the turn cap is a game A did not win.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

from bombsolve.solvers.bombastic import Options, make_agent, match_study, play_game  # noqa: E402
from bombsolve.solvers.common.readme import update_block  # noqa: E402
from bombsolve.solvers.common.runner import computed_by, load_manifest, load_study, run_study  # noqa: E402
from bombsolve.solvers.common.stats import wilson  # noqa: E402

#: The file that holds the blocks (the README shows only the headline ladder).
README = ROOT / "results" / "bombastic" / "README.md"
README_ANCHOR = "<!-- section: bombastic -->"


def run(
    a: str, b: str, games: int, seed: int, out: Path, minutes: float | None, workers: int = 1
) -> None:
    """Run (or resume) both seatings, a chunk of one then a chunk of the other, so that
    a run stopped early (``--minutes``, or killed) has played about as many deals in each
    seating: the summary counts only deals done in both.

    ``workers`` > 1 plays that many chunks at once in worker processes (one pool per turn
    of a seating, so a turn is `workers` chunks); every game is seeded by its deal alone,
    so the rows are the same as with one worker."""
    deadline = None if minutes is None else time.monotonic() + minutes * 60
    studies = [
        (match_study(x, o, games, seed, Options()), out / sub)
        for x, o, sub in ((a, b, "a_x"), (b, a, "a_o"))
    ]
    complete = [False, False]
    while not all(complete):
        if deadline is not None and time.monotonic() >= deadline:
            return
        for i, (study, folder) in enumerate(studies):
            if not complete[i]:
                # A budget of five seconds starts one chunk per worker (rarely more): the
                # runner checks it before each.
                df = run_study(study, folder, workers=workers, time_budget=5.0)
                complete[i] = bool(df.attrs.get("complete", True))


def summarize(out: Path) -> dict:
    """A's record over the deals finished in both seatings."""
    ax = load_study(out / "a_x", partial=True)
    ao = load_study(out / "a_o", partial=True)
    ma, mo = load_manifest(out / "a_x"), load_manifest(out / "a_o")
    a, b = ma["identity"]["params"]["x"], ma["identity"]["params"]["o"]
    both = sorted(set(ax["case"]) & set(ao["case"]))
    ax = ax.set_index("case").loc[both]
    ao = ao.set_index("case").loc[both]
    n = len(both)
    win_x = int((ax["winner"] == 0).sum())
    win_o = int((ao["winner"] == 1).sum())
    rows = []
    for label, k, m in (
        ("A as X (moves first)", win_x, n),
        ("A as O", win_o, n),
        ("both seatings", win_x + win_o, 2 * n),
    ):
        lo, hi = wilson(k, m) if m else (0.0, 1.0)
        rows.append(
            {
                "seating": label,
                "games": m,
                "a_wins": k,
                "rate": k / m if m else float("nan"),
                "lo": lo,
                "hi": hi,
                "half_width": (hi - lo) / 2,
            }
        )
    table = pd.DataFrame(rows)
    table.insert(0, "b", b)
    table.insert(0, "a", a)
    wins_both = int(((ax["winner"] == 0) & (ao["winner"] == 1)).sum())
    wins_none = int(((ax["winner"] != 0) & (ao["winner"] != 1)).sum())
    x_first = int((ax["winner"] == 0).sum() + (ao["winner"] == 0).sum())
    fx_lo, fx_hi = wilson(x_first, 2 * n) if n else (0.0, 1.0)
    return {
        "a": a,
        "b": b,
        "seed": ma["identity"]["seed"],
        "deals_planned": ma["identity"]["n_cases"],
        "deals_done_both_seatings": n,
        "deals_a_won_both": wins_both,
        "deals_a_won_neither": wins_none,
        "x_wins": x_first,
        "x_rate": x_first / (2 * n) if n else float("nan"),
        "x_lo": fx_lo,
        "x_hi": fx_hi,
        "turn_capped": int((ax["ending"] == "TURN_CAP").sum() + (ao["ending"] == "TURN_CAP").sum()),
        # Each seating's commits, oldest first, once each.
        "computed_by": list(dict.fromkeys(c for m in (ma, mo) for c in computed_by(m).split(", "))),
        "table": table,
    }


def time_moves(a: str, b: str, games: int, seed: int) -> dict:
    """Seconds per decision of agent A (only its searched decisions: more than one choice),
    after one decision to warm up (Numba loads its compiled code on the first call)."""
    import numpy as np

    from bombsolve.solvers.bombastic import State, view_of

    first = view_of(State.new(seed - 1), 0)
    make_agent(a).act(first, first.legal, np.random.default_rng(0))
    times: list[float] = []

    class Timed:
        def __init__(self, agent):
            self.agent = agent
            self.omniscient = False

        def act(self, view, legal, rng):
            t = time.perf_counter()
            out = self.agent.act(view, legal, rng)
            if len(legal) > 1:
                times.append(time.perf_counter() - t)
            return out

    for g in range(games):
        pair = [make_agent(b), make_agent(b)]
        pair[g % 2] = Timed(make_agent(a))
        play_game(pair[0], pair[1], seed + g, Options())
    times.sort()
    return {
        "agent": a,
        "games": games,
        "decisions": len(times),
        "mean_s": statistics.fmean(times),
        "p95_s": times[int(0.95 * (len(times) - 1))],
        "max_s": times[-1],
    }


def _pct(rate: float, lo: float, hi: float) -> str:
    return f"{100 * rate:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"


def reproduction(s: dict, original: dict) -> str:
    """One sentence: does this run's rate for A (both seatings) land inside the interval
    of `original` (the summary of the same pairing on other seeds)?"""
    if (s["a"], s["b"]) != (original["a"], original["b"]):
        raise ValueError(
            f"{s['a']} against {s['b']} cannot check {original['a']} against {original['b']}"
        )
    if s["seed"] == original["seed"]:
        raise ValueError(f"seed {s['seed']} is the original's: expected a fresh seed")
    new = s["table"].set_index("seating").loc["both seatings"]
    old = original["table"].set_index("seating").loc["both seatings"]
    inside = old["lo"] <= new["rate"] <= old["hi"]
    return (
        f"Fresh-seed check of the claim of seed {original['seed']} (A won "
        f"{_pct(old['rate'], old['lo'], old['hi'])} of {int(old['games']):,} games): on seed "
        f"{s['seed']} A won {_pct(new['rate'], new['lo'], new['hi'])} of {int(new['games']):,}, "
        + ("inside" if inside else "outside")
        + " the original interval"
        + ("." if s["deals_done_both_seatings"] == s["deals_planned"] else " (run unfinished).")
    )


def readme_block(s: dict, timing: dict | None, original: dict | None = None) -> str:
    t = s["table"]
    lines = [
        f"| `{s['a']}` against `{s['b']}` | games | A wins, % [95% CI] | half-width |",
        "| --- | --- | --- | --- |",
    ]
    for r in t.itertuples():
        lines.append(
            f"| {r.seating} | {r.games:,} | {_pct(r.rate, r.lo, r.hi)} | {100 * r.half_width:.1f} |"
        )
    n = s["deals_done_both_seatings"]
    lines += [
        "",
        f"Seed {s['seed']}: deal g played once with each seating ({n:,} of "
        f"{s['deals_planned']:,} planned deals done in both); default rules; X (the first "
        f"player) won {_pct(s['x_rate'], s['x_lo'], s['x_hi'])} of these games. A won "
        f"{s['deals_a_won_both']:,} deals in both seatings and {s['deals_a_won_neither']:,} in "
        f"neither; {s['turn_capped']} games reached the turn cap. Computed by "
        f"{', '.join(s['computed_by'])} (`scripts/results/bombastic_strength.py`).",
    ]
    if original is not None:
        lines.append(reproduction(s, original))
    if timing:
        lines.append(
            f"Seconds per searched decision of `{timing['agent']}` on this machine under "
            f"load: mean {timing['mean_s']:.2f}, 95th percentile {timing['p95_s']:.2f}, "
            f"max {timing['max_s']:.2f} ({timing['decisions']} decisions, {timing['games']} games)."
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--a", default="ismcts-heuristic-guarded:2000")
    ap.add_argument("--b", default="ismcts-heuristic-guarded:300")
    ap.add_argument("--games", type=int, default=2000, help="deals (each played twice)")
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--out", type=Path, default=ROOT / "results/bombastic/strength")
    ap.add_argument("--minutes", type=float, default=None, help="start no chunk after this")
    ap.add_argument(
        "--workers", type=int, default=1, help="chunks played at once (processes; default 1)"
    )
    ap.add_argument("--summary-only", action="store_true")
    ap.add_argument("--time-moves", type=int, default=0, help="games to time A's decisions")
    ap.add_argument("--readme", action="store_true", help="rewrite the README block")
    ap.add_argument("--block", default="bombastic-strength", help="README block name")
    ap.add_argument(
        "--reproduces",
        type=Path,
        default=None,
        help="a finished strength folder of the same pairing on another seed: say whether "
        "this run lands inside its interval",
    )
    args = ap.parse_args()
    if args.workers < 1:
        ap.error(f"--workers {args.workers} is not positive; expected 1 or more")
    original = None
    if args.reproduces is not None:
        # Checked before the run: a mismatch found after hours of games helps nobody.
        if not (args.reproduces / "a_x" / "manifest.json").exists():
            ap.error(f"--reproduces {args.reproduces} holds no strength study (no a_x/)")
        original = summarize(args.reproduces)
        # With --summary-only the pairing and seed are the folder's: checked after reading it.
        if not args.summary_only and (original["a"], original["b"]) != (args.a, args.b):
            ap.error(
                f"--reproduces {args.reproduces} is {original['a']} against {original['b']}; "
                f"expected {args.a} against {args.b}"
            )
        if not args.summary_only and original["seed"] == args.seed:
            ap.error(f"--reproduces {args.reproduces} used seed {args.seed}; expected a fresh seed")
    if not args.summary_only:
        run(args.a, args.b, args.games, args.seed, args.out, args.minutes, args.workers)
    s = summarize(args.out)
    if original is not None:
        try:
            s["reproduces"] = reproduction(s, original)
        except ValueError as e:
            ap.error(f"--reproduces {args.reproduces}: {e}")
    timing = None
    tpath = args.out / "timing.json"
    if args.time_moves:
        timing = time_moves(s["a"], s["b"], args.time_moves, 990000)
        tpath.write_text(json.dumps(timing, indent=2) + "\n")
    elif tpath.exists():
        timing = json.loads(tpath.read_text())
    s["table"].to_csv(args.out / "strength.csv", index=False)
    summary = {k: v for k, v in s.items() if k != "table"}
    summary["rows"] = json.loads(s["table"].to_json(orient="records"))
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2, default=float) + "\n")
    block = readme_block(s, timing, original)
    print(block)
    if args.readme:
        update_block(README, args.block, block, anchor=README_ANCHOR)


if __name__ == "__main__":
    from bombsolve.cli.progress import reporting

    with reporting():
        main()
