"""The command lines that re-run one deal (DESIGN.md, "Positions and re-runs").

A deal's rank is its index among the permutations of one deck (`deals.rank`): the same rank
is another deal, or none, under other card sets, another variant or another player count,
so every command printed to re-run a deal carries the whole configuration, as the options
of `bombsolve allisbomb` spell it.

>>> from bombsolve.solvers.allisbomb.cards.config import Options
>>> rerun_command(Options(blitz=True), 862906085)
'bombsolve allisbomb --rank 862906085 --blitz --cards standin-v2'
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from bombsolve.solvers.allisbomb.cards.config import RULE_OPTIONS, Options


def game_flags(config: Options, cards: str | None = None) -> list[str] | None:
    """The options of `bombsolve allisbomb` that select `config`'s game, one word a string
    (unquoted): --expansions, --hands, --blitz, --players, --allow-nonstandard, each --rule
    that differs from its default, then --cards.

    `cards` is the --cards value to give: by default the configuration's card file, else
    its stand-in set version (named even when it is the default one, so that the command
    stays the same game when a later version ships another default); '' gives none.
    Returns None if no command line plays `config`: a campaign game (cards removed or a
    set carried, rulebook H), or a card file on a set version other than the default
    (--cards takes one or the other).

    >>> game_flags(Options(expansions=("gifts",), players=2, give_optional=True), cards="")
    ['--expansions', 'gifts', '--players', '2', '--rule', 'give_optional=true']
    """
    if config.removed or config.extra_sets:
        return None
    default = Options()
    if cards is None:
        if config.cards_file is not None and config.cards_version != default.cards_version:
            return None
        cards = str(config.cards_file) if config.cards_file is not None else config.cards_version
    words: list[str] = []
    if config.expansions:
        words += ["--expansions", ",".join(config.expansions)]
    if config.hands:
        words.append("--hands")
    if config.blitz:
        words.append("--blitz")
    if config.players != default.players:
        words += ["--players", str(config.players)]
    if config.allow_nonstandard:
        words.append("--allow-nonstandard")
    for name in RULE_OPTIONS:
        value = getattr(config, name)
        if value != getattr(default, name):
            words += ["--rule", f"{name}={str(value).lower()}"]
    if cards:
        words += ["--cards", cards]
    return words


def rerun_command(
    config: Options,
    rank: int | str,
    cards: str | None = None,
    extra: Sequence[str] = (),
) -> str | None:
    """The shell command that solves the deal of rank `rank` of `config`'s game again,
    with the options `extra` after it (e.g. a higher --node-limit); `cards` as in
    `game_flags`. None if no command line plays `config` (`game_flags`)."""
    flags = game_flags(config, cards)
    if flags is None:
        return None
    return shlex.join(["bombsolve", "allisbomb", "--rank", str(rank), *flags, *extra])
