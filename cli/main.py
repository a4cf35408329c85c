"""The `bombsolve` entry point: one click group per game (DESIGN.md, "Command line").

Errors a user can fix (`BadInput`, click usage errors) become one line on stderr and
exit code 2, never a traceback. Ctrl-C exits 130 (the shell's code for SIGINT), saying
whether the same command resumes; a reader that closes the pipe (``| head``) ends the
command quietly with exit code 0, as the output it wanted has been written.
"""

from __future__ import annotations

import errno
import os
import sys

import click

from solvers.common.errors import BadInput
from solvers.common.version import version_text

#: Exit code of a command stopped by Ctrl-C (128 + SIGINT, as the shell reports it).
EXIT_INTERRUPTED = 130


class _Interrupted(Exception):
    """Ctrl-C, carried past click (which would turn KeyboardInterrupt into exit 1)."""


class _PipeClosed(Exception):
    """The reader of stdout went away, carried past click (which would exit 1)."""


def _interrupted_message() -> str:
    runner = sys.modules.get("solvers.common.runner")
    if runner is not None and runner.study_started():
        return "interrupted; re-run the same command to resume"
    return "interrupted"


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that flushing it at exit raises nothing."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # pragma: no cover - stdout without a file descriptor
        pass


class BombsolveGroup(click.Group):
    """A click group that turns bad input into one clear line and exit code 2."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise _Interrupted() from None
        except BrokenPipeError:
            raise _PipeClosed() from None
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                raise _PipeClosed() from None
            raise
        except MemoryError:
            raise BadInput(
                "out of memory; expected smaller sizes (--games, --deals, agent iterations)"
            ) from None

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        from cli.warmup import show_numba_notices
        from solvers.common.numba_target import configure

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
                click.echo(f"bombsolve: {_interrupted_message()}", err=True)
                sys.exit(EXIT_INTERRUPTED)
            click.echo("bombsolve: aborted", err=True)
            sys.exit(1)
        except click.UsageError as exc:
            click.echo(f"bombsolve: {exc.format_message()}", err=True)
            sys.exit(2)
        except BadInput as exc:
            click.echo(f"bombsolve: {exc}", err=True)
            sys.exit(2)
        except click.ClickException as exc:
            click.echo(f"bombsolve: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except (KeyboardInterrupt, _Interrupted):
            click.echo(f"bombsolve: {_interrupted_message()}", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except _PipeClosed:
            _quiet_stdout()
            sys.exit(0)
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
    from cli.allisbomb import allisbomb
    from cli.bombastic import bombastic
    from cli.bomber import bomber
    from cli.dragon import dragon
    from cli.warmup import warmup

    for group in (allisbomb, bombastic, dragon, bomber, warmup):
        cli.add_command(group)
    from cli.allisbomb_cards import cards
    from cli.allisbomb_study import campaign, export, report, sweep

    for command in (cards, sweep, report, export, campaign):
        allisbomb.add_command(command)
    from cli.allisbomb_sensitivity import sensitivity

    allisbomb.add_command(sensitivity)
    from cli.allisbomb_exhaust import exhaust

    allisbomb.add_command(exhaust)


_register()

if __name__ == "__main__":
    cli()
