"""Record the All Is Bomb kernel's node counts on seeded deals (fixture of a pinning test).

The kernel may be made faster, but never so that it searches differently: a study that is
resumed across a kernel change must get the same `nodes` for the same deal and node limit.
This script records, for every standard configuration (`study.matrix_configs`) and two
option variants, a few seeded deals solved by the plain search, the portfolio search (the
one studies use) and the shortest-win search, with everything that must not change: code,
nodes, loss reason, turns, and the plain search's move list.
`tests/allisbomb/test_allisbomb_nodes_pinned.py` re-solves them and demands the same.

The committed fixture was made by the kernel of main at commit 7f78e46 (before the
speed work); re-running it with a later kernel must leave the file unchanged.
It is recorded with the copy-symmetric table keys switched off (`program.copy_keys`), which
the searches of that kernel did not have; `--copy-keys` records the same deals with the
keys on (the default), only for the configurations that have copies and without the
shortest-win search: `nodes_pinned_copy_keys.json`. Both are recorded with the portfolio
search's card order (ordering.py) off, as that kernel had none; `--copy-keys --move-order`
records the default search (keys where the game has copies, the card order on) on every
configuration: `nodes_pinned_move_order.json`, with stand-in version 1's cards as the
older files (made before set versions existed, so read as version 1).

The shortest-win search changed on purpose after the first fixture: it now decides the deal
with the portfolio search first and deepens only below the win found (so a node or time
limit still reports that win, not proven the shortest). `--shortest` records its results on
the same deals with the keys off: `nodes_pinned_shortest.json`; the test checks that every
verdict the first fixture decided is unchanged.

    python scripts/bench/pin_allisbomb_nodes.py [--deals 6] [--out tests/allisbomb/data/nodes_pinned.json]
    python scripts/bench/pin_allisbomb_nodes.py --copy-keys --out tests/allisbomb/data/nodes_pinned_copy_keys.json
    python scripts/bench/pin_allisbomb_nodes.py --shortest --out tests/allisbomb/data/nodes_pinned_shortest.json
    python scripts/bench/pin_allisbomb_nodes.py --copy-keys --move-order --out tests/allisbomb/data/nodes_pinned_move_order.json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bombsolve.solvers.allisbomb import (  # noqa: E402
    Options,
    config_to_params,
    copy_keys,
    copy_keys_enabled,
    load_cards,
    matrix_configs,
    move_order,
    solve,
    solve_batch,
)
from bombsolve.solvers.common.files import write_text_atomic  # noqa: E402

#: Node limits: small enough for a test, large enough that some deals hit them.
PLAIN_LIMIT = 6_000
PORTFOLIO_LIMIT = 12_000
SHORTEST_LIMIT = 50_000
#: The shortest-win search (iterative deepening, dear) runs on these configurations only.
SHORTEST_CONFIGS = ("base", "blitz", "base+the_juice", "base+gifts")
SEED = 77


def pinned_configs() -> list[Options]:
    """The study's 19 configurations plus two option variants (GIFT plays, optional gift)."""
    extra = [
        Options(expansions=("gifts",), gifts_distinct=False, players=2, give_optional=True),
        Options(expansions=("waking_up", "all"), players=2, all_any_player=False),
    ]
    return [*matrix_configs(), *extra]


def pinned_decks(config: Options, deals: int, index: int) -> np.ndarray:
    """The seeded deals of the config with position `index` in `pinned_configs`."""
    n = load_cards(config).n
    rng = np.random.default_rng([SEED, index])
    return np.stack([rng.permutation(n) for _ in range(deals)])


def record(config: Options, decks: np.ndarray, with_shortest: bool = True) -> list[dict]:
    """Solve each deck three ways; everything a faster kernel must reproduce."""
    pf = solve_batch(config, decks, node_limit=PORTFOLIO_LIMIT)
    rows = []
    for i, deck in enumerate(decks):
        plain = solve(config, deck, node_limit=PLAIN_LIMIT, portfolio=False)
        short = None
        if with_shortest and config.label() in SHORTEST_CONFIGS:
            short = solve(config, deck, node_limit=SHORTEST_LIMIT, shortest=True)
        rows.append(
            {
                "deck": deck.tolist(),
                "plain": [plain.outcome, plain.nodes, plain.loss_reason],
                "plain_solution": [list(m) for m in plain.solution],
                "portfolio": [int(pf[k][i]) for k in ("code", "nodes", "reason", "turns")],
                "shortest": short and [short.outcome, short.nodes, len(short.solution)],
            }
        )
    return rows


def record_shortest(deals: int, out: str) -> None:
    """The shortest-win search on the deals of SHORTEST_CONFIGS, copy keys off."""
    cases = []
    for i, cfg in enumerate(pinned_configs()):
        if cfg.label() not in SHORTEST_CONFIGS:
            continue
        rows = []
        with copy_keys(cfg, False), move_order(cfg, False):
            for deck in pinned_decks(cfg, deals, i):
                short = solve(cfg, deck, node_limit=SHORTEST_LIMIT, shortest=True)
                rows.append({"shortest": [short.outcome, short.nodes, len(short.solution)]})
        cases.append(
            {"config": config_to_params(cfg), "label": cfg.label(), "index": i, "deals": rows}
        )
        print(cfg.label(), [r["shortest"] for r in rows], flush=True)
    data = {"seed": SEED, "shortest_limit": SHORTEST_LIMIT, "copy_keys": False, "cases": cases}
    write_text_atomic(out, json.dumps(data, separators=(",", ":")) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=6)
    default_out = ROOT / "tests" / "allisbomb" / "data" / "nodes_pinned.json"
    ap.add_argument("--out", default=str(default_out))
    ap.add_argument("--copy-keys", action="store_true", help="record with the keys on")
    ap.add_argument("--shortest", action="store_true", help="record the shortest-win search only")
    ap.add_argument(
        "--move-order",
        action="store_true",
        help="record with ordering.py's card order on (with --copy-keys: every configuration)",
    )
    args = ap.parse_args()
    if args.shortest:
        return record_shortest(args.deals, args.out)
    cases = []
    for i, cfg in enumerate(pinned_configs()):
        if args.move_order:  # the older fixtures' cards (made before set versions), to compare
            cfg = dataclasses.replace(cfg, cards_version="standin-v1")
        if args.copy_keys and not args.move_order and not copy_keys_enabled(cfg):
            continue
        with copy_keys(cfg, args.copy_keys), move_order(cfg, args.move_order):
            rows = record(cfg, pinned_decks(cfg, args.deals, i), not args.copy_keys)
        cases.append(
            {"config": config_to_params(cfg), "label": cfg.label(), "index": i, "deals": rows}
        )
        print(cfg.label(), [r["portfolio"][1] for r in rows], flush=True)
    data = {
        "seed": SEED,
        "plain_limit": PLAIN_LIMIT,
        "portfolio_limit": PORTFOLIO_LIMIT,
        "shortest_limit": SHORTEST_LIMIT,
        "shortest_configs": [] if args.copy_keys else list(SHORTEST_CONFIGS),
        "copy_keys": args.copy_keys,
        "move_order": args.move_order,
        "cases": cases,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(args.out, json.dumps(data, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
