"""Options and helpers shared by the study commands of every game."""

from __future__ import annotations

import functools
import math
import re
import sys

import click

from solvers.common.runner import StudyPaused, check_output_folder, lock_wait, time_budget

#: Exit code of a study command stopped by ``--time-budget`` before the study was done.
EXIT_PAUSED = 3

#: The largest seed any command takes. Seeds are unsigned 64-bit integers: every game seed
#: a study draws (`ChunkSpec.case_seeds`) is one, and the replay command printed for it must
#: take it back.
SEED_MAX = 2**64 - 1
#: The largest count (node limit, games, iterations) a kernel's ``int64`` counter holds.
COUNT_MAX = 2**63 - 1


class SeedType(click.ParamType):
    """One seed type for every game: an integer 0 .. 2**64-1 (`SEED_MAX`)."""

    name = "SEED"

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = int(str(value).strip(), 10)
            except ValueError:
                self.fail(f"seed {value!r} is not an integer; expected 0..{SEED_MAX}", param, ctx)
        if not 0 <= number <= SEED_MAX:
            self.fail(f"seed {number} is out of range; expected 0..{SEED_MAX}", param, ctx)
        return number


#: The `SeedType` every ``--seed`` option uses.
SEED = SeedType()


def count_range(min: int = 1, max: int = COUNT_MAX) -> click.IntRange:
    """An integer option between `min` and `max` (both included), for counts and limits."""
    return click.IntRange(min, max)


class FiniteFloat(click.FloatRange):
    """A float in a range that refuses NaN and infinity (click's FloatRange lets NaN pass,
    as every comparison with NaN is false)."""

    name = "NUMBER"

    def convert(self, value, param, ctx):
        number = click.types.FloatParamType.convert(self, value, param, ctx)
        if not math.isfinite(number):
            self.fail(
                f"{value!r} is not a finite number; expected {self._describe_range()}", param, ctx
            )
        return super().convert(number, param, ctx)


class SchedulerAddress(click.ParamType):
    """A Dask scheduler address: ``tcp://HOST:PORT`` (or ``tls://``), port 1..65535."""

    name = "tcp://HOST:PORT"
    _FORM = re.compile(r"(tcp|tls)://(\[[0-9a-fA-F:]+\]|[A-Za-z0-9_.-]+):(\d{1,5})")

    def convert(self, value, param, ctx):
        text = str(value).strip()
        m = self._FORM.fullmatch(text)
        if not m or not 1 <= int(m.group(3)) <= 65535:
            self.fail(f"{value!r} is not a scheduler address; expected tcp://HOST:PORT", param, ctx)
        return text


#: The `SchedulerAddress` every ``--scheduler`` option uses.
SCHEDULER = SchedulerAddress()


def finite_float(
    min: float | None = None, max: float | None = None, min_open: bool = False
) -> FiniteFloat:
    """A finite float option in ``[min, max]`` (``min_open``: more than `min`)."""
    return FiniteFloat(min, max, min_open=min_open)


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
            type=SCHEDULER,
            default=None,
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
            type=finite_float(0),
            default=None,
            metavar="MINUTES",
            help="Start no chunk after this many minutes; re-run the command to resume.",
        )
        @click.option(
            "--wait",
            "wait_for_lock",
            is_flag=True,
            help="If another study is running into --out, wait for it to end (default: refuse).",
        )
        @functools.wraps(fn)
        def wrapper(*args, time_budget_minutes=None, wait_for_lock=False, **kwargs):
            check_output_folder(kwargs["out"])
            with lock_wait(wait_for_lock):
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
