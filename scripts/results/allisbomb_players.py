#!/usr/bin/env python3
"""Measure the skill-gap players against perfect play on deals no study or tuning used.

    python scripts/results/allisbomb_players.py [--deals 300] [--seed0 200000] [--configs base,blitz]
    python scripts/results/allisbomb_players.py --readme-only   # the README block from players.json

For each configuration, deals ``np.random.default_rng(seed).permutation`` for seeds
seed0 .. seed0+N-1 (the lookahead weights were tuned on seeds 100000 and up; sweeps use
SeedSequence children): perfect play (exhaustive search, `--node-limit`), the lookahead
player (default budget), greedy and random (generator seeded with the deal's seed).
Prints and writes results/allisbomb/standin-v1/players.json and players.md: win rates with Wilson
95% intervals (undecided deals counted against perfect play at each end) and CPU seconds
per game of each player; then the generated block `allisbomb-players`
of results/allisbomb/README.md.
Stand-in cards.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bombsolve.solvers.allisbomb import (  # noqa: E402
    CARD_VERSIONS,
    DEFAULT_BUDGET,
    DEFAULT_CARDS,
    DEFAULT_WEIGHTS,
    Options,
    load_cards,
    prepare,
    parse_expansions,
    play_greedy,
    play_lookahead,
    play_random,
    solve_batch,
)
from bombsolve.solvers.allisbomb import deals as D  # noqa: E402
from bombsolve.solvers.common.files import write_text_atomic  # noqa: E402
from bombsolve.solvers.common.readme import update_block  # noqa: E402
from bombsolve.solvers.common.stats import wilson, wilson_undecided  # noqa: E402

#: The file that holds the block (the README shows only the headline results).
README = ROOT / "results" / "allisbomb" / "README.md"
ANCHOR = "Written by `python scripts/results/allisbomb_players.py` (never typed by hand):"
DEFAULT_CONFIGS = "base,base+hands,blitz,base/2p,mosquitos,dream_guide,gifts,waking_up"


def parse_config(label: str, cards_version: str = DEFAULT_CARDS) -> Options:
    """'base', 'blitz', 'base/2p', 'base+hands', or expansion names joined by '+'."""
    players = 2 if label.endswith("/2p") else 1
    label = label.removesuffix("/2p")
    if label == "blitz":
        return Options(blitz=True, players=players, cards_version=cards_version).validate()
    names = parse_expansions(label.removeprefix("base").replace("+", ","))
    exp = tuple(e for e in names if e != "hands")
    return Options(
        expansions=exp, hands="hands" in names, players=players, cards_version=cards_version
    ).validate()


def measure(config: Options, seeds: range, node_limit: int) -> dict:
    """Win counts and CPU seconds per game of perfect play and each heuristic player."""
    cs = load_cards(config)
    decks = np.array([D.deal_from_seed(config, s) for s in seeds], np.int64)
    solve_batch(config, decks[:1], node_limit=10)  # load the kernel first
    t = time.process_time()
    codes = solve_batch(config, decks, node_limit=node_limit)["code"]
    cpu = {"perfect": time.process_time() - t}
    starts = [prepare(cs, d.tolist()) for d in decks]
    wins = {}
    for name, play in (
        ("lookahead", lambda s, _seed: play_lookahead(s)),
        ("greedy", lambda s, _seed: play_greedy(s)),
        ("random", lambda s, seed: play_random(s, np.random.default_rng(seed))),
    ):
        t = time.process_time()
        won = [bool(play(s.copy(), seed)) for s, seed in zip(starts, seeds, strict=True)]
        cpu[name] = time.process_time() - t
        wins[name] = won
    n = len(seeds)
    perfect_w = int((codes == 1).sum())
    und = int((codes == 2).sum())
    label = config.label().replace(f"/cards={config.cards_version}", "")
    out = {"config": label, "deals": n, "perfect": perfect_w, "undecided": und}
    out["perfect_ci"] = [round(x, 4) for x in wilson_undecided(perfect_w, und, n)]
    for name, won in wins.items():
        out[name] = int(sum(won))
        out[f"{name}_ci"] = [round(x, 4) for x in wilson(int(sum(won)), n)]
        # a heuristic win must be a perfect-play win (a sanity check of both)
        out[f"{name}_not_perfect_win"] = int(
            sum(w and c != 1 for w, c in zip(won, codes, strict=True))
        )
    out["cpu_s_per_game"] = {k: round(v / n, 4) for k, v in cpu.items()}
    return out


def markdown(rows: list[dict]) -> str:
    """The measured table as Markdown."""
    head = (
        "| configuration | deals | perfect play | lookahead | greedy | random "
        "| lookahead s/game |\n|---|---|---|---|---|---|---|\n"
    )

    def cell(r: dict, k: str) -> str:
        lo, hi = r[f"{k}_ci"]
        return f"{100 * r[k] / r['deals']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"

    lines = [
        f"| {r['config']} | {r['deals']} | {cell(r, 'perfect')} | {cell(r, 'lookahead')} | "
        f"{cell(r, 'greedy')} | {cell(r, 'random')} | {r['cpu_s_per_game']['lookahead']:.3f} |"
        for r in rows
    ]
    return head + "\n".join(lines) + "\n"


def readme_body(summary: dict) -> str:
    """The README block: the table, its caption and the command that regenerates it."""
    first, last = (int(x) for x in summary["seeds"].split(" ")[0].split(".."))
    b = summary["lookahead_budget"]
    version = summary.get("cards_version", "standin-v1")  # written before versions: v1
    caption = (
        f"All Is Bomb, STAND-IN cards, set {version}; seeds {summary['seeds']}; perfect play = exhaustive "
        f"search, node limit {summary['node_limit']:,} (undecided counted against it); "
        f"lookahead: up to {b['depth']} turns, at most {b['positions']} positions per move; "
        "greedy; random; Wilson 95% intervals; lookahead CPU seconds per game on a shared "
        "machine."
    )
    configs = ",".join(r["config"] for r in summary["rows"])
    cmd = (
        f"python scripts/results/allisbomb_players.py --deals {last - first + 1} --seed0 {first} "
        f"--node-limit {summary['node_limit']} --configs {configs} --cards {version}"
        + (f" --out {summary['out']}" if summary.get("out") else "")
    )
    return (
        f"{markdown(summary['rows'])}\n{caption}\n\nRegenerate: `{cmd}` "
        f"({summary['wall_seconds']:,.0f} s wall, one process).\n"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed0", type=int, default=200_000)
    ap.add_argument("--node-limit", type=int, default=1_000_000)
    ap.add_argument("--configs", default=DEFAULT_CONFIGS)
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "allisbomb" / "standin-v1")
    ap.add_argument(
        "--cards",
        default=DEFAULT_CARDS,
        choices=CARD_VERSIONS,
        help="the stand-in set version to play (default: %(default)s)",
    )
    ap.add_argument("--no-readme", action="store_true", help="do not rewrite the README block")
    ap.add_argument(
        "--readme-only", action="store_true", help="rewrite the README block from players.json"
    )
    args = ap.parse_args()
    if not args.readme_only:
        seeds = range(args.seed0, args.seed0 + args.deals)
        rows = []
        t0 = time.perf_counter()
        for label in args.configs.split(","):
            rows.append(measure(parse_config(label.strip(), args.cards), seeds, args.node_limit))
            print(json.dumps(rows[-1]), flush=True)
        summary = {
            "cards": "stand-in",
            "cards_version": args.cards,
            "out": str(args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out),
            "seeds": f"{seeds.start}..{seeds.stop - 1} (np.random.default_rng(seed).permutation)",
            "node_limit": args.node_limit,
            "lookahead_budget": asdict(DEFAULT_BUDGET),
            "lookahead_weights": asdict(DEFAULT_WEIGHTS),
            "wall_seconds": round(time.perf_counter() - t0, 1),
            "rows": rows,
        }
        args.out.mkdir(parents=True, exist_ok=True)
        write_text_atomic(args.out / "players.json", json.dumps(summary, indent=1) + "\n")
    summary = json.loads((args.out / "players.json").read_text())
    body = readme_body(summary)
    write_text_atomic(args.out / "players.md", body)
    print(body)
    if not args.no_readme:
        update_block(README, "allisbomb-players", body, ANCHOR)


if __name__ == "__main__":
    main()
