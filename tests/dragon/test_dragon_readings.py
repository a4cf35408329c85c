"""The open rule points in words (readings.py) against the engine's options, and the presets."""

from __future__ import annotations

import dataclasses

import pytest

from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.dragon.readings import BY_NAME, PRESETS, READINGS
from bombsolve.solvers.dragon.rules import Options


def _text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def test_every_option_is_explained_with_its_default_first():
    assert [r.name for r in READINGS] == Options.names()
    for f in dataclasses.fields(Options):
        r = BY_NAME[f.name]
        assert r.choices[0] == _text(f.default), f.name
        assert all(words.strip() for _, words in r.values), f.name
        if r.kind == "reading":
            assert len(r.choices) == 2 and r.quote, f.name
            for value in r.choices:  # every value listed is one the engine accepts
                assert _text(getattr(Options.parse(f"{f.name}={value}"), f.name)) == value
        if f.name in Options._CHOICES:
            assert Options._CHOICES[f.name] == r.choices, f.name


def test_gamepark_preset_sets_every_option_with_a_source():
    p = PRESETS["gamepark"]
    assert [k for k, _, _ in p.settings] == Options.names()
    assert all(where for _, _, where in p.settings)
    o = Options.parse("", preset="gamepark")
    assert o.changed() == {
        "double_card": "discard",
        "reshuffle_when": "empty",
        "equal_vitality": "row_first",
        "partial_refill": True,
        "tiebreak": "round",
    }


def test_rules_change_a_preset_and_a_bad_preset_is_refused():
    o = Options.parse("tiebreak=game,placement=close_up", preset="gamepark")
    assert o.tiebreak == "game" and o.placement == "close_up" and o.reshuffle_when == "empty"
    with pytest.raises(BadInput, match="unknown rule preset 'gampark' \\(did you mean gamepark"):
        Options.parse("", preset="gampark")
