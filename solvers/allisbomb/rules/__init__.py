"""All Is Bomb, room 2 of 5, rules: the plain-Python reference engine, read like the rulebook.

- `rules`        the state, its legal moves, apply a move, the game's end and outcome.
- `positions`    the position notation (piles top first), saved positions read back.
- `deals`        deck sizes, permutation rank/unrank, uniform shuffles, deck strings.
- `blitz_ranks`  the rank of a Blitz deal and its deal groups (compiled, for `exhaust`).
- `ending_words` how a line ends (an `Ending`), in the rulebook's words.
- `commands`     the command line that re-runs a deal with its whole configuration.
- `transcribe`   a card's steps in words, `cards check` and `cards try`.

Imports: the cards room and bombsolve.solvers.common.
"""
