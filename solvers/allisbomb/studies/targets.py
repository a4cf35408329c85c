"""What the rulebook says of its own difficulty, as checks a stand-in card set must pass.

The rulebook (section G) describes its variants and expansions: Blitz is "the harder
variant of the base game", THE JUICE makes the win conditions "thrillingly harsher", GIFTS
make the game "more cutthroat", MOSQUITOS "add another spicy challenge", ALL is "a very
challenging expansion", DREAM GUIDE "provides a longer, epic game", and the HANDS are what
you add "to lower the difficulty". An invented (stand-in) card set that contradicted these
would mislead every demonstration, so each statement is a `Target` measured here under
perfect play and under the lookahead player. A comparison is met only when the two 95%
Wilson intervals do not overlap (undecided deals counted against the claim at each end).

The two games of a statement are played on paired deals, so that the difference is also
measured on the same deals (`paired`, Tango's interval): deal i of the base game is
``np.random.default_rng([seed, 0, i]).permutation(18)``; deal i of every other configuration
is its `PARENT`'s deal i carried over by `edits.pair_deck` (cards both games share keep their
order, the others are dropped or inserted at uniform positions drawn from
``default_rng([seed, c_index, i])``), which keeps each deal uniform. Blitz, each expansion
and the base game with HANDS have the base game as parent; an expansion with HANDS has the
expansion.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import EXPANSIONS, Options
from bombsolve.solvers.allisbomb.rules.rules import Outcome, new_game
from bombsolve.solvers.allisbomb.search.agents import lookahead_game
from bombsolve.solvers.allisbomb.search.solver import solve_batch
from bombsolve.solvers.allisbomb.studies.edits import pair_deck
from bombsolve.solvers.common.paired import PairedDifference, paired_difference
from bombsolve.solvers.common.stats import binomial_half_quantile, wilson_undecided

#: The configurations the statements compare (by short name).
CONFIGS: dict[str, Options] = {
    "base": Options(),
    "blitz": Options(blitz=True),
    **{e: Options(expansions=(e,)) for e in EXPANSIONS},
    "base+hands": Options(hands=True),
    **{f"{e}+hands": Options(expansions=(e,), hands=True) for e in EXPANSIONS},
}


def _parent(name: str) -> str | None:
    if name == "base":
        return None
    if name.endswith("+hands") and name != "base+hands":
        return name.removesuffix("+hands")
    return "base"


#: The configuration whose deal i each configuration's deal i is carried over from.
PARENT: dict[str, str | None] = {name: _parent(name) for name in CONFIGS}


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
    #: Per deal: the outcome code (1 win, 0 loss, 2 undecided) and the turns played.
    codes: tuple[int, ...] = ()
    turns: tuple[int, ...] = ()

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
    lo_k = binomial_half_quantile(0.025, n)
    hi_k = min(binomial_half_quantile(0.975, n), n - 1)
    return (float(np.median(x)), float(x[max(lo_k - 1, 0)]), float(x[hi_k]))


def decks(name: str, cards_file: Path | None, seed: int, deals: int) -> np.ndarray:
    """The `deals` deals of configuration `name`, paired with its `PARENT`'s (module doc)."""
    return _decks(name, cards_file, seed, deals).copy()


@lru_cache(maxsize=64)
def _decks(name: str, cards_file: Path | None, seed: int, deals: int) -> np.ndarray:
    config = replace(CONFIGS[name], cards_file=cards_file)
    cs = load_cards(config)
    parent = PARENT[name]
    if parent is None:
        rows = [np.random.default_rng([seed, 0, i]).permutation(cs.n) for i in range(deals)]
        return np.stack(rows).astype(np.int64)
    pcs = load_cards(replace(CONFIGS[parent], cards_file=cards_file))
    index = list(CONFIGS).index(name)
    rows = [
        pair_deck(pcs, cs, d, np.random.default_rng([seed, index, i]))
        for i, d in enumerate(_decks(parent, cards_file, seed, deals))
    ]
    return np.stack(rows).astype(np.int64)


