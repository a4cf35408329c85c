"""The rank of a physical deck (`deals.deck_rank`) does not depend on which copy of a
repeated card is which; the rank of a deal (`deals.rank`, what studies record and `--rank`
replays) still does, and the solve report says so when the two differ."""

from __future__ import annotations

import json

import numpy as np
from click.testing import CliRunner

from bombsolve.cli.main import cli
from bombsolve.solvers.allisbomb import compiled, deals
from bombsolve.solvers.allisbomb.cards.config import Options


def _cards():
    return compiled(Options()).cards


def test_deck_rank_ignores_which_copy_is_which_and_rank_does_not():
    cs = _cards()
    repeated = [lab for lab in set(cs.labels) if cs.labels.count(lab) > 1]
    assert repeated  # the default cards have copies (the two JOKERs, ...)
    rng = np.random.default_rng(7)
    for _ in range(20):
        deal = deals.shuffle(cs.n, rng).tolist()
        lab = repeated[int(rng.integers(len(repeated)))]
        a, b = (i for i, c in enumerate(deal) if cs.labels[c] == lab)
        swapped = list(deal)
        swapped[a], swapped[b] = swapped[b], swapped[a]
        assert deals.rank(swapped) != deals.rank(deal)
        assert deals.deck_rank(swapped, cs.labels) == deals.deck_rank(deal, cs.labels)
        # the physical rank is the rank --deck gives the same card names
        read = deals.parse_deck(deals.deck_string(deal, cs), cs)
        assert deals.deck_rank(deal, cs.labels) == deals.rank(read)
        assert deals.deck_rank(read, cs.labels) == deals.rank(read)


def test_the_rank_studies_record_is_unchanged():
    # the README's worked example: seed 0's deal keeps the rank the studies record
    assert deals.rank(deals.deal_from_seed(Options(), 0)) == 903080524054508


def run(*args):
    return CliRunner().invoke(cli, ["allisbomb", *args])


def test_seed_and_deck_of_the_same_cards_share_the_deck_rank_and_say_why_ranks_differ():
    by_seed = run("--seed", "0", "--json")
    assert by_seed.exit_code == 0, by_seed.output
    s = json.loads(by_seed.stdout)
    by_deck = json.loads(run("--deck", s["deck_string"], "--json").stdout)
    assert s["rank"] != by_deck["rank"]  # seed 0 holds some copies in the other order
    assert s["deck_rank"] == by_deck["deck_rank"] == by_deck["rank"]
    assert s["copies_by_id"] and by_deck["copies_by_id"] == []
    text = run("--seed", "0").stdout
    assert f"deck rank {s['deck_rank']}: the rank --deck gives these cards" in text
    for lab in s["copies_by_id"]:
        assert lab in text.split("deck rank", 1)[1].splitlines()[0]
    assert "deck rank" not in run("--deck", s["deck_string"]).stdout
