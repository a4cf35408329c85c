"""The docstring examples of the bomber package run and give what they show."""

from __future__ import annotations

import doctest

import pytest

from bombsolve.solvers.bomber import agents, rules, study


@pytest.mark.parametrize("module", [rules, agents, study], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_progress_text_names_rate_and_interval():
    import pandas as pd

    text = study.bomber_rate_text(pd.DataFrame({"outcome": [0, 0, 1, 2]}))
    assert text.startswith("Bomber 50.0% [")
