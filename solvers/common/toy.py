"""A minimal study that exercises the runner: Bernoulli coin flips, one per case.

It exists so the runner's guarantees (seeding, resume, Dask, corruption) are tested on a
study whose answer is known in closed form, independently of any game.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from bombsolve.solvers.common.progress import cases_done
from bombsolve.solvers.common.runner import ChunkSpec


def coin_chunk(params: Mapping[str, Any], chunk: ChunkSpec) -> pd.DataFrame:
    """Flip one coin with probability ``params['p']`` per case, seeded per case.

    ``params['sleep']`` (seconds per chunk, default 0) slows chunks so tests can kill a run
    part-way through. ``params['crash_case']`` ends the process running the chunk that holds
    that case, as a worker killed for its memory would end. ``params['say_cases']``: the
    chunk says each case done (`progress.cases_done`) before its sleep, as a long chunk does.
    """
    crash = params.get("crash_case")
    if crash is not None and chunk.start <= int(crash) < chunk.stop:
        os._exit(1)
    seeds = chunk.case_seeds()
    u = np.array([np.random.default_rng(int(s)).random() for s in seeds])
    if params.get("say_cases"):
        for _ in seeds:
            cases_done()
    if params.get("sleep"):
        time.sleep(float(params["sleep"]))
    return pd.DataFrame(
        {
            "case": np.arange(chunk.start, chunk.stop, dtype=np.int64),
            "seed": seeds,
            "u": u,
            "win": u < float(params["p"]),
        }
    )


def coin_estimate(df: pd.DataFrame) -> str:
    """Running estimate for the progress bar."""
    from bombsolve.solvers.common.stats import wilson

    k, n = int(df["win"].sum()), len(df)
    lo, hi = wilson(k, n)
    return f"win {k / max(n, 1):.1%} [{lo:.1%}, {hi:.1%}]"


def bar_chunk(params: Mapping[str, Any], chunk: ChunkSpec) -> pd.DataFrame:
    """A case *clears* the bar ``params['bar']`` when its seeded draw is below it. A study
    whose bar rises grows in place (`bar_grows`, `bar_redo`): given the chunk's earlier
    rows (`ChunkSpec.prior`), a case that cleared a lower bar keeps its row (``kept``) and
    only the others are drawn again, as a sweep searches on only its undecided deals."""
    prior = {}
    if chunk.prior is not None:
        prior = {int(r["case"]): r for r in chunk.prior.to_dict("records") if r["cleared"]}
    rows = []
    for case, s in zip(range(chunk.start, chunk.stop), chunk.case_seeds(), strict=True):
        if case in prior:
            rows.append({**prior[case], "kept": True})
            continue
        u = float(np.random.default_rng(int(s)).random())
        rows.append({"case": case, "u": u, "cleared": u < float(params["bar"]), "kept": False})
    return pd.DataFrame(rows)


def bar_grows(old: Mapping[str, Any], new: Mapping[str, Any]) -> str | None:
    """None when the study `new` is `old` with the bar as high or higher."""
    if new["params"]["bar"] < old["params"]["bar"]:
        return "the bar does not fall"
    return None


def bar_redo(old: Mapping[str, Any], new: Mapping[str, Any], rows: pd.DataFrame) -> bool:
    """A chunk with a case below the bar is drawn again when the bar rises."""
    return new["params"]["bar"] > old["params"]["bar"] and not bool(rows["cleared"].all())
