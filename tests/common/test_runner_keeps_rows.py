"""A study that grows in place with `Study.keeps_rows`: a chunk its `redo` names keeps its
rows beside it until it is computed again, and its chunk function gets them
(`ChunkSpec.prior`), in this process and in a pool's workers alike."""

from __future__ import annotations

import pytest

from bombsolve.solvers.common.runner import (
    CHUNK_DIR,
    Study,
    load_manifest,
    load_study,
    prior_path,
    run_study,
)
from bombsolve.solvers.common.toy import bar_chunk, bar_grows, bar_redo


def bar_study(bar: float, keeps_rows: bool = True) -> Study:
    return Study(
        "toy.bar",
        {"bar": bar},
        n_cases=40,
        seed=9,
        chunk_fn=bar_chunk,
        chunk_size=8,
        grows=bar_grows,
        redo=bar_redo,
        keeps_rows=keeps_rows,
    )


@pytest.mark.parametrize("workers", [1, 2])
def test_a_chunk_done_again_gets_its_rows_and_keeps_what_still_holds(tmp_path, workers):
    out = tmp_path / "s"
    low = run_study(bar_study(0.3), out, workers=1, progress=False)
    assert 0 < low["cleared"].sum() < 40 and not low["kept"].any()
    high = run_study(bar_study(0.9), out, workers=workers, progress=False)
    # the cases that cleared the low bar keep their rows; the others were drawn again
    assert high.loc[low["cleared"], "kept"].all()
    assert not high.loc[~low["cleared"], "kept"].any()
    fresh = run_study(bar_study(0.9), tmp_path / "fresh", workers=1, progress=False)
    cols = ["case", "u", "cleared"]
    assert high[cols].equals(fresh[cols])
    redone = (~low.groupby(low["case"] // 8)["cleared"].all()).sum()
    grown = load_manifest(out)["grown"][0]
    assert (grown["chunks_redone"], grown["chunks_kept"]) == (redone, 5 - redone)
    assert not list((out / CHUNK_DIR).glob("*.prior"))


def test_without_keeps_rows_a_chunk_done_again_starts_afresh(tmp_path):
    out = tmp_path / "s"
    run_study(bar_study(0.3, keeps_rows=False), out, workers=1, progress=False)
    high = run_study(bar_study(0.9, keeps_rows=False), out, workers=1, progress=False)
    assert load_manifest(out)["grown"][0]["chunks_redone"] > 0
    assert not high["kept"].any() and not list((out / CHUNK_DIR).glob("*.prior"))


def test_kept_rows_wait_for_a_run_stopped_before_their_chunk(tmp_path):
    """A run stopped (its time spent) before a chunk it must compute again leaves that
    chunk's kept rows for the next run, which uses them; kept rows of a chunk already
    computed again (a stop between its file and their removal) are removed."""
    out = tmp_path / "s"
    low = run_study(bar_study(0.3), out, workers=1, progress=False)
    part = run_study(bar_study(0.9), out, workers=1, progress=False, time_budget=0)
    assert not part.attrs["complete"]
    waiting = sorted((out / CHUNK_DIR).glob("*.prior"))
    assert waiting  # the chunks to do again keep their rows
    high = run_study(bar_study(0.9), out, workers=1, progress=False)
    assert high.loc[low["cleared"], "kept"].all()
    assert not list((out / CHUNK_DIR).glob("*.prior"))
    prior_path(out, 2).write_bytes(b"left by a run stopped after chunk 2's file")
    again = run_study(bar_study(0.9), out, workers=1, progress=False)
    assert again.equals(high) and not prior_path(out, 2).exists()
    assert load_study(out).equals(high)


def test_kept_rows_that_do_not_read_back_are_not_used(tmp_path):
    out = tmp_path / "s"
    low = run_study(bar_study(0.3), out, workers=1, progress=False)
    run_study(bar_study(0.9), out, workers=1, progress=False, time_budget=0)
    for p in (out / CHUNK_DIR).glob("*.prior"):
        p.write_bytes(p.read_bytes()[:-40])  # truncated
    high = run_study(bar_study(0.9), out, workers=1, progress=False)
    assert not high["kept"].any() and low["cleared"].any()
    fresh = run_study(bar_study(0.9), tmp_path / "fresh", workers=1, progress=False)
    assert high[["case", "u", "cleared"]].equals(fresh[["case", "u", "cleared"]])


def test_kept_rows_travel_with_their_chunk_to_dask_workers(tmp_path, dask_cluster):
    out = tmp_path / "s"
    low = run_study(bar_study(0.3), out, workers=1, progress=False)
    high = run_study(bar_study(0.9), out, scheduler=dask_cluster.address, progress=False)
    assert high.loc[low["cleared"], "kept"].all()
    assert not high.loc[~low["cleared"], "kept"].any()
    assert not list((out / CHUNK_DIR).glob("*.prior"))
