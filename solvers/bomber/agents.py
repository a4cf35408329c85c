"""Who chooses the moves in Catch the Bomber: agents that see only a player's `View`.

Every agent is called as ``agent.act(view, legal, rng)`` with `rules.View` (own
character and hand, own face-down cards, face-up cards, Footprint owners, hand sizes)
and the legal actions; none is given the `State`. Registered by short name in `AGENTS`:

- ``random``: a uniformly random legal action (the kernel's agent, same random stream).
- ``heuristic``: role-aware scores, one small rule of thumb per card and role (below),
  highest score played, ties broken at random.

Role rules of thumb for ``heuristic`` (each comes from a sentence of the rulebook's
"Character & Basic Cards"):

- Bomber: "to survive, and then to do evil at locations free from any bomb threats":
  hides his card face down away from Police, Police Dogs and visible live bombs;
  places Bombs where Citizens and others' cards are and no Bomb Squad is (never at
  his own location); plays Citizens face down or where Citizens already stand, and
  moves lone Citizens off a location, to help Chaos; moves Bomb Squads away from his
  Bombs.
- Police: "careful deployment at different locations": a Police card goes where no
  Police is yet, the more others' face-down cards (suspicion) the better; Police Dogs
  early in a line, where more cards come after them.
- Police side (all but the Bomber): Citizens face up where none is yet, and moved to
  the Bridge when it has none ("dispersing Citizens ... helps prevent Chaos"); Bomb
  Squads onto visible live bombs; their own Bombs where a Squad already stands, else
  face up (so that a teammate's Squad can follow) and away from Citizens.
- Young Lady and Suspicious Person: a safe place: a visible Bomb Squad, or no visible
  live bomb ("ensuring a space for themselves at a safe location").
- Holy Warrior: "may prefer to fail their teammates and enjoy the ecstasy of winning
  alone": he goes where the Bomber is most suspected and no Bomb Squad is seen, and
  waits for clues while he has other cards; without any suspicion he plays safe
  beside a Bomb Squad.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass

from bombsolve.solvers.bomber import rules as R
from bombsolve.solvers.bomber.rules import (
    AGENT_SALT,
    BRIDGE,
    HIDDEN,
    N_GATHERING,
    N_LOCATIONS,
    Card,
    SplitMix64,
    View,
    decode,
)
from bombsolve.solvers.common.errors import BadInput, unknown


class RandomAgent:
    """Play a uniformly random legal action."""

    name = "random"

    def act(self, view: View, legal: list[int], rng: SplitMix64) -> int:
        """Return one of `legal` chosen uniformly with `rng`."""
        return legal[rng.below(len(legal))]


@dataclass
class _Seen:
    """What a view tells about each location (own face-down cards included)."""

    squad: list[bool]
    live_bomb: list[bool]  # a visible Bomb or Holy Warrior
    police: list[bool]
    dog: list[bool]
    citizens_up: list[int]
    others_hidden: list[int]  # face-down cards of other players
    suspicion: list[float]  # expected Bomber cards, from who might be the Bomber
    my_bomber: int  # location of my Bomber card, -1 if none
    my_bombs: list[bool]
    victims: list[int]  # visible dead-in-explosion cards other than the Bomber


def _suspects(view: View) -> set[int]:
    """Return the players who might be the Bomber, as far as this player can tell."""
    if view.character == Card.BOMBER:
        return set()
    cleared = {view.me}
    for line in view.lines:
        for c, up, o in line:
            if up and c in (Card.POLICE, Card.HOLY_WARRIOR, Card.SUSPICIOUS_PERSON):
                cleared.add(o)
            if up and c == Card.BOMBER:
                return {o}
    return {p for p in range(view.players) if p not in cleared}


def _seen(view: View) -> _Seen:
    suspects = _suspects(view)
    n = N_LOCATIONS
    s = _Seen([False] * n, [False] * n, [False] * n, [False] * n, [0] * n, [0] * n,
              [0.0] * n, -1, [False] * n, [0] * n)  # fmt: skip
    for loc, line in enumerate(view.lines):
        hidden_suspect = 0
        for c, up, o in line:
            if c == HIDDEN:
                s.others_hidden[loc] += 1
                if o in suspects:
                    hidden_suspect += 1
                continue
            if c == Card.BOMB_SQUAD:
                s.squad[loc] = True
            if c in (Card.BOMB, Card.HOLY_WARRIOR):
                s.live_bomb[loc] = True
            if c == Card.POLICE:
                s.police[loc] = True
            if c == Card.POLICE_DOG:
                s.dog[loc] = True
            if c == Card.CITIZEN and up:
                s.citizens_up[loc] += 1
            if c in R.DEAD_IN_EXPLOSION and c != Card.BOMBER:
                s.victims[loc] += 1
            if c == Card.BOMBER:
                if o == view.me:
                    s.my_bomber = loc
                s.suspicion[loc] += 10.0  # a face-up Bomber is no secret
            if c == Card.BOMB and o == view.me:
                s.my_bombs[loc] = True
        if suspects:
            # each suspect's Bomber card is one face-down card somewhere: spread evenly
            s.suspicion[loc] += hidden_suspect / max(len(suspects), 1)
    for loc in range(n):
        s.live_bomb[loc] = s.live_bomb[loc] and not s.squad[loc]
    return s


class HeuristicAgent:
    """Role-aware rules of thumb (module docstring); see only the player's view."""

    name = "heuristic"

    def act(self, view: View, legal: list[int], rng: SplitMix64) -> int:
        """Return the best-scoring legal action; ties broken uniformly with `rng`."""
        seen = _seen(view)
        scores = [self.score(view, seen, a) for a in legal]
        best = max(scores)
        top = [a for a, sc in zip(legal, scores, strict=True) if sc >= best - 1e-9]
        return top[rng.below(len(top))]

    def score(self, view: View, seen: _Seen, action: int) -> float:
        """Score one legal action for this player's role (higher is better)."""
        a = decode(action)
        bomber = view.character == Card.BOMBER
        if a.kind == "play":
            return self._score_play(view, seen, a.card, a.dst, bomber)
        if a.kind == "shelter":
            return 0.0 if bomber else -1.0
        card = _moved_card(view, a)
        return self._score_move(seen, a, card, bomber)

    def _score_play(self, view: View, s: _Seen, card: Card, g: int, bomber: bool) -> float:
        pos = len(view.lines[g])
        up = R.face_up_at(pos)
        hand_size = sum(view.hand)
        sc = 0.0
        if card == Card.BOMBER:
            sc = 2.0 * (not up) + 2.0 * (not s.police[g]) + 2.0 * (not s.dog[g])
            sc += -4.0 * s.live_bomb[g] + 1.0 * s.squad[g] - 0.5 * s.others_hidden[g]
            # the last card must go face down: do not risk being left with no place
            sc += 3.0 if hand_size <= 3 else -1.0
        elif card == Card.BOMB:
            if bomber:
                sc = 1.5 * s.victims[g] + 0.7 * s.others_hidden[g] + 1.0 * (not up)
                sc -= 6.0 * s.squad[g] + 8.0 * (s.my_bomber == g)
            else:
                # defused where a Squad stands; face up so that teammates can defuse it
                sc = 3.0 * s.squad[g] - 1.5 * s.victims[g] + 1.5 * up
                sc += 1.0 * (view.hand[Card.BOMB_SQUAD] > 0 and not s.squad[g])
        elif card == Card.BOMB_SQUAD:
            if bomber:
                sc = 3.0 * (s.my_bomber == g) - 4.0 * s.my_bombs[g] - 1.0 * s.squad[g]
            else:
                sc = 4.0 * s.live_bomb[g] + 0.5 * s.victims[g] - 2.0 * s.squad[g]
        elif card == Card.CITIZEN:
            if bomber:
                sc = 2.0 * (not up) + 2.0 * (up and s.citizens_up[g] > 0) - 1.0 * s.squad[g]
            else:
                sc = 3.0 * (up and s.citizens_up[g] == 0) - 3.0 * s.live_bomb[g]
                sc -= 0.5 * (not up)
        elif card == Card.POLICE:
            sc = 3.0 * (not s.police[g]) + 2.0 * s.suspicion[g]
        elif card == Card.POLICE_DOG:
            if bomber:
                sc = 3.0 * (s.my_bomber == g) + 0.5 * pos
            else:
                sc = 3.0 - 0.5 * pos + 1.0 * (not s.dog[g]) + 1.0 * (not s.police[g])
        elif card == Card.YOUNG_LADY:
            sc = 2.0 * s.squad[g] - 4.0 * s.live_bomb[g] + 1.0 * s.police[g]
        elif card == Card.SUSPICIOUS_PERSON:
            sc = 3.0 * s.squad[g] - 4.0 * s.live_bomb[g] - 0.3 * pos
        elif card == Card.HOLY_WARRIOR:
            best = max(s.suspicion[:N_GATHERING])
            if best > 0.3:
                sc = 4.0 * s.suspicion[g] - 4.0 * s.squad[g]
            else:
                sc = 3.0 * s.squad[g] - 1.0 * s.victims[g]
            sc -= 0.5 * max(hand_size - 2, 0)  # wait for clues while other cards remain
        return sc

    def _score_move(self, s: _Seen, a: R.Action, card: int, bomber: bool) -> float:
        if a.dst == BRIDGE:  # Gathering Point -> Bridge
            src = a.src
            if card == Card.CITIZEN:
                lone = s.citizens_up[src] == 1
                if bomber:
                    return 3.0 if lone and s.citizens_up[BRIDGE] > 0 else -1.0
                return 3.0 if s.citizens_up[BRIDGE] == 0 and not lone else -0.5
            if card == Card.BOMB_SQUAD:
                if bomber:
                    return 4.0 if s.my_bombs[src] and s.my_bomber != src else -2.0
                return -3.0
            if card == Card.POLICE_DOG:
                return 1.0 if bomber else -2.0
            return -1.0
        dst = a.dst  # Bridge -> Gathering Point
        if card == Card.BOMB_SQUAD:
            if bomber:
                return 3.0 if dst == s.my_bomber else -2.0
            return 4.0 if s.live_bomb[dst] else -1.0
        if card == Card.CITIZEN:
            if bomber:
                return 2.0 if s.citizens_up[dst] > 0 else -1.0
            return 2.0 if s.citizens_up[dst] == 0 else -1.0
        if card == Card.POLICE_DOG:
            return 1.0 if not bomber and dst != s.my_bomber else -1.0
        return -1.0


