"""All Is Bomb: card files, reference engine, Numba solver (rulebook: rules/all-is-bomb.txt).

Rooms (DESIGN.md, "Shape"):
- `config`  GameConfig: which card sets and rule options a game uses.
- `cards`   card files (TOML) -> CardSet, compiled to opcode arrays for the kernel.
- `deals`   deck sizes, permutation rank/unrank, uniform shuffles, deck strings.
- `rules`   the plain-Python reference engine (state, legal moves, apply, outcome).
- `search`  the plain-Python reference search (exhaustive DFS over `rules`).
- `kernel`  the Numba interpreter and DFS with a transposition table.
- `solver`  `solve` / `solve_batch`: the public entry points.
- `campaign` Campaign Mode removals and scoring.
"""
