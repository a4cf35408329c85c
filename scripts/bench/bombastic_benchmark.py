"""Bombastic speed: the Numba kernel against the reference engine on the same work.

    python scripts/bench/bombastic_benchmark.py [--games 200000] [--json]

Reports: complete random-agent games per second per core (goal
200,000) in the kernel and in the reference engine, on the same seeds, and their
ratio; belief updates per second (goal 10 million) for the Numba mask kernel against
the exact (Fraction) and NumPy references; ISMCTS iterations per second with kernel
playouts against the same search with reference-engine playouts (a ratio in one run),
and for `ismcts-heuristic` with its casual playouts. First-run compile time is reported
separately from the timed runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np  # noqa: E402

from bombsolve.solvers.bombastic import (  # noqa: E402
    HAS_BITS,
    SWAP_MAP,
    TRIPLE_MAP,
    ExactBelief,
    FastBelief,
    HeuristicAgent,
    HeuristicISMCTSAgent,
    ISMCTSAgent,
    Options,
    SplitMix64,
    State,
    framed_loop,
    kernel_new_state,
    kernel_options_args,
    kernel_playout_casual,
    kernel_random_games,
    make_agent,
    mask_map_loop,
    mask_update_loop,
    play_game,
    random_game,
    view_of,
)
from bombsolve.solvers.common.host import host_info  # noqa: E402


def timed(fn, *args):
    t = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - t, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200_000, help="kernel games")
    ap.add_argument("--ref-games", type=int, default=5_000, help="reference games")
    ap.add_argument("--ismcts-views", type=int, default=12, help="positions for ISMCTS")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    res: dict = {"host": host_info()}
    cards, cap, second, _ = kernel_options_args(Options())

    compile_s, _ = timed(kernel_random_games, 0, 10, cards, cap, second)
    res["kernel_compile_or_cache_load_s"] = compile_s
    # Same games in both engines: seeds 0..ref_games-1.
    t_ref, _ = timed(lambda: [random_game(s) for s in range(args.ref_games)])
    t_ker_same, out = timed(kernel_random_games, 0, args.ref_games, cards, cap, second)
    t_ker, out_big = timed(kernel_random_games, 0, args.games, cards, cap, second)
    res["random_games"] = {
        "reference_games_per_s": args.ref_games / t_ref,
        "kernel_games_per_s_same_games": args.ref_games / t_ker_same,
        "kernel_games_per_s": args.games / t_ker,
        "ratio_same_games": t_ref / t_ker_same,
        "kernel_games": args.games,
        "reference_games": args.ref_games,
        "mean_decisions_per_game": float(out_big[:, 3].mean()),
    }

    rng = np.random.default_rng(1)
    n_upd = 20_000_000
    tiles = rng.integers(0, 9, n_upd).astype(np.int64)
    values = rng.integers(0, 3, n_upd).astype(np.int64)
    mask_update_loop(tiles[:10], values[:10], HAS_BITS)
    t_mask, _ = timed(mask_update_loop, tiles, values, HAS_BITS)
    n_ref = 300
    t_exact, _ = timed(_exact_updates, tiles[:n_ref], values[:n_ref])
    n_fast = 20_000
    t_fast, _ = timed(_fast_updates, tiles[:n_fast], values[:n_fast])
    swap_maps = SWAP_MAP.astype(np.int32)
    which = rng.integers(0, 36, 200_000).astype(np.int64)
    mask_map_loop(swap_maps, which[:10], 1)
    t_swap, _ = timed(mask_map_loop, swap_maps, which, 1)
    tri = TRIPLE_MAP.reshape(-1, TRIPLE_MAP.shape[2])
    which3 = (rng.integers(0, 84, 100_000) * 6).astype(np.int64)
    mask_map_loop(tri, which3[:10], 6)
    t_shuf, _ = timed(mask_map_loop, tri, which3, 6)
    n_fr = 10_000_000
    pairs = np.array([(a, b) for a in range(9) for b in range(9) if a != b])[
        rng.integers(0, 72, n_fr)
    ].astype(np.int64)
    framed_loop(tiles[:10], values[:10], pairs[:10], HAS_BITS)
    t_fr, _ = timed(framed_loop, tiles[:n_fr], values[:n_fr], pairs, HAS_BITS)
    res["belief_updates"] = {
        "framed_swap_then_peek_updates_per_s": 2 * n_fr / t_fr,
        "mask_peek_show_per_s": n_upd / t_mask,
        "mask_swap_per_s": len(which) / t_swap,
        "mask_shuffle_per_s": len(which3) / t_shuf,
        "exact_fraction_per_s": n_ref / t_exact,
        "numpy_float_per_s": n_fast / t_fast,
        "ratio_mask_vs_exact": (n_upd / t_mask) / (n_ref / t_exact),
        "ratio_mask_vs_numpy": (n_upd / t_mask) / (n_fast / t_fast),
        "note": "peek/show on a full mask, reset every 4 updates (impossible ones included)",
    }

    res["ismcts"] = _ismcts_speed(args.ismcts_views)

    if args.json:
        print(json.dumps(res, indent=2))
        return
    r = res["random_games"]
    print(f"kernel compile/cache load: {res['kernel_compile_or_cache_load_s']:.2f} s")
    print(f"random games/s  reference {r['reference_games_per_s']:>12,.0f}")
    print(f"                kernel    {r['kernel_games_per_s']:>12,.0f}  (goal 200,000)")
    print(
        f"                ratio on the same {r['reference_games']} games: "
        f"{r['ratio_same_games']:.0f}x"
    )
    b = res["belief_updates"]
    print(f"belief updates/s mask peek/show {b['mask_peek_show_per_s']:>14,.0f}  (goal 10,000,000)")
    print(f"                 framed swap+peek {b['framed_swap_then_peek_updates_per_s']:>12,.0f}")
    print(f"                 mask swap      {b['mask_swap_per_s']:>14,.0f}")
    print(f"                 mask shuffle   {b['mask_shuffle_per_s']:>14,.0f}")
    print(f"                 exact Fraction {b['exact_fraction_per_s']:>14,.0f}")
    print(f"                 NumPy float    {b['numpy_float_per_s']:>14,.0f}")
    print(
        f"                 ratio mask/exact {b['ratio_mask_vs_exact']:,.0f}x, "
        f"mask/NumPy {b['ratio_mask_vs_numpy']:,.0f}x"
    )
    i = res["ismcts"]
    print(
        f"ISMCTS (random playouts) iterations/s kernel {i['iterations_per_s']:,.0f}, "
        f"reference {i['reference_playout_iterations_per_s']:,.0f} "
        f"(ratio {i['ratio_kernel_vs_reference_playouts']:.1f}x, same positions and seeds)"
    )
    print(
        f"ismcts-heuristic iterations/s {i['heuristic_iterations_per_s']:,.0f} (search in "
        f"the kernel) against {i['heuristic_python_walk_iterations_per_s']:,.0f} (walk in "
        f"Python), {i['ratio_heuristic_kernel_vs_python_walk']:.1f}x; casual kernel "
        f"playouts/s {i['casual_playouts_per_s']:,.0f} against heuristic-vs-heuristic "
        f"reference games/s {i['heuristic_reference_games_per_s']:,.0f} "
        f"({i['ratio_casual_playouts_vs_heuristic_games']:,.0f}x)"
    )
    print(
        f"a game: ismcts:100 vs itself {i['seconds_per_game_ismcts100_both']:.2f} s; "
        f"ismcts-heuristic-guarded:300 vs heuristic "
        f"{i['seconds_per_game_ismcts_heuristic_guarded300_vs_heuristic']:.2f} s"
    )


class _ReferencePlayoutISMCTS(ISMCTSAgent):
    """`ismcts` with its random playouts in the reference engine: the ratio's baseline."""

    def _playout(self, state, ks, seed):
        rng = SplitMix64(seed)
        while not state.is_over():
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
        return -1 if state.winner is None else state.winner


