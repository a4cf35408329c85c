"""Beliefs: exact odds two ways (enumeration and closed form), and brute-force filtering."""

import collections
import itertools
import random
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from bombsolve.solvers.bombastic.beliefs import (
    HAS_BITS,
    ExactBelief,
    FastBelief,
    event_maps,
    exact_belief,
    mask_after,
    mask_exclude,
    mask_full,
    mask_map,
    mask_observe,
    mask_to_bool,
    parse_events,
    weights_exclude,
    weights_mix,
    weights_observe,
)
from bombsolve.solvers.bombastic.rules import CHANCE, Card, Options, Phase, State, random_game
from bombsolve.solvers.bombastic.tiles import ARR, BOMB, LINES, N_ARR, PERMS3, O, X, index_of
from bombsolve.solvers.common.errors import BadInput

# ----- Closed forms --------------------------------------------------------------------------


def test_no_knowledge_line_odds_closed_form():
    b = ExactBelief()
    for all_mine, all_theirs, bomb in b.line_odds(X):
        assert all_mine == Fraction(comb(4, 3), comb(9, 3)) == Fraction(1, 21)
        assert all_theirs == Fraction(1, 21)
        assert bomb == Fraction(1, 3)  # the bomb is in 3 of the 9 places
    for px, po, pb in b.tile_odds():
        assert (px, po, pb) == (Fraction(4, 9), Fraction(4, 9), Fraction(1, 9))


def test_one_peek_closed_form():
    b = exact_belief(parse_events("peek 0=X"))
    row1, col1, diag = b.line_odds(X)[0], b.line_odds(X)[3], b.line_odds(X)[6]
    # 1 and 2 both X among the 8 others (3 X, 4 O, 1 B)
    assert row1[0] == Fraction(comb(3, 2), comb(8, 2)) == Fraction(3, 28)
    assert row1[1] == 0  # tile 0 is X: the row cannot be all O
    assert row1[2] == Fraction(2, 8)
    assert col1 == row1 and diag == row1
    mid = b.line_odds(X)[1]  # row 3 4 5 does not touch tile 0
    assert mid[0] == Fraction(comb(3, 3), comb(8, 3))
    assert mid[1] == Fraction(comb(4, 3), comb(8, 3))
    assert mid[2] == Fraction(3, 8)


def test_two_peeks_closed_form():
    b = exact_belief(parse_events("peek 0=X; show 4=O"))
    assert b.line_odds(X)[0][0] == Fraction(3, 7) * Fraction(2, 6)
    assert b.line_odds(X)[6][0] == 0
    assert b.tile_odds()[8] == (Fraction(3, 7), Fraction(3, 7), Fraction(1, 7))


def test_bomb_found_closed_form():
    b = exact_belief(parse_events("peek 4=B"))
    for k, line in enumerate(LINES):
        mine, theirs, bomb = b.line_odds(X)[k]
        if 4 in line:
            assert (mine, theirs, bomb) == (0, 0, 1)
        else:  # 3 tiles from 4 X, 4 O: C(4,3)/C(8,3)
            assert (mine, theirs, bomb) == (Fraction(1, 14), Fraction(1, 14), 0)


def test_swap_moves_knowledge():
    b = exact_belief(parse_events("peek 0=X; swap 0 8"))
    assert b.tile_odds()[8] == (1, 0, 0)
    assert b.tile_odds()[0] == (Fraction(3, 8), Fraction(4, 8), Fraction(1, 8))


def test_shuffle_of_known_tiles_closed_form():
    # I know 0, 1, 2 are X, X, B; after a random shuffle each is the bomb with chance 1/3.
    b = exact_belief(parse_events("peek 0=X; peek 1=X; peek 2=B; shuffle 0 1 2"))
    for t in (0, 1, 2):
        assert b.tile_odds()[t] == (Fraction(2, 3), 0, Fraction(1, 3))
    assert b.support() == 3 * comb(6, 2)  # 3 orders x where the other 2 X go among 6


