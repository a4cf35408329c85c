"""Why ISMCTS gambles: its win rate and self-inflicted bomb losses against `heuristic`.

    python scripts/bombastic_ismcts_probe.py --games 40 --seed 31     # about 1-2 minutes

ISMCTS plays X against `heuristic` on the same seeded deals with 100 and 400 iterations
and random playouts, and with 100 iterations and the "informed" playouts (random, but no
blunders on the sampled grid), and `ismcts-guarded` at 100 iterations. For each: X's wins with a Wilson 95% interval, and the
games X lost by going for a line that held the bomb.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solvers.bombastic.agents import (  # noqa: E402
    GuardedISMCTSAgent,
    ISMCTSAgent,
    make_agent,
    play_game,
)
from solvers.bombastic.rules import Options  # noqa: E402
from solvers.common.stats import wilson  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=31)
    args = ap.parse_args()
    seeds = np.random.SeedSequence(args.seed).generate_state(args.games, dtype=np.uint64)
    variants = [
        (ISMCTSAgent, 100, "random"),
        (ISMCTSAgent, 400, "random"),
        (ISMCTSAgent, 100, "informed"),
        (GuardedISMCTSAgent, 100, "random"),
    ]
    for cls, iterations, rollout in variants:
        wins = bombed = 0
        for s in seeds:
            r = play_game(
                cls(iterations, rollout=rollout), make_agent("heuristic"), int(s), Options()
            )
            wins += r.winner == 0
            bombed += r.winner == 1 and r.ending.name == "GO_FOR_IT_BOMB"
        lo, hi = wilson(wins, args.games)
        print(
            f"{cls.name}:{iterations} ({rollout} playouts) as X vs heuristic: won {wins}/{args.games}"
            f" = {wins / args.games:.0%} [{lo:.0%}, {hi:.0%}]; went for the bomb in {bombed}"
        )


if __name__ == "__main__":
    main()