def measure(
    name: str,
    cards_file: Path | None,
    player: str,
    deals: int,
    seed: int,
    node_limit: int,
    prefix: Measure | None = None,
) -> Measure:
    """Play `deals` deals of configuration `name` (with `cards_file`) with `player`.

    `prefix` is a measure of the first deals of the same game, seed and player (a smaller
    sample, e.g. from a cache): deal i does not depend on the sample size (`decks`), so only
    the deals after it are played and its per-deal outcomes are kept as they are.
    """
    config = replace(CONFIGS[name], cards_file=cards_file)
    start = 0 if prefix is None else len(prefix.codes)
    if prefix is not None and (start != prefix.n or not 0 < start <= deals):
        raise ValueError(
            f"prefix must hold the per-deal outcomes of 1 to {deals} deals, got {prefix.n} "
            f"deals with {start} outcomes"
        )
    ds = _decks(name, cards_file, seed, deals)[start:]
    if player == "perfect":
        if len(ds):
            out = solve_batch(config, ds, node_limit=node_limit)
            code, turns = np.asarray(out["code"], np.int64), np.asarray(out["turns"], np.int64)
        else:
            code, turns = np.zeros(0, np.int64), np.zeros(0, np.int64)
    else:
        cs = load_cards(config)
        code = np.zeros(len(ds), np.int64)
        turns = np.zeros(len(ds), np.int64)
        for i, deck in enumerate(ds):
            line = lookahead_game(new_game(cs, deck.tolist()))
            turns[i] = len(line) - 1
            code[i] = 1 if line[-1].outcome is Outcome.WIN else 0
    if prefix is not None:
        code = np.concatenate([np.asarray(prefix.codes, np.int64), code])
        turns = np.concatenate([np.asarray(prefix.turns, np.int64), turns])
    med, lo, hi = median_interval(turns[code == 1].tolist())
    return Measure(
        deals,
        int((code == 1).sum()),
        int((code == 2).sum()),
        med,
        lo,
        hi,
        tuple(int(x) for x in code),
        tuple(int(x) for x in turns),
    )


def paired(harder: Measure, easier: Measure) -> PairedDifference:
    """``rate(easier) - rate(harder)`` on the same deals, with Tango's 95% interval."""
    if len(harder.codes) != len(easier.codes) or not harder.codes:
        raise ValueError("paired needs both measures' per-deal codes, on the same deals")
    table = [[0] * 3 for _ in range(3)]
    for x, y in zip(harder.codes, easier.codes, strict=True):
        table[x][y] += 1
    return paired_difference(table)


#: Campaign Mode (rulebook H): medals at 5, 10 and 15 points. "Gold rare, not the rule" for the
#: lookahead player: the upper end of the gold share's 95% interval below this.
GOLD_RARE = 0.30


@dataclass(frozen=True)
class CampaignMeasure:
    """Medal counts of `n` lookahead-player campaigns and the median points."""

    n: int
    medals: dict
    points_median: float

    @property
    def gold_interval(self) -> tuple[float, float]:
        from bombsolve.solvers.common.stats import wilson

        return wilson(self.medals.get("gold", 0), self.n)

    def met(self) -> bool:
        """Gold is rare (upper 95% end below `GOLD_RARE`) and not every campaign earns the
        same medal."""
        return self.gold_interval[1] < GOLD_RARE and sum(v > 0 for v in self.medals.values()) >= 2


def measure_campaign(cards_file: Path | None, campaigns: int, seed: int) -> CampaignMeasure:
    """Play `campaigns` campaigns with the lookahead player; campaign i uses
    ``default_rng([seed, 99, i])``."""
    return campaign_measure(campaign_results(cards_file, seed, range(campaigns)))


def campaign_results(
    cards_file: Path | None, seed: int, indices: Sequence[int]
) -> list[tuple[int, str]]:
    """(points, medal) of the lookahead player's campaigns `indices` (campaign i uses
    ``default_rng([seed, 99, i])``): a study can be split into parts and merged."""
    from bombsolve.solvers.allisbomb.studies.campaign_players import play_campaign_lookahead

    out = []
    for i in indices:
        r = play_campaign_lookahead(np.random.default_rng([seed, 99, i]), cards_file)
        out.append((r.points, r.medal))
    return out


def campaign_measure(results: Sequence[tuple[int, str]]) -> CampaignMeasure:
    """The medal counts and median points of campaign results (`campaign_results`)."""
    medals = {m: sum(r[1] == m for r in results) for m in ("gold", "silver", "bronze", "none")}
    return CampaignMeasure(len(results), medals, float(np.median([r[0] for r in results])))


def judge(t: Target, harder: Measure, easier: Measure) -> bool:
    """True when the statement holds with non-overlapping 95% intervals."""
    if t.measure == "turns":
        return harder.turns_lo > easier.turns_hi
    return harder.interval[1] < easier.interval[0]
