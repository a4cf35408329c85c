"""Options and helpers shared by the study commands of every game."""

from __future__ import annotations

import functools
import sys

import click


def study_options(default_chunk: int | None = 1000):
    """Add ``--out``, ``--workers``, ``--scheduler`` and ``--chunk-size`` to a study command.

    ``default_chunk=None`` leaves ``--chunk-size`` unset so the command can choose.
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
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            return fn(*args, **kwargs)

        return wrapper

    return decorate


def command_line() -> str:
    """The command as the user typed it, for manifests."""
    return " ".join(["bombsolve", *sys.argv[1:]]) if sys.argv else "bombsolve"
