"""Long play commands print progress off a terminal as sweeps do (DESIGN.md, "Runs that
last"): a plain line every `progress.LOG_EVERY` seconds on stderr, none with ``--quiet``,
and no summary line naming the temporary folder the games were played in."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

import bombsolve.cli.progress as terminal
from bombsolve.cli.main import cli

#: Plays of several chunks on the reference engines (no kernel to compile).
PLAYS = {
    "bombastic": ["bombastic", "play", "--x", "random", "--o", "random", "-n", "200"],
    "dragon": ["dragon", "play", "-p", "3", "-n", "300", "--engine", "reference"],
    "bomber": ["bomber", "play", "-p", "4", "-n", "300", "--engine", "reference"],
}


@pytest.fixture
def off_a_terminal(monkeypatch):
    monkeypatch.setattr(terminal, "LOG_EVERY", 0.0)
    monkeypatch.setattr(terminal, "wants_progress", lambda: False)


@pytest.mark.parametrize("game", sorted(PLAYS))
def test_play_prints_progress_lines_off_a_terminal(game, off_a_terminal):
    r = CliRunner().invoke(cli, [*PLAYS[game], "--seed", "5"])
    assert r.exit_code == 0, r.output
    lines = [x for x in r.stderr.splitlines() if " cases (" in x]
    assert lines, r.stderr
    assert all("cases/s" in x for x in lines)
    assert " done: " not in r.stderr  # no summary naming a folder that is gone
    quiet = CliRunner().invoke(cli, [*PLAYS[game], "--seed", "5", "--quiet"])
    assert quiet.exit_code == 0, quiet.output
    assert " cases (" not in quiet.stderr
    # progress changes nothing printed on stdout but the time taken
    assert _timeless(quiet.stdout) == _timeless(r.stdout)


def _timeless(text: str) -> str:
    return re.sub(r"[\d.]+ ?s\b", "T", text)
