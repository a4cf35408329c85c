"""A committed All Is Bomb study resumes and grows (DESIGN.md, "Runs that last") only while
its identity is the same: the chunk function's name in every committed manifest must still
be the name of a chunk function, wherever its module now lives in the rooms."""

from __future__ import annotations

import json
from pathlib import Path

from bombsolve.solvers.allisbomb.search import exhaust
from bombsolve.solvers.allisbomb.studies import sensitivity, study
from bombsolve.solvers.common.runner import chunk_name

RESULTS = Path(__file__).resolve().parents[2] / "results" / "allisbomb"
CHUNK_FUNCTIONS = (
    study.sweep_chunk,
    study.campaign_chunk,
    exhaust.group_chunk,
    exhaust.exhaust_chunk,
    exhaust.sample_chunk,
    sensitivity.sensitivity_chunk,
)


def test_every_committed_study_names_a_live_chunk_function():
    recorded = set()
    for manifest in RESULTS.rglob("manifest.json"):
        identity = json.loads(manifest.read_text()).get("identity", {})
        if "chunk_fn" in identity:
            recorded.add(identity["chunk_fn"])
    assert recorded, "the committed studies record their chunk functions"
    live = {chunk_name(fn) for fn in CHUNK_FUNCTIONS}
    assert recorded <= live, f"no chunk function is now named {sorted(recorded - live)}"


def test_a_chunk_function_keeps_its_recorded_name():
    assert chunk_name(study.sweep_chunk) == "solvers.allisbomb.study.sweep_chunk"
    assert study.sweep_chunk.__module__.endswith("allisbomb.studies.study")
