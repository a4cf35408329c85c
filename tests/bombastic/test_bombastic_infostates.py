"""Information-state counts: the memoised search against plain enumeration."""

import numpy as np
import pytest

from bombsolve.solvers.bombastic.infostates import _Counter, count_infostates
from bombsolve.solvers.bombastic.rules import CHANCE, Card, Options, Phase, State
from bombsolve.solvers.bombastic.tiles import ARR, N_ARR, index_of

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"


def _naive(st: State, worlds: list[int], p: int) -> int:
    """Every history of one turn, world by world, as p would write it down; count distinct."""
    seen = set()
    for w in worlds:
        s = st.clone()
        s.tiles = ARR[w].tolist()
        s.observations = ([], [])
        _walk(s, p, (), seen)
    return len(seen)


def _walk(s: State, p: int, key: tuple, seen: set) -> None:
    if s.is_over() or (s.phase == Phase.TURN and key):
        seen.add(key + (("end", s.is_over(), s.winner, tuple(s.face_up)),))
        return
    hidden = s.to_move == CHANCE or (
        s.to_move != p and s.phase in (Phase.ARRANGE, Phase.SECRET_SWAP, Phase.SHUFFLE)
    )
    for a in s.legal_actions():
        unseen = sorted({c for c in s.deck if c not in s.cycled}) or [s.deck[0]]
        for c in unseen:
            t = s.clone()
            i = t.deck.index(c)
            t.deck[0], t.deck[i] = t.deck[i], t.deck[0]
            n = len(t.observations[p])
            t.apply(a)
            revealed = any(ev[0] == "reveal" for ev in t.observations[p][n:])
            if not revealed and c != unseen[0]:
                continue  # no card was revealed: the deck order did not matter
            step = (None if hidden else a, tuple(t.observations[p][n:]))
            _walk(t, p, key + (step,), seen)


# A short deck keeps the plain enumeration small: 3 cards unseen behind the 2 face up.
SMALL = Options(alarms=False, removed=(int(Card.PEEK_MANY), int(Card.PEEK1_SWAP_SWAP)))


def _position(face_up, worlds_events, opts=SMALL):
    deck = [int(c) for c in opts.deck_cards() if c not in face_up]
    st = State(options=opts, tiles=ARR[0].tolist(), face_up=list(face_up), deck=deck)
    return st


def test_memoised_count_matches_plain_enumeration_for_both_players():
    # A few grids still possible: the player knows most tiles.
    grids = ["XXXXOOOOB", "XXXXOOOBO", "XXXOXOOOB", "OXXXXOOOB"]
    worlds = [index_of(["XOB".index(ch) for ch in g]) for g in grids]
    mask = np.zeros(N_ARR, dtype=bool)
    mask[worlds] = True
    for face_up in [
        (int(Card.PEEK2_SWAP_OUT), int(Card.SHOW3_ARRANGE)),
        (int(Card.PEEK_LINE_SHUFFLE), int(Card.PEEK2_SHOW)),
    ]:
        st = _position(face_up, worlds)
        for p in (0, 1):
            got = _Counter(p, SMALL).count(st, mask, 1)
            assert got == _naive(st, worlds, p), (face_up, p)


def test_opponent_shuffle_reading_matches_plain_enumeration():
    grids = ["XXXXOOOOB", "XXXOXOOOB", "OXXXXOOOB"]
    worlds = [index_of(["XOB".index(ch) for ch in g]) for g in grids]
    mask = np.zeros(N_ARR, dtype=bool)
    mask[worlds] = True
    opts = SMALL.with_(shuffle="opponent")
    st = _position((int(Card.PEEK_LINE_SHUFFLE), int(Card.PEEK2_MAY_SWAP)), worlds, opts)
    for p in (0, 1):
        assert _Counter(p, opts).count(st, mask, 1) == _naive(st, worlds, p)


def test_depth_zero_is_the_setup():
    # Before any turn a player has seen only the two face-up cards: 7 x 6 ordered pairs.
    assert count_infostates(0, 0).by_depth == [42]
    assert count_infostates(0, 1, Options(promos=True)).by_depth == [9 * 8]


def test_symmetries_map_lines_and_l_shapes_onto_themselves():
    from bombsolve.solvers.bombastic.infostates import SYM_ARR, SYMMETRIES
    from bombsolve.solvers.bombastic.tiles import L_SHAPES, LINES

    assert len({tuple(g) for g in SYMMETRIES}) == 8
    for g, m in zip(SYMMETRIES, SYM_ARR, strict=True):
        for shapes in (LINES, L_SHAPES):
            assert {tuple(sorted(g[t] for t in s)) for s in shapes} == {
                tuple(sorted(s)) for s in shapes
            }
        # The arrangement map moves each tile's value to its image position.
        assert sorted(m) == list(range(N_ARR))
        assert all((ARR[m[i]][g] == ARR[i]).all() for i in range(0, N_ARR, 37))


def test_symmetric_memo_counts_what_the_plain_memo_counts():
    # A symmetric start (a few grids and their mirror images), one turn deep: the memo
    # on the smallest of 16 images gives the plain memo's count from fewer states.
    grids = ["XXXXOOOOB", "XXXOXOOOB", "XXXOOXOOB", "BOOOOXXXX"]
    worlds = [index_of(["XOB".index(ch) for ch in g]) for g in grids]
    mask = np.zeros(N_ARR, dtype=bool)
    mask[worlds] = True
    opts = SMALL.with_(second_swap="any")
    st = _position((int(Card.PEEK2_MAY_SWAP), int(Card.SHOW3_ARRANGE)), worlds, opts)
    for p in (0, 1):
        plain, sym = _Counter(p, opts, symmetry=False), _Counter(p, opts, symmetry=True)
        assert plain.count(st, mask, 1) == sym.count(st, mask, 1)
        assert sym.nodes < plain.nodes


def test_symmetric_memo_matches_plain_enumeration_from_partial_knowledge():
    grids = ["XXXXOOOOB", "XXXOXOOOB", "OXXXXOOOB", "BOOOOXXXX"]
    worlds = [index_of(["XOB".index(ch) for ch in g]) for g in grids]
    mask = np.zeros(N_ARR, dtype=bool)
    mask[worlds] = True
    for face_up in [(int(Card.SHOW3_ARRANGE), int(Card.PEEK2_SWAP_OUT))]:
        st = _position(face_up, worlds)
        for p in (0, 1):
            assert _Counter(p, SMALL, symmetry=True).count(st, mask, 1) == _naive(st, worlds, p)


def test_turn_cap_shortens_the_count_and_the_memo_key():
    """With a cap of one turn, depth 2 is depth 1: the count and the memo entries are the same."""
    capped = count_infostates(2, 0, Options(turn_cap=1))
    assert capped.by_depth[2] == capped.by_depth[1]
    one = count_infostates(1, 0, Options(turn_cap=1))
    assert one.by_depth == capped.by_depth[:2]
    # The depth-2 pass finds every node in the memo of the depth-1 pass: no new nodes.
    assert capped.nodes == one.nodes
