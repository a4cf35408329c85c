"""The Numba information-state counter against the plain-Python one: one truth."""

import numpy as np
import pytest

from bombsolve.solvers.bombastic.beliefs import mask_after, mask_to_bool
from bombsolve.solvers.bombastic.infostates import _Counter, count_infostates
from bombsolve.solvers.bombastic.infostates_kernel import (
    Memo,
    MemoFull,
    _add128,
    count_infostates_fast,
    count_node,
    opening_state,
    openings,
)
from bombsolve.solvers.bombastic.rules import Card, Options, Phase, State
from bombsolve.solvers.bombastic.tiles import ARR, N_ARR, index_of
from bombsolve.solvers.common.rng import SplitMix64

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

FULL = np.ones(N_ARR, dtype=bool)


def _mask(grids: list[str]) -> np.ndarray:
    mask = np.zeros(N_ARR, dtype=bool)
    mask[[index_of(["XOB".index(ch) for ch in g]) for g in grids]] = True
    return mask


def test_depth_one_matches_the_reference_for_both_players():
    # The whole default game: every opening pair, one turn (the reference takes ~20 s).
    for p in (0, 1):
        ref = count_infostates(1, p)
        fast = count_infostates_fast(1, p)
        assert fast.by_depth == ref.by_depth
    assert fast.by_depth == [42, 69_325_248]  # O; the reference's committed figure


# One rule point changed at a time, on a short deck (the reference is slow: minutes for
# two turns of any of these, so they are counted one turn deep from partial knowledge).
OPTION_CASES = [
    Options(alarms=False, removed=(4, 3, 0, 1), shuffle="opponent"),
    Options(removed=(3, 4, 5, 6, 1)),  # both ALARM cards in the deck
    Options(promos=True, alarms=False, removed=(3, 4, 5, 6, 1, 2)),  # both promos
    Options(alarms=False, removed=(3, 5, 6, 1)),  # peek at as many
    Options(alarms=False, removed=(4, 3, 0, 1), turn_cap=1, deck_known=False),
]
# A few grids left: what a player knows after seeing some tiles.
FEW = ["XXXXOOOOB", "XXXOXOOOB", "OXXXXOOOB", "BOOOOXXXX", "XOXOXOXOB"]


@pytest.mark.parametrize("opts", OPTION_CASES, ids=lambda o: repr(o)[8:60])
def test_rule_options_one_turn_from_partial_knowledge(opts):
    mask = _mask(FEW)
    for p in (0, 1):
        a, b = openings(opts)[0]
        st = opening_state(a, b, opts)
        assert count_node(st, mask, 1, p) == _Counter(p, opts).count(st, mask, 1), p


@pytest.mark.parametrize("reading", ["distinct", "disjoint", "any"])
def test_second_swap_readings_from_the_second_swap(reading):
    # "Swap any 2. May swap any other 2.": the rest of the turn from the may-swap.
    opts = Options(alarms=False, removed=(4, 0, 1, 2), second_swap=reading)
    st = opening_state(3, 5, opts)
    for a in (17, 0, 1, 2):  # card slot 0 is peek1-swap-swap; peek 0; swap 1 and 2
        st.apply(a)
    assert st.phase == Phase.SWAP2_A
    for p in (0, 1):
        got = count_node(st, _mask(FEW), 1, p)
        assert got == _Counter(p, opts).count(st, _mask(FEW), 1), p


def test_two_turns_from_the_end_of_the_first():
    # The end of X's first card (may swap the two peeked tiles), the reveal, and all of
    # O's turn: two turn boundaries deep, for both players.
    opts = Options(alarms=False, removed=(4, 3, 0, 2))
    st = opening_state(1, 5, opts)
    for a in (17, 0, 4):  # peek2-may-swap; peek 0 and 4
        st.apply(a)
    assert st.phase == Phase.MAY_SWAP
    for p in (0, 1):
        got = count_node(st, _mask(FEW), 2, p)
        assert got == _Counter(p, opts).count(st, _mask(FEW), 2), p


def _random_position(seed: int, opts: Options) -> tuple[State, int]:
    """A state of a seeded random game, stopped at a random decision, and a player."""
    rng = SplitMix64(seed)
    st = State.setup(rng, opts)
    stop = rng.below(40)
    for _ in range(stop):
        legal = st.legal_actions()
        nxt = st.clone()
        nxt.apply(legal[rng.below(len(legal))])
        if nxt.is_over():
            break
        st = nxt
    return st, rng.below(2)


