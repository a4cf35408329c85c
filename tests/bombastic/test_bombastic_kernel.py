"""Kernel versus reference engine: same seed, same decisions, same state, same winner."""

import numpy as np
import pytest

from bombsolve.solvers.bombastic import kernel as K
from bombsolve.solvers.bombastic.rules import Ending, Options, SplitMix64, State, random_game

OPTION_SETS = [
    Options(),
    Options(promos=True),
    Options(alarms=False, second_swap="disjoint"),
    Options(promos=True, second_swap="any", turn_cap=6),
    Options(removed=(4,), shuffle="opponent"),
]


def _same(state: State, s: np.ndarray) -> None:
    assert s[:9].tolist() == state.tiles
    assert s[9:11].tolist() == state.face_up
    assert s[K.DECK : K.DECK + s[K.DECK_LEN]].tolist() == state.deck
    assert s[K.PHASE] == int(state.phase)
    assert s[K.TURN_PLAYER] == state.turn_player
    assert s[K.TURN_NUMBER] == state.turn_number
    assert s[K.TO_MOVE] == state.to_move


@pytest.mark.parametrize("options", OPTION_SETS)
def test_step_by_step_same_as_reference(options):
    """Play 400 random games per option set in both engines, comparing every step."""
    for seed in range(400):
        rng = SplitMix64(seed)
        ref = State.setup(rng, options)
        s = K.new_state(seed, options)
        _same(ref, s)
        while not ref.is_over():
            legal = ref.legal_actions()
            assert K.legal_list(s) == legal
            a = legal[rng.below(len(legal))]
            ref.apply(a)
            K.apply(s, a)
            _same(ref, s)
        assert K.legal_list(s) == []
        assert s[K.WINNER] == (-1 if ref.winner is None else ref.winner)
        assert s[K.ENDING] == list(Ending).index(ref.ending)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_batch_random_games_match_reference(options):
    """The compiled playout loop gives the same winner, ending and length as rules."""
    cards, cap, second, shuffle_by = K.options_args(options)
    out = K.random_games(1000, 1500, cards, cap, second, shuffle_by)
    for g in range(1500):
        ref = random_game(1000 + g, options)
        assert out[g, 0] == (-1 if ref.winner is None else ref.winner)
        assert out[g, 1] == list(Ending).index(ref.ending)
        assert out[g, 2] == ref.turn_number
        assert out[g, 3] == len(ref.history)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_game_in_batch_equals_game_alone(options):
    """State and scratch reused across a batch: each game is the game played alone."""
    cards, cap, second, shuffle_by = K.options_args(options)
    out = K.random_games(500, 300, cards, cap, second, shuffle_by)
    for g in (0, 1, 7, 150, 299):
        s = np.full(K.STATE_SIZE, 99, dtype=np.int32)
        steps = K.random_game(500 + g, cards, cap, second, s, shuffle_by)
        assert out[g].tolist() == [s[K.WINNER], s[K.ENDING], s[K.TURN_NUMBER], steps]
        alone = K.random_games(500 + g, 1, cards, cap, second, shuffle_by)
        assert out[g].tolist() == alone[0].tolist()


def test_setup_into_matches_setup_with_dirty_scratch():
    """setup_into writes the same state as setup whatever the scratch and state held."""
    for options in OPTION_SETS:
        cards, cap, second, shuffle_by = K.options_args(options)
        work = np.full(cards.shape[0] + 2, 7, dtype=np.int32)
        s = np.full(K.STATE_SIZE, -5, dtype=np.int32)
        for seed in range(200):
            ref = K.new_state(seed, options)
            K.setup_into(s, cards, np.array([seed], dtype=np.uint64), cap, second, shuffle_by, work)
            # Setup writes the tiles, face-up cards, deck and every scalar (not PICKED).
            written = [*range(K.DECK + s[K.DECK_LEN]), *range(K.DECK_LEN, K.PICKED)]
            written += range(K.N_PICKED, K.STATE_SIZE)
            assert s[written].tolist() == ref[written].tolist()
