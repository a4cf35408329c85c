"""'all' is the ALL expansion; 'every' is all six together; charts tell them apart."""

from __future__ import annotations

import pytest

from bombsolve.solvers.allisbomb.cards.config import EXPANSIONS, Options, parse_expansions
from bombsolve.solvers.allisbomb.studies.charts import short_label
from bombsolve.solvers.common.errors import BadInput


def test_all_is_the_all_expansion_and_every_is_the_six():
    assert parse_expansions("all") == ("all",)
    assert parse_expansions("every") == EXPANSIONS
    assert parse_expansions("every,hands") == (*EXPANSIONS, "hands")
    assert parse_expansions("mosquitos,every") == EXPANSIONS  # each once, campaign order
    with pytest.raises(BadInput, match="did you mean every"):
        parse_expansions("evry")


def test_chart_labels_say_ALL_or_6_expansions():
    six = Options(expansions=EXPANSIONS).label()
    assert short_label(six) == "base+6 expansions"
    assert short_label(Options(expansions=("all",)).label()) == "base+ALL"
    assert short_label(Options(expansions=("all",), players=2).label()) == "base+ALL/2p"
