"""Progress on the command line (DESIGN.md, "Command line", "Runs that last"): a bar on a
terminal; in logs and pipes a plain line every few seconds and a summary at the end.

The studies report through `bombsolve.solvers.common.progress` callbacks; `study_progress` and
`bar_progress` are the reporter factories a command gives them.
"""

from __future__ import annotations

import os
import sys
import time
from contextlib import AbstractContextManager

from tqdm import tqdm

from bombsolve.solvers.common.progress import (
    Estimate,
    ProgressFactory,
    StudyEnd,
    StudyStart,
    report_progress,
)


def wants_progress() -> bool:
    """Return True when stderr is a terminal and we are not running under CI."""
    return sys.stderr.isatty() and not os.environ.get("CI")


def progress_bar(total: int, desc: str, unit: str = "it", enabled: bool | None = None) -> tqdm:
    """Return a tqdm bar that is disabled unless a person is watching."""
    if enabled is None:
        enabled = wants_progress()
    return tqdm(total=total, desc=desc, unit=unit, disable=not enabled, dynamic_ncols=True)


#: Seconds between two progress lines in a log (no terminal).
LOG_EVERY = 10.0


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


class ProgressLog:
    """Plain progress lines on stderr for logs and pipes, where no bar is drawn: one every
    `LOG_EVERY` seconds ("cases done of N, rate, time left, running estimate"), and a
    one-line summary at the end (`summary`), which is printed even when `quiet`."""

    def __init__(
        self, name: str, total: int, done: int = 0, enabled: bool = True, quiet: bool = False
    ) -> None:
        self.name, self.total, self.done = name, int(total), int(done)
        self.enabled = enabled and not quiet
        self.start = time.monotonic()
        self.last = self.start
        self.run = 0
        self.estimate: Estimate | None = None  # the last given (cases within chunks have none)

    def update(self, cases: int, estimate: Estimate | None = None) -> None:
        """Count `cases` more done; print a line when `LOG_EVERY` seconds have passed."""
        self.done += cases
        self.run += cases
        self.estimate = estimate or self.estimate
        now = time.monotonic()
        if not self.enabled or now - self.last < LOG_EVERY:
            return
        self.last = now
        print(self.line(now, self.estimate), file=sys.stderr, flush=True)

    def line(self, now: float | None = None, estimate: Estimate | None = None) -> str:
        """The progress line as it stands."""
        now = time.monotonic() if now is None else now
        spent = max(now - self.start, 1e-9)
        rate = self.run / spent
        text = (
            f"{self.name}: {self.done:,} of {self.total:,} cases "
            f"({self.done / max(self.total, 1):.0%}), {rate:,.0f} cases/s"
        )
        if rate > 0 and self.done < self.total:
            text += f", about {_duration((self.total - self.done) / rate)} left"
        if estimate is not None:
            text += f" | {estimate()}"
        return text

    def summary(self, where: str, complete: bool, estimate: Estimate | None = None) -> str:
        """The closing line: what was done, how fast, where it is, and the estimate."""
        spent = time.monotonic() - self.start
        state = "done" if complete else "stopped"
        text = (
            f"{self.name} {state}: {self.done:,} of {self.total:,} cases "
            f"({self.run:,} computed in {_duration(spent)}, "
            f"{self.run / max(spent, 1e-9):,.0f} cases/s) in {where}"
        )
        if estimate is not None and self.done:
            text += f" | {estimate()}"
        return text


class TerminalProgress:
    """The reporter of one study run (a `bombsolve.solvers.common.progress.StudyProgress`):
    a bar of cases with its rate, the time left and the running estimate, plain lines
    (`ProgressLog`), and the summary line at the end, each when asked for. Cases are
    counted as the runner reports them: a chunk's at its end, or one by one where its chunk
    function says them."""

    def __init__(self, start: StudyStart, *, bar: bool, lines: bool, summary: bool) -> None:
        self.bar = progress_bar(start.cases, start.name, unit="case", enabled=bar)
        self.bar.update(start.cases_done)
        self.log = ProgressLog(start.name, start.cases, start.cases_done, enabled=lines)
        self.summary = summary

    def update(self, chunks: int, cases: int, estimate: Estimate | None) -> None:
        """Advance the line counter and the bar; show the estimate on the bar."""
        self.log.update(cases, estimate)
        self.bar.update(cases)  # (its own rate and time left, in cases)
        if estimate is not None and not self.bar.disable:
            self.bar.set_postfix_str(estimate())

    def close(self, end: StudyEnd | None) -> None:
        """Close the bar; print the summary of a run that ended (not of one that failed)."""
        self.bar.close()
        if end is not None and self.summary:
            print(
                self.log.summary(end.where, end.complete, end.estimate), file=sys.stderr, flush=True
            )


def study_progress(quiet: bool = False) -> ProgressFactory:
    """The reporter factory of a command's studies: a bar on a terminal; elsewhere a line
    every `LOG_EVERY` seconds (none when `quiet`, for ``--quiet``); and the summary line."""

    def make(start: StudyStart) -> TerminalProgress:
        bar = wants_progress()
        return TerminalProgress(start, bar=bar, lines=not bar and not quiet, summary=True)

    return make


def bar_progress(start: StudyStart) -> TerminalProgress:
    """A reporter that draws the bar on a terminal and prints nothing else: for studies run
    in a temporary folder, whose summary would name a folder that is gone."""
    return TerminalProgress(start, bar=wants_progress(), lines=False, summary=False)


def play_progress(quiet: bool = False) -> ProgressFactory:
    """The reporter factory of a play command's games, run in a temporary folder: a bar on a
    terminal; elsewhere a line every `LOG_EVERY` seconds as sweeps print (none when `quiet`,
    for ``--quiet``); no summary line, which would name a folder that is gone."""

    def make(start: StudyStart) -> TerminalProgress:
        bar = wants_progress()
        return TerminalProgress(start, bar=bar, lines=not bar and not quiet, summary=False)

    return make


def reporting(quiet: bool = False) -> AbstractContextManager[None]:
    """Report the progress of every study run inside the block as a command does
    (`study_progress`): for the scripts that run studies."""
    return report_progress(study_progress(quiet))


class StepProgress:
    """The progress of work done in named steps (a report's tables, then each chart): a bar
    of steps on a terminal naming the one under way; in logs and pipes a plain line every
    `LOG_EVERY` seconds, as a study prints. Called with each step's name as it starts;
    `close` when done (or use it as a context manager)."""

    def __init__(self, name: str, steps: int, enabled: bool | None = None) -> None:
        bar = wants_progress() if enabled is None else enabled
        self.name, self.steps = name, steps
        self.bar = progress_bar(steps, name, unit="step", enabled=bar)
        self.lines = not bar
        self.start = self.last = time.monotonic()
        self.started = 0

    def __call__(self, step: str) -> None:
        if self.started:
            self.bar.update(1)
        self.started += 1
        self.bar.set_postfix_str(step)
        now = time.monotonic()
        if self.lines and now - self.last >= LOG_EVERY:
            self.last = now
            print(
                f"{self.name}: step {self.started} of at most {self.steps} ({step}), "
                f"{_duration(now - self.start)} so far",
                file=sys.stderr,
                flush=True,
            )

    def close(self) -> None:
        """Fill the bar (steps not needed were skipped) and close it."""
        self.bar.update(self.bar.total - self.bar.n)
        self.bar.close()

    def __enter__(self) -> StepProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
