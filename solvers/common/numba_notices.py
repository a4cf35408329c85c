"""The Numba layer's notices: one line for the user when it repairs or works around something.

Solvers never print (DESIGN.md, "Shape"). The Numba layer (`solvers/common/numba_*.py`)
still has things a user should hear: a damaged cache entry compiled again, a cache folder
that cannot be written replaced by a temporary one, a Numba internal missing so that a part
of the layer falls back to plain Numba. It says each as a `NumbaNotice` warning, once per
process: Python shows it on stderr, and the command line shows it as one `bombsolve: ...`
line (`bombsolve.cli.warmup.show_numba_notices`).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Hashable

#: The Numba versions the layer is tested with (pyproject.toml declares the same range).
TESTED = "0.60 to 0.68"


class NumbaNotice(UserWarning):
    """A line for the user from the Numba layer (not an error: the command goes on)."""


#: what was said in this process (the keys `say` was given)
_SAID: set[Hashable] = set()


def say(message: str, key: Hashable | None = None) -> bool:
    """Warn `message` as a `NumbaNotice` unless something with the same `key` (by default the
    message itself) was said already in this process; return whether it was said now."""
    key = message if key is None else key
    if key in _SAID:
        return False
    _SAID.add(key)
    warnings.warn(message, NumbaNotice, stacklevel=2)
    return True


def lacking(part: str, missing: BaseException | str, instead: str) -> bool:
    """Say (once per `part`) that this Numba lacks an internal `part` of the layer relies on
    (`missing`: the error met looking for it, or its name) and what is done `instead`."""
    import numba

    return say(
        f"Numba {numba.__version__} lacks {_what(missing)} (bombsolve.solvers.common.{part}, tested with "
        f"Numba {TESTED}); {instead}",
        key=("lacking", part),
    )


def _what(missing: BaseException | str) -> str:
    """The name of what was missing, from the error met looking for it."""
    if isinstance(missing, AttributeError) and getattr(missing, "name", None):
        owner = getattr(missing, "obj", None)
        if owner is None:
            return missing.name
        return f"{getattr(owner, '__qualname__', type(owner).__name__)}.{missing.name}"
    if isinstance(missing, ImportError):
        m = re.match(r"cannot import name '([^']+)' from '([^']+)'", str(missing))
        if m:
            return f"{m.group(2)}.{m.group(1)}"
        if missing.name:
            return missing.name
    return str(missing)
