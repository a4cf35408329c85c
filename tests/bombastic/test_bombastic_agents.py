"""Agents: legal moves only, views without tiles, sound determinizations, sane strength."""

import dataclasses

import numpy as np
import pytest

from bombsolve.solvers.bombastic import kernel as K
from bombsolve.solvers.bombastic.agents import (
    AGENTS,
    OMNISCIENT_AGENTS,
    FastBelief,
    ISMCTSAgent,
    OmniscientAgent,
    RandomAgent,
    determinize,
    make_agent,
    play_game,
    to_kernel,
    view_of,
)
from bombsolve.solvers.bombastic.rules import Options, SplitMix64, State, random_game
from bombsolve.solvers.bombastic.tiles import index_of
from bombsolve.solvers.common.errors import BadInput


def test_views_do_not_hold_the_tiles():
    fields = {f.name for f in dataclasses.fields(view_of(State.new(1), 0))}
    assert "tiles" not in fields and "deck" not in fields


@pytest.mark.parametrize("spec", ["random", "heuristic", "greedy", "ismcts:20", "omniscient"])
def test_every_agent_finishes_games_with_legal_moves(spec):
    opts = Options(promos=True, turn_cap=20, shuffle="opponent")
    for seed in range(3):
        # State.apply raises on an illegal action, so finishing proves legality.
        r = play_game(make_agent(spec), make_agent("heuristic"), seed, opts)
        assert r.state.is_over()
        r = play_game(make_agent("random"), make_agent(spec), seed + 10, opts)
        assert r.state.is_over()


def test_agent_specs_and_bad_names():
    assert make_agent("greedy:0.8").spec() == "greedy:0.8"
    assert make_agent("ismcts:30").iterations == 30
    with pytest.raises(BadInput, match="did you mean ismcts"):
        make_agent("ismct")
    with pytest.raises(BadInput, match="not a number"):
        make_agent("ismcts:lots")
    with pytest.raises(BadInput, match="takes no parameter"):
        make_agent("random:3")
    assert set(AGENTS) == {
        "random",
        "heuristic",
        "greedy",
        "ismcts",
        "ismcts-guarded",
        "ismcts-heuristic",
        "ismcts-heuristic-guarded",
    }
    assert set(OMNISCIENT_AGENTS) == {"omniscient"}


def test_determinize_agrees_with_what_the_player_saw():
    rng = np.random.default_rng(0)
    for seed in range(40):
        g = random_game(seed, Options(turn_cap=8))
        if g.is_over() and g.ending.name != "TURN_CAP":
            g = g  # finished games still have observations worth checking
        view = view_of(g, g.turn_player)
        b = FastBelief.uniform()
        for ev in view.observations:
            b.update(ev)
        d = determinize(view, b, rng)
        assert b.w[index_of(d.tiles)] > 0
        assert d.face_up == g.face_up
        assert sorted(d.deck) == sorted(g.deck)
        # Cards put under the deck keep their public order at the bottom.
        tail = [c for c in g.deck if c in g.cycled]
        assert d.deck[len(d.deck) - len(tail) :] == tail


def test_to_kernel_mid_game_then_both_engines_finish_alike():
    """Stop a reference game part way, copy it into the kernel, finish both the same way."""
    ks = np.empty(K.STATE_SIZE, dtype=np.int32)
    for seed in range(300):
        rng = SplitMix64(seed)
        s = State.setup(rng, Options(promos=True))
        for _ in range(seed % 7):
            if s.is_over():
                break
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
        to_kernel(s, ks)
        assert K.legal_list(ks) == s.legal_actions()
        fin = SplitMix64(seed + 1000)
        while not s.is_over():
            legal = s.legal_actions()
            s.apply(legal[fin.below(len(legal))])
        winner = K.playout(ks, seed + 1000)
        assert winner == (-1 if s.winner is None else s.winner)
        assert ks[:9].tolist() == s.tiles


