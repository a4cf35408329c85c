"""The code version: the package version and, in a git checkout, the commit it runs."""

from __future__ import annotations

import subprocess
from functools import cache
from pathlib import Path

from bombsolve.solvers import __version__


@cache
def commit() -> str:
    """The git commit of the source tree (with '-dirty' if tracked files are modified), or
    'unknown' outside a git checkout."""
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        return out + ("-dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def version_text() -> str:
    """'0.1.0 (commit 1a2b3c4d5e6f)', or the bare version outside a git checkout."""
    c = commit()
    return (
        __version__
        if c == "unknown"
        else f"{__version__} (commit {c[:12]}{'-dirty' if c.endswith('-dirty') else ''})"
    )


def version_record() -> dict[str, str]:
    """{'version': ..., 'commit': ...} for every --json output."""
    return {"version": __version__, "commit": commit()}
