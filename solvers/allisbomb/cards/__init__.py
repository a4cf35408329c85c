"""All Is Bomb, room 1 of 5, cards: the card model and the options naming the cards a game uses.

- `config`    Options: which card sets (expansions, a card file) and rule options.
- `cards`     card files (TOML) -> CardSet: cards, sides, steps, the loader's refusals.
- `standard`  the rulebook's standard effects a card file may not break.
- `slips`     steps that read right field by field but cannot act as written.

Imports: bombsolve.solvers.common only (the first room).
"""
