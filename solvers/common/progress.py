"""How a study tells whoever runs it how far it is (DESIGN.md, "Runs that last"): the
runner calls a reporter and draws or prints nothing itself (solvers never print).

A reporter is made per run by a `ProgressFactory` from a `StudyStart`; the runner calls its
``update`` after each finished chunk and its ``close`` once at the end. The command line's
reporter (``cli/progress.py``) draws a bar on a terminal and prints plain lines in logs.
A caller passes one to `runner.run_study` (``progress=``), or sets one for every study run
inside a block with `report_progress`.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

#: The running estimate of a study as a text (its ``progress_fn`` over the rows done so far);
#: a callable, so that a reporter that shows nothing never computes it.
Estimate = Callable[[], str]


@dataclass(frozen=True)
class StudyStart:
    """What a study run has to do: its name, its chunks and cases, and how many of each
    were already done (a resumed study starts part way)."""

    name: str
    chunks: int
    chunks_done: int
    cases: int
    cases_done: int


@dataclass(frozen=True)
class StudyEnd:
    """How a study run ended: the folder its chunks are in, whether every chunk is done,
    and its estimate (None when the study has none or no chunk is done)."""

    where: str
    complete: bool
    estimate: Estimate | None


class StudyProgress(Protocol):
    """The reporter of one study run."""

    def update(self, chunks: int, cases: int, estimate: Estimate | None) -> None:
        """Count `chunks` more chunks (of `cases` cases) done."""

    def close(self, end: StudyEnd | None) -> None:
        """The run is over: `end` says how, or is None when it failed."""


ProgressFactory = Callable[[StudyStart], StudyProgress]


class Silent:
    """The reporter that reports nothing (no reporter given)."""

    def update(self, chunks: int, cases: int, estimate: Estimate | None) -> None:
        """Report nothing."""

    def close(self, end: StudyEnd | None) -> None:
        """Report nothing."""


_COMMAND_PROGRESS: contextvars.ContextVar[ProgressFactory | None] = contextvars.ContextVar(
    "bombsolve_progress", default=None
)


@contextlib.contextmanager
def report_progress(factory: ProgressFactory | None) -> Iterator[None]:
    """Give every study run inside the block (that names no reporter of its own) this
    reporter factory; None: none."""
    token = _COMMAND_PROGRESS.set(factory)
    try:
        yield
    finally:
        _COMMAND_PROGRESS.reset(token)


def reporter(progress: ProgressFactory | bool | None, start: StudyStart) -> StudyProgress:
    """The reporter of a run: `progress` when it is a factory, the block's
    (`report_progress`) when it is None, and `Silent` when it is False or neither gives one."""
    if progress is True:
        raise TypeError(
            "progress=True: expected a reporter factory (cli/progress.py), None or False"
        )
    factory = _COMMAND_PROGRESS.get() if progress is None else progress or None
    return Silent() if factory is None else factory(start)
