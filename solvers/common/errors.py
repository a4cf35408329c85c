"""The one exception type for bad input (DESIGN.md, "Command line").

Engines raise `BadInput` with a single line that names the bad value and what was
expected; the command line turns it into that line on stderr and exit code 2.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class BadInput(ValueError):
    """Input a user can fix: unknown name, malformed file, impossible option."""


def nearest(value: str, choices: Iterable[str]) -> str:
    """Return ' (did you mean X?)' for the closest choice, or '' when none is close."""
    match = difflib.get_close_matches(value, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {match[0]}?)" if match else ""


def unknown(kind: str, value: str, choices: Iterable[str]) -> BadInput:
    """Build the standard 'unknown X' error, listing the choices and the nearest one."""
    choices = sorted(choices)
    return BadInput(
        f"unknown {kind} {value!r}{nearest(value, choices)}; expected one of: {', '.join(choices)}"
    )
