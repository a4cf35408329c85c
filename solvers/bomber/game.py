"""Catch the Bomber behind the front door every game keeps (solvers/common/game.py): the
reference engine (`rules`) as the contract's functions, whose `apply` leaves its argument
unchanged, with the seeding of `bombsolve bomber play` and the kernel beside it.

A game is `rules.State`; an action is one of the engine's dense action numbers (`rules`
module table); a seat's view is `rules.View`.
"""

from __future__ import annotations

import collections
from collections.abc import Iterable

from bombsolve.solvers.bomber import rules as R
from bombsolve.solvers.bomber.agents import play_game
from bombsolve.solvers.bomber.rules import Card, Options, State, View
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.game import IllegalAction, Result
from bombsolve.solvers.common.options import changed_rules
from bombsolve.solvers.common.rng import SplitMix64
from bombsolve.solvers.common.seeds import game_seeds

NAME = "bomber"
PLAYERS = tuple(range(R.MIN_PLAYERS, R.MAX_PLAYERS + 1))

#: Values a test may give each option: every reading `bombsolve bomber rules` lists.
RULE_SAMPLES: dict[str, tuple[object, ...]] = {
    r.name: tuple(c == "true" if c in ("true", "false") else c for c in r.choices)
    for r in R.OPEN_READINGS
}

#: Resampling draws again until the redrawn game replays; a deal that does not replay is
#: rare (a face-down Suspicious Person before the owner's last card, a seat that would have
#: had no possible action), so this bound is never met in practice.
MAX_DRAWS = 10_000


# --- options ---------------------------------------------------------------------------


def options_from_rules(texts: Iterable[str]) -> Options:
    """Options from ``--rule NAME=VALUE`` texts, as `bombsolve bomber` reads its --rule:
    each text one option (bombsolve.cli.common.rules_text's check), then `rules.parse_rules`, which
    names an unknown option with the nearest and a bad value with the expected ones."""
    pieces = []
    for text in texts:
        name, eq, value = text.partition("=")
        if not eq or not name.strip() or not value.strip() or "," in text:
            raise BadInput(f"--rule {text!r}: expected NAME=VALUE (one option per --rule)")
        pieces.append(f"{name.strip()}={value.strip()}")
    return R.parse_rules(",".join(pieces))


def rules_of(options: Options) -> list[str]:
    """The ``--rule`` texts that rebuild `options`: the options that differ from the
    rulebook's game, in field order (flags as true/false)."""
    return changed_rules(options)


# --- the game ----------------------------------------------------------------------------


def game_seed(seed: int) -> int:
    """The seed of the first game of ``bombsolve bomber play --seed SEED`` (its
    ``first_game_seed``): the deal and the random agents' stream come from it."""
    if not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise BadInput(f"seed {seed!r} out of range; expected 0 to 2**64-1")
    return int(game_seeds(seed, 1)[0])


def new_game(seed: int, players: int | None = None, options: Options | None = None) -> State:
    """The game ``bombsolve bomber play --seed SEED --players PLAYERS --games 1`` plays
    ("Preparation", extra characters drawn at random); `players` defaults to 3."""
    return R.new_game(PLAYERS[0] if players is None else players, game_seed(seed), options)


def to_move(state: State) -> int:
    """The seat that acts next, or -1 once the game has been assessed."""
    return -1 if state.over else state.current


def legal_actions(state: State) -> list[int]:
    """The actions of the seat to move, ascending ("Steps in Detail"); empty at the end."""
    return R.legal_actions(state)


def apply(state: State, action: int) -> State:
    """The game after the seat to move plays `action`; `state` itself is left unchanged.

    Raises `IllegalAction` for an action not in `legal_actions(state)`.
    """
    legal = R.legal_actions(state)
    if action not in legal:
        seat = "nobody: the game is over" if state.over else f"seat {state.current + 1}"
        raise IllegalAction(
            f"action {action!r} is not legal for {seat}; expected one of {legal or 'none'}"
        )
    after = state.clone()
    R.apply(after, action)
    return after


