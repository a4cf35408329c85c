"""Rule options as text: the ``--rule NAME=VALUE`` pairs a user types, parsed against a
game's options object, and the pairs that rebuild an options object (DESIGN.md, "Shape":
each open rule point is one named option with a documented default)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from bombsolve.solvers.common.errors import BadInput, unknown

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def parse_rule_pairs(pairs: Iterable[str], kinds: dict[str, type]) -> dict[str, object]:
    """Parse ``NAME=VALUE`` texts into {name: value} for the options `kinds` names.

    A bool takes true/false (yes/no, on/off, 1/0). An unknown name is refused with the
    nearest one; so is a malformed pair or value, and a name given twice.
    """
    out: dict[str, object] = {}
    for text in pairs:
        name, eq, value = text.partition("=")
        name, value = name.strip().replace("-", "_"), value.strip()
        if not eq or not name:
            raise BadInput(f"--rule {text!r}: expected NAME=VALUE, e.g. {next(iter(kinds))}=true")
        if name not in kinds:
            raise unknown("rule option", name, kinds)
        if name in out:
            raise BadInput(f"--rule {name} given twice")
        if kinds[name] is bool:
            low = value.lower()
            if low not in _TRUE | _FALSE:
                raise BadInput(f"--rule {name}={value!r}: expected true or false")
            out[name] = low in _TRUE
        else:
            try:
                out[name] = kinds[name](value)
            except ValueError:
                words = {"int": "a whole number", "float": "a number"}
                expected = words.get(kinds[name].__name__, f"a {kinds[name].__name__}")
                raise BadInput(f"--rule {name}={value!r}: expected {expected}") from None
    return out


def value_text(value: object) -> str:
    """A rule option's value as a user would type it (flags as true/false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def rule_text(name: str, value: object) -> str:
    """One ``NAME=VALUE`` text as a user would type it (`value_text`)."""
    return f"{name}={value_text(value)}"


def changed_rules(options: object, names: Iterable[str] | None = None) -> list[str]:
    """The ``NAME=VALUE`` texts of the fields of the dataclass `options` that differ from
    their defaults (of `names` only, when given), in field order."""
    default = type(options)()
    wanted = None if names is None else set(names)
    return [
        rule_text(f.name, getattr(options, f.name))
        for f in dataclasses.fields(options)
        if (wanted is None or f.name in wanted)
        and getattr(options, f.name) != getattr(default, f.name)
    ]
