"""`sweep` and `sensitivity` say which deals they play: case k is dealt from chunk
k // SIZE's seeds, so the chunk size is part of a deal's identity (kept so: the committed
studies' deals depend on it). What the line promises holds: one configuration swept and
a sensitivity study with the same --seed and --chunk-size play the same deals."""

from __future__ import annotations

from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.common.runner import load_study


def run(*args):
    r = CliRunner().invoke(cli, ["allisbomb", *args])
    assert r.exit_code == 0, r.output
    return r


def test_sweep_and_sensitivity_name_their_deals_and_agree_at_one_chunk_size(tmp_path):
    common = ["--deals", "4", "--seed", "11", "--chunk-size", "2", "--no-report"]
    sweep = run("sweep", *common, "--out", str(tmp_path / "sweep"), "--quiet")
    sens = run(
        "sensitivity", *common, "--player", "greedy", "--edit", "GUARDIAN/passive/number+1",
        "--out", str(tmp_path / "sens"), "--quiet",
    )  # fmt: skip
    for r in (sweep, sens):
        line = next(x for x in r.stdout.splitlines() if x.startswith("deals: "))
        assert "deals: seed 11, chunks of 2 (case k is dealt from chunk k // 2's seeds" in line
        assert "part of a deal's identity" in line and "sweep's default is 1,000" in line
    a = load_study(tmp_path / "sweep").set_index("case")["seed"]
    b = load_study(tmp_path / "sens").drop_duplicates("case").set_index("case")["seed"]
    assert list(a.sort_index()) == list(b.sort_index())
    other = run("sweep", "--deals", "4", "--seed", "11", "--chunk-size", "3", "--no-report",
                "--out", str(tmp_path / "sweep3"), "--quiet")  # fmt: skip
    assert "chunks of 3" in other.stdout
    c = load_study(tmp_path / "sweep3").set_index("case")["seed"].sort_index()
    assert list(c)[2:] != list(a.sort_index())[2:]  # another chunk size, other deals


def test_a_sweep_of_several_configurations_says_its_deals_are_interleaved(tmp_path):
    r = run("sweep", "--configs", "base,blitz", "--deals", "1", "--seed", "3", "--no-report",
            "--out", str(tmp_path / "two"), "--quiet")  # fmt: skip
    assert "a sweep interleaves its configurations (case k is deal k // 2" in r.stdout
