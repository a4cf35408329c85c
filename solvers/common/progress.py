"""How a study tells whoever runs it how far it is (DESIGN.md, "Runs that last"): the
runner calls a reporter and draws or prints nothing itself (solvers never print).

A reporter is made per run by a `ProgressFactory` from a `StudyStart`; the runner calls its
``update`` after each finished chunk and its ``close`` once at the end. A chunk function
whose chunks may run long (a sweep of a rich card set: minutes a deal) also says, with
`cases_done`, each case it finished; the runner then reports those cases as they come
(``update`` with no chunk), from this process and from its pool's workers, not from Dask's.
The command line's
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

#: Where this process counts the cases its chunk function finished (`cases_done`): set by
#: the runner while a chunk runs here or in its pool's worker, None otherwise.
_CASE_SINK: list[Callable[[int], None] | None] = [None]


def cases_done(cases: int = 1) -> None:
    """Tell the run that `cases` more cases of the chunk being computed are done (a chunk
    function calls it once a case, every case of its chunk, those it read back included);
    nothing when no run listens."""
    sink = _CASE_SINK[0]
    if sink is not None:
        sink(cases)


def send_cases_to(sink: Callable[[int], None] | None) -> None:
    """Send this process's `cases_done` to `sink` from now on (a pool worker, for life)."""
    _CASE_SINK[0] = sink


@contextlib.contextmanager
def counting_cases(sink: Callable[[int], None] | None) -> Iterator[None]:
    """Send `cases_done` to `sink` inside the block (the runner's, around its chunks)."""
    old = _CASE_SINK[0]
    _CASE_SINK[0] = sink
    try:
        yield
    finally:
        _CASE_SINK[0] = old


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
