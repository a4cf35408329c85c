"""Bombastic's front door (DESIGN.md, "Shape"; the contract: solvers/common/game.py).

Everything outside this package (the CLI, the scripts, other games, the tests outside
tests/bombastic) imports Bombastic as ``from bombsolve.solvers.bombastic import NAME``, NAME one of
`__all__`. The names load on first use (PEP 562), so ``import bombsolve.solvers.bombastic`` stays
cheap: no NumPy tables, no Numba, no pandas until a name needs them.

The rooms, in import order (each imports only rooms above it):

* ``tiles``             the grid, its lines and L shapes, the 630 arrangements
* ``readings``          the rule options in words (`bombsolve bombastic rules`)
* ``charts``            the reference study's charts
* ``rules``             the reference engine, plain Python that reads like the rulebook
* ``beliefs``           what a player knows: exact and fast beliefs over the arrangements
* ``kernel``            the rules again in Numba (random games, playouts)
* ``search_kernel``     the `ismcts-heuristic` search in one Numba call
* ``infostates``        information states counted by exhaustive search (reference)
* ``infostates_kernel`` the same count in Numba
* ``agents``            who decides: the registry, views, `play_game`
* ``replay``            one game turn by turn, in words
* ``seat``              a person's seat against an agent: their view, choices, odds
* ``study``             matches, tournaments, card values on the shared runner
* ``game``              the contract's functions over a `Game` (state and chance)
* ``warmup``            the kernels as `Kernel` records
"""

from __future__ import annotations

from bombsolve.solvers.common.game import front_door

#: Each exported name: (room, name in that room).
_EXPORTS: dict[str, tuple[str, str]] = {
    # The contract (solvers/common/game.py, FRONT_DOOR).
    "NAME": ("game", "NAME"),
    "PLAYERS": ("game", "PLAYERS"),
    "Options": ("rules", "Options"),
    "options_from_rules": ("game", "options_from_rules"),
    "rules_of": ("game", "rules_of"),
    "RULE_SAMPLES": ("game", "RULE_SAMPLES"),
    "new_game": ("game", "new_game"),
    "to_move": ("game", "to_move"),
    "legal_actions": ("game", "legal_actions"),
    "apply": ("game", "apply"),
    "describe": ("game", "describe"),
    "outcome": ("game", "outcome"),
    "view": ("game", "view"),
    "resample": ("game", "resample"),
    "AGENTS": ("agents", "AGENTS"),
    "make_agent": ("agents", "make_agent"),
    "QUICK_AGENTS": ("agents", "QUICK_AGENTS"),
    "reference_and_kernel": ("game", "reference_and_kernel"),
    "KERNELS": ("warmup", "KERNELS"),
    "STUDIES": ("study", "STUDIES"),
    # The game at the front door, the reference engine and the rule options.
    "Game": ("game", "Game"),
    "State": ("rules", "State"),
    "Card": ("rules", "Card"),
    "CARD_SLUG": ("rules", "CARD_SLUG"),
    "card_by_slug": ("rules", "card_by_slug"),
    "SplitMix64": ("rules", "SplitMix64"),
    "random_game": ("rules", "random_game"),
    "READINGS": ("readings", "READINGS"),
    "LINES": ("tiles", "LINES"),
    "LINE_NAMES": ("tiles", "LINE_NAMES"),
    "SWAP_MAP": ("tiles", "SWAP_MAP"),
    # What a player knows.
    "ExactBelief": ("beliefs", "ExactBelief"),
    "FastBelief": ("beliefs", "FastBelief"),
    "exact_belief": ("beliefs", "exact_belief"),
    "parse_events": ("beliefs", "parse_events"),
    "event_text": ("beliefs", "event_text"),
    "HAS_BITS": ("beliefs", "HAS_BITS"),
    "TRIPLE_MAP": ("beliefs", "TRIPLE_MAP"),
    "framed_loop": ("beliefs", "framed_loop"),
    "mask_map_loop": ("beliefs", "mask_map_loop"),
    "mask_update_loop": ("beliefs", "mask_update_loop"),
    # The kernel (for benchmarks: the rules in Numba on flat arrays).
    "kernel_options_args": ("kernel", "options_args"),
    "kernel_random_games": ("kernel", "random_games"),
    "kernel_new_state": ("kernel", "new_state"),
    "kernel_playout_casual": ("kernel", "playout_casual"),
    # Agents.
    "OMNISCIENT_AGENTS": ("agents", "OMNISCIENT_AGENTS"),
    "View": ("agents", "View"),
    "view_of": ("agents", "view_of"),
    "play_game": ("agents", "play_game"),
    "HeuristicAgent": ("agents", "HeuristicAgent"),
    "ISMCTSAgent": ("agents", "ISMCTSAgent"),
    "HeuristicISMCTSAgent": ("agents", "HeuristicISMCTSAgent"),
    # Information states.
    "count_infostates": ("infostates", "count_infostates"),
    "count_infostates_fast": ("infostates_kernel", "count_infostates_fast"),
    "count_opening": ("infostates_kernel", "count_opening"),
    "openings": ("infostates_kernel", "openings"),
    "Memo": ("infostates_kernel", "Memo"),
    "MemoFull": ("infostates_kernel", "MemoFull"),
    # Replays and studies.
    "replay_lines": ("replay", "replay_lines"),
    "replay_record": ("replay", "replay_record"),
    # A person's seat.
    "HUMAN": ("seat", "HUMAN"),
    "human_seat": ("seat", "human_seat"),
    "Session": ("seat", "Session"),
    "odds_lines": ("seat", "odds_lines"),
    "match_study": ("study", "match_study"),
    "match_game_seed": ("study", "match_game_seed"),
    "summarize": ("study", "summarize"),
    "tournament": ("study", "tournament"),
    "pairing_table": ("study", "pairing_table"),
    "ratings": ("study", "ratings"),
    "rating_intervals": ("study", "rating_intervals"),
    "card_variants": ("study", "card_variants"),
    "reference_study": ("study", "reference_study"),
    "REFERENCE_GAMES": ("study", "REFERENCE_GAMES"),
    "draw_reference_charts": ("study", "draw_reference_charts"),
}

__all__ = list(_EXPORTS)


__getattr__, __dir__ = front_door(__name__, _EXPORTS)
