"""Reading a JSON file a user gives: one line naming what is wrong, never a traceback.

Python's `json` accepts what no bombsolve file holds and fails in ways that name no field:
NaN and Infinity (not JSON at all), numbers too large for a float (``1e400`` becomes
infinity), nesting deep enough to exhaust the interpreter's stack, and bytes that are not
text. `read_json_file` refuses all of them with `BadInput`; `check_json_value` does the
same for data already loaded.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any

from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.files import MAX_INPUT_BYTES, read_input

#: No bombsolve file nests deeper than this (a position: object > list > list > string).
MAX_DEPTH = 32
#: No bombsolve position or solution file is larger than this.
MAX_BYTES = MAX_INPUT_BYTES


class _Unreadable(float):
    """A number no bombsolve file holds, kept until `check_json_value` can say which field
    it is in: NaN or an infinity (`why` says which), or one too large for a float."""

    text: str
    why: str


def _no_constant(name: str) -> float:
    value = _Unreadable(name)
    value.text, value.why = name, "not a JSON number"
    return value


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        value = _Unreadable(value)
        value.text, value.why = text[:40], "too large for a float"
    return value


def parse_json(text: str, what: str) -> Any:
    """Parse JSON text, refusing NaN, infinities and too deep nesting (`MAX_DEPTH`)."""
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except RecursionError:
        raise BadInput(f"{what}: nested too deeply; expected at most {MAX_DEPTH} levels") from None
    except ValueError as exc:  # JSONDecodeError, our refusals, ints of too many digits
        raise BadInput(f"{what}: not valid JSON ({str(exc)[:120]})") from None
    check_json_value(data, what)
    return data


def check_json_value(data: Any, what: str) -> None:
    """Raise BadInput if `data` nests deeper than `MAX_DEPTH` or holds a non-finite float,
    naming the field that holds it ("turn", "config.players", "deck[3]")."""
    stack: list[tuple[Any, int, str]] = [(data, 1, "")]
    while stack:
        value, depth, at = stack.pop()
        if depth > MAX_DEPTH:
            raise BadInput(f"{what}: nested too deeply; expected at most {MAX_DEPTH} levels")
        if isinstance(value, dict):
            stack.extend((v, depth + 1, f"{at}.{k}" if at else str(k)) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, depth + 1, f"{at}[{i}]") for i, v in enumerate(value))
        elif isinstance(value, float) and not math.isfinite(value):
            field = f"{what}: {at}" if at else what
            if isinstance(value, _Unreadable):
                raise BadInput(f"{field} is {value.text}, {value.why}; expected a finite number")
            raise BadInput(f"{field} is {value}; expected a finite number")


def read_json_file(path: str | os.PathLike, what: str, follow: bool = True) -> Any:
    """Read and parse the JSON file `path` (described as `what` in messages; ``-`` reads
    standard input), through the one input reader (`bombsolve.solvers.common.files.read_input`:
    regular files only, at most `MAX_BYTES`; `follow=False` refuses a symbolic link)."""
    label = f"{what} {str(path)!r}"
    raw = read_input(path, what, "a JSON file", MAX_BYTES, follow)
    if b"\0" in raw:
        raise BadInput(f"{label} is a binary file; expected JSON text")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(f"{label} is not UTF-8 text; expected JSON text") from None
    return parse_json(text, label)