def test_place_is_my_own_arrangement():
    b = exact_belief(parse_events("show 0=X; show 1=O; show 2=B; place 0=B 1=X 2=O"))
    assert b.tile_odds()[0] == (0, 0, 1)
    assert b.tile_odds()[1] == (1, 0, 0)


def test_secret_swap_spreads_evenly():
    b = exact_belief(parse_events("show 4=B; secret-swap 4"))
    # The bomb went to one of the 8 other tiles, each with chance 1/8.
    for t in range(9):
        assert b.tile_odds()[t][2] == (0 if t == 4 else Fraction(1, 8))


def test_one_survived_peek_many_closed_form():
    # Tile 4 is not the bomb: the bomb is one of the 8 others, X and O share tile 4.
    tiles = exact_belief(parse_events("not-bomb 4")).tile_odds()
    assert tiles[4] == (Fraction(1, 2), Fraction(1, 2), Fraction(0))
    for t in range(9):
        if t != 4:
            assert tiles[t][BOMB] == Fraction(1, 8)
    assert exact_belief(parse_events("not-bomb 4")).support() == 630 - 70


def test_eight_survived_peeks_find_the_bomb():
    """X peeks at 8 tiles safely with "Peek at as many as you want" and stops; O knows the
    bomb (the one tile left)."""
    b = exact_belief(parse_events("; ".join(f"not-bomb {t}" for t in range(8))))
    assert b.support() == 70  # 8!/(4!4!): the X and O stay unknown
    assert b.tile_odds()[8] == (Fraction(0), Fraction(0), Fraction(1))
    fast = FastBelief.uniform()
    for t in range(8):
        fast.update(("not_bomb", t))
    assert fast.tile_odds()[8, BOMB] == pytest.approx(1.0)
    m = mask_full()
    for t in range(8):
        left = mask_exclude(m, t, BOMB, HAS_BITS)
    assert left == 70 and mask_to_bool(m)[ARR[:, 8] == BOMB].all()


def test_not_bomb_moves_with_a_swap():
    b = exact_belief(parse_events("not-bomb 0; swap 0 8"))
    assert b.tile_odds()[8][BOMB] == 0 and b.tile_odds()[0][BOMB] == Fraction(1, 8)


# ----- Impossible positions ------------------------------------------------------------------


def test_five_x_is_impossible():
    with pytest.raises(BadInput, match="impossible position.*event 5"):
        exact_belief(parse_events("peek 0=X; peek 1=X; peek 2=X; peek 3=X; peek 4=X"))


def test_the_shown_bomb_cannot_be_not_the_bomb():
    with pytest.raises(BadInput, match="not-bomb 3 contradicts.*event 2.*tile 3 is the bomb"):
        exact_belief(parse_events("show 3=B; not-bomb 3"))
    fast = FastBelief.uniform()
    fast.update(("show", 3, BOMB))
    with pytest.raises(BadInput, match="impossible position: not-bomb 3"):
        fast.update(("not_bomb", 3))


def test_a_tile_seen_as_two_things_is_impossible():
    with pytest.raises(BadInput, match="tile 3 cannot be O"):
        exact_belief(parse_events("peek 3=X; show 3=O"))


@pytest.mark.parametrize(
    "text, match",
    [
        ("peek 9=X", "tile '9'"),
        ("peek 3=Q", "not X, O or B"),
        ("flip 3", "unknown event 'flip'"),
        ("swap 1 1", "two different tiles"),
        ("shuffle 1 2", "three tiles"),
        ("peek 3", "TILE=VALUE"),
        ("not-bomb", "not-bomb takes one tile"),
        ("not-bomb 3=X", "tile '3=X'"),
        ("notbomb 3", "unknown event 'notbomb'.*not-bomb"),
    ],
)
def test_malformed_events(text, match):
    with pytest.raises(BadInput, match=match):
        parse_events(text)


