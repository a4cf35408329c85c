"""The All Is Bomb results blocks (README.md, results/allisbomb/README.md) are the scripts'
output on the committed results."""

from __future__ import annotations

import hashlib
import json
import runpy
import shlex
import sys
from pathlib import Path

import pytest

from bombsolve.solvers.common.readme import render_block
from tests.common.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
V2 = ROOT / "results" / "allisbomb" / "standin-v2"


def test_readme_players_block_is_the_default_sets_committed_table():
    mod = load_script("allisbomb_players")
    summary = json.loads((V2 / "players.json").read_text())
    assert summary["cards_version"] == "standin-v2"
    body = mod.readme_body(summary)
    assert (V2 / "players.md").read_text() == body
    assert mod.README == ROOT / "results" / "allisbomb" / "README.md"
    assert render_block("allisbomb-players", body) in mod.README.read_text()


@pytest.mark.parametrize(
    "out, block",
    [
        ("results/allisbomb/standin-v2/headline", "allisbomb-results-v2"),
        ("results/allisbomb/standin-v1", "allisbomb-results"),
    ],
    ids=["v2", "v1"],
)
def test_readme_results_block_is_its_writers_output_on_the_committed_tables(out, block):
    # The writer reads only committed files (the matrix chunks are not all committed), so a
    # table or caption edited by hand, or caption code changed without regenerating, fails.
    mod = load_script("allisbomb_results")
    home = mod.block_home(block)  # the file the writer puts the block in
    body = mod.readme_body(ROOT / out, home)
    assert render_block(block, body) in home.read_text()
    manifest = json.loads((ROOT / out / "matrix" / "manifest.json").read_text())
    assert (manifest["chunks_done"] < manifest["chunks_total"]) == ("Study in progress" in body)
    assert manifest["command"] in body


def test_results_block_says_how_far_a_study_in_progress_is(tmp_path):
    import shutil

    mod = load_script("allisbomb_results")
    out = tmp_path / "v2"
    shutil.copytree(V2 / "matrix" / "report", out / "matrix" / "report")
    shutil.copyfile(V2 / "matrix" / "manifest.json", out / "matrix" / "manifest.json")
    shutil.copytree(V2 / "campaign", out / "campaign")
    manifest = json.loads((out / "matrix" / "manifest.json").read_text())
    summary = (out / "matrix" / "report" / "summary.csv").read_text().splitlines()
    # one configuration with 7 deals in: the line gives the least and the most
    head, first, *rest = summary
    cells = first.split(",")
    cells[1] = "7"
    (out / "matrix" / "report" / "summary.csv").write_text(
        "\n".join([head, ",".join(cells), *rest]) + "\n"
    )
    manifest.update(chunks_done=1, chunks_total=76)
    (out / "matrix" / "manifest.json").write_text(json.dumps(manifest))
    body = mod.readme_body(out)
    most = max(int(r.split(",")[1]) for r in rest)
    assert f"**Study in progress:** 7 to {most:,} of the planned 1,000 deals" in body
    manifest.update(chunks_done=76)
    (out / "matrix" / "manifest.json").write_text(json.dumps(manifest))
    assert "in progress" not in mod.readme_body(out)


