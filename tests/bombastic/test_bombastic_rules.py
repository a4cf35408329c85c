"""The reference engine: one test per card and per rule of the rulebook."""

import collections
import math

import pytest

from bombsolve.solvers.bombastic.rules import (
    ACTION_CARD,
    ACTION_L,
    ACTION_LINE,
    ACTION_PERM,
    ACTION_SHOWSET,
    ACTION_STOP,
    ACTION_YES,
    ALARM_CARDS,
    CHANCE,
    Card,
    Ending,
    Options,
    Phase,
    SplitMix64,
    State,
    card_by_slug,
    random_game,
)
from bombsolve.solvers.bombastic.tiles import (
    ARR,
    BOMB,
    CODE_TO_INDEX,
    L_SHAPES,
    LINES,
    N_ARR,
    PERMS3,
    O,
    X,
    index_of,
)
from bombsolve.solvers.common.errors import BadInput

# A fixed grid:   X X X      0 1 2
#                 O O B      3 4 5
#                 O X O      6 7 8
GRID = [X, X, X, O, O, BOMB, O, X, O]


def make(card: Card, other: Card = Card.PEEK2_MAY_SWAP, tiles=GRID, options=None) -> State:
    """A state where the first player is about to choose `card` from slot 0."""
    options = options or Options()
    deck = [int(c) for c in options.deck_cards() if c not in (card, other)]
    return State(options=options, tiles=list(tiles), face_up=[int(card), int(other)], deck=deck)


def play(state: State, *actions: int) -> State:
    for a in actions:
        state.apply(a)
    return state


# ----- Tiles -------------------------------------------------------------------------------


def test_630_arrangements_closed_form():
    assert N_ARR == math.comb(9, 4) * math.comb(5, 4) == 630
    assert len({tuple(r) for r in ARR}) == 630
    assert all(sorted(r) == [0] * 4 + [1] * 4 + [2] for r in ARR.tolist())
    assert index_of(ARR[417]) == 417
    assert (CODE_TO_INDEX >= 0).sum() == 630


