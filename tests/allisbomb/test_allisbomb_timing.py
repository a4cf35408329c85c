"""The ``seconds`` of sweep and campaign rows exclude the kernel's first load.

A process's first solve loads (or compiles) the Numba kernel and allocates its tables;
the chunk functions pay that once, untimed, before the first timed row. Here the solver
is replaced by one that costs 100 "seconds" on its first call in the process and 1 on
every later call, on a fake clock, so the rows must read exactly 1.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from bombsolve.solvers.allisbomb.cards.config import EXPANSIONS, Options
from bombsolve.solvers.allisbomb.studies import study
from bombsolve.solvers.allisbomb.studies.campaign import CampaignResult
from bombsolve.solvers.common.runner import ChunkSpec


class LoadingSolver:
    """A stand-in whose first call costs 100 on `clock`, later calls 1."""

    def __init__(self) -> None:
        self.now = 0.0
        self.calls = 0

    def clock(self) -> float:
        return self.now

    def spend(self) -> None:
        self.now += 100.0 if self.calls == 0 else 1.0
        self.calls += 1


def test_sweep_seconds_exclude_the_first_load(monkeypatch):
    solver = LoadingSolver()

    def solve_batch(config, decks, node_limit):
        solver.spend()
        n = len(decks)
        one = np.ones(n, np.int64)
        return {"code": one, "nodes": 7 * one, "turns": 5 * one, "reason": 0 * one}

    monkeypatch.setattr(study, "solve_batch", solve_batch)
    monkeypatch.setattr(study, "time", SimpleNamespace(perf_counter=solver.clock))
    monkeypatch.setattr(study, "_WARM", set())
    st = study.sweep_study([Options()], deals=6, seed=3, chunk_size=3)
    first = study.sweep_chunk(st.params, ChunkSpec(index=0, start=0, stop=3, seed=3))
    second = study.sweep_chunk(st.params, ChunkSpec(index=1, start=3, stop=6, seed=3))
    assert list(first["seconds"]) + list(second["seconds"]) == [1.0] * 6
    assert solver.calls == 7  # the load once per process, untimed, then one call per deal


def test_campaign_seconds_exclude_the_first_load(monkeypatch):
    solver = LoadingSolver()

    def play_campaign(rng, players, node_limit, **kwargs):
        solver.spend()
        six = len(EXPANSIONS)
        return CampaignResult(
            outcomes=["win"] * six,
            kept_cards=20,
            removed=[],
            points=30,
            medal="gold",
            nodes=1000,
            best=[True] * six,
            stars_lost=[0] * six,
        )

    import bombsolve.solvers.allisbomb.studies.campaign as campaign

    monkeypatch.setattr(campaign, "play_campaign", play_campaign)
    monkeypatch.setattr(study, "time", SimpleNamespace(perf_counter=solver.clock))
    monkeypatch.setattr(study, "_WARM", set())
    params = study.campaign_study(4, seed=2, node_limit=5000, chunk_size=2).params
    first = study.campaign_chunk(params, ChunkSpec(index=0, start=0, stop=2, seed=2))
    second = study.campaign_chunk(params, ChunkSpec(index=1, start=2, stop=4, seed=2))
    assert list(first["seconds"]) + list(second["seconds"]) == [1.0] * 4
    assert solver.calls == 5  # one untimed campaign per process, then one per case