@pytest.mark.parametrize(
    "opts",
    [Options(), Options(promos=True, second_swap="any", shuffle="opponent")],
    ids=["default", "promos-any-opponent"],
)
def test_random_positions_of_random_games_count_the_same(opts):
    # Many seeded positions, mid-turn or not, from what one player saw so far: the mask
    # comes from their own observations (beliefs.mask_after), a few grids at most.
    checked = 0
    seed = 0
    while checked < 10:
        seed += 1
        st, p = _random_position(seed, opts)
        mask = mask_to_bool(mask_after(st.observations[p]))
        assert mask[index_of(st.tiles)]
        if mask.sum() > 8 or (st.phase == Phase.TURN and {3, 4} & set(st.face_up)):
            continue  # the reference takes seconds on peek1-swap-swap and peek-many turns
        checked += 1
        ref = _Counter(p, opts).count(st, mask, 1)
        assert count_node(st, mask, 1, p) == ref, seed


def test_mirrored_knowledge_counts_the_same():
    grids = ["XXXXOOOOB", "XXXOXOOOB", "XXXOOXOOB"]
    mirror = ["".join(g[3 * r + 2 - c] for r in range(3) for c in range(3)) for g in grids]
    st = opening_state(0, 6, Options())
    for p in (0, 1):
        assert count_node(st, _mask(grids), 2, p) == count_node(st, _mask(mirror), 2, p)


def test_a_small_table_grows_and_keeps_the_count():
    st = opening_state(1, 5, Options())
    big = count_node(st, FULL, 1, 1, Memo(16))
    small = Memo(4)
    assert count_node(st, FULL, 1, 1, small) == big
    assert small.log2 > 4 and small.entries > 0
    with pytest.raises(MemoFull):
        count_node(st, FULL, 2, 1, Memo(4, max_log2_slots=6))


def test_counts_carry_past_64_bits():
    top = np.uint64(2**64 - 1)
    assert _add128(top, np.uint64(0), np.uint64(2), np.uint64(5)) == (1, 6)


def test_depth_zero_and_a_game_already_over():
    assert count_infostates_fast(0, 0).by_depth == [42]
    st = opening_state(0, 1, Options())
    st.tiles = ARR[0].tolist()
    st.apply(9)  # X goes for the top row, XXX: a win
    assert st.is_over() and st.phase == Phase.OVER
    assert count_node(st, FULL, 2, 0) == 1
    assert int(Card.PEEK_MANY) == 4


def test_command_counts_with_either_engine_and_rejects_a_bad_limit():
    import json

    from click.testing import CliRunner

    from bombsolve.cli.main import cli

    def run(*args):
        return CliRunner().invoke(cli, ["bombastic", "infostates", *args])

    args = ["--depth", "1", "--player", "O", "--promos", "--no-alarms", "--without"]
    args += ["peek-many,peek1-swap-swap,peek-line-shuffle,show3-arrange,peek2-show", "--json"]
    fast, ref = run(*args), run(*args, "--engine", "python")
    assert fast.exit_code == 0 and ref.exit_code == 0, fast.output + ref.output
    fast, ref = json.loads(fast.stdout), json.loads(ref.stdout)
    assert fast["engine"] == "numba" and ref["engine"] == "python"
    assert fast["players"]["O"]["by_depth"] == ref["players"]["O"]["by_depth"]
    text = run("--depth", "0", "--player", "X")
    assert text.exit_code == 0 and "after 0 turns: 42 information states" in text.output
    bad = run("--depth", "1", "--max-memo-gib", "0")
    assert bad.exit_code == 2 and "--max-memo-gib" in bad.output


def test_alarm_l_shape_on_an_unknown_grid_has_a_child_per_shape_and_triple():
    # 16 L-shapes x 20 value triples (at most one bomb): the widest node of the walk.
    opts = Options(removed=(3, 4, 5, 6, 1))
    st = State(options=opts, tiles=ARR[0].tolist(), face_up=[8, 2], deck=[0, 7])
    st.apply(17)
    assert st.phase == Phase.L_SHAPE
    for p in (0, 1):
        assert count_node(st, FULL, 1, p) == _Counter(p, opts).count(st, FULL, 1) == 16 * 20