def _moved_card(view: View, a: R.Action) -> int:
    line = view.lines[a.src]
    return line[a.index][0] if a.index < len(line) else HIDDEN


#: The agent classes by short name.
AGENT_CLASSES = {"random": RandomAgent, "heuristic": HeuristicAgent}
#: Every registered agent in one line (the module docstring says more).
AGENTS = {
    "random": "a uniformly random legal action (the kernel's agent, same random stream)",
    "heuristic": "role-aware rules of thumb from the rulebook's card texts, ties at random",
}
#: Specs of every agent, cheap enough for a few games in a test.
QUICK_AGENTS = ("random", "heuristic")
ROLES = {
    "bomber": Card.BOMBER,
    "police": Card.POLICE,
    "young-lady": Card.YOUNG_LADY,
    "holy-warrior": Card.HOLY_WARRIOR,
    "suspicious-person": Card.SUSPICIOUS_PERSON,
}


def make_agent(spec: str) -> RandomAgent | HeuristicAgent:
    """Return a new agent by its spec, a short name of `AGENTS`; raise BadInput for an
    unknown name (with the nearest) and for a ``name:PARAM`` (no agent here takes one)."""
    name, colon, param = spec.partition(":")
    if name not in AGENT_CLASSES:
        raise unknown("agent", name, AGENT_CLASSES)
    if colon:
        raise BadInput(f"agent spec {spec!r}: {name} takes no parameter; expected {name}")
    return AGENT_CLASSES[name]()