# ----- Brute force ---------------------------------------------------------------------------


def _brute_force(events):
    """Posterior by enumerating every starting arrangement and every hidden choice."""
    hidden = []
    for ev in events:
        if ev[0] in ("shuffle", "place"):
            hidden.append(list(range(6)))
        elif ev[0] == "secret_swap":
            hidden.append([u for u in range(9) if u != ev[1]])
    post = collections.Counter()
    for start in range(N_ARR):
        for choices in itertools.product(*hidden):
            prob = Fraction(1, N_ARR)
            tiles = list(ARR[start])
            it = iter(choices)
            ok = True
            for ev in events:
                kind = ev[0]
                if kind in ("peek", "show"):
                    ok = tiles[ev[1]] == ev[2]
                elif kind == "not_bomb":
                    ok = tiles[ev[1]] != BOMB
                elif kind == "swap":
                    a, b = ev[1], ev[2]
                    tiles[a], tiles[b] = tiles[b], tiles[a]
                elif kind in ("shuffle", "place"):
                    pos, perm = ev[1], PERMS3[next(it)]
                    vals = [tiles[t] for t in pos]
                    for i in range(3):
                        tiles[pos[perm[i]]] = vals[i]
                    prob /= 6
                    if kind == "place":
                        ok = all(tiles[t] == v for t, v in zip(pos, ev[2], strict=True))
                elif kind == "move":
                    pos, perm = ev[1], ev[2]
                    vals = [tiles[t] for t in pos]
                    for i in range(3):
                        tiles[pos[perm[i]]] = vals[i]
                elif kind == "secret_swap":
                    u = next(it)
                    t = ev[1]
                    tiles[t], tiles[u] = tiles[u], tiles[t]
                    prob /= 8
                if not ok:
                    break
            if ok:
                post[index_of(tiles)] += prob
    total = sum(post.values())
    return {i: p / total for i, p in post.items()}


def _random_events(rng: random.Random, n: int):
    """A random event list that stays possible (drawn from a hidden true grid)."""
    tiles = [X] * 4 + [O] * 4 + [BOMB]
    rng.shuffle(tiles)
    events = []
    n_hidden = 0
    for _ in range(n):
        kind = rng.choice(
            ["peek", "show", "not_bomb", "swap", "shuffle", "secret_swap", "place", "move"]
        )
        if kind in ("shuffle", "secret_swap", "place"):
            if n_hidden == 2:
                kind = "peek"
            else:
                n_hidden += 1
        if kind in ("peek", "show"):
            t = rng.randrange(9)
            events.append((kind, t, tiles[t]))
        elif kind == "not_bomb":
            events.append(("not_bomb", rng.choice([t for t in range(9) if tiles[t] != BOMB])))
        elif kind == "swap":
            a, b = rng.sample(range(9), 2)
            tiles[a], tiles[b] = tiles[b], tiles[a]
            events.append(("swap", a, b))
        elif kind == "move":
            pos = tuple(sorted(rng.sample(range(9), 3)))
            perm = rng.choice(PERMS3)
            vals = [tiles[t] for t in pos]
            for i in range(3):
                tiles[pos[perm[i]]] = vals[i]
            events.append(("move", pos, perm))
        elif kind in ("shuffle", "place"):
            pos = tuple(sorted(rng.sample(range(9), 3)))
            perm = rng.choice(PERMS3)
            vals = [tiles[t] for t in pos]
            for i in range(3):
                tiles[pos[perm[i]]] = vals[i]
            if kind == "place":
                events.append(("place", pos, tuple(tiles[t] for t in pos)))
            else:
                events.append(("shuffle", pos))
        else:
            t, u = rng.sample(range(9), 2)
            tiles[t], tiles[u] = tiles[u], tiles[t]
            events.append(("secret_swap", t))
    return events, tiles


