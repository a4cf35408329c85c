"""Fixed positions for the Bomb the Dragon tests: build a state card by card."""

from __future__ import annotations

from bombsolve.solvers.common.rng import SplitMix64
from bombsolve.solvers.dragon.cards import load_cards
from bombsolve.solvers.dragon.rules import GameState, Options, Slot, View

CARDS = load_cards()


def fc(power: int, lanterns: int = 1) -> int:
    """Return the id of the firecracker with this power and lanterns."""
    for c in CARDS.firecrackers:
        if c.power == power and c.lanterns == lanterns:
            return c.id
    raise KeyError((power, lanterns))


def bodies(*vitalities: int) -> list[int]:
    """Return distinct body ids with these vitalities (repeats take the next copy)."""
    used: list[int] = []
    for v in vitalities:
        for b in CARDS.bodies:
            if b.vitality == v and b.id not in used:
                used.append(b.id)
                break
        else:
            raise KeyError(v)
    return used


def position(
    n: int,
    row: list[tuple[int, list[int]]],
    hands: list[list[int]] | None = None,
    deck: list[int] | None = None,
    discard: list[int] | None = None,
    dragon: list[int] | None = None,
    options: Options | None = None,
) -> GameState:
    """Return a state with this row [(vitality, cards under it)], hands, deck (top last).

    Cards not placed anywhere go to the discard pile unless `discard` is given, in which
    case the rest go to the bottom of the deck, so every card is somewhere.
    """
    state = GameState(n, seed=1, options=options)
    ids = bodies(*[v for v, _ in row])
    state.row = [
        Slot(b, list(cs), sum(CARDS.firecrackers[c].power for c in cs))
        for b, (_, cs) in zip(ids, row, strict=True)
    ]
    state.hands = [list(h) for h in (hands or [[] for _ in range(n)])]
    used = {c for h in state.hands for c in h} | {c for _, cs in row for c in cs}
    used |= set(deck or []) | set(discard or [])
    rest = [c.id for c in CARDS.firecrackers if c.id not in used]
    if discard is None:
        state.deck = list(deck or [])
        state.discard = rest
    else:
        state.deck = rest + list(deck or [])
        state.discard = list(discard)
    if dragon is not None:
        state.dragon = list(dragon)
    else:
        state.dragon = [b.id for b in CARDS.bodies if b.id not in ids]
    return state


class Scripted:
    """An agent that plays given cards turn after turn and sends Rockets to given slots."""

    name = "scripted"

    def __init__(self, plays: list[list[int]] | None = None, rockets: list[int] | None = None):
        self.plays = list(plays or [])
        self.rockets = list(rockets or [])
        self.seen: list[View] = []

    def choose(self, view: View, rng: SplitMix64 | None) -> list[int]:
        self.seen.append(view)
        return self.plays.pop(0)

    def rocket(self, view: View, card: int, slots: list[int], rng: SplitMix64 | None) -> int:
        self.seen.append(view)
        self.slots_offered = slots
        return self.rockets.pop(0)


def place(state: GameState, choices: list[list[int]], rockets: dict[int, list[int]] | None = None):
    """Place these choices (one list per seat) with scripted Rocket targets."""
    rockets = rockets or {}
    agents = [Scripted(rockets=rockets.get(p, [])) for p in range(state.n)]
    state.place(choices, lambda p, card, slots: agents[p].rocket(state.view(p), card, slots, None))
    return agents


def row_summary(state: GameState) -> list[tuple[int, int]]:
    """Return [(vitality or -1, power)] for the row."""
    return [(CARDS.bodies[s.body].vitality if s.body >= 0 else -1, s.power) for s in state.row]
