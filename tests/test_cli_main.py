"""The root command: help, version, and the bad-input contract (one line, exit 2)."""

import click
import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.common.errors import BadInput, unknown


def test_help_lists_every_game():
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for game in ("allisbomb", "bombastic", "dragon", "bomber"):
        assert game in result.output


def test_a_group_alone_prints_its_help_as_allisbomb_alone_does():
    for args in ([], ["bombastic"], ["dragon"], ["bomber"], ["allisbomb"]):
        result = CliRunner().invoke(cli, args, prog_name="bombsolve")
        assert result.exit_code == 0, (args, result.output)
        assert result.stdout.startswith(f"Usage: bombsolve {' '.join(args)}".rstrip()), args
        assert result.stderr == "", args


def test_unknown_command_is_one_line_exit_2():
    result = CliRunner().invoke(cli, ["nosuchgame"])
    assert result.exit_code == 2
    assert "nosuchgame" in result.output
    assert "Traceback" not in result.output


def test_bad_input_becomes_one_line_exit_2():
    @cli.command(name="_raise_bad_input", hidden=True)
    def _raise() -> None:
        raise unknown("card", "PRINCES", ["PRINCESS", "KING"])

    try:
        result = CliRunner().invoke(cli, ["_raise_bad_input"])
    finally:
        cli.commands.pop("_raise_bad_input")
    assert result.exit_code == 2
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1
    assert "PRINCES" in lines[0] and "did you mean PRINCESS" in lines[0]
    assert isinstance(result.exception, SystemExit)


def test_bad_input_is_a_value_error():
    assert issubclass(BadInput, ValueError)
    assert not issubclass(BadInput, click.ClickException)


def test_version_names_the_commit():
    from bombsolve.solvers import __version__
    from bombsolve.solvers.common.version import commit

    r = CliRunner().invoke(cli, ["--version"])
    assert r.exit_code == 0
    assert r.output.startswith(f"bombsolve {__version__}")
    if commit() != "unknown":
        assert f"(commit {commit()[:12]}" in r.output


def test_exit_code_carries_the_verdict():
    from bombsolve.cli.common import EXIT_LOSS, EXIT_PAUSED, EXIT_UNDECIDED
    from bombsolve.cli.main import EXIT_INTERRUPTED, EXIT_IOERR, STOP_SIGNALS

    stops = {EXIT_INTERRUPTED, *(128 + s for s in STOP_SIGNALS)}
    codes = {0, 1, 2, EXIT_PAUSED, EXIT_LOSS, EXIT_UNDECIDED, EXIT_IOERR, *stops}
    assert len(codes) == 10 and stops == {129, 130, 143} and EXIT_IOERR == 74

    # (seeds 42 and 0 are a win and a loss of the stand-in set version 1, loaded by name)
    def run(*a: str) -> int:
        return CliRunner().invoke(cli, ["allisbomb", "--cards", "standin-v1", *a]).exit_code

    assert run("--seed", "42", "--exit-code") == 0
    assert run("--seed", "0", "--exit-code") == EXIT_LOSS
    assert run("--seed", "8", "--node-limit", "10", "--exit-code") == EXIT_UNDECIDED
    assert run("--seed", "0") == 0  # without the flag a loss is a result, not an error


def test_a_command_run_in_process_gives_back_sigterm_and_sighup():
    """The command's SIGTERM/SIGHUP handlers last only while it runs: a program that calls
    it in-process (this test runner) is stopped by SIGTERM as before, not by a `Terminated`
    raised wherever it happens to be."""
    import signal

    before = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}
    assert CliRunner().invoke(cli, ["--version"]).exit_code == 0
    assert {s: signal.getsignal(s) for s in before} == before


def test_a_session_that_goes_on_after_ctrl_c_forgets_it_but_not_sigterm():
    """A play session goes on after Ctrl-C stops its search; SIGTERM still ends it."""
    import signal

    from bombsolve.cli.main import Terminated
    from bombsolve.solvers.common import stopping

    try:
        stopping.request(signal.SIGINT)
        stopping.handled(KeyboardInterrupt())
        assert stopping.pending() is None
        stopping.check()  # nothing left to raise
        stopping.request(signal.SIGTERM)
        with pytest.raises(Terminated):
            stopping.handled(Terminated(signal.SIGTERM))
        with pytest.raises(stopping.Stopped):
            stopping.check()
    finally:
        stopping.clear()
