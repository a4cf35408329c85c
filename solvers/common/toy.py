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

from bombsolve.solvers.common.runner import ChunkSpec


def coin_chunk(params: Mapping[str, Any], chunk: ChunkSpec) -> pd.DataFrame:
    """Flip one coin with probability ``params['p']`` per case, seeded per case.

    ``params['sleep']`` (seconds per chunk, default 0) slows chunks so tests can kill a run
    part-way through. ``params['crash_case']`` ends the process running the chunk that holds
    that case, as a worker killed for its memory would end.
    """
    crash = params.get("crash_case")
    if crash is not None and chunk.start <= int(crash) < chunk.stop:
        os._exit(1)
    seeds = chunk.case_seeds()
    u = np.array([np.random.default_rng(int(s)).random() for s in seeds])
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