def _positions(n: int) -> list:
    """Views of the player to move after 0..5 random decisions, a few seeds."""
    views = []
    seed = 0
    while len(views) < n:
        st = State.new(seed)
        rng = np.random.default_rng(seed)
        for _ in range(seed % 6):
            legal = st.legal_actions()
            st.apply(legal[int(rng.integers(len(legal)))])
            if st.is_over():
                break
        if not st.is_over() and st.to_move >= 0:
            views.append(view_of(st, st.to_move))
        seed += 1
    return views


def _ismcts_speed(n_views: int) -> dict:
    """ISMCTS iterations per second, and games per second of the playout policies."""
    views = _positions(n_views)
    its = 300

    def run(agent_cls):
        agent = agent_cls(its)
        agent.act(views[0], views[0].legal, np.random.default_rng(0))  # warm up (and compile)
        t, _ = timed(
            lambda: [
                agent_cls(its).act(v, v.legal, np.random.default_rng(i))
                for i, v in enumerate(views)
            ]
        )
        return its * len(views) / t

    # Back to back, same positions and seeds: kernel playouts, then reference playouts.
    kernel_rate = run(ISMCTSAgent)
    ref_rate = run(_ReferencePlayoutISMCTS)
    # The search in one kernel call; every iteration run (no early stop: a rate, not a
    # saving, is measured here).
    heur_rate = run(lambda n: HeuristicISMCTSAgent(n, stop_early=False))
    # The same search walked in Python (the reference), back to back: the same trees.
    heur_python_rate = run(lambda n: HeuristicISMCTSAgent(n, walk="python", stop_early=False))

    n_play = 20_000
    know = np.zeros((2, 9), dtype=np.int8)
    states = [kernel_new_state(s) for s in range(n_play)]
    kernel_playout_casual(kernel_new_state(0), know.copy(), 0)

    def casual():
        for s, st in enumerate(states):
            kernel_playout_casual(st, know.copy(), s)

    t_cas, _ = timed(casual)
    n_ref = 300
    t_href, _ = timed(
        lambda: [play_game(HeuristicAgent(), HeuristicAgent(), s, Options()) for s in range(n_ref)]
    )
    t_game, _ = timed(lambda: [play_game(ISMCTSAgent(100), ISMCTSAgent(100), s) for s in range(5)])
    t_hgame, _ = timed(
        lambda: [
            play_game(make_agent("ismcts-heuristic-guarded:300"), HeuristicAgent(), s)
            for s in range(5)
        ]
    )
    return {
        "iterations_per_s": kernel_rate,
        "reference_playout_iterations_per_s": ref_rate,
        "ratio_kernel_vs_reference_playouts": kernel_rate / ref_rate,
        "heuristic_iterations_per_s": heur_rate,
        "heuristic_python_walk_iterations_per_s": heur_python_rate,
        "ratio_heuristic_kernel_vs_python_walk": heur_rate / heur_python_rate,
        "casual_playouts_per_s": n_play / t_cas,
        "heuristic_reference_games_per_s": n_ref / t_href,
        "ratio_casual_playouts_vs_heuristic_games": (n_play / t_cas) / (n_ref / t_href),
        "seconds_per_game_ismcts100_both": t_game / 5,
        "seconds_per_game_ismcts_heuristic_guarded300_vs_heuristic": t_hgame / 5,
        "note": (
            f"{its} iterations on each of {len(views)} positions (0-5 random decisions into "
            "seeded games); ismcts with random playouts in the Numba kernel against the same "
            "search with its playouts in the reference engine (same seeds, back to back); "
            "ismcts-heuristic with casual playouts in the kernel (no reference twin: the "
            "nearest reference work is a heuristic-vs-heuristic game, compared per game)"
        ),
    }


def _exact_updates(tiles, values):
    b = ExactBelief()
    for k, (t, v) in enumerate(zip(tiles, values, strict=True)):
        if k % 4 == 0:
            b = ExactBelief()
        try:
            b.update(("peek", int(t), int(v)))
        except ValueError:
            b = ExactBelief()


def _fast_updates(tiles, values):
    b = FastBelief.uniform()
    for k, (t, v) in enumerate(zip(tiles, values, strict=True)):
        if k % 4 == 0:
            b = FastBelief.uniform()
        try:
            b.update(("peek", int(t), int(v)))
        except ValueError:
            b = FastBelief.uniform()


if __name__ == "__main__":
    main()