def parse_agents(spec: str) -> dict[Card, str]:
    """Parse an agent spec into {character: agent name}.

    'heuristic' gives every role the same agent; 'random,bomber=heuristic' sets a
    default then overrides roles (bomber, police, young-lady, holy-warrior,
    suspicious-person). Raises BadInput for an unknown agent or role or a bad shape.

    >>> parse_agents("random,bomber=heuristic")[Card.BOMBER]
    'heuristic'
    """
    if not spec or not spec.strip():
        raise BadInput("empty agent spec; expected e.g. 'heuristic' or 'random,bomber=heuristic'")
    default = None
    by_role: dict[Card, str] = {}
    for part in spec.split(","):
        part = part.strip()
        if not part:
            raise BadInput(f"malformed agent spec {spec!r}: empty item")
        if "=" in part:
            role, name = (x.strip() for x in part.split("=", 1))
            if role not in ROLES:
                raise unknown("role", role, ROLES)
            if name not in AGENTS:
                raise unknown("agent", name, AGENTS)
            by_role[ROLES[role]] = name
        else:
            if part not in AGENTS:
                raise unknown("agent", part, AGENTS)
            if default is not None:
                raise BadInput(f"agent spec {spec!r} names two defaults; use role=agent")
            default = part
    default = default or "random"
    return {c: by_role.get(c, default) for c in R.CHARACTERS}


def agents_label(by_role: dict[Card, str]) -> str:
    """Return a short stable label in the spec's own syntax, e.g. 'random,bomber=heuristic'.

    The most common agent is the default; roles that differ follow as role=name.

    >>> agents_label(parse_agents("heuristic,bomber=random"))
    'heuristic,bomber=random'
    """
    counts = collections.Counter(by_role.values())
    default = max(sorted(counts), key=lambda n: counts[n])
    inv = {v: k for k, v in ROLES.items()}
    overrides = [f"{inv[c]}={n}" for c, n in sorted(by_role.items()) if n != default]
    return ",".join([default, *overrides])


def play_game(
    players: int,
    seed: int,
    rules: R.Options | None = None,
    agents: dict[Card, str] | None = None,
    extras: tuple[Card, ...] | None = None,
    on_turn=None,
) -> R.State:
    """Deal with `seed`, let each player's role agent act on its view, return the end state.

    The agents share one stream, SplitMix64(seed ^ AGENT_SALT): with every role random
    this is exactly the kernel's game for the same seed. `on_turn(state, player,
    action)` is called after each action (replays use it).
    """
    agents = agents or {c: "random" for c in R.CHARACTERS}
    state = R.new_game(players, seed, rules, extras)
    by_player = [make_agent(agents[c]) for c in state.characters]
    rng = SplitMix64(seed ^ AGENT_SALT)
    while not state.over:
        p = state.current
        legal = R.legal_actions(state, p)
        action = by_player[p].act(R.observe(state, p), legal, rng)
        R.apply(state, action)
        if on_turn is not None:
            on_turn(state, p, action)
    return state