def test_eight_lines_and_sixteen_l_shapes():
    assert len(LINES) == 8 and len(set(LINES)) == 8
    assert len(L_SHAPES) == 16 and len(set(L_SHAPES)) == 16
    for shape in L_SHAPES:
        rows = {t // 3 for t in shape}
        cols = {t % 3 for t in shape}
        assert len(rows) == 2 and len(cols) == 2  # not in one row or column
        # edge to edge: the three tiles are connected by orthogonal steps
        adj = [
            (a, b) for a in shape for b in shape if abs(a // 3 - b // 3) + abs(a % 3 - b % 3) == 1
        ]
        assert len(adj) == 4  # two edges, each counted both ways


# ----- Setup -------------------------------------------------------------------------------


def test_setup_never_starts_with_alarm_face_up():
    for seed in range(300):
        s = State.new(seed)
        assert not set(s.face_up) & set(ALARM_CARDS)
        assert sorted(s.face_up + s.deck) == list(range(9))
        assert sorted(s.tiles) == [X] * 4 + [O] * 4 + [BOMB]


def test_setup_alarm_cards_are_shuffled_back_into_the_deck():
    # Over many seeds, each ALARM card sits at every deck position some time.
    where = collections.defaultdict(set)
    for seed in range(400):
        s = State.new(seed)
        for c in ALARM_CARDS:
            where[c].add(s.deck.index(c))
    assert all(len(v) == 7 for v in where.values())


def test_setup_tile_shuffle_is_uniform_over_the_630():
    rng = SplitMix64(7)
    counts = collections.Counter()
    n = 63000
    for _ in range(n):
        s = State.setup(rng, Options())
        counts[index_of(s.tiles)] += 1
    assert len(counts) == 630
    expected = n / 630
    chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(630))
    # 629 degrees of freedom: mean 629, sd about 35.5; 6 sd above is a real failure.
    assert chi2 < 629 + 6 * math.sqrt(2 * 629)


def test_promos_and_variants_change_the_deck():
    assert len(Options().deck_cards()) == 9
    assert len(Options(promos=True).deck_cards()) == 11
    assert len(Options(alarms=False).deck_cards()) == 7
    assert Card.PEEK_MANY not in Options(removed=(int(Card.PEEK_MANY),)).deck_cards()
    s = State.new(3, Options(promos=True))
    assert sorted(s.face_up + s.deck) == list(range(11))


def test_bad_options_and_card_names():
    with pytest.raises(BadInput, match="second-swap"):
        Options(second_swap="sideways")
    with pytest.raises(BadInput, match="shuffle reading"):
        Options(shuffle="dealer")
    with pytest.raises(BadInput, match="did you mean peek-many"):
        card_by_slug("peek-manny")
    assert card_by_slug("show3-arrange") == Card.SHOW3_ARRANGE


# ----- Go for It ---------------------------------------------------------------------------


def test_go_for_it_all_yours_wins():
    s = play(make(Card.PEEK_MANY), ACTION_LINE + 0)  # X X X, seat 0 plays X
    assert s.is_over() and s.winner == 0 and s.ending == Ending.GO_FOR_IT_WIN


def test_go_for_it_bomb_loses():
    s = play(make(Card.PEEK_MANY), ACTION_LINE + 1)  # O O B
    assert s.winner == 1 and s.ending == Ending.GO_FOR_IT_BOMB


def test_go_for_it_otherwise_flips_back_and_turn_passes():
    s = play(make(Card.PEEK_MANY), ACTION_LINE + 3)  # X O O
    assert not s.is_over() and s.turn_player == 1 and s.turn_number == 2
    assert s.observations[1][-3:] == [("show", 0, X), ("show", 3, O), ("show", 6, O)]
    # The second player plays O: column 1 is X O O, not all theirs; row 3 is O X O.
    play(s, ACTION_LINE + 2)
    assert not s.is_over()


def test_second_player_wins_with_three_os():
    tiles = [O, O, O, X, X, BOMB, X, O, X]
    s = play(make(Card.PEEK_MANY, tiles=tiles), ACTION_LINE + 3)  # O X X: no
    play(s, ACTION_LINE + 0)
    assert s.winner == 1 and s.ending == Ending.GO_FOR_IT_WIN


def test_used_card_goes_under_the_deck_and_top_card_is_revealed():
    s = make(Card.PEEK2_MAY_SWAP, Card.PEEK_MANY)
    top = s.deck[0]
    play(s, ACTION_CARD + 0, 0, 1, ACTION_STOP)
    assert s.face_up == [top, int(Card.PEEK_MANY)]
    assert s.deck[-1] == int(Card.PEEK2_MAY_SWAP)
    assert ("reveal", top) in s.observations[0] and ("reveal", top) in s.observations[1]
    assert s.turn_player == 1


# ----- The regular cards ------------------------------------------------------------------


def test_peek2_show_without_showing():
    s = play(make(Card.PEEK2_SHOW), ACTION_CARD, 0, 5)
    assert s.phase == Phase.SHOW_PEEKED and s.legal_actions() == [0, 5, ACTION_STOP]
    play(s, ACTION_STOP)
    assert ("peek", 5, BOMB) in s.observations[0]  # peeking at the bomb is allowed here
    assert ("opp_peek", 5) in s.observations[1]
    assert not any(e[0] == "peek" for e in s.observations[1])
    assert s.turn_player == 1


def test_peek2_show_shows_then_may_peek_another():
    s = play(make(Card.PEEK2_SHOW), ACTION_CARD, 0, 5, 0)
    assert ("show", 0, X) in s.observations[1]
    assert s.phase == Phase.PEEK_OR_STOP and 0 not in s.legal_actions()
    play(s, 8)
    assert ("peek", 8, O) in s.observations[0] and s.turn_player == 1


def test_peek2_may_swap_yes_and_no():
    s = play(make(Card.PEEK2_MAY_SWAP), ACTION_CARD, 0, 5, ACTION_YES)
    assert s.tiles[0] == BOMB and s.tiles[5] == X
    assert ("swap", 0, 5) in s.observations[1]
    s = play(make(Card.PEEK2_MAY_SWAP), ACTION_CARD, 0, 5, ACTION_STOP)
    assert s.tiles == GRID


def test_peek2_swap_out_must_swap_with_a_tile_not_peeked():
    s = play(make(Card.PEEK2_SWAP_OUT), ACTION_CARD, 0, 5)
    assert s.legal_actions() == [0, 5]  # no STOP: the swap is a must
    play(s, 5)
    assert s.legal_actions() == [1, 2, 3, 4, 6, 7, 8]
    play(s, 8)
    assert s.tiles[5] == O and s.tiles[8] == BOMB


@pytest.mark.parametrize(
    "reading, legal_second",
    [
        ("distinct", [2, 3, 4, 5, 6, 7, 8]),  # any partner for 0 but 1 (pair 0-1 again)
        ("disjoint", [2, 3, 4, 5, 6, 7, 8]),  # not 1, and 0 not allowed as first tile
        ("any", [1, 2, 3, 4, 5, 6, 7, 8]),  # even 0-1 again
    ],
)
def test_peek1_swap_swap_second_swap_readings(reading, legal_second):
    s = play(make(Card.PEEK1_SWAP_SWAP, options=Options(second_swap=reading)), ACTION_CARD, 4)
    assert ACTION_STOP not in s.legal_actions()  # the first swap is a must
    play(s, 0, 1)
    assert s.tiles[0] == X and s.tiles[1] == X  # both X: unchanged values
    assert ACTION_STOP in s.legal_actions()  # the second swap is a may
    if reading == "disjoint":
        assert 0 not in s.legal_actions() and 1 not in s.legal_actions()
        play(s, 2)
        assert s.legal_actions() == [3, 4, 5, 6, 7, 8]
        return
    play(s, 0)
    assert s.legal_actions() == legal_second


def test_peek1_swap_swap_does_both_swaps():
    s = play(make(Card.PEEK1_SWAP_SWAP), ACTION_CARD, 4, 0, 5, 3, 8)
    assert s.tiles[0] == BOMB and s.tiles[5] == X
    assert s.tiles[3] == O and s.tiles[8] == O
    assert ("peek", 4, O) in s.observations[0]
    s = play(make(Card.PEEK1_SWAP_SWAP), ACTION_CARD, 4, 0, 5, ACTION_STOP)
    assert s.tiles[0] == BOMB and s.turn_player == 1


def test_peek_many_stop_and_continue():
    s = play(make(Card.PEEK_MANY), ACTION_CARD, 0)
    assert ACTION_STOP in s.legal_actions() and 0 not in s.legal_actions()
    play(s, 1, 2, 3, ACTION_STOP)
    assert [e for e in s.observations[0] if e[0] == "peek"] == [
        ("peek", t, GRID[t]) for t in (0, 1, 2, 3)
    ]
    assert s.turn_player == 1


def test_peek_many_first_peek_is_a_must():
    s = play(make(Card.PEEK_MANY), ACTION_CARD)
    assert ACTION_STOP not in s.legal_actions()


def test_peek_many_seeing_the_bomb_loses():
    s = play(make(Card.PEEK_MANY), ACTION_CARD, 0, 5)
    assert s.winner == 1 and s.ending == Ending.PEEKED_BOMB
    assert ("not_bomb", 5) not in s.observations[1]


def test_peek_many_survived_tells_both_the_tile_is_not_the_bomb():
    """ "If it's the bomb, you lose the game": a game that goes on says it was not."""
    s = play(make(Card.PEEK_MANY), ACTION_CARD, 0, 1)
    for p in (0, 1):
        assert [e for e in s.observations[p] if e[0] == "not_bomb"] == [
            ("not_bomb", 0),
            ("not_bomb", 1),
        ]
    # The opponent learns that much and not the values.
    assert not any(e[0] == "peek" for e in s.observations[1])


def test_peek_line_then_chance_shuffles():
    s = play(make(Card.PEEK_LINE_SHUFFLE), ACTION_CARD, ACTION_LINE + 1)  # 3 4 5 = O O B
    assert s.to_move == CHANCE and s.legal_actions() == [ACTION_PERM + i for i in range(6)]
    assert [e for e in s.observations[0] if e[0] == "peek"] == [
        ("peek", 3, O),
        ("peek", 4, O),
        ("peek", 5, BOMB),
    ]
    perm = PERMS3.index((2, 0, 1))  # 3->5, 4->3, 5->4
    play(s, ACTION_PERM + perm)
    assert s.tiles[3:6] == [O, BOMB, O]
    assert s.observations[0][-2] == ("shuffle", (3, 4, 5))
    assert s.observations[1][-2] == ("shuffle", (3, 4, 5))
    assert s.to_move == 1


def test_peek_line_then_the_opponent_picks_the_order():
    """Options.shuffle='opponent': the opponent decides the order and knows it."""
    opts = Options(shuffle="opponent")
    s = play(make(Card.PEEK_LINE_SHUFFLE, options=opts), ACTION_CARD, ACTION_LINE + 1)
    assert s.to_move == 1 and s.phase == Phase.SHUFFLE
    perm = PERMS3.index((2, 0, 1))
    play(s, ACTION_PERM + perm)
    assert s.tiles[3:6] == [O, BOMB, O]
    assert s.observations[0][-2] == ("shuffle", (3, 4, 5))  # the peeker: order unknown
    assert s.observations[1][-2] == ("move", (3, 4, 5), (2, 0, 1))  # the shuffler knows
    assert s.to_move == 1 and s.turn_player == 1


def test_show3_secretly_arrange():
    s = play(make(Card.SHOW3_ARRANGE), ACTION_CARD, 0, 5, 8)
    assert ("show", 5, BOMB) in s.observations[1]
    assert s.phase == Phase.ARRANGE and s.to_move == 0
    perm = PERMS3.index((1, 2, 0))  # 0->5, 5->8, 8->0
    play(s, ACTION_PERM + perm)
    assert [s.tiles[t] for t in (0, 5, 8)] == [O, X, BOMB]
    assert s.observations[0][-2] == ("place", (0, 5, 8), (O, X, BOMB))
    assert s.observations[1][-2] == ("shuffle", (0, 5, 8))


# ----- ALARM and promo cards ---------------------------------------------------------------


def test_alarm_peek_then_go_for_it_win_and_bomb_and_nothing():
    s = play(make(Card.ALARM_PEEK_GO), ACTION_CARD, 4)
    assert s.phase == Phase.GO and s.legal_actions() == [ACTION_LINE + k for k in range(8)]
    play(s, ACTION_LINE + 0)
    assert s.winner == 0 and s.ending == Ending.ALARM_GO_FOR_IT_WIN
    s = play(make(Card.ALARM_PEEK_GO), ACTION_CARD, 4, ACTION_LINE + 5)  # 2 5 8: bomb
    assert s.winner == 1 and s.ending == Ending.ALARM_GO_FOR_IT_BOMB
    s = play(make(Card.ALARM_PEEK_GO), ACTION_CARD, 4, ACTION_LINE + 3)  # X O O
    assert not s.is_over() and s.turn_player == 1 and s.deck[-1] == int(Card.ALARM_PEEK_GO)


def test_alarm_l_shape_all_yours_wins_else_loses():
    win = L_SHAPES.index((0, 1, 4)) if (0, 1, 4) in L_SHAPES else None
    tiles = [X, X, O, O, X, BOMB, O, X, O]  # 0 1 4 all X
    s = play(make(Card.ALARM_L_SHAPE, tiles=tiles), ACTION_CARD, ACTION_L + win)
    assert s.winner == 0 and s.ending == Ending.L_SHAPE_WIN
    lose = L_SHAPES.index((0, 1, 3))
    s = play(make(Card.ALARM_L_SHAPE, tiles=tiles), ACTION_CARD, ACTION_L + lose)
    assert s.winner == 1 and s.ending == Ending.L_SHAPE_LOSS


def test_promo_peek3_opponent_shows_bomb_or_not():
    opts = Options(promos=True)
    s = play(make(Card.PROMO_PEEK3, options=opts), ACTION_CARD, 0, 3, 5)
    assert s.to_move == 1 and s.phase == Phase.OPP_SHOW
    play(s, ACTION_SHOWSET + 5)  # shows peeked tiles 1 and 2: tiles 3 and 5, 5 is the bomb
    assert s.winner == 0 and s.ending == Ending.OPPONENT_SHOWED_BOMB
    s = play(make(Card.PROMO_PEEK3, options=opts), ACTION_CARD, 0, 3, 5, ACTION_SHOWSET + 3)
    assert not s.is_over() and ("show", 3, O) in s.observations[0] and s.to_move == 1


def test_promo_show_then_secret_swap():
    opts = Options(promos=True)
    s = play(make(Card.PROMO_SHOW_SWAP, options=opts), ACTION_CARD, 5)
    assert ("show", 5, BOMB) in s.observations[1]
    assert 5 not in s.legal_actions()
    play(s, 0)
    assert s.tiles[0] == BOMB and s.tiles[5] == X
    assert s.observations[0][-2] == ("swap", 5, 0)
    assert s.observations[1][-2] == ("secret_swap", 5)


# ----- Game flow ---------------------------------------------------------------------------


def test_turn_cap_ends_without_a_winner():
    s = make(Card.PEEK2_MAY_SWAP, options=Options(turn_cap=2))
    play(s, ACTION_LINE + 3, ACTION_LINE + 3)
    assert s.is_over() and s.winner is None and s.ending == Ending.TURN_CAP


def test_illegal_action_is_bad_input():
    s = make(Card.PEEK_MANY)
    with pytest.raises(BadInput, match="not legal"):
        s.apply(ACTION_STOP)


def test_random_games_end_and_keep_the_tiles():
    endings = collections.Counter()
    for seed in range(500):
        g = random_game(seed, Options(promos=True))
        assert g.is_over()
        assert sorted(g.tiles) == [X] * 4 + [O] * 4 + [BOMB]
        assert sorted(g.face_up + g.deck) == list(range(11))
        endings[g.ending] += 1
    assert Ending.GO_FOR_IT_BOMB in endings and Ending.GO_FOR_IT_WIN in endings


def test_clone_is_independent():
    s = State.new(5)
    c = s.clone()
    c.apply(c.legal_actions()[0])
    assert s.history == [] and c.history


def test_setup_face_up_pairs_are_uniform():
    # 7 regular cards: 42 ordered face-up pairs, each equally likely.
    counts = collections.Counter(tuple(State.new(seed).face_up) for seed in range(21000))
    assert len(counts) == 42
    expected = 21000 / 42
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert chi2 < 41 + 6 * math.sqrt(2 * 41)  # 41 degrees of freedom
