"""A study reporter for tests: it records what the runner tells it."""

from __future__ import annotations


def recording_updates() -> tuple[type, list[tuple[int, int]]]:
    """A reporter factory (`progress.ProgressFactory`) and the list into which its
    reporters record each ``update`` as (chunks, cases)."""
    calls: list[tuple[int, int]] = []

    class Recorder:
        def __init__(self, start) -> None:
            pass

        def update(self, chunks: int, cases: int, estimate) -> None:
            calls.append((chunks, cases))

        def close(self, end) -> None:
            pass

    return Recorder, calls
