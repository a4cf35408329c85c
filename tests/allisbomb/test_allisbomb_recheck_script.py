"""scripts/results/allisbomb_recheck_chunks.py: a sweep's chunks decided again give the same rows,
and a changed row is caught."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from tests.allisbomb.helpers import escalated_sweep_args

ROOT = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location(
        "allisbomb_recheck_chunks", ROOT / "scripts" / "results" / "allisbomb_recheck_chunks.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    from click.testing import CliRunner

    from bombsolve.cli.main import cli

    out = tmp_path_factory.mktemp("recheck") / "s"
    args = escalated_sweep_args(out, 20, 200, 2000, 10)
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    return out


def test_recheck_finds_the_same_rows(sweep, monkeypatch, capsys):
    mod = _script()
    monkeypatch.setattr(sys, "argv", ["x", str(sweep), "--chunks", "2"])
    assert mod.main() == 0
    assert "2 of 2 chunks give the same rows" in capsys.readouterr().out


def test_recheck_catches_a_changed_row(sweep, monkeypatch, capsys):
    import bombsolve.solvers.allisbomb.studies.study as study

    real = study.sweep_chunk

    def changed(params, spec):
        df = real(params, spec)
        df.loc[0, "nodes"] += 1
        return df

    monkeypatch.setattr(study, "sweep_chunk", changed)
    mod = _script()
    monkeypatch.setattr(sys, "argv", ["x", str(sweep), "--chunks", "1"])
    assert mod.main() == 1
    assert "DIFFERENT ['nodes']" in capsys.readouterr().out


def test_recheck_a_study_grown_by_a_split(tmp_path, monkeypatch, capsys):
    from click.testing import CliRunner

    from bombsolve.cli.main import cli

    out = tmp_path / "g"
    args = escalated_sweep_args(out, 40, 100, 400, 5)
    assert CliRunner().invoke(cli, args).exit_code == 0
    grown = CliRunner().invoke(cli, [*args, "--split-depth", "3", "--split-limit", "400"])
    assert grown.exit_code == 0, grown.output
    from bombsolve.solvers.common.runner import load_manifest

    change = load_manifest(out)["grown"][-1]
    # the split gives every chunk its column: each is done again from its kept rows
    assert (change["chunks_kept"], change["chunks_redone"]) == (0, 8)
    mod = _script()
    monkeypatch.setattr(sys, "argv", ["x", str(out), "--chunks", "8"])
    assert mod.main() == 0
    assert "8 of 8 chunks give the same rows" in capsys.readouterr().out