def describe(state: State, action: int) -> str:
    """The action in words, for the seat to move: 'play Bomb -> G3' (Playing a card
    beneath Gathering Point 3), 'Citizen to Shelter, move Citizen G2 -> Bridge' (Moving a
    card)."""
    return R.describe(action, state)


def outcome(state: State) -> Result | None:
    """None while the game goes on; at its end the winning seats ("Victory Conditions";
    a seat that left play with no possible action has lost) and the outcome's name."""
    if not state.over:
        return None
    return Result(tuple(R.winners(state)), R.OUTCOME_NAMES[state.result.outcome])


def view(state: State, player: int) -> View:
    """What `player` sees: own character, hand and face-down cards, every face-up card,
    the Footprint owners of face-down cards, hand sizes and Shelters (`rules.observe`)."""
    _check_seat(state, player)
    return R.observe(state, player)


def _check_seat(state: State, player: int) -> None:
    if not isinstance(player, int) or not 0 <= player < state.players:
        raise BadInput(f"seat {player!r} out of range; expected 0 to {state.players - 1}")


# --- resampling what a seat has not seen -----------------------------------------------


def _played_by_step(state: State) -> list[list[int]]:
    """For each location, the history step that played each card of its line (cards move
    but are never turned, so a face-down card keeps the step that played it)."""
    lines: list[list[int]] = [[] for _ in range(R.N_LOCATIONS)]
    for step, (_, action) in enumerate(state.history):
        a = R.decode(action)
        if a.kind == "play":
            lines[a.dst].append(step)
        elif a.kind == "move":
            lines[a.dst].append(lines[a.src].pop(a.index))
    if [len(x) for x in lines] != [len(x) for x in state.lines]:
        raise BadInput("the game's history does not lead to its board; expected a game "
                       "played from new_game")  # fmt: skip
    return lines


def _game_characters(state: State, player: int, seen: list[Card], rng: SplitMix64) -> list[Card]:
    """The character cards of the game as `player` may redraw them: 1 Bomber, 2 Police
    and the extras, those drawn at random at the deal ("Preparation") drawn again among
    the ones not seen."""
    if state.extras_named or state.players in (R.MIN_PLAYERS, R.MAX_PLAYERS):
        extras = [c for c in state.characters if c in R.EXTRAS]
    else:
        extras = sorted({c for c in seen if c in R.EXTRAS})
        pool = [c for c in R.EXTRAS if c not in extras]
        R.shuffle(pool, rng)
        extras += pool[: state.players - 3 - len(extras)]
    return [Card.BOMBER, Card.POLICE, Card.POLICE, *extras]


def _draw(state: State, player: int, steps: list[list[int]], rng: SplitMix64) -> State | None:
    """One random redraw of what `player` has not seen, replayed through the engine; None
    when the redrawn game does not replay to the same board, turns and eliminations."""
    n = state.players
    # What the seat sees of each other seat's cards; the rest are that seat's hidden places:
    # its hand and its face-down cards.
    character: dict[int, Card] = {player: state.characters[player]}
    seen: list[Card] = list(R.Card(c) for c, k in enumerate(state.hands[player]) for _ in range(k))
    seen += [Card.CITIZEN] * sum(state.sheltered)
    hidden_steps: dict[int, list[int]] = {q: [] for q in range(n)}
    for loc, line in enumerate(state.lines):
        for slot, step in zip(line, steps[loc], strict=True):
            if slot.face_up or slot.owner == player:
                seen.append(slot.card)
                if slot.card in R.CHARACTERS:
                    character[slot.owner] = slot.card
            else:
                hidden_steps[slot.owner].append(step)
    others = [q for q in range(n) if q != player]
    places = {q: state.hand_size(q) + len(hidden_steps[q]) for q in others}
    # Characters first (one per seat, "Shuffle the Character cards and distribute 1 to
    # each player"), then the Basic cards over the places left.
    unseen_chars = collections.Counter(_game_characters(state, player, seen, rng))
    unseen_chars.subtract(character.values())
    chars = list(unseen_chars.elements())
    R.shuffle(chars, rng)
    unknown_seats = [q for q in others if q not in character]
    if len(chars) != len(unknown_seats):
        return None
    character.update(zip(unknown_seats, chars, strict=True))
    basics = collections.Counter(R.BASIC_COUNTS)
    if n == 4:
        basics[Card.CITIZEN] -= 2  # "Remove 2 Citizens"
    basics.subtract(c for c in seen if c not in R.CHARACTERS)
    pool = list(basics.elements())
    if len(pool) != sum(places.values()) - len(unknown_seats):
        return None
    R.shuffle(pool, rng)
    cards: dict[int, list[Card]] = {}
    for q in others:
        k = places[q]
        if q in unknown_seats and k == 0:
            return None
        mine = [pool.pop() for _ in range(k - (q in unknown_seats))]
        if q in unknown_seats:
            mine.insert(rng.below(k), character[q])
        cards[q] = mine
    # Each other seat's hidden places in order: its face-down cards, then its hand.
    hands = [list(h) for h in state.hands]
    history = list(state.history)
    for q in others:
        for step, card in zip(hidden_steps[q], cards[q], strict=False):
            history[step] = (q, R.play_action(card, R.decode(history[step][1]).dst))
        hands[q] = [0] * R.N_CARDS
        for card in cards[q][len(hidden_steps[q]) :]:
            hands[q][card] += 1
    return _replayed(state, [character[q] for q in range(n)], hands, history)


