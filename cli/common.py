"""Options and helpers shared by the study commands of every game."""

from __future__ import annotations

import functools
import sys

import click

from solvers.common.runner import StudyPaused, time_budget

#: Exit code of a study command stopped by ``--time-budget`` before the study was done.
EXIT_PAUSED = 3
#: Exit codes of a solve run with ``--exit-code``: a win exits 0 as always; these stay clear
#: of 1 (aborted), 2 (bad input), 3 (paused study) and 130 (interrupted).
EXIT_LOSS = 10
EXIT_UNDECIDED = 11


def study_options(default_chunk: int | None = 1000):
    """Add ``--out``, ``--workers``, ``--scheduler``, ``--chunk-size`` and ``--time-budget`` to
    a study command.

    ``default_chunk=None`` leaves ``--chunk-size`` unset so the command can choose.
    ``--time-budget MINUTES`` starts no chunk after that long; the command then stops with
    one line on stderr and exit code 3 (`EXIT_PAUSED`), keeping every finished chunk, and the
    same command run again resumes the study.
    """

    def decorate(fn):
        @click.option(
            "--out",
            "out",
            type=click.Path(file_okay=False),
            required=True,
            help="Output folder (re-run the same command into it to resume).",
        )
        @click.option(
            "--workers",
            type=click.IntRange(min=1),
            default=None,
            help="Local worker processes (default: all cores).",
        )
        @click.option(
            "--scheduler",
            default=None,
            metavar="tcp://HOST:PORT",
            help="Run the chunks on this Dask distributed scheduler instead.",
        )
        @click.option(
            "--chunk-size",
            type=click.IntRange(min=1),
            default=default_chunk,
            show_default=True,
            help="Cases per chunk (part of the study's identity).",
        )
        @click.option(
            "--time-budget",
            "time_budget_minutes",
            type=click.FloatRange(min=0),
            default=None,
            metavar="MINUTES",
            help="Start no chunk after this many minutes; re-run the command to resume.",
        )
        @functools.wraps(fn)
        def wrapper(*args, time_budget_minutes=None, **kwargs):
            if time_budget_minutes is None:
                return fn(*args, **kwargs)
            with time_budget(time_budget_minutes * 60.0):
                try:
                    return fn(*args, **kwargs)
                except StudyPaused as exc:
                    click.echo(f"bombsolve: {exc}", err=True)
                    sys.exit(EXIT_PAUSED)

        return wrapper

    return decorate


def command_line() -> str:
    """The command as the user typed it, for manifests."""
    return " ".join(["bombsolve", *sys.argv[1:]]) if sys.argv else "bombsolve"


def rule_option(fn):
    """Add ``--rule NAME=VALUE`` (repeatable) to a command: a rule option by name.

    The command receives ``rule_pairs``, the raw texts; `parse_rule_pairs` checks them.
    """
    return click.option(
        "--rule",
        "rule_pairs",
        multiple=True,
        metavar="NAME=VALUE",
        help="Set a rule option (repeatable); `rules` lists the names, readings and defaults.",
    )(fn)


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def parse_rule_pairs(pairs, kinds: dict[str, type]) -> dict[str, object]:
    """Parse ``NAME=VALUE`` texts into {name: value} for the options `kinds` names.

    A bool takes true/false (yes/no, on/off, 1/0). An unknown name is refused with the
    nearest one; so is a malformed pair or value, and a name given twice.
    """
    from solvers.common.errors import BadInput, unknown

    out: dict[str, object] = {}
    for text in pairs:
        name, eq, value = text.partition("=")
        name, value = name.strip().replace("-", "_"), value.strip()
        if not eq or not name:
            raise BadInput(f"--rule {text!r}: expected NAME=VALUE, e.g. {next(iter(kinds))}=true")
        if name not in kinds:
            raise unknown("rule option", name, kinds)
        if name in out:
            raise BadInput(f"--rule {name} given twice")
        if kinds[name] is bool:
            low = value.lower()
            if low not in _TRUE | _FALSE:
                raise BadInput(f"--rule {name}={value!r}: expected true or false")
            out[name] = low in _TRUE
        else:
            try:
                out[name] = kinds[name](value)
            except ValueError:
                raise BadInput(
                    f"--rule {name}={value!r}: expected a {kinds[name].__name__}"
                ) from None
    return out


def json_record(seed, rules, cards: str) -> dict:
    """The keys every --json output carries (one convention in every game): the seed, the
    rules and options in effect, where the cards come from, and the code version."""
    from solvers.common.version import version_record

    return {"seed": seed, "rules": rules, "cards": cards, **version_record()}
