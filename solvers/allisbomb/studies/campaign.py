"""Campaign Mode (rulebook H): six games, permanent removals, score and medal.

Game k (0..5) is played with the HANDS pack, the cards kept from earlier games, and the
k-th expansion; only that expansion's win conditions count (plus the base ones, replaced
by WAKING UP's from game 5 on: "You also retain the new win conditions of the WAKING UP
expansion for the next (last) game"). After each game every card with the circle symbol
is removed, and every card with the star symbol that lies in the DISCARD PILE.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from bombsolve.solvers.allisbomb.cards.config import DEFAULT_CARDS, EXPANSIONS, Options
from bombsolve.solvers.allisbomb.rules.rules import DISCARD, State

#: Points thresholds of the medals (rulebook H, "Score").
MEDALS = ((15, "gold"), (10, "silver"), (5, "bronze"))


def campaign_config(
    game: int,
    removed: tuple[str, ...] = (),
    players: int = 1,
    cards_version: str = DEFAULT_CARDS,
) -> Options:
    """The Options of campaign game `game` (0 = MOSQUITOS ... 5 = ALL).

    `removed` lists the labels removed so far (one entry per removed copy); `cards_version`
    names the stand-in set version (`config.CARD_VERSIONS`).
    """
    if not 0 <= game < len(EXPANSIONS):
        raise ValueError(f"campaign game must be 0..{len(EXPANSIONS) - 1}, not {game}")
    current = EXPANSIONS[game]
    return Options(
        expansions=(current,),
        hands=True,
        players=players,
        extra_sets=tuple(EXPANSIONS[:game]),
        removed=tuple(removed),
        waking_up_rules=True if game >= EXPANSIONS.index("waking_up") else False,
        cards_version=cards_version,
    ).validate()


def removals_after_game(final: State) -> list[str]:
    """Labels removed after a game (rulebook H): every circle card, star cards in the discard."""
    out = []
    for c, card in enumerate(final.cards.cards):
        if card.campaign == "circle":
            out.append(card.label)
        elif card.campaign == "star" and final.zone[c] == DISCARD:
            out.append(card.label)
    return out


def removals_pessimistic(cards_state: State) -> list[str]:
    """Removals when the final position is unknown (a lost or undecided game): every circle
    card and every star card, as if all star cards ended in the DISCARD PILE."""
    return [c.label for c in cards_state.cards.cards if c.campaign in ("circle", "star")]


def score(kept_cards: int, wins: list[bool]) -> tuple[int, str]:
    """Points and medal (rulebook H): a point per card kept into the last game, 1 per win of
    games 1-5, 3 for a win of the last game; 5 bronze, 10 silver, 15 gold.

    >>> score(12, [True, False, True, False, False, True])
    (17, 'gold')
    """
    if len(wins) != len(EXPANSIONS):
        raise ValueError(f"a campaign has {len(EXPANSIONS)} games, not {len(wins)}")
    points = kept_cards + sum(wins[:-1]) + (3 if wins[-1] else 0)
    medal = next((name for need, name in MEDALS if points >= need), "none")
    return points, medal


@dataclass
class CampaignResult:
    """One campaign under perfect play of each game (see `play_campaign`)."""

    outcomes: list[str]
    kept_cards: int
    removed: list[str]
    points: int
    medal: str
    nodes: int
    #: per game: the win was proven to keep the most cards (keep_most search finished, no
    #: E_NOT_BEST); False for a lost or undecided game and for keep_most=False
    best: list[bool] = field(default_factory=list)
    #: per game: star cards in the DISCARD PILE at the end of the win played (None unless won)
    stars_lost: list[int | None] = field(default_factory=list)


def play_campaign(
    rng: np.random.Generator,
    players: int = 1,
    node_limit: int = 2_000_000,
    keep_most: bool = True,
    bound: bool = True,
    cards_version: str = DEFAULT_CARDS,
) -> CampaignResult:
    """Play the six games, each deal shuffled from `rng` and solved under perfect play.

    keep_most=True: of a won game's wins, the one leaving the fewest star cards in the
    DISCARD PILE (`solve_state(keep_most=True)`); False: the first win found. A lost or
    undecided game removes pessimistically (`removals_pessimistic`). bound=True (default)
    searches keep_most by branch and bound (`solve_state(bound=True)`), False by the plain
    exhaustive search; both give the same best win when they finish.
    """
    from bombsolve.solvers.allisbomb.kernel.kernel import E_NOT_BEST
    from bombsolve.solvers.allisbomb.rules.rules import new_game
    from bombsolve.solvers.allisbomb.search.search import stars_lost
    from bombsolve.solvers.allisbomb.search.solver import compiled, solve_state, verify_solution

    removed: list[str] = []
    outcomes: list[str] = []
    nodes = 0
    kept = 0
    best: list[bool] = []
    lost: list[int | None] = []
    for game in range(len(EXPANSIONS)):
        cfg = campaign_config(game, tuple(removed), players, cards_version)
        cs = compiled(cfg).cards
        kept = cs.n
        state = new_game(cs, rng.permutation(cs.n).tolist())
        res = solve_state(state, node_limit=node_limit, keep_most=keep_most, bound=bound)
        outcomes.append(res.outcome)
        nodes += res.nodes
        won = res.outcome == "win"
        best.append(won and keep_most and not res.loss_reason & E_NOT_BEST)
        if won:
            final = verify_solution(state, res.solution)
            lost.append(stars_lost(final))
            removed += removals_after_game(final)
        else:
            lost.append(None)
            removed += removals_pessimistic(state)
    points, medal = score(kept, [o == "win" for o in outcomes])
    return CampaignResult(outcomes, kept, removed, points, medal, nodes, best, lost)