def test_results_block_names_the_wide_intervals_and_the_sweep_that_narrows_them(tmp_path):
    import shutil

    mod = load_script("allisbomb_results")
    out = tmp_path / "v2"
    shutil.copytree(V2 / "matrix" / "report", out / "matrix" / "report")
    shutil.copyfile(V2 / "matrix" / "manifest.json", out / "matrix" / "manifest.json")
    summary = out / "matrix" / "report" / "summary.csv"
    head, *rows = summary.read_text().splitlines()
    col = head.split(",").index("half_width_pp")
    widths = {"base": "0.25", "blitz": "0.29", "base+all": "0.24"}
    fixed = []
    for r in rows:
        cells = r.split(",")
        cells[col] = widths.get(cells[0], "0.1")
        fixed.append(",".join(cells))
    summary.write_text("\n".join([head, *fixed]) + "\n")
    body = mod.readme_body(out)
    assert "swept again" not in body  # no precise sweep: the block is the matrix's alone
    manifest = json.loads((V2 / "matrix" / "manifest.json").read_text())
    params = manifest["identity"]["params"]
    keep = [i for i, c in enumerate(params["labels"]) if c in ("base", "blitz")]
    params["labels"] = [params["labels"][i] for i in keep]
    params["configs"] = [params["configs"][i] for i in keep]
    manifest["identity"]["n_cases"] = 2 * 1_000_000
    manifest["command"] = "bombsolve allisbomb sweep --configs base,blitz --deals 1000000"
    ident = json.dumps(manifest["identity"], sort_keys=True, separators=(",", ":"))
    manifest["identity_hash"] = hashlib.sha256(ident.encode()).hexdigest()[:16]
    (out / "precise" / "report").mkdir(parents=True)
    (out / "precise" / "manifest.json").write_text(json.dumps(manifest))
    (out / "precise" / "report" / "headline.md").write_text("| configuration |\n|---|\n")
    body = mod.readme_body(out)
    assert "wider than ±0.2 points: base ±0.25, blitz ±0.29)" in body
    assert "**Not yet swept again:** base+all" in body
    assert "1,000,000 deals per configuration" in body
    assert manifest["command"] in body
    assert ("in progress" in body) == (manifest["chunks_done"] < manifest["chunks_total"])


def test_readme_sensitivity_block_is_the_committed_study():
    mod = load_script("allisbomb_sensitivity_readme")
    study = ROOT / "results" / "allisbomb" / "standin-v2" / "sensitivity-base"
    body = mod.sensitivity_block(
        study, also=(ROOT / "results/allisbomb/standin-v1/sensitivity-base",)
    )
    assert render_block("allisbomb-sensitivity", body) in mod.README.read_text()
    manifest = json.loads((study / "manifest.json").read_text())
    assert manifest["chunks_done"] == manifest["chunks_total"]
    # the study is of the set as shipped now, not of an earlier draft of it
    import hashlib

    shipped = ROOT / "solvers" / "allisbomb" / "data" / "standin-v2.toml"
    digest = hashlib.sha256(shipped.read_bytes()).hexdigest()
    assert manifest["identity"]["input_files"]["standin-v2.toml"] == digest


def test_readme_targets_block_is_the_committed_tables():
    # The README quotes every committed table whole, the fresh-seed re-run included, and
    # says in words which statements the re-run does not confirm.
    mod = load_script("allisbomb_sensitivity_readme")
    tables = [p for p in mod.TARGET_TABLES if p.is_file()]
    assert {
        V2 / "targets.md",
        V2 / "seed1001" / "targets.md",
        V2 / "seed1002" / "targets.md",
    } <= set(tables)
    readme = mod.README.read_text()  # the file the script writes the block into
    body = mod.targets_block()
    assert render_block("allisbomb-standin-targets", body) in readme
    for path in tables:
        assert path.read_text().rstrip() in body, path
    assert "**Fresh-seed verdict**" in body


