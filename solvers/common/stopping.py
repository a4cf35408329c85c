"""A stop signal that no finalizer can lose (DESIGN.md, "Command line").

The command line's signal handlers raise where the main thread happens to be. When that
is inside a finalizer or a weakref callback (PyArrow's writers, multiprocessing's
connections and futures have them), Python prints the exception, or not, and drops it:
the command would run on. So each handler also records its signal here, and long work
asks at its safe points (after each chunk of a study, at each pause of a search) whether
a stop is pending: `check` raises it again there.
"""

from __future__ import annotations

import signal

#: The signals received and not yet acted on, oldest first (a list: set from a handler).
_PENDING: list[int] = []


class Stopped(KeyboardInterrupt):
    """A stop signal (Ctrl-C, SIGTERM, SIGHUP) raised again at a safe point; `signum` is
    the signal, from which the command line takes its exit code (128 + signum)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def request(signum: int) -> None:
    """Record that `signum` asked this process to stop (called by a signal handler)."""
    _PENDING.append(signum)


def pending() -> int | None:
    """The first stop signal received and not yet cleared, or None."""
    return _PENDING[0] if _PENDING else None


def check() -> None:
    """Raise `Stopped` if a stop signal was received: one whose exception a finalizer
    swallowed is raised again here."""
    if _PENDING:
        raise Stopped(_PENDING[0])


def clear() -> None:
    """Forget the signals received (a command is over; the next one starts afresh)."""
    _PENDING.clear()


def handled(exc: KeyboardInterrupt) -> None:
    """For code that goes on after Ctrl-C (a play session whose search was stopped):
    forget that Ctrl-C, and raise `exc` again if it was another stop signal, which must
    still end the command."""
    if getattr(exc, "signum", signal.SIGINT) != signal.SIGINT:
        raise exc
    _PENDING[:] = [s for s in _PENDING if s != signal.SIGINT]
