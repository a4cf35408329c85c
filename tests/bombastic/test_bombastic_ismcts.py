"""ISMCTS with casual playouts: knowledge flags, the playout policy, the agent's discipline."""

import numpy as np
import pytest

from bombsolve.solvers.bombastic import kernel as K
from bombsolve.solvers.bombastic.agents import (
    FastBelief,
    HeuristicISMCTSAgent,
    RandomAgent,
    guarded_choices,
    make_agent,
    opponent_knows,
    play_game,
    to_kernel,
    view_of,
)
from bombsolve.solvers.bombastic.beliefs import exact_belief
from bombsolve.solvers.bombastic.rules import (
    ACTION_CARD,
    ACTION_LINE,
    ACTION_STOP,
    Card,
    Options,
    Phase,
    SplitMix64,
    State,
)
from bombsolve.solvers.bombastic.tiles import ARR, BOMB, N_ARR, index_of
from bombsolve.solvers.common.errors import BadInput

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

OPTION_SETS = [
    Options(),
    Options(promos=True),
    Options(promos=True, shuffle="opponent", second_swap="any"),
    Options(alarms=False, second_swap="disjoint"),
]


def _belief(observations) -> FastBelief:
    b = FastBelief.uniform()
    for ev in observations:
        b.update(ev)
    return b


def _certain(observations) -> np.ndarray:
    """(9,) value each tile surely holds for this observer, -1 where it is not sure."""
    odds = _belief(observations).tile_odds()
    return np.where(odds.max(axis=1) > 1 - 1e-9, odds.argmax(axis=1), -1)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_knowledge_flags_never_claim_what_a_player_cannot_know(options):
    """Play random games in the reference engine and the kernel side by side: wherever
    the kernel flags a tile as known to a player, that player's exact beliefs (from its
    own observations) are certain of it, and of the true value."""
    buf = np.empty(64, dtype=np.int32)
    flagged_safe = 0
    for seed in range(120):
        rng = SplitMix64(seed)
        state = State.setup(rng, options)
        s = np.empty(K.STATE_SIZE, dtype=np.int32)
        to_kernel(state, s)
        know = np.zeros((2, 9), dtype=np.int8)
        while not state.is_over():
            n = K.legal_actions(s, buf)
            a = int(buf[rng.below(n)])
            state.apply(a)
            K.apply_know(s, know, a)
            assert s[:9].tolist() == state.tiles
            for p in (0, 1):
                sure = _certain(state.observations[p])
                for t in np.flatnonzero(know[p] == 1):
                    assert sure[t] == state.tiles[t], (seed, p, t, state.history)
                bomb = exact_belief(state.observations[p]).tile_odds()
                for t in np.flatnonzero(know[p] == 2):
                    assert bomb[t][BOMB] == 0, (seed, p, t, state.history)
                    flagged_safe += 1
    assert flagged_safe > 0  # the "not the bomb" flag was put to the test


@pytest.mark.parametrize("options", OPTION_SETS)
def test_opponent_flags_never_claim_what_the_opponent_cannot_know(options):
    rng = np.random.default_rng(3)
    for seed in range(150):
        state = State.new(seed, options)
        for _ in range(int(rng.integers(1, 30))):
            if state.is_over():
                break
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
        for p in (0, 1):
            flags = opponent_knows(view_of(state, p))
            sure = _certain(state.observations[1 - p])
            for t in np.flatnonzero(flags == 1):
                assert sure[t] == state.tiles[t], (seed, p, t, state.history)
            bomb = exact_belief(state.observations[1 - p]).tile_odds()
            for t in np.flatnonzero(flags == 2):
                assert bomb[t][BOMB] == 0, (seed, p, t, state.history)


def test_casual_policy_is_legal_and_finishes_games():
    buf = np.empty(64, dtype=np.int32)
    rng = np.array([11], dtype=np.uint64)
    for options in OPTION_SETS:
        for seed in range(150):
            s = K.new_state(seed, options)
            know = np.zeros((2, 9), dtype=np.int8)
            while s[K.PHASE] != K.P_OVER:
                n = K.legal_actions(s, buf)
                a = K.casual_action(s, know, buf, n, rng)
                assert a in buf[:n].tolist()
                if s[K.PHASE] == K.P_TURN and a < K.A_CARD and s[K.TURN_NUMBER] <= 20:
                    # Before its patience runs out it goes only for lines it knows.
                    line = K.LINES_A[a - K.A_LINE]
                    assert all(know[s[K.TO_MOVE], t] == 1 for t in line)
                K.apply_know(s, know, a)