@pytest.mark.parametrize("case", range(40))
def test_exact_fast_and_mask_match_brute_force(case):
    rng = random.Random(case)
    events, truth = _random_events(rng, rng.randrange(1, 7))
    want = _brute_force(events)
    exact = exact_belief(events)
    got = {i: w for i, w in enumerate(exact.w) if w}
    assert got == want
    assert exact.w[index_of(truth)] > 0
    fast = FastBelief.uniform()
    for ev in events:
        fast.update(ev)
    np.testing.assert_allclose(fast.w, [float(w) for w in exact.w], atol=1e-12)
    assert set(np.flatnonzero(mask_to_bool(mask_after(events)))) == set(want)


def test_numba_weight_kernels_match_exact():
    rng = random.Random(99)
    for _ in range(30):
        events, _ = _random_events(rng, 5)
        w = np.full(N_ARR, 1 / N_ARR)
        out = np.empty_like(w)
        for ev in events:
            if ev[0] in ("peek", "show"):
                weights_observe(w, ev[1], ev[2], ARR)
            elif ev[0] == "not_bomb":
                weights_exclude(w, ev[1], BOMB, ARR)
            maps = event_maps(ev)
            if maps is not None:
                weights_mix(w, maps, out)
                w[:] = out
                if ev[0] == "place":
                    for t, v in zip(ev[1], ev[2], strict=True):
                        weights_observe(w, t, v, ARR)
        exact = exact_belief(events)
        np.testing.assert_allclose(w, [float(x) for x in exact.w], atol=1e-12)


def test_mask_kernels_count():
    m = mask_full()
    assert mask_to_bool(m).sum() == 630
    assert mask_observe(m, 4, BOMB, HAS_BITS) == 70  # 8!/(4!4!)
    out = np.empty_like(m)
    mask_map(m, event_maps(("swap", 4, 0)), out)
    assert mask_to_bool(out).sum() == 70 and mask_to_bool(out)[ARR[:, 0] == BOMB].all()


def test_real_games_keep_the_truth_possible():
    """Each player's observations in real games always allow the true grid."""
    for seed in range(150):
        g = random_game(seed, Options(promos=True, shuffle=("chance", "opponent")[seed % 2]))
        truth = index_of(g.tiles)
        for p in (0, 1):
            b = FastBelief.uniform()
            for ev in g.observations[p]:
                b.update(ev)
            assert b.w[truth] > 0


def test_framed_mask_matches_moving_the_bits():
    from bombsolve.solvers.bombastic.beliefs import framed_observe, framed_swap

    rng = random.Random(5)
    for _ in range(30):
        tiles = [X] * 4 + [O] * 4 + [BOMB]
        rng.shuffle(tiles)
        events = []
        m = mask_full()
        frame = np.arange(9)
        for _ in range(8):
            if rng.random() < 0.5:
                a, b = rng.sample(range(9), 2)
                tiles[a], tiles[b] = tiles[b], tiles[a]
                events.append(("swap", a, b))
                framed_swap(frame, a, b)
            else:
                t = rng.randrange(9)
                events.append(("peek", t, tiles[t]))
                framed_observe(m, frame, t, tiles[t], HAS_BITS)
        # Bring the framed mask to the current grid and compare with the moved bits.
        bits = mask_to_bool(m)
        current = np.zeros(N_ARR, dtype=bool)
        for i in np.flatnonzero(bits):
            current[index_of(ARR[i][frame])] = True
        assert np.array_equal(current, mask_to_bool(mask_after(events)))


def test_not_bomb_reads_and_writes():
    from bombsolve.solvers.bombastic.beliefs import event_text

    assert parse_events("not-bomb 4; not_bomb 5") == [("not_bomb", 4), ("not_bomb", 5)]
    assert event_text(("not_bomb", 4)) == "not-bomb 4"


# ----- Brute force over the 630 deals, from the rules engine --------------------------------