def test_omniscient_beats_random_and_heuristic():
    wins = sum(play_game(OmniscientAgent(), RandomAgent(), s).winner == 0 for s in range(20))
    assert wins >= 18
    wins = sum(
        play_game(make_agent("heuristic"), OmniscientAgent(), s).winner == 1 for s in range(20)
    )
    assert wins >= 16


def test_ismcts_beats_random():
    # Random players lose most games to the bomb by themselves; ISMCTS must do far better
    # than the 50% a random player gets against random.
    wins = sum(play_game(ISMCTSAgent(60), RandomAgent(), s).winner == 0 for s in range(30))
    assert wins >= 20


def test_play_game_is_reproducible():
    a = play_game(make_agent("greedy"), make_agent("ismcts:20"), 5)
    b = play_game(make_agent("greedy"), make_agent("ismcts:20"), 5)
    assert a.state.history == b.state.history and a.winner == b.winner


def test_informed_playout_policy_is_legal_and_avoids_blunders():
    from bombsolve.solvers.bombastic.kernel import informed_action, rng_next  # noqa: F401

    buf = np.empty(64, dtype=np.int32)
    rng = np.array([7], dtype=np.uint64)
    for seed in range(300):
        s = K.new_state(seed, Options(promos=True))
        while s[K.PHASE] != K.P_OVER:
            n = K.legal_actions(s, buf)
            a = informed_action(s, buf, n, rng)
            assert a in buf[:n].tolist()
            if s[K.PHASE] == K.P_TURN and a < K.A_CARD:
                line = K.LINES_A[a - K.A_LINE]
                assert all(s[t] != 2 for t in line)  # never goes for the bomb
            K.apply(s, a)
        assert s[K.ENDING] not in (K.E_GO_BOMB, K.E_PEEKED_BOMB, K.E_ALARM_BOMB)
    r = play_game(ISMCTSAgent(20, rollout="informed"), RandomAgent(), 1)
    assert r.state.is_over()


def test_guard_drops_losing_gambles_and_keeps_a_sure_line():
    from bombsolve.solvers.bombastic.agents import safe_gambles
    from bombsolve.solvers.bombastic.rules import ACTION_CARD, ACTION_LINE
    from bombsolve.solvers.bombastic.tiles import ARR, N_ARR

    view = view_of(State.new(3), 0)
    # No knowledge: every line holds the bomb with chance 1/3, is all X with 1/21.
    assert safe_gambles(view, FastBelief.uniform()) == [ACTION_CARD, ACTION_CARD + 1]
    # X knows the top row is all X: that line stays, the others (bomb 1/3 or more) go.
    w = np.where((ARR[:, :3] == 0).all(axis=1), 1.0, 0.0)
    assert 0 < w.sum() < N_ARR
    kept = safe_gambles(view, FastBelief(w))
    assert ACTION_LINE + 0 in kept and ACTION_CARD in kept and ACTION_CARD + 1 in kept
    assert ACTION_LINE + 1 not in kept and ACTION_LINE + 6 not in kept


def test_guarded_ismcts_is_named_and_plays_legal_games():
    agent = make_agent("ismcts-guarded:15")
    assert agent.spec() == "ismcts-guarded:15"
    r = play_game(agent, make_agent("heuristic"), 5, Options())
    assert r.winner in (None, 0, 1)


def test_heuristic_with_two_alarm_cards_face_up_plays_peek_go():
    """Both ALARM cards face up: it used to go for a bomb-free line forever (turn cap)."""
    from bombsolve.solvers.bombastic.rules import ACTION_CARD, Card

    s = State.new(2)
    s.face_up = [int(Card.ALARM_L_SHAPE), int(Card.ALARM_PEEK_GO)]
    a = make_agent("heuristic").act(view_of(s, 0), s.legal_actions(), np.random.default_rng(0))
    assert a == ACTION_CARD + 1


def test_heuristic_against_itself_rarely_reaches_the_turn_cap():
    capped = sum(
        play_game(make_agent("heuristic"), make_agent("heuristic"), s).ending.name == "TURN_CAP"
        for s in range(60)
    )
    assert capped <= 2
