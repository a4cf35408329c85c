"""The `bombsolve` entry point: one click group per game (DESIGN.md, "Command line").

Errors a user can fix (`BadInput`, click usage errors) become one line on stderr and
exit code 2, never a traceback. Ctrl-C exits 130 (the shell's code for SIGINT), SIGTERM
143 and SIGHUP 129 (128 + the signal), each with one line saying whether the same command
resumes, after the same clean-up (worker processes stopped, temporary files removed). A
reader that closes the pipe (``| head``) ends the command quietly with exit code 0, as the
output it wanted has been written. A write that fails for want of room (a full disk, a full
standard output such as ``> /dev/full``) or a closed standard output exits 74 (sysexits'
EX_IOERR) with one line naming the file; a study stopped so resumes.
"""

from __future__ import annotations

import errno
import os
import signal
import sys

import click

from bombsolve.solvers.common import stopping
from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.files import NO_ROOM, OutputFailed, no_room_reason
from bombsolve.solvers.common.version import version_text

#: Exit code of a command stopped by Ctrl-C (128 + SIGINT, as the shell reports it).
EXIT_INTERRUPTED = 130
#: Exit code of a write that failed for want of room, or of a closed standard output
#: (sysexits' EX_IOERR).
EXIT_IOERR = 74
#: The signals handled as Ctrl-C is, each exiting 128 + its number (143, 129).
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class Terminated(stopping.Stopped):
    """SIGTERM or SIGHUP, raised where the program is, so that every clean-up Ctrl-C runs
    (a pool's workers stopped, a temporary file removed) runs for it too."""


def _raise_terminated(signum: int, _frame) -> None:
    stopping.request(signum)  # for a finalizer that would swallow the exception
    raise Terminated(signum)


def _raise_interrupt(signum: int, _frame) -> None:
    stopping.request(signum)
    raise KeyboardInterrupt


def _handle_stop_signals() -> dict[int, object]:
    """Raise `Terminated` on SIGTERM and SIGHUP, and KeyboardInterrupt on Ctrl-C as
    Python does, each also recorded in `stopping` (a signal handler can be set only in the
    main thread; elsewhere, as in a test's thread, the defaults stay); returns the handlers
    replaced, for `_restore_signals` once the command is over."""
    stopping.clear()
    replaced: dict[int, object] = {}
    defaults = {signal.SIGINT: signal.default_int_handler} | dict.fromkeys(
        STOP_SIGNALS, signal.SIG_DFL
    )
    for signum, default in defaults.items():
        try:
            if signal.getsignal(signum) is default:
                handler = _raise_interrupt if signum == signal.SIGINT else _raise_terminated
                replaced[signum] = signal.signal(signum, handler)
        except ValueError:
            break
    return replaced


def _restore_signals(replaced: dict[int, object]) -> None:
    """Put back what `_handle_stop_signals` replaced: a program that runs a command
    in-process (a test, a notebook) keeps its own SIGTERM and SIGHUP afterwards."""
    for signum, handler in replaced.items():
        signal.signal(signum, handler)
    stopping.clear()


#: What click (8.2 on) raises for a group given no command; click 8.1 printed the help
#: itself, with exit 0 (a class no exception is, there).
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", type("_Never", (Exception,), {}))


class _Interrupted(Exception):
    """Ctrl-C (or `Terminated`), carried past click (which would turn KeyboardInterrupt
    into exit 1)."""

    def __init__(self, signum: int = signal.SIGINT) -> None:
        super().__init__(signum)
        self.signum = signum


class _WriteFailed(Exception):
    """A write failed for want of room (`OutputFailed`, or an `OSError` in `NO_ROOM` from
    a writer that names no file: standard output), carried past click."""


class _PipeClosed(Exception):
    """The reader of stdout went away, carried past click (which would exit 1)."""


def _study_started() -> bool:
    runner = sys.modules.get("bombsolve.solvers.common.runner")
    return runner is not None and runner.study_started()


def _forget_studies_started() -> None:
    runner = sys.modules.get("bombsolve.solvers.common.runner")  # (not imported: none ran)
    if runner is not None:
        runner.forget_studies_started()


def _interrupted_message(signum: int = signal.SIGINT) -> str:
    what = "interrupted" if signum == signal.SIGINT else f"stopped by {signal.Signals(signum).name}"
    if _study_started():
        return f"{what}; re-run the same command to resume"
    return what


def _exit_interrupted(signum: int) -> None:
    # Told once; a second signal during the message would only cut it short.
    for s in STOP_SIGNALS:
        try:
            signal.signal(s, signal.SIG_IGN)
        except ValueError:
            break
    click.echo(f"bombsolve: {_interrupted_message(signum)}", err=True)
    sys.exit(128 + signum)


def _write_failed_message(exc: BaseException) -> str:
    if isinstance(exc, OutputFailed):
        text = str(exc)
    else:
        name = getattr(exc, "filename", None) or "standard output"
        text = str(OutputFailed(name, no_room_reason(exc)))
    return text + (" to resume" if _study_started() else "")


def _stdout_closed() -> bool:
    """Whether standard output is closed (``>&-``): Python then has no sys.stdout, and
    the first file the command opened would take its descriptor."""
    if sys.stdout is None:
        return True
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError, AttributeError):
        return False  # a test's capture: not a descriptor, but open
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that flushing it at exit raises nothing."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # pragma: no cover - stdout without a file descriptor
        pass


