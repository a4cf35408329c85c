"""scripts/results/bomber_results.py and scripts/bench/bomber_bench.py: the results tables
(RESULTS.md, README block) and bad input."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.readme import render_block
from tests.common.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "results" / "bomber_results.py"


def committed_tables(dst: Path) -> Path:
    """Copy the committed part tables (CSV only, no studies) into dst/results."""
    out = dst / "results"
    for part in ("players", "extras", "readings"):
        (out / part).mkdir(parents=True)
        for name in ("summary.csv", "achievements.csv"):
            shutil.copy(ROOT / "results" / "bomber" / part / name, out / part / name)
    return out


def test_readme_block_matches_the_committed_tables():
    # The README's table is the script's output on the committed tables, not hand typing.
    mod = load_script("bomber_results")
    body = mod.readme_block(mod.load_tables(ROOT / "results" / "bomber"))
    readme = (ROOT / "README.md").read_text()
    assert render_block("bomber-results", body) in readme
    # inside the bomber section: after its marker, before the next "## " heading if any
    section = readme[readme.index("<!-- section: bomber -->") :]
    end = section.find("\n## ", 1)
    assert "generated:bomber-results" in (section if end < 0 else section[:end])


def test_tables_only_writes_results_and_block_then_refuses_hand_edits(tmp_path):
    mod = load_script("bomber_results")
    out = committed_tables(tmp_path)
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\n{mod.README_ANCHOR}\n\nafter\n")
    run = [sys.executable, str(SCRIPT), "--tables-only", "--out", str(out), "--readme", str(readme)]
    r = subprocess.run(run, capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    text = readme.read_text()
    assert text.index(mod.README_ANCHOR) < text.index("<!-- generated:bomber-results")
    assert text.rstrip().endswith("after")
    assert "| random | 3 | " in text and "| heuristic | 6 | " in text
    results = (out / "RESULTS.md").read_text()
    assert results == (ROOT / "results" / "bomber" / "RESULTS.md").read_text()
    # a second run changes nothing; a hand edit inside the block is refused
    r2 = subprocess.run(run, capture_output=True, text=True, cwd=tmp_path)
    assert r2.returncode == 0 and "unchanged" in r2.stdout
    readme.write_text(text.replace("| random | 3 | ", "| random | 3 (edited) | "))
    with pytest.raises(BadInput, match="edited by hand"):
        mod.write_tables(out, readme)


def test_tables_only_without_tables_is_one_line(tmp_path):
    r = subprocess.run(
        [sys.executable, str(SCRIPT), "--tables-only", "--out", str(tmp_path), "--readme", ""],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "missing" in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_agents_words_and_span():
    mod = load_script("bomber_results")
    assert mod.agents_words("random,bomber=heuristic") == "random, heuristic Bomber"
    assert mod.agents_words("heuristic,holy-warrior=random") == "heuristic, random Holy Warrior"
    assert mod.span([0.831, 0.889]) == "83-89%" and mod.span([0.5, 0.501]) == "50%"


@pytest.mark.parametrize("args", [["--games", "-5"], ["--games", "5", "--ref-games", "10"]])
def test_bench_bad_counts_exit_2_without_traceback(args, tmp_path):
    bench = ROOT / "scripts" / "bench" / "bomber_bench.py"
    r = subprocess.run(
        [sys.executable, str(bench), *args, "--json", str(tmp_path / "b.json")],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr and "--ref-games" in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_readings_marks_are_holms_over_the_committed_table():
    import pandas as pd

    from bombsolve.solvers.bomber import against_default
    from bombsolve.solvers.common.multiplicity import holm
    from bombsolve.solvers.common.stats import two_sample_score_p

    summary = pd.read_csv(ROOT / "results" / "bomber" / "readings" / "summary.csv")
    tests = against_default(summary)
    assert len(tests) == 4 * int((summary["condition"] != "default").sum())
    assert list(tests["holm"]) == holm(list(tests["p_value"]))
    t = tests.set_index(["agents", "condition", "outcome"])
    sole = t.loc[("heuristic", "warrior_bombing=false", "sole")]
    assert sole["p_value"] == two_sample_score_p(34, 1000, 85, 1000)
    results = (ROOT / "results" / "bomber" / "RESULTS.md").read_text()
    readings = results[results.index("### readings") :]
    kept = int(tests["holm"].sum())
    assert readings.count("†") == kept + 1  # the marks and the line that explains them
    assert f"over the table's {len(tests)} comparisons" in readings and f"; {kept} do." in readings
    for r in tests[tests["holm"]].itertuples():
        row = next(
            line for line in readings.splitlines() if f"| {r.agents} | {r.condition} |" in line
        )
        assert f"{100 * r.share:.1f}% †" in row
    prose = " ".join((ROOT / "results" / "bomber" / "README.md").read_text().split())
    police = t.loc[("heuristic", "warrior_bombing=false", "police")]
    assert sole["holm"] and not police["holm"]
    assert "3.4%, 5 heuristic players) survives; the Police side's rise there" in prose


def test_a_reading_far_from_its_default_is_marked():
    import pandas as pd

    from bombsolve.solvers.bomber import against_default

    summary = pd.read_csv(ROOT / "results" / "bomber" / "readings" / "summary.csv")
    row = (summary["agents"] == "heuristic") & (summary["condition"] == "dog=forbid")
    summary.loc[row, "bomber"] = 0.70  # 49.9% in the default row, 1,000 games each
    marked = against_default(summary).query("holm")
    assert ("heuristic", "dog=forbid", "bomber") in set(
        zip(marked["agents"], marked["condition"], marked["outcome"], strict=True)
    )
