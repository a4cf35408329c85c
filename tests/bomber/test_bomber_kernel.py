"""The Numba kernel against the reference engine on thousands of seeded games."""

from __future__ import annotations

import numpy as np
import pytest

from bombsolve.solvers.bomber import rules as R
from bombsolve.solvers.bomber.kernel import (
    AGENT_SALT,
    COLUMNS,
    rule_flags,
    run_random_games,
    trace_game,
)

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

READINGS = [
    R.Options(),
    R.Options(dog="forbid"),
    R.Options(warrior_bombing=False),
    R.Options(stuck_bomber="assess"),
    R.Options(move_optional=False),
    R.Options(dog="forbid", warrior_bombing=False, stuck_bomber="assess", move_optional=False),
]


def reference_game(seed: int, players: int, rules: R.Options, extras=None):
    """Play the reference engine with the kernel's random agent (same SplitMix64 stream)."""
    g = R.new_game(players, seed, rules, extras)
    agent = R.SplitMix64(seed ^ AGENT_SALT)
    actions = []
    while not g.over:
        legal = R.legal_actions(g)
        a = legal[agent.below(len(legal))]
        actions.append(a)
        R.apply(g, a)
    return g, actions


def reference_row(g: R.State, actions: list[int]) -> list[int]:
    r = g.result
    extras = sum(1 << (c - R.Card.YOUNG_LADY) for c in g.characters if c in R.EXTRAS)
    return [
        int(r.outcome),
        int(r.chaos),
        int(r.escape),
        int(r.bombing),
        int(r.survival),
        int(r.termination == "bomber_stuck"),
        r.chaos_locations,
        len(actions),
        len(g.eliminations),
        extras,
        g.bomber_player(),
    ]


@pytest.mark.parametrize("rules", READINGS, ids=lambda r: ",".join(map(str, r.as_dict().values())))
def test_kernel_matches_reference_game_by_game(rules):
    n = 2000 if rules == R.Options() else 500
    outcomes = set()
    for seed in range(n):
        players = 3 + seed % 4
        g, actions = reference_game(seed, players, rules)
        row, kernel_actions = trace_game(seed, players, rules)
        assert kernel_actions == actions, f"seed {seed}: action sequences differ"
        assert list(row) == reference_row(g, actions), f"seed {seed}: results differ"
        outcomes.add(int(row[0]))
    if rules == R.Options():
        assert outcomes == {0, 1, 2, 3}  # every outcome reached in the comparison


def test_kernel_named_extras_match_reference():
    for seed in range(200):
        players = 4 + seed % 3
        extras = tuple(R.EXTRAS[i] for i in range(3) if (seed >> i) & 1)
        mask = sum(1 << i for i in range(3) if (seed >> i) & 1)
        if len(extras) != players - 3:
            continue
        g, actions = reference_game(seed, players, R.Options(), extras)
        row, kernel_actions = trace_game(seed, players, R.Options(), mask)
        assert kernel_actions == actions and list(row) == reference_row(g, actions)


def test_batch_equals_single_games():
    seeds = np.arange(1000, 1300, dtype=np.uint64)
    batch = run_random_games(seeds, 5)
    assert batch.shape == (300, len(COLUMNS))
    for k in range(0, 300, 37):
        row, _ = trace_game(int(seeds[k]), 5)
        assert list(batch[k]) == list(row)


def test_kernel_outcome_rates_are_plausible():
    res = run_random_games(np.arange(20000, dtype=np.uint64), 5)
    counts = np.bincount(res[:, 0], minlength=4)
    assert counts.sum() == 20000 and (counts > 0).all()
    # a Bomber's victory needs Survival and an Achievement; a Police victory none of them
    won = res[:, 0] == 0
    assert (res[won, 4] == 1).all()
    assert ((res[won, 1] | res[won, 2] | res[won, 3]) == 1).all()
    police = (res[:, 0] == 1) & (res[:, 5] == 0)
    assert ((res[police, 1] | res[police, 2] | res[police, 3]) == 0).all()


