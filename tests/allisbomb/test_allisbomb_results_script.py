"""scripts/results/allisbomb_results.py meets bad input as the command line does (DESIGN.md,
"Command line"): one line naming the value and what was expected, exit code 2, no
traceback; and a run whose time budget starts no chunk resumes later instead of failing.
"""

from __future__ import annotations

import pytest

from tests.common.scripts import load_script

# The smallest study the script makes: no chunk starts (budgets of 0 minutes), so nothing
# is solved and only the manifests are written.
EMPTY = [
    "--deals",
    "2",
    "--campaigns",
    "1",
    "--campaign-budget",
    "0",
    "--time-budget",
    "0",
    "--no-readme",
]


@pytest.fixture(scope="module")
def results():
    return load_script("allisbomb_results")


def test_a_bad_escalation_is_one_line_and_exit_2(results, tmp_path, capsys):
    out = tmp_path / "study"
    rc = results.main(["--escalate", "--first-limit", "0", "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.strip().splitlines() == [
        "allisbomb_results: escalation first limit 0 is not positive"
    ]
    assert not out.exists()


def test_another_seed_in_the_same_folder_is_refused_in_one_line(results, tmp_path, capsys):
    out = tmp_path / "study"
    assert results.main([*EMPTY, "--seed", "1", "--out", str(out)]) == 0
    first = capsys.readouterr()
    assert "the same command resumes" in first.out
    manifests = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}

    rc = results.main([*EMPTY, "--seed", "2", "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2
    assert len(err) == 1 and "Traceback" not in err[0]
    assert "--seed is 1 there and 2 now" in err[0]
    # the refused run leaves the folder as it found it
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == manifests
