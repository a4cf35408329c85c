"""The sensitivity study's tornado chart: its caption against the study's manifest.

The expected words (cards, configuration, N, seed, chunks, number of edits, player and
node limit, the commits that computed it) are read here from the runner manifest.
"""

from __future__ import annotations

from bombsolve.solvers.allisbomb.cards.config import Options
from bombsolve.solvers.allisbomb.studies.sensitivity import sensitivity_study, write_report
from bombsolve.solvers.common.runner import load_manifest, run_study
from tests.common.svg import svg_text


def test_tornado_caption_names_what_its_manifest_records(tmp_path):
    only = ("JOKER/copies-1", "GUARDIAN/passive/number+1")
    study = sensitivity_study(Options(), 24, seed=13, player="perfect", only=only)
    rows = run_study(study, tmp_path / "s", workers=1, progress=False)
    manifest = load_manifest(tmp_path / "s")
    write_report(rows, manifest, tmp_path / "s" / "report", top=5)
    text = svg_text(tmp_path / "s" / "report" / "tornado.svg")
    ident = manifest["identity"]
    p = ident["params"]
    assert text.count("All Is Bomb, ") == 1
    text = text[text.index("All Is Bomb, ") :]
    assert ("STAND-IN card texts" in text) == bool(p["stand_in"])
    assert f"; {p['label']};" in text
    assert f"{ident['n_cases']:,} deals" in text
    assert f"SeedSequence({ident['seed']}), chunks of {ident['chunk_size']}" in text
    assert f"each of {len(p['edits'])} single edits" in text
    assert f"node limit {p['node_limit']:,}" in text
    commits = [r["git_commit"][:12] for r in manifest["runs"] if r.get("chunks_computed")]
    assert commits and all(c in text for c in commits)
    chart = svg_text(tmp_path / "s" / "report" / "tornado.svg")
    for edit in only:  # each edit drawn names its card on the chart
        assert edit.split("/")[0] in chart


def _effects(reaches: list[float]):
    import pandas as pd

    return pd.DataFrame({"lo": [-r / 100 for r in reaches], "hi": [r / 200 for r in reaches]})


def test_tornado_axis_covers_every_interval_when_no_edit_dwarfs_the_rest():
    from bombsolve.solvers.allisbomb.studies.sensitivity import _tornado_span

    span, clipped = _tornado_span(_effects([6.0, 5.0, 2.0, 1.0]))
    assert span == 6.0 and not clipped.any()


def test_tornado_axis_leaves_an_edit_that_dwarfs_the_rest_off_scale():
    from bombsolve.solvers.allisbomb.studies.sensitivity import _tornado_span

    span, clipped = _tornado_span(_effects([93.7, 6.6, 5.4, 1.0]))
    assert 6.6 < span < 93.7
    assert clipped.tolist() == [True, False, False, False]
    # two that dwarf the rest both run off the axis
    span, clipped = _tornado_span(_effects([90.0, 80.0, 5.0]))
    assert clipped.tolist() == [True, True, False]


def test_tornado_axis_without_edits():
    import pandas as pd

    from bombsolve.solvers.allisbomb.studies.sensitivity import _tornado_span

    span, clipped = _tornado_span(pd.DataFrame({"lo": [], "hi": []}))
    assert span == 1.0 and clipped.size == 0