def test_rerun_verdict_names_every_cell_not_met(tmp_path):
    mod = load_script("allisbomb_sensitivity_readme")
    run = tmp_path / "seed7"
    run.mkdir()
    regen = "Regenerate: `python x.py --deals 10 --look-deals 5 --campaigns 2 --seed 7`.\n"
    (run / "targets.md").write_text(regen)
    first = tmp_path / "targets.md"
    first.write_text(regen.replace("--look-deals 5", "--look-deals 9"))
    cell = {"harder": "40.0% [30%, 50%]", "easier": "45.0% [35%, 55%]", "met": False}
    rows = [
        {
            "n": 1,
            "statement": "A",
            "perfect": {**cell, "met": True, "paired": "+1.0% [+0.5%, +2%]"},
        },
        {"n": 2, "statement": "B", "lookahead": {**cell, "paired": "+5.0% [-1.0%, +9.0%]"}},
        {"n": 3, "statement": "C", "lookahead": {**cell, "paired": "+5.0% [+1.0%, +9.0%]"}},
        {"n": 4, "campaign": {"gold": 1, "met": True}},
    ]
    (run / "targets.json").write_text(json.dumps({"rows": rows, "games": {}}))
    text = mod.rerun_verdict(run / "targets.md", first)
    assert "2 measured cell(s) not met" in text
    assert "2 (B), lookahead player" in text and "includes zero" in text
    assert "3 (C), lookahead player" in text and "direction holds" in text
    assert "1 (A)" not in text
    # a statement without a player's cell was not measured, and the verdict says so
    assert "Not measured in the time the run had: 1 (lookahead player), 2 (perfect play), 3" in text
    assert "5 lookahead deals (first run 9)" in text


@pytest.mark.parametrize(
    "run, extra",
    [
        ("results/allisbomb/standin-v2", []),
        (
            "results/allisbomb/standin-v2/seed1001",
            ["--against", "results/allisbomb/standin-v2/targets.json"],
        ),
        (
            "results/allisbomb/standin-v2/seed1002",
            ["--against", "results/allisbomb/standin-v2/targets.json"],
        ),
    ],
    ids=["seed1", "seed1001", "seed1002"],
)
def test_committed_targets_table_reassembles_from_its_cache(
    run, extra, tmp_path, monkeypatch, capsys
):
    # Nothing is measured: --partial assembles the committed per-game figures, so a table
    # edited by hand, or a cache that no longer gives it, fails.
    committed = (ROOT / run / "targets.md").read_text()
    words = shlex.split(committed.split("Regenerate: `python ")[1].split("`")[0])
    assert words[0] == "scripts/results/allisbomb_standin_targets.py"
    monkeypatch.chdir(ROOT)
    cache = ["--cache", "results/allisbomb/standin-v2/cache", "--partial"]
    argv = [words[0], *words[1:], *cache, "--out", str(tmp_path), *extra]
    monkeypatch.setattr(sys, "argv", argv)
    runpy.run_path(str(ROOT / words[0]), run_name="__main__")
    capsys.readouterr()
    assert (tmp_path / "targets.md").read_text() == committed


def test_readme_blitz_count_is_the_committed_count():
    """The README's exact Blitz figure is the committed count's: every deal decided, the
    per-case counts adding up to the summary, and the exact rate inside the sampled
    figure's interval it sits beside."""
    import pandas as pd

    out = V2 / "blitz-all"
    s = json.loads((out / "summary.json").read_text())
    cases = pd.read_parquet(out / "cases.parquet")
    assert s["complete"] and s["undecided"] == 0 and s["deals"] == s["of"] == 1_037_836_800
    assert len(cases) == 17_160 and cases["case"].tolist() == list(range(17_160))
    assert int(cases["deals"].sum()) == s["deals"] and int(cases["wins"].sum()) == s["wins"]
    assert int(cases["undecided"].sum()) == 0 and int(cases["positions"].sum()) == s["positions"]
    text = " ".join((ROOT / "README.md").read_text().split())
    pct = 100 * s["wins"] / s["deals"]
    assert f"**{s['wins']:,} of {s['deals']:,} deals are winnable, {pct:.4f}%**" in text
    assert f"({s['wins']:,}/{s['deals']:,} exactly" in text
    sample = json.loads((V2 / "blitz-sample-10m" / "summary.json").read_text())
    assert sample["lo"] <= s["rate"] <= sample["hi"]
    quoted = f"{100 * sample['rate']:.4f}% [{100 * sample['lo']:.4f}, {100 * sample['hi']:.4f}]"
    assert quoted in text
