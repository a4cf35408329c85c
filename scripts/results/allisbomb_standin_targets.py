#!/usr/bin/env python3
"""Check a stand-in card set against what the rulebook says of its own difficulty.

    python scripts/results/allisbomb_standin_targets.py [--cards FILE] [--deals 2000] \
        [--look-deals 300] [--seed 1] [--out DIR]

For every statement of `bombsolve.solvers.allisbomb.studies.targets.TARGETS`: perfect play on --deals deals
and the lookahead player (default budget) on --look-deals deals of each configuration it
compares, the two games of a statement on paired deals (`targets.decks`); met when the 95%
intervals do not overlap. The paired difference (Tango's interval) is shown beside it.
Writes DIR/targets.md (the table the README and the card set's notes quote), targets.json
and prints the table. Without --cards it measures the default card set. With
--against OTHER/targets.json (a run on other seeds) it also says, per measured game, whether
this run's figure lands inside the other run's 95% interval.
With --cache, a game already measured there on fewer deals of the same seed is grown: only
the deals after the cached ones are played.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bombsolve.solvers.allisbomb import targets as T  # noqa: E402
from bombsolve.solvers.common.files import write_text_atomic  # noqa: E402


def _fmt(m, kind: str) -> str:
    if kind == "turns":
        return f"median {m.turns_median:.0f} turns [{m.turns_lo:.0f}, {m.turns_hi:.0f}]"
    lo, hi = m.interval
    return f"{m.rate:.1%} [{lo:.1%}, {hi:.1%}]"


def smaller_sample(cache: Path, player: str, name: str, deals: int, seed: int) -> T.Measure | None:
    """The largest cached measure of the same game, player and seed on fewer than `deals`
    deals (a sample grown later): `measure` plays only the deals after it."""
    best = None
    for path in cache.glob(f"{player}-{name}-*-{seed}.json"):
        size = path.stem.removeprefix(f"{player}-{name}-").removesuffix(f"-{seed}")
        if size.isdigit() and int(size) < deals and (best is None or int(size) > best[0]):
            best = (int(size), path)
    return None if best is None else T.Measure(**json.loads(best[1].read_text()))


def rerun_check(games: dict, other: dict, other_name: object) -> str:
    """Which win rates of `games` land inside the 95% interval of the same game in `other`."""
    inside = [
        (key, other[key]["lo"] <= g["rate"] <= other[key]["hi"], g, other[key])
        for key, g in games.items()
        if key in other
    ]
    n_in = sum(ok for _, ok, _, _ in inside)
    outside = [
        f"{k} {g['rate']:.1%} vs [{o['lo']:.1%}, {o['hi']:.1%}]" for k, ok, g, o in inside if not ok
    ]
    return (
        f"Re-run check against {other_name}: {n_in} of {len(inside)} win rates of this run land "
        "inside that run's 95% interval"
        + ("; outside: " + ", ".join(outside) if outside else "")
        + "."
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=Path, default=None)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--look-deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--node-limit", type=int, default=3_000_000)
    ap.add_argument("--campaigns", type=int, default=100, help="lookahead-player campaigns")
    ap.add_argument("--only", default="", help="comma-separated statement numbers (1-based)")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--against", type=Path, default=None, help="targets.json of another run")
    ap.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="keep each measured game (and campaign part) here as JSON and reuse it: cells "
        "can be measured by several processes (--cells, --campaign-part), then assembled",
    )
    ap.add_argument(
        "--partial",
        action="store_true",
        help="with --cache: assemble what is there, marking the games not yet measured",
    )
    ap.add_argument(
        "--cells", default="", help="only measure these games into --cache, e.g. lookahead:base"
    )
    ap.add_argument(
        "--campaign-part", default="", metavar="K/N", help="only campaigns i = K mod N, to --cache"
    )
    ap.add_argument(
        "--compare",
        nargs=2,
        type=Path,
        metavar=("THIS", "OTHER"),
        help="only print the re-run check of THIS targets.json against OTHER, measuring nothing",
    )
    a = ap.parse_args()
    if a.compare:
        this, that = (json.loads(Path(f).read_text())["games"] for f in a.compare)
        print(rerun_check(this, that, a.compare[1]))
        return
    chosen = [int(x) for x in a.only.split(",") if x] or list(range(1, len(T.TARGETS) + 1))
    cache: dict = {}
    t0 = time.perf_counter()

    def get(name: str, player: str):
        key = (name, player)
        if key not in cache:
            deals = a.deals if player == "perfect" else a.look_deals
            t1 = time.perf_counter()
            stem = f"{player}-{name}-{deals}-{a.seed}.json"
            hit = a.cache / stem if a.cache else None
            if hit is not None and hit.is_file():
                cache[key] = T.Measure(**json.loads(hit.read_text()))
            elif a.partial:
                return None
            else:
                prefix = smaller_sample(a.cache, player, name, deals, a.seed) if a.cache else None
                cache[key] = T.measure(
                    name, a.cards, player, deals, a.seed, a.node_limit, prefix=prefix
                )
                if hit is not None:
                    write_text_atomic(hit, json.dumps(asdict(cache[key])) + "\n")
            print(
                f"  {player:9s} {name:18s} {_fmt(cache[key], 'win')} "
                f"({time.perf_counter() - t1:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
        return cache[key]

    if a.cells:
        for cell in a.cells.split(","):
            player, name = cell.split(":")
            get(name, player)
        return
    if a.campaign_part:
        k, parts = (int(x) for x in a.campaign_part.split("/"))
        res = T.campaign_results(a.cards, a.seed, range(k, a.campaigns, parts))
        stem = f"campaigns-{a.campaigns}-{a.seed}-{k}of{parts}.json"
        write_text_atomic(a.cache / stem, json.dumps(res) + "\n")
        return
    rows = []
    missing = 0
    for i in chosen:
        t = T.TARGETS[i - 1]
        row = {"n": i, "statement": t.statement, "quote": t.quote}
        for player in ("perfect", "lookahead"):
            if player == "lookahead" and a.look_deals == 0:
                continue
            h, e = get(t.harder, player), get(t.easier, player)
            if h is None or e is None:
                missing += 1
                continue
            row[player] = {
                "harder": _fmt(h, t.measure),
                "easier": _fmt(e, t.measure),
                "met": T.judge(t, h, e),
            }
            if t.measure == "win":
                d = T.paired(h, e)
                row[player]["paired"] = f"{d.diff:+.1%} [{d.lo:+.1%}, {d.hi:+.1%}]"
        rows.append(row)
    cards = str(a.cards) if a.cards else "the shipped stand-in set (version 1)"
    lines = [
        f"Cards: {cards} (STAND-IN texts, not the printed cards). Perfect play: {a.deals:,} deals "
        f"per configuration (node limit {a.node_limit:,}); lookahead player: {a.look_deals:,} "
        f"deals; seed {a.seed}; deals paired: the base game's deal i is default_rng([seed, 0, i]), "
        "every other game's is its parent's carried over (targets.decks); met = "
        "the 95% Wilson intervals do not overlap (undecided deals against the claim at each "
        "end); paired: the easier game's win rate minus the harder's on the same deals, "
        "Tango's 95% interval; turns: median of won games with its order-statistic 95% interval; campaigns: "
        f"the lookahead player, {a.campaigns} campaigns (default_rng([seed, 99, i])), met when "
        f"the gold share's upper 95% bound is below {T.GOLD_RARE:.0%} and not all earn one medal. "
        f"Regenerate: `python scripts/results/allisbomb_standin_targets.py{' --cards ' + str(a.cards) if a.cards else ''} "
        f"--deals {a.deals} --look-deals {a.look_deals} --campaigns {a.campaigns} --seed {a.seed}`.",
        "",
        "| # | rulebook says | compared | perfect play | met | lookahead player | met |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        t = T.TARGETS[r["n"] - 1]
        cells = []
        for player in ("perfect", "lookahead"):
            if player in r:
                p = r[player]
                pair = f"; paired {p['paired']}" if "paired" in p else ""
                cells += [f"{p['harder']} vs {p['easier']}{pair}", "yes" if p["met"] else "**no**"]
            else:
                cells += ["not measured", "-"]
        lines.append(
            f'| {r["n"]} | {t.statement} ("{t.quote}") | {t.harder} vs {t.easier} | '
            + " | ".join(cells)
            + " |"
        )
    if a.campaigns:
        parts = (
            sorted(a.cache.glob(f"campaigns-{a.campaigns}-{a.seed}-*of*.json")) if a.cache else []
        )
        merged = [tuple(r) for p in parts for r in json.loads(p.read_text())]
        if parts and len(merged) == a.campaigns:
            c = T.campaign_measure(merged)
        elif a.partial:
            c = None  # the campaign parts in --cache are not complete
        else:
            c = T.measure_campaign(a.cards, a.campaigns, a.seed)
        head = (
            f'| {len(T.TARGETS) + 1} | Campaign medals mean something ("5 points or up: Bronze ... '
            f'15 points or up: Golden"): gold rare, not the rule | {a.campaigns} campaigns | '
            "not measured | - | "
        )
        if c is None:
            missing += 1
            lines.append(head + f"not measured ({len(merged)} of {a.campaigns} in --cache) | - |")
        else:
            lo, hi = c.gold_interval
            medals = ", ".join(f"{k} {v}" for k, v in c.medals.items())
            lines.append(
                head + f"{medals}; gold {c.medals['gold'] / c.n:.0%} [{lo:.0%}, {hi:.0%}], "
                f"median {c.points_median:.0f} points | {'yes' if c.met() else '**no**'} |"
            )
            rows.append({"n": len(T.TARGETS) + 1, "campaign": {**c.medals, "met": c.met()}})
    games = {
        f"{player}/{name}": {
            "n": m.n,
            "wins": m.wins,
            "undecided": m.undecided,
            "rate": m.rate,
            "lo": m.interval[0],
            "hi": m.interval[1],
            "turns_median": m.turns_median,
            "turns_lo": m.turns_lo,
            "turns_hi": m.turns_hi,
        }
        for (name, player), m in cache.items()
    }
    met = sum(r[p]["met"] for r in rows for p in ("perfect", "lookahead") if p in r) + sum(
        r["campaign"]["met"] for r in rows if "campaign" in r
    )
    cells = sum(p in r for r in rows for p in ("perfect", "lookahead")) + sum(
        "campaign" in r for r in rows
    )
    lines += ["", f"Met: {met} of {cells} measured cells."]
    if missing:
        lines[-1] += (
            f" PARTIAL: {missing} cell(s) not measured (the run did not finish them; "
            "`--cache` resumes it)."
        )
    if a.against is not None:
        if a.against.is_file():
            lines.append(rerun_check(games, json.loads(a.against.read_text())["games"], a.against))
        else:
            print(f"warning: {a.against} not found; no re-run check", file=sys.stderr)
    text = "\n".join(lines) + "\n"
    print(text)
    print(f"{time.perf_counter() - t0:.0f} s", file=sys.stderr)
    if a.out:
        write_text_atomic(a.out / "targets.md", text)
        write_text_atomic(
            a.out / "targets.json", json.dumps({"rows": rows, "games": games}, indent=1) + "\n"
        )


if __name__ == "__main__":
    main()
