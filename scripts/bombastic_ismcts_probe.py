"""Why ISMCTS gambles: its win rate and self-inflicted bomb losses against `heuristic`.

    python scripts/bombastic_ismcts_probe.py --games 40 --seed 31     # about 1-2 minutes

ISMCTS plays X against `heuristic` on the same seeded deals with 100 and 400 iterations
and random playouts, and with 100 iterations and the "informed" playouts (random, but no
blunders on the sampled grid). For each: X's wins with a Wilson 95% interval, and the
games X lost by going for a line that held the bomb.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solvers.bombastic.agents import ISMCTSAgent, make_agent, play_game  # noqa: E402
from solvers.bombastic.rules import Options  # noqa: E402
from solvers.common.stats import wilson  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=31)
    args = ap.parse_args()
    seeds = np.random.SeedSequence(args.seed).generate_state(args.games, dtype=np.uint64)
    for iterations, rollout in [(100, "random"), (400, "random"), (100, "informed")]:
        wins = bombed = 0
        for s in seeds:
            r = play_game(
                ISMCTSAgent(iterations, rollout=rollout), make_agent("heuristic"), int(s), Options()
            )
            wins += r.winner == 0
            bombed += r.winner == 1 and r.ending.name == "GO_FOR_IT_BOMB"
        lo, hi = wilson(wins, args.games)
        print(
            f"ismcts:{iterations} ({rollout} playouts) as X vs heuristic: won {wins}/{args.games}"
            f" = {wins / args.games:.0%} [{lo:.0%}, {hi:.0%}]; went for the bomb in {bombed}"
        )


if __name__ == "__main__":
    main()