def test_casual_playouts_rarely_reach_the_turn_cap():
    capped = 0
    for seed in range(400):
        s = K.new_state(seed)
        know = np.zeros((2, 9), dtype=np.int8)
        capped += K.playout_casual(s, know, seed) == -1
    assert capped <= 8


def test_observe_code_hides_what_the_player_does_not_see():
    """Two grids that differ only where X has not looked give X the same codes."""
    s = K.new_state(5)
    s[K.PHASE] = K.P_PEEK
    s[K.CARD] = int(Card.PEEK2_MAY_SWAP)
    s[K.TO_MOVE] = s[K.TURN_PLAYER] = 1  # O peeks at tile 0
    a = s.copy()
    b = s.copy()
    a[0], b[0] = 0, 1
    assert K.observe_code(a, 0, 0) == K.observe_code(b, 0, 0)  # X sees only "O peeked at 0"
    assert K.observe_code(a, 0, 1) != K.observe_code(b, 0, 1)  # O sees the value
    # A chance shuffle is a secret to both.
    s[K.PHASE] = K.P_SHUFFLE
    s[K.TO_MOVE] = -1
    assert K.observe_code(s, K.A_PERM + 2, 0) == -1 == K.observe_code(s, K.A_PERM + 4, 1)


@pytest.mark.parametrize("spec", ["ismcts-heuristic:15", "ismcts-heuristic-guarded:15"])
def test_ismcts_heuristic_plays_legal_games(spec):
    for options in OPTION_SETS:
        for seed in range(2):
            # State.apply raises on an illegal action, so finishing proves legality.
            r = play_game(make_agent(spec), make_agent("heuristic"), seed, options)
            assert r.state.is_over()
            r = play_game(RandomAgent(), make_agent(spec), seed + 7, options)
            assert r.state.is_over()


def test_ismcts_heuristic_is_deterministic_for_a_seed():
    a = play_game(make_agent("ismcts-heuristic:25"), make_agent("greedy"), 9)
    b = play_game(make_agent("ismcts-heuristic:25"), make_agent("greedy"), 9)
    assert a.state.history == b.state.history and a.winner == b.winner


def _consistent_arrangements(observations, rng, k):
    w = _belief(observations).w
    return rng.choice(N_ARR, size=k, p=w / w.sum())


def test_ismcts_heuristic_does_not_read_hidden_tiles():
    """Put other tiles, consistent with the player's information, where it has not
    looked: with the same generator its decision does not change."""
    rng = np.random.default_rng(8)
    checked = 0
    for seed in range(40):
        state = State.new(seed, Options(promos=True))
        for _ in range(int(rng.integers(0, 6))):
            if state.is_over():
                break
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
        if state.is_over() or state.to_move < 0:
            continue
        p = state.to_move
        decisions = set()
        for arr in _consistent_arrangements(state.observations[p], rng, 3):
            other = state.clone()
            other.tiles = ARR[arr].tolist()
            agent = HeuristicISMCTSAgent(30)
            decisions.add(
                agent.act(view_of(other, p), other.legal_actions(), np.random.default_rng(seed))
            )
        assert len(decisions) == 1
        checked += 1
    assert checked >= 15


def test_guard_keeps_sure_lines_and_drops_bad_gambles():
    s = State.new(3)
    s.face_up = [int(Card.ALARM_L_SHAPE), int(Card.PEEK2_SHOW)]
    view = view_of(s, 0)
    kept = guarded_choices(view, FastBelief.uniform())
    # No knowledge: every line bombs (1/3) more often than it wins (1/21); the L-shape
    # ALARM would win with chance 1/21 only.
    assert kept == [ACTION_CARD + 1]
    # X knows the top row is all X: it may go for it.
    w = np.where((ARR[:, :3] == 0).all(axis=1), 1.0, 0.0)
    assert ACTION_LINE + 0 in guarded_choices(view, FastBelief(w))
    # "Peek at as many as you want": no further peek where the bomb could be.
    s.phase, s.card, s.picked = Phase.PEEK_OR_STOP, int(Card.PEEK_MANY), [0]
    view = view_of(s, 0)
    bomb_at_8 = np.where(ARR[:, 8] == BOMB, 1.0, 0.0)
    assert guarded_choices(view, FastBelief.uniform()) == [ACTION_STOP]
    kept = guarded_choices(view, FastBelief(bomb_at_8))
    assert ACTION_STOP in kept and 8 not in kept and len(kept) == 8


