"""A progress bar on a terminal, silence in pipes and CI (DESIGN.md, "Command line")."""

from __future__ import annotations

import os
import sys

from tqdm import tqdm


def wants_progress() -> bool:
    """Return True when stderr is a terminal and we are not running under CI."""
    return sys.stderr.isatty() and not os.environ.get("CI")


def progress_bar(total: int, desc: str, unit: str = "it", enabled: bool | None = None) -> tqdm:
    """Return a tqdm bar that is disabled unless a person is watching."""
    if enabled is None:
        enabled = wants_progress()
    return tqdm(total=total, desc=desc, unit=unit, disable=not enabled, dynamic_ncols=True)