def _flush_stdout() -> None:
    """Flush standard output now, so that a full one (``> /dev/full``) is told in one line
    and exit code 74 rather than in Python's message at exit; a closed pipe stays quiet."""
    try:
        sys.stdout.flush()
    except OSError as exc:
        _quiet_stdout()
        if exc.errno == errno.EPIPE:
            sys.exit(0)
        if exc.errno in NO_ROOM:
            click.echo(f"bombsolve: {_write_failed_message(exc)}", err=True)
            sys.exit(EXIT_IOERR)
        raise
    except (AttributeError, ValueError):  # a test's capture, or a stdout already closed
        pass


class BombsolveGroup(click.Group):
    """A click group that turns bad input into one clear line and exit code 2."""

    def invoke(self, ctx):
        from bombsolve.cli.progress import study_progress
        from bombsolve.solvers.common.progress import report_progress

        try:
            with report_progress(study_progress()):
                return super().invoke(ctx)
        except KeyboardInterrupt as exc:
            raise _Interrupted(getattr(exc, "signum", signal.SIGINT)) from None
        except BrokenPipeError:
            raise _PipeClosed() from None
        except OutputFailed as exc:
            raise _WriteFailed(_write_failed_message(exc)) from None
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                raise _PipeClosed() from None
            if exc.errno in NO_ROOM:
                raise _WriteFailed(_write_failed_message(exc)) from None
            raise
        except MemoryError:
            raise BadInput(
                "out of memory; expected smaller sizes (--games, --deals, agent iterations)"
            ) from None

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        _forget_studies_started()
        replaced = _handle_stop_signals()
        try:
            return self._main(args, prog_name, complete_var, standalone_mode, **extra)
        finally:
            _restore_signals(replaced)

    def _main(self, args, prog_name, complete_var, standalone_mode, **extra):
        from bombsolve.cli.warmup import show_numba_notices
        from bombsolve.solvers.common.numba_target import configure

        if _stdout_closed():
            click.echo(
                "bombsolve: standard output is closed; expected it open (redirect it to a "
                "file, or to /dev/null to discard it)",
                err=True,
            )
            sys.exit(EXIT_IOERR)
        show_numba_notices()
        configure()  # this process's kernels and its workers' (numba_target's docstring)
        try:
            rv = super().main(
                args=args,
                prog_name=prog_name or "bombsolve",
                complete_var=complete_var,
                standalone_mode=False,
                **extra,
            )
        except click.exceptions.Abort as exc:
            if isinstance(exc.__context__, KeyboardInterrupt):
                _exit_interrupted(getattr(exc.__context__, "signum", signal.SIGINT))
            click.echo("bombsolve: aborted", err=True)
            sys.exit(1)
        except _NO_ARGS_IS_HELP as exc:
            # A game's name alone (or bombsolve alone) asks what it can do: its help, as
            # `bombsolve allisbomb` alone prints it, not an error.
            click.echo(exc.ctx.get_help())
            sys.exit(0)
        except click.UsageError as exc:
            click.echo(f"bombsolve: {exc.format_message()}", err=True)
            sys.exit(2)
        except BadInput as exc:
            click.echo(f"bombsolve: {exc}", err=True)
            sys.exit(2)
        except click.ClickException as exc:
            click.echo(f"bombsolve: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except (KeyboardInterrupt, _Interrupted) as exc:
            _exit_interrupted(getattr(exc, "signum", signal.SIGINT))
        except _PipeClosed:
            _quiet_stdout()
            sys.exit(0)
        except (_WriteFailed, OutputFailed) as exc:
            _quiet_stdout()
            text = str(exc) if isinstance(exc, _WriteFailed) else _write_failed_message(exc)
            click.echo(f"bombsolve: {text}", err=True)
            sys.exit(EXIT_IOERR)
        _flush_stdout()
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


def _print_version(ctx: click.Context, _param, value: bool) -> None:
    # (a callback, so the git commit is looked up only when asked for)
    if value and not ctx.resilient_parsing:
        click.echo(f"bombsolve {version_text()}")
        ctx.exit()


@click.group(cls=BombsolveGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Print the version and the git commit it runs, then exit.",
)
def cli() -> None:
    """Solvers and balance studies for four bomb-themed tabletop games.

    \b
    Example:
      bombsolve allisbomb --seed 42
    """


def _register() -> None:
    from bombsolve.cli.allisbomb import allisbomb
    from bombsolve.cli.bombastic import bombastic
    from bombsolve.cli.bomber import bomber
    from bombsolve.cli.dragon import dragon
    from bombsolve.cli.warmup import warmup

    for group in (allisbomb, bombastic, dragon, bomber, warmup):
        cli.add_command(group)
    from bombsolve.cli.allisbomb_cards import cards
    from bombsolve.cli.allisbomb_study import campaign, export, report, sweep

    for command in (cards, sweep, report, export, campaign):
        allisbomb.add_command(command)
    from bombsolve.cli.allisbomb_sensitivity import sensitivity

    allisbomb.add_command(sensitivity)
    from bombsolve.cli.allisbomb_exhaust import exhaust

    allisbomb.add_command(exhaust)
    from bombsolve.cli.allisbomb_play import play

    allisbomb.add_command(play)


_register()

if __name__ == "__main__":
    cli()