def test_ismcts_heuristic_spec_and_bad_input():
    assert make_agent("ismcts-heuristic:40").spec() == "ismcts-heuristic:40"
    assert make_agent("ismcts-heuristic-guarded").spec() == "ismcts-heuristic-guarded:200"
    with pytest.raises(BadInput, match=r"out of range; expected 1\.\."):
        make_agent("ismcts-heuristic:0")
    with pytest.raises(BadInput, match="not a number"):
        make_agent("ismcts-heuristic-guarded:many")


def test_ismcts_heuristic_finds_a_sure_line():
    """X peeked the top row and saw X X X: going for it wins at once."""
    state = State.new(1)
    state.tiles = [0, 0, 0, 1, 1, 1, 2, 0, 1]
    obs = state.observations[0]
    obs += [("peek", 0, 0), ("peek", 1, 0), ("peek", 2, 0)]
    assert index_of(state.tiles) >= 0
    a = HeuristicISMCTSAgent(60).act(
        view_of(state, 0), state.legal_actions(), np.random.default_rng(0)
    )
    assert a == ACTION_LINE + 0


def test_casual_scratch_reused_across_calls_gives_the_same_games():
    """`_playout_casual` / `_advance_others` / `_casual_action` reuse one set of scratch
    arrays (dirty from earlier games) and must play exactly as fresh arrays do."""
    rng = np.empty(1, dtype=np.uint64)
    buf = np.full(64, 63, dtype=np.int32)
    vals = np.full(64, 1e9, dtype=np.float64)  # garbage a stale read would pick
    acts = np.full(64, 63, dtype=np.int32)
    codes = np.empty(256, dtype=np.int64)
    for options in OPTION_SETS:
        for seed in range(120):
            fresh_s, fresh_know = K.new_state(seed, options), np.zeros((2, 9), dtype=np.int8)
            s, know = fresh_s.copy(), fresh_know.copy()
            winner = K.playout_casual(fresh_s, fresh_know, seed)
            rng[0] = np.uint64(seed)
            assert K._playout_casual(s, know, rng, buf, vals, acts) == winner
            assert np.array_equal(s, fresh_s) and np.array_equal(know, fresh_know)
            # The opponent's walk: fresh `advance_others` against the reused scratch.
            a_s, a_know = K.new_state(seed, options), np.zeros((2, 9), dtype=np.int8)
            b_s, b_know = a_s.copy(), a_know.copy()
            a_rng = np.array([seed], dtype=np.uint64)
            rng[0] = np.uint64(seed)
            me = 1 - a_s[K.TO_MOVE] if a_s[K.TO_MOVE] >= 0 else 0
            m = K.advance_others(a_s, a_know, me, a_rng, codes)
            a_codes = codes[:m].copy()
            assert K._advance_others(b_s, b_know, me, rng, codes, buf, vals, acts) == m
            assert np.array_equal(codes[:m], a_codes) and np.array_equal(a_s, b_s)
            assert rng[0] == a_rng[0]
            # Every decision of a casual game: public entry point against reused scratch.
            s = K.new_state(seed, options)
            know = np.zeros((2, 9), dtype=np.int8)
            r1 = np.array([seed], dtype=np.uint64)
            r2 = r1.copy()
            fresh_buf = np.empty(64, dtype=np.int32)
            while s[K.PHASE] != K.P_OVER:
                n = K.legal_actions(s, fresh_buf)
                a = K.casual_action(s, know, fresh_buf, n, r1)
                assert K._casual_action(s, know, fresh_buf, n, r2, vals, acts) == a
                K.apply_know(s, know, a)