def kernel_arrays(state: R.State):
    """Lay a reference state out in the kernel's flat arrays (see kernel.py's diagram)."""
    card = np.full((7, 5), -1, np.int8)
    up = np.zeros((7, 5), np.int8)
    owner = np.zeros((7, 5), np.int8)
    length = np.zeros(7, np.int8)
    for loc, line in enumerate(state.lines):
        length[loc] = len(line)
        for i, s in enumerate(line):
            card[loc, i], up[loc, i], owner[loc, i] = int(s.card), int(s.face_up), s.owner
    hand = np.zeros((6, 9), np.int8)
    size = np.zeros(6, np.int8)
    for p in range(state.players):
        hand[p, :] = state.hands[p]
        size[p] = state.hand_size(p)
    return card, up, owner, length, hand, size


@pytest.mark.parametrize("rules", READINGS[:2] + READINGS[4:5], ids=["default", "forbid", "move"])
def test_kernel_legal_moves_and_steps_match_state_by_state(rules):
    from bombsolve.solvers.bomber.kernel import legal, step

    dog_forbid, _, _, move_optional = rule_flags(rules)
    buf = np.empty(128, np.int16)
    for seed in range(150):
        g = R.new_game(3 + seed % 4, seed, rules)
        rng = R.SplitMix64(seed + 77)
        while not g.over:
            p = g.current
            card, up, owner, length, hand, size = kernel_arrays(g)
            n = legal(p, card, up, length, hand, size, dog_forbid, move_optional, buf)
            legal_ref = R.legal_actions(g)
            assert [int(a) for a in buf[:n]] == legal_ref
            a = legal_ref[rng.below(len(legal_ref))]
            step(p, a, card, up, owner, length, hand, size)
            R.apply(g, a)
            after = kernel_arrays(g)
            used = after[0] >= 0  # up/owner of an emptied slot are left as they were
            assert (card == after[0]).all()
            assert (up[used] == after[1][used]).all() and (owner[used] == after[2][used]).all()
            for x, y in zip((length, hand, size), after[3:], strict=True):
                assert (x == y).all()


def test_comparison_covers_eliminations_and_stuck_bombers():
    rows = np.array([trace_game(seed, 3 + seed % 4)[0] for seed in range(2000)])
    assert (rows[:, COLUMNS.index("eliminated")] > 0).sum() > 20
    assert rows[:, COLUMNS.index("bomber_stuck")].sum() > 5


def test_comparison_covers_a_bomber_who_left_play_and_would_have_won():
    # Under stuck_bomber='assess' a Bomber who left play is assessed but has lost: the
    # kernel must turn his would-be victory into a draw exactly as the reference does.
    rules = R.Options(stuck_bomber="assess")
    seen = 0
    for seed in range(1500):
        players = 3 + seed % 4
        g, actions = reference_game(seed, players, rules)
        if not g.out[g.bomber_player()]:
            continue
        row, _ = trace_game(seed, players, rules)
        assert list(row) == reference_row(g, actions), f"seed {seed}: results differ"
        r = g.result
        if r.survival and (r.chaos or r.escape or r.bombing):
            assert r.outcome == R.Outcome.DRAW
            seen += 1
    assert seen > 5


@pytest.mark.parametrize("rules", READINGS[:1] + READINGS[-1:], ids=["default", "all-options"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_batch_games_do_not_depend_on_the_games_before(rules, players):
    # play_random_games plays the whole batch in one set of state arrays (new_work): every
    # game of a batch must come out as it does alone, in a batch of one and in trace_game
    # (which allocates fresh arrays for its game). Seeds descending, so each game follows
    # different games than in test_batch_equals_single_games.
    seeds = np.arange(400, 100, -1, dtype=np.uint64)
    batch = run_random_games(seeds, players, rules)
    for k in range(0, len(seeds), 13):
        alone = run_random_games(seeds[k : k + 1], players, rules)
        row, _ = trace_game(int(seeds[k]), players, rules)
        assert list(batch[k]) == list(alone[0]) == list(row), int(seeds[k])
