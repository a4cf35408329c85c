#!/usr/bin/env python3
"""How many two-player positions a search meets together with their mirror image.

    python scripts/allisbomb_player_mirror.py [--deals 10] [--seed 4] [--node-limit 20000]

After setup the rules do not tell the two players apart (rulebook F: the active player
plays, gives at Clean-Up, and the CARD ACTIONS read "the active player"), so a position and
its mirror (the players' EQUIPPED CARDS swapped, the other player active) have one
verdict, and a transposition table keyed by either would hold them once. For uniform
deals of base/2p and base+hands/2p this runs the plain-Python verdict search
(`search.reference_search`, at most --node-limit positions), collects every position it
enters (`State.key()`), and prints the share of them whose mirror it entered too: the most
such keys could save.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def mirror(key: tuple) -> tuple:
    """The key of the mirrored position (`State.key()`'s layout: zones third, active eighth)."""
    from solvers.allisbomb.rules import EQUIP0, EQUIP1

    swap = {EQUIP0: EQUIP1, EQUIP1: EQUIP0}
    zones = tuple(swap.get(z, z) for z in key[2])
    return (*key[:2], zones, *key[3:7], 1 - key[7], *key[8:])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--node-limit", type=int, default=20_000)
    args = ap.parse_args()

    import numpy as np

    import solvers.allisbomb.search as search
    from solvers.allisbomb.deals import deck_size, shuffles
    from solvers.allisbomb.rules import new_game
    from solvers.allisbomb.study import matrix_configs

    seen: set[tuple] = set()
    plain_key = search.search_key

    def recording_key(state, groups):
        seen.add(state.key())
        return plain_key(state, groups)

    search.search_key = recording_key
    for config in (c for c in matrix_configs() if c.players == 2):
        decks = shuffles(deck_size(config), args.deals, np.random.default_rng(args.seed))
        shares = []
        for deck in decks:
            seen.clear()
            res = search.reference_search(new_game(config, list(deck)), args.node_limit)
            share = sum(mirror(k) in seen for k in seen) / len(seen)
            shares.append(share)
            print(
                f"{config.label()}: {res.outcome}, {len(seen):,} positions, "
                f"{share:.1%} with their mirror",
                flush=True,
            )
        print(
            f"{config.label()}: median {statistics.median(shares):.1%}, "
            f"max {max(shares):.1%} of {len(shares)} deals"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
