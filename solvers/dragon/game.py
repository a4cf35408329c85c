"""Bomb the Dragon as every game's front door shows it (solvers/common/game.py): a game
from a seed, its decisions one at a time, what each seat sees, who won.

The decisions are the engine's (rules.py, "Actions"): each seat's face-down choice of
step 1, asked in seat order, then each Rocket's slot in step 2. `new_game(seed)` is the
game whose seed is `seed`: the one `bombsolve dragon replay --seed SEED` prints, and game
i of `bombsolve dragon play --seed ROOT` is `new_game(game_seeds(ROOT, games)[i])`
(bombsolve.solvers.common.seeds).
"""

from __future__ import annotations

from bombsolve.solvers.common.game import IllegalAction, Result
from bombsolve.solvers.common.rng import SplitMix64
from bombsolve.solvers.dragon.agents import CODES, make_agents
from bombsolve.solvers.dragon.rules import (
    PICK,
    ROCKET,
    GameState,
    Options,
    View,
    pick_cards,
    play_game,
    rocket_base,
)

NAME = "dragon"
#: "2-Player Rules" to the six seats of the row.
PLAYERS = (2, 3, 4, 5, 6)


def new_game(seed: int, players: int | None = None, options: Options | None = None) -> GameState:
    """The game of this seed (`players=None`: two), at its first decision; no text log."""
    return GameState(players or PLAYERS[0], seed, options, record=False)


def to_move(state: GameState) -> int:
    """The seat whose decision is pending, or -1 once the game is over."""
    return -1 if state.over else state.seat


def legal_actions(state: GameState) -> list[int]:
    """The actions of the decision pending, in increasing order; empty once it is over."""
    return state.legal_actions()


def apply(state: GameState, action: int) -> GameState:
    """The state after `action` (run on to the next decision); `state` is left unchanged."""
    after = state.copy()
    after.advance(action)
    return after


def describe(state: GameState, action: int) -> str:
    """`action` in the rulebook's words, for the seat to move."""
    if action not in state.legal_actions():
        raise IllegalAction(f"action {action!r} is not legal here")
    seat = f"p{state.seat + 1}"
    n_fire = len(state.cards.firecrackers)
    if state.decision == PICK:
        cards = " and ".join(str(state.fc(c)) for c in pick_cards(action, n_fire))
        return f"{seat} chooses {cards} face down"
    assert state.decision == ROCKET
    slot = action - rocket_base(n_fire)
    body = state.row[slot].body
    under = f"Dragon Body {state.body(body)}" if body >= 0 else "the empty slot"
    return f"{seat} places the Rocket {state.fc(state.rocket)} under {under} (slot {slot + 1})"


def outcome(state: GameState) -> Result | None:
    """None while the game goes on; then the winners ("End of Game": highest total, fewest
    Dragon Body cards on a tie, still tied share) and how it ended."""
    if not state.over:
        return None
    target = state.options.target
    if max(state.scores) >= target:
        ending = f"a player reached {target} points at the end of a round"
    else:
        ending = f"the round limit ({state.options.max_rounds} rounds, a safeguard)"
    return Result(tuple(state.winners()), ending)


def view(state: GameState, player: int) -> View:
    """What `player` sees (rules.View): own hand and choice, never another's hand, choice
    before the reveal, nor the order of either deck."""
    return state.view(player)


def resample(state: GameState, player: int, rng: SplitMix64) -> GameState:
    """A state `player` cannot tell from `state`: the others' hands (but for cards revealed
    and not placed yet) and the Firecracker deck dealt again from the cards `player` has
    not seen, the others' face-down choices redrawn with them, the Dragon deck reshuffled
    and the chance to come drawn afresh."""
    other = state.copy()
    revealed = [set() for _ in range(other.n)]
    if other.decision == ROCKET:
        for card, q in other.queue[other.queue_at :]:
            revealed[q].add(card)
    pool = list(other.deck)
    for q in range(other.n):
        if q != player:
            pool += [c for c in other.hands[q] if c not in revealed[q]]
    rng.shuffle(pool)
    for q in range(other.n):
        if q == player:
            continue
        dealt = {}
        hand = []
        for c in other.hands[q]:
            dealt[c] = c if c in revealed[q] else pool.pop()
            hand.append(dealt[c])
        other.hands[q] = hand
        if other.decision == PICK and q < len(other.choices):
            other.choices[q] = sorted((dealt[c] for c in other.choices[q]), key=_order(other))
    other.deck = pool
    rng.shuffle(other.dragon)
    other.rng = SplitMix64(rng.next())
    return other


def _order(state: GameState):
    return lambda c: state.fc(c).order


def reference_and_kernel(
    seed: int, players: int | None = None, options: Options | None = None
) -> tuple[object, object]:
    """One game of random agents from `seed` in the reference engine and in the kernel:
    (final scores, captures, rounds, turns) of each."""
    from bombsolve.solvers.dragon import kernel

    n = players or PLAYERS[0]
    ref = play_game(n, make_agents(["random"] * n), seed, options)
    captures = [(r, t, p, b, int(x2), c) for r, t, p, b, x2, c in ref.captures]
    scores, kernel_captures, rounds, turns = kernel.game_record(
        n, seed, [CODES["random"]] * n, options
    )
    return (
        (list(ref.scores), captures, ref.round, ref.turns_total),
        (scores, kernel_captures, rounds, turns),
    )
