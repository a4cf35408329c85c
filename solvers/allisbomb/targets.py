"""What the rulebook says of its own difficulty, as checks a stand-in card set must pass.

The rulebook (section G) describes its variants and expansions: Blitz is "the harder
variant of the base game", THE JUICE makes the win conditions "thrillingly harsher", GIFTS
make the game "more cutthroat", MOSQUITOS "add another spicy challenge", ALL is "a very
challenging expansion", DREAM GUIDE "provides a longer, epic game", and the HANDS are what
you add "to lower the difficulty". An invented (stand-in) card set that contradicted these
would mislead every demonstration, so each statement is a `Target` measured here under
perfect play and under the lookahead player. A comparison is met only when the two 95%
Wilson intervals do not overlap (undecided deals counted against the claim at each end).

Deal i of configuration c is ``np.random.default_rng([seed, c_index, i]).permutation(n)``:
independent samples per configuration, as the statements compare separate games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from scipy.stats import binom

from solvers.allisbomb.cards import load_cards
from solvers.allisbomb.config import EXPANSIONS, GameConfig
from solvers.allisbomb.players import lookahead_game
from solvers.allisbomb.rules import Outcome, new_game
from solvers.allisbomb.solver import solve_batch
from solvers.common.stats import wilson_undecided

#: The configurations the statements compare (by short name).
CONFIGS: dict[str, GameConfig] = {
    "base": GameConfig(),
    "blitz": GameConfig(blitz=True),
    **{e: GameConfig(expansions=(e,)) for e in EXPANSIONS},
    "base+hands": GameConfig(hands=True),
    **{f"{e}+hands": GameConfig(expansions=(e,), hands=True) for e in EXPANSIONS},
}


@dataclass(frozen=True)
class Target:
    """One statement: `harder` is played less often won than `easier` (or longer, by turns)."""

    statement: str
    quote: str
    harder: str
    easier: str
    measure: str = "win"  # "win": win rates; "turns": median turns of won games (longer)


TARGETS: tuple[Target, ...] = (
    Target(
        "Blitz is harder than the base game",
        "the quicker, thinner, but also the harder variant of the base game",
        "blitz",
        "base",
    ),
    Target(
        "THE JUICE is harsher than the base game",
        "making them thrillingly harsher",
        "the_juice",
        "base",
    ),
    Target(
        "GIFTS are harder than the base game",
        "more cutthroat, crazy and unpredictable",
        "gifts",
        "base",
    ),
    Target(
        "MOSQUITOS are harder than the base game",
        "add another spicy challenge",
        "mosquitos",
        "base",
    ),
    Target("ALL is harder than the base game", "a very challenging expansion", "all", "base"),
    Target(
        "DREAM GUIDE gives a longer game", "a longer, epic game", "dream_guide", "base", "turns"
    ),
    Target(
        "HANDS lower the difficulty (base)", "add the HANDS when you lose", "base", "base+hands"
    ),
    *(
        Target(f"HANDS lower the difficulty ({e})", "add the HANDS when you lose", e, f"{e}+hands")
        for e in EXPANSIONS
    ),
)


@dataclass(frozen=True)
class Measure:
    """Win rate (with interval) and median turns of won games (with interval) of one sample."""

    n: int
    wins: int
    undecided: int
    turns_median: float
    turns_lo: float
    turns_hi: float

    @property
    def rate(self) -> float:
        return self.wins / self.n

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_undecided(self.wins, self.undecided, self.n)


def median_interval(values: Sequence[int]) -> tuple[float, float, float]:
    """The median and its distribution-free 95% interval (binomial order statistics)."""
    x = np.sort(np.asarray(values, dtype=float))
    n = len(x)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    lo_k = int(binom.ppf(0.025, n, 0.5))
    hi_k = min(int(binom.ppf(0.975, n, 0.5)), n - 1)
    return (float(np.median(x)), float(x[max(lo_k - 1, 0)]), float(x[hi_k]))


def _decks(config: GameConfig, seed: int, index: int, deals: int) -> np.ndarray:
    n = load_cards(config).n
    return np.stack(
        [np.random.default_rng([seed, index, i]).permutation(n) for i in range(deals)]
    ).astype(np.int64)


def measure(
    name: str, cards_file: Path | None, player: str, deals: int, seed: int, node_limit: int
) -> Measure:
    """Play `deals` deals of configuration `name` (with `cards_file`) with `player`."""
    config = replace(CONFIGS[name], cards_file=cards_file)
    decks = _decks(config, seed, list(CONFIGS).index(name), deals)
    if player == "perfect":
        out = solve_batch(config, decks, node_limit=node_limit)
        code, turns = out["code"], out["turns"]
        won = turns[code == 1]
    else:
        cs = load_cards(config)
        code = np.zeros(deals, np.int64)
        won_list = []
        for i, deck in enumerate(decks):
            line = lookahead_game(new_game(cs, deck.tolist()))
            if line[-1].outcome is Outcome.WIN:
                code[i] = 1
                won_list.append(len(line) - 1)
        won = np.asarray(won_list)
    med, lo, hi = median_interval(won.tolist())
    return Measure(deals, int((code == 1).sum()), int((code == 2).sum()), med, lo, hi)


def judge(t: Target, harder: Measure, easier: Measure) -> bool:
    """True when the statement holds with non-overlapping 95% intervals."""
    if t.measure == "turns":
        return harder.turns_lo > easier.turns_hi
    return harder.interval[1] < easier.interval[0]