def _replayed(
    state: State, characters: list[Card], hands: list[list[int]], history: list
) -> State | None:
    """Deal the hands the history and `hands` imply and replay the history; the game
    reached, or None if an action is not legal on the way or the turns, eliminations or
    the end differ from `state`'s."""
    dealt = [list(h) for h in hands]
    for p, action in history:
        a = R.decode(action)
        dealt[p][a.card if a.kind == "play" else Card.CITIZEN] += 1
    game = State(
        players=state.players,
        rules=state.rules,
        characters=characters,
        hands=dealt,
        sheltered=[0] * state.players,
        out=[False] * state.players,
        extras_named=state.extras_named,
    )
    for p, action in history:
        if game.over or game.current != p or action not in R.legal_actions(game, p):
            return None
        R.apply(game, action)
    same = (game.current, game.out, game.eliminations, game.over) == (
        state.current, state.out, state.eliminations, state.over,
    )  # fmt: skip
    return game if same else None


def resample(state: State, player: int, rng: SplitMix64) -> State:
    """A game `player` cannot tell from `state`: the other seats' characters, hands and
    face-down cards drawn again at random from `rng`, and, when the extra characters were
    drawn at random at the deal, which extras are in play among those not seen.

    Everything `player` has seen stays (own hand and cards, every face-up card, Footprint
    owners, hand sizes, Shelters); each redraw is replayed from the deal through the
    reference engine, so every card was legal where it lies (the Young Lady and a last
    Bomber face down, the Suspicious Person as its owner's last card, dog=forbid), and
    the same seats left play at the same turns; a redraw that does not replay is drawn
    again.
    """
    _check_seat(state, player)
    steps = _played_by_step(state)
    seen = R.observe(state, player)
    for _ in range(MAX_DRAWS):
        game = _draw(state, player, steps, rng)
        if game is not None and R.observe(game, player) == seen:
            return game
    raise RuntimeError(f"no redraw of the game replayed in {MAX_DRAWS} draws")


# --- the kernel beside the reference ---------------------------------------------------


def reference_and_kernel(
    seed: int, players: int | None = None, options: Options | None = None
) -> tuple[tuple, tuple]:
    """The random-agent game of ``bombsolve bomber play --seed SEED`` through the reference
    engine and through the kernel: (actions, result row in kernel.COLUMNS order) of each."""
    from bombsolve.solvers.bomber.kernel import trace_game  # Numba: loaded only when asked for
    from bombsolve.solvers.bomber.study import result_row

    players = PLAYERS[0] if players is None else players
    s = game_seed(seed)
    game = play_game(players, s, options)
    ref = (tuple(a for _, a in game.history), result_row(game))
    row, actions = trace_game(s, players, options)
    return ref, (tuple(actions), tuple(int(x) for x in row))
