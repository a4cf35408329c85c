"""All Is Bomb, room 4 of 5, search: who chooses the moves, and the replay of a winning line.

- `search`    the plain-Python reference search (exhaustive DFS over the rules room).
- `solver`    `solve` / `solve_batch` / `solve_state`: the kernel's entry points.
- `floors`    searches kept to a large DECK, several floors side by side (extended cards).
- `best_first` the position nearest the win conditions searched next (beside the floors).
- `split`     a deal too large for one table, solved by its first moves.
- `widen`     the rest of a deal's node limit spread over its first moves (extended cards).
- `escalate`  deciding a deal in passes of growing node limits.
- `exhaust`   every Blitz deal, group by group.
- `agents`    heuristic players (a per-player view, never the whole deal).
- `registry`  the agents behind one name each and one signature, `act(view, legal, rng)`.
- `explain`   why a game is lost, in the rulebook's words.
- `replay`    a line played through the reference engine, turn by turn (a win's proof).
- `session`   a game followed turn by turn: each move's verdict, grouped by card; undo.

Imports: the cards, rules and kernel rooms and bombsolve.solvers.common.
"""
