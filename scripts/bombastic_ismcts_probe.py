"""How strong is an ISMCTS agent? Its score against other agents on fresh deals.

    python scripts/bombastic_ismcts_probe.py \
        --agent ismcts-heuristic-guarded:300 --against heuristic --games 200
    python scripts/bombastic_ismcts_probe.py --against greedy --games 100

Game g (g = 0, 1, ...) uses seed FIRST_SEED + g (default 700000: away from the
reference study's seeds) and seats the probed agent as X when g is even, as O when g
is odd. For each opponent: the probed agent's wins with a Wilson 95% interval, the
games it lost by its own gamble (went for the bomb, peeked at it, a losing ALARM), and
seconds per game. Deterministic: the same command prints the same wins.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solvers.bombastic.agents import make_agent, play_game  # noqa: E402
from solvers.bombastic.rules import Options  # noqa: E402
from solvers.common.stats import wilson  # noqa: E402

OWN_GAMBLES = {"GO_FOR_IT_BOMB", "PEEKED_BOMB", "ALARM_GO_FOR_IT_BOMB", "L_SHAPE_LOSS"}


def probe(agent: str, opponent: str, games: int, first_seed: int) -> dict:
    """Play `games` games of `agent` against `opponent`, alternating seats."""
    wins = losses = own = 0
    endings: Counter = Counter()
    t0 = time.perf_counter()
    for g in range(games):
        me = g % 2
        pair = [make_agent(opponent), make_agent(opponent)]
        pair[me] = make_agent(agent)
        r = play_game(pair[0], pair[1], first_seed + g, Options())
        wins += r.winner == me
        losses += r.winner == 1 - me
        own += r.winner == 1 - me and r.ending.name in OWN_GAMBLES
        endings[r.ending.name] += 1
    lo, hi = wilson(wins, games)
    return {
        "agent": agent,
        "opponent": opponent,
        "games": games,
        "wins": wins,
        "losses": losses,
        "lo": lo,
        "hi": hi,
        "own_gamble_losses": own,
        "seconds_per_game": (time.perf_counter() - t0) / games,
        "endings": dict(endings),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--agent", default="ismcts-heuristic-guarded:300")
    ap.add_argument("--against", default="heuristic,greedy")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--first-seed", type=int, default=700000)
    args = ap.parse_args()
    for opponent in args.against.split(","):
        r = probe(args.agent, opponent.strip(), args.games, args.first_seed)
        print(
            f"{r['agent']} vs {r['opponent']}: won {r['wins']}/{r['games']} = "
            f"{r['wins'] / r['games']:.0%} [{r['lo']:.0%}, {r['hi']:.0%}], lost {r['losses']} "
            f"({r['own_gamble_losses']} by its own gamble); {r['seconds_per_game']:.2f} s/game"
        )


if __name__ == "__main__":
    main()