def _hidden_choices(state: State, observer: int) -> list[int] | None:
    """The decisions `observer` cannot see here, each equally likely under the stated
    model (chance's shuffle, the opponent's secret order or secret swap partner)."""
    if state.to_move == CHANCE:
        return state.legal_actions()
    if state.to_move != observer and state.phase in (Phase.ARRANGE, Phase.SECRET_SWAP):
        return state.legal_actions()
    return None


def _engine_posterior(seed: int, history: list[int], options: Options, observer: int):
    """The observer's posterior by replaying the same decisions on all 630 deals.

    A deal (and a choice for every hidden decision) is possible when the observer's
    observations come out the same and the game is still on; the survived peek-many
    enters only through "the game goes on" (its not-bomb events are left out of the
    comparison), so this checks the fact independently of how the engine records it.
    """
    true = State.new(seed, options)
    for a in history:
        true.apply(a)
    want = [ev for ev in true.observations[observer] if ev[0] != "not_bomb"]
    post = collections.Counter()

    def walk(state: State, i: int, prob: Fraction) -> None:
        if state.is_over():
            return
        if i == len(history):
            seen = [ev for ev in state.observations[observer] if ev[0] != "not_bomb"]
            if seen == want:
                post[index_of(state.tiles)] += prob
            return
        hidden = _hidden_choices(state, observer)
        for a in hidden or [history[i]]:
            nxt = state.clone()
            nxt.apply(a)
            n = len(want) if i + 1 == len(history) else None
            seen = [ev for ev in nxt.observations[observer] if ev[0] != "not_bomb"]
            if seen != want[: len(seen)] or (n is not None and len(seen) != n):
                continue
            walk(nxt, i + 1, prob / (len(hidden) if hidden else 1))

    for start in range(N_ARR):
        s = State.new(seed, options)
        s.tiles = [int(v) for v in ARR[start]]
        walk(s, 0, Fraction(1, N_ARR))
    total = sum(post.values())
    return {i: p / total for i, p in post.items()}, true


def _survived_peek_many_prefixes(n_cases: int, options: Options):
    """(seed, history, observer) right after the observer's opponent survived peeks with
    "Peek at as many", from random games with at most one hidden decision."""
    out = []
    seed = 0
    while len(out) < n_cases:
        seed += 1
        g = random_game(seed, options)
        s = State.new(seed, options)
        hidden = 0
        for k, a in enumerate(g.history):
            if _hidden_choices(s, 0) is not None or _hidden_choices(s, 1) is not None:
                hidden += 1
            p = s.turn_player
            s.apply(a)
            if hidden > 1 or s.is_over():
                break
            if s.card == Card.PEEK_MANY and s.phase == Phase.PEEK_OR_STOP and len(s.picked) >= 2:
                obs = s.observations[1 - p]
                looser = exact_belief([ev for ev in obs if ev[0] != "not_bomb"])
                if looser.w != exact_belief(obs).w:  # only where the fact changes the odds
                    out.append((seed, g.history[: k + 1], 1 - p))
                break
    return out


@pytest.mark.parametrize("case", range(12))
def test_survived_peek_many_matches_the_engine_over_all_630_deals(case):
    options = Options(promos=case % 2 == 1)
    seed, history, observer = _survived_peek_many_prefixes(12, options)[case]
    want, true = _engine_posterior(seed, history, options, observer)
    obs = true.observations[observer]
    assert any(ev[0] == "not_bomb" for ev in obs)
    exact = exact_belief(obs)
    assert {i: w for i, w in enumerate(exact.w) if w} == want
    fast = FastBelief.uniform()
    for ev in obs:
        fast.update(ev)
    np.testing.assert_allclose(fast.w, [float(w) for w in exact.w], atol=1e-12)
    assert set(np.flatnonzero(mask_to_bool(mask_after(obs)))) == set(want)
    # Without the fact the odds differ from the engine's: the test can fail.
    looser = exact_belief([ev for ev in obs if ev[0] != "not_bomb"])
    assert {i: w for i, w in enumerate(looser.w) if w} != want
