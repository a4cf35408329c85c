"""All Is Bomb, room 3 of 5, kernel: the same rules compiled for speed with Numba.

- `layout`          the flat state arrays the kernel plays on (word and bit layout).
- `copies`          copies of a card that play alike, and the search key that merges them.
- `ordering`        the order the search tries moves in.
- `prune`           dead positions and the objective bound (static analysis of a deal).
- `program`         a CardSet compiled to opcode arrays, with the tables above.
- `kernel`          the Numba interpreter and depth-first search with a transposition table.
- `best_first`      the best-first search for a win (positions nearest the win conditions first).
- `exhaust_kernel`  the kernel that decides every Blitz deal of a deal group.

Imports: the cards room and bombsolve.solvers.common (never the reference engine: the kernel is
checked against it in tests, side by side).
"""
