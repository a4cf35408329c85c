"""Options and helpers shared by the study commands of every game."""

from __future__ import annotations

import functools
import math
import re
import sys

import click

#: Exit code of a study command stopped by ``--time-budget`` before the study was done.
EXIT_PAUSED = 3
#: Exit codes of a solve run with ``--exit-code``: a win exits 0 as always; these stay clear
#: of 1 (aborted), 2 (bad input), 3 (paused study), 74 (a write failed for want of room),
#: 130 (interrupted), 143 and 129 (SIGTERM, SIGHUP).
EXIT_LOSS = 10
EXIT_UNDECIDED = 11

#: The largest seed any command takes. Seeds are unsigned 64-bit integers: every game seed
#: a study draws (`ChunkSpec.case_seeds`) is one, and the replay command printed for it must
#: take it back.
SEED_MAX = 2**64 - 1
#: The largest count (node limit, games, iterations) a kernel's ``int64`` counter holds.
COUNT_MAX = 2**63 - 1
#: The most local worker processes a command starts (each costs a Python interpreter and
#: its compiled kernels, some 200 MB).
MAX_WORKERS = 256


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
            self.fail(
                f"{value!r} is not a scheduler address; expected tcp://HOST:PORT (or "
                "tls://HOST:PORT), port 1 to 65535",
                param,
                ctx,
            )
        return text


#: The `SchedulerAddress` every ``--scheduler`` option uses.
SCHEDULER = SchedulerAddress()


def finite_float(
    min: float | None = None, max: float | None = None, min_open: bool = False
) -> FiniteFloat:
    """A finite float option in ``[min, max]`` (``min_open``: more than `min`)."""
    return FiniteFloat(min, max, min_open=min_open)


def scheduler_timeout_option(fn):
    """Add ``--scheduler-timeout SECONDS`` to a command that takes ``--scheduler``: how long
    its studies wait for the Dask scheduler to answer and for a worker to join it
    (`bombsolve.solvers.common.runner.scheduler_wait`)."""

    @click.option(
        "--scheduler-timeout",
        "scheduler_timeout",
        type=finite_float(0, min_open=True),
        default=None,
        metavar="SECONDS",
        help="With --scheduler: wait this long for it to answer (default 10) and for a "
        "worker to join it, at the start or after every worker left (default 60); then "
        "stop with one line, keeping the finished chunks.",
    )
    @functools.wraps(fn)
    def wrapper(*args, scheduler_timeout=None, **kwargs):
        from bombsolve.solvers.common.runner import scheduler_wait

        with scheduler_wait(scheduler_timeout):
            return fn(*args, **kwargs)

    return wrapper


#: The help of every ``--workers`` option: one default in every game (the runner's,
#: `bombsolve.solvers.common.runner.run_study` with ``workers=None``).
WORKERS_HELP = (
    "Local worker processes (default: this process while the rest of the run would take "
    "under 10 s at its rate so far, then every core)."
)


def study_options(default_chunk: int | None = 1000):
    """Add ``--out``, ``--workers``, ``--scheduler`` (with ``--scheduler-timeout``),
    ``--chunk-size`` and ``--time-budget`` to a study command.

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
            type=count_range(1, MAX_WORKERS),
            default=None,
            help=WORKERS_HELP,
        )
        @click.option(
            "--scheduler",
            type=SCHEDULER,
            default=None,
            help="Run the chunks on this Dask distributed scheduler instead.",
        )
        @scheduler_timeout_option
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
        @click.option(
            "--quiet",
            is_flag=True,
            help="No progress lines in logs (off a terminal a line every 10 s); the "
            "one-line summary at the end stays.",
        )
        @functools.wraps(fn)
        def wrapper(*args, time_budget_minutes=None, wait_for_lock=False, quiet=False, **kwargs):
            # (imported here: the runner brings pandas, which a single solve never needs)
            from bombsolve.cli.progress import study_progress
            from bombsolve.solvers.common.progress import report_progress
            from bombsolve.solvers.common.runner import (
                StudyPaused,
                check_output_folder,
                lock_wait,
                time_budget,
            )

            check_output_folder(kwargs["out"])
            with lock_wait(wait_for_lock), report_progress(study_progress(quiet)):
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


def quiet_option(fn):
    """Add ``--quiet`` to a play command: no progress lines off a terminal (where a line
    comes every 10 s, as in sweeps); the command receives ``quiet``."""
    return click.option(
        "--quiet",
        is_flag=True,
        help="No progress lines in logs (off a terminal a line every 10 s while games run).",
    )(fn)


def rules_text(text: str | None, pairs) -> str:
    """Join a game's ``--rules name=value,...`` text and its ``--rule NAME=VALUE`` pairs into
    one ``name=value,...`` text for the game's own parser (which names an unknown option
    and suggests the nearest).

    Raises BadInput on a pair without ``=`` or with a comma, and on an option given twice.
    """
    from bombsolve.solvers.common.errors import BadInput

    pieces = [p.strip() for p in (text or "").split(",") if p.strip()]
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name.strip() or not value.strip() or "," in pair:
            raise BadInput(f"--rule {pair!r}: expected NAME=VALUE (one option per --rule)")
        pieces.append(f"{name.strip()}={value.strip()}")
    seen: set[str] = set()
    for piece in pieces:
        name = piece.partition("=")[0].strip().replace("-", "_")
        if name in seen:
            raise BadInput(f"rule option {name} given twice; expected it once")
        seen.add(name)
    return ",".join(pieces)


def json_record(seed, rules, cards: str) -> dict:
    """The keys every --json output carries (one convention in every game): the seed, the
    rules and options in effect, where the cards come from, and the code version."""
    from bombsolve.solvers.common.version import version_record

    return {"seed": seed, "rules": rules, "cards": cards, **version_record()}


def run_play_games(study, workers: int | None, game: str, quiet: bool = False):
    """Run the games of a `play` study on the shared runner, in a folder of its own that is
    removed afterwards, and return its rows (one per game, in game order). A study of one
    chunk runs here, as the runner would run it, without the folder. Progress as
    `progress.play_progress` gives it (off a terminal, a line every 10 s unless `quiet`)."""
    import tempfile
    from pathlib import Path

    from bombsolve.cli.progress import play_progress
    from bombsolve.solvers.common.runner import run_chunk, run_study

    chunks = study.chunks()
    if len(chunks) == 1:
        return run_chunk(study.chunk_fn, study.params, chunks[0])
    with tempfile.TemporaryDirectory(prefix=f"bombsolve-{game}-play-") as tmp:
        return run_study(study, Path(tmp) / "games", workers=workers, progress=play_progress(quiet))
