"""Campaign Mode played by the lookahead player (rulebook H), with any card file.

`campaign.play_campaign` plays each game under perfect play; this plays it as a good human
might, with `agents.lookahead_game`, so the medal thresholds (5, 10, 15 points) can be
judged for a player who does not see the whole deck. The game's final position is always
known here, won or lost, so the removals are exactly the rulebook's: every circle card of
the played game, and every star card in its DISCARD PILE (`campaign.removals_after_game`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from bombsolve.solvers.allisbomb.cards.cards import load_cards
from bombsolve.solvers.allisbomb.cards.config import EXPANSIONS
from bombsolve.solvers.allisbomb.rules.rules import Outcome, new_game
from bombsolve.solvers.allisbomb.search.agents import (
    DEFAULT_BUDGET,
    DEFAULT_WEIGHTS,
    Budget,
    Weights,
    lookahead_game,
)
from bombsolve.solvers.allisbomb.studies.campaign import campaign_config, removals_after_game, score


@dataclass(frozen=True)
class LookaheadCampaign:
    """One campaign: outcome per game, cards kept into the last game, points and medal."""

    wins: tuple[bool, ...]
    kept_cards: int
    points: int
    medal: str


def play_campaign_lookahead(
    rng: np.random.Generator,
    cards_file: Path | None = None,
    budget: Budget = DEFAULT_BUDGET,
    weights: Weights = DEFAULT_WEIGHTS,
) -> LookaheadCampaign:
    """Play the six games of a campaign with the lookahead player, deals shuffled from `rng`."""
    removed: list[str] = []
    wins: list[bool] = []
    kept = 0
    for game in range(len(EXPANSIONS)):
        cfg = replace(campaign_config(game, tuple(removed)), cards_file=cards_file).validate()
        cs = load_cards(cfg)
        kept = cs.n
        line = lookahead_game(new_game(cs, rng.permutation(cs.n).tolist()), budget, weights)
        final = line[-1]
        wins.append(final.outcome is Outcome.WIN)
        removed += removals_after_game(final)
    points, medal = score(kept, wins)
    return LookaheadCampaign(tuple(wins), kept, points, medal)
