"""A progress bar on a terminal; in logs and pipes a plain line every few seconds and a
summary at the end (DESIGN.md, "Command line")."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

from tqdm import tqdm


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

    def update(self, cases: int, estimate: Callable[[], str] | None = None) -> None:
        """Count `cases` more done; print a line when `LOG_EVERY` seconds have passed."""
        self.done += cases
        self.run += cases
        now = time.monotonic()
        if not self.enabled or now - self.last < LOG_EVERY:
            return
        self.last = now
        print(self.line(now, estimate), file=sys.stderr, flush=True)

    def line(self, now: float | None = None, estimate: Callable[[], str] | None = None) -> str:
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

    def summary(self, where: str, complete: bool, estimate: Callable[[], str] | None = None) -> str:
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
