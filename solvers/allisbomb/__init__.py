"""All Is Bomb: card files, reference engine, Numba solver (rulebook: rules/all-is-bomb.txt).

The front door (DESIGN.md, "Shape"): everything outside the game (the command line,
scripts, other games) imports All Is Bomb as `from bombsolve.solvers.allisbomb import NAME`, NAME one
of `__all__`. The names are looked up on first use (PEP 562), so importing this package
loads no room and compiles nothing.

Rooms, in import order (a room imports only the rooms before it, and bombsolve.solvers.common):
- `cards`    the card model: Options, card files (TOML) -> CardSet, their refusals.
- `rules`    the plain-Python reference engine, positions, deals, re-run commands.
- `kernel`   the same rules compiled with Numba: state layout, pruning, the DFS kernels.
- `search`   the reference search, the solver and its escalation and split, the Blitz
             count, heuristic players, explanations of a loss, replaying a line, the
             play session.
- `studies`  sweeps, Campaign Mode, sensitivity, the rulebook's targets, reports, charts.
The card files themselves live in `solvers/allisbomb/data/`.
"""

from __future__ import annotations

from bombsolve.solvers.common.game import front_door

#: Where each public name lives: name -> (module, attribute); attribute None for a module
#: given whole (used as a namespace: `deals.rank`, `exhaust.group_study`, ...).
_WHERE: dict[str, tuple[str, str | None]] = {}


def _names(module: str, *names: str) -> None:
    for name in names:
        _WHERE[name] = (module, name)


def _module(name: str, module: str) -> None:
    _WHERE[name] = (module, None)


# cards
_names("cards.cards", "load_card_file", "load_cards", "provenance_text", "provenance_words")
_names(
    "cards.config",
    "CARD_VERSIONS",
    "DEFAULT_CARDS",
    "EXPANSIONS",
    "RULE_OPTIONS",
    "Options",
    "cards_option",
    "parse_expansions",
)
# rules
_names("rules.rules", "MAX_MOVES", "Ending", "Outcome", "card_table", "state_from_json")
_WHERE["prepare"] = ("rules.rules", "new_game")  # the game set up with a given deck
_names("rules.positions", "cards_version_note")
_names("rules.commands", "rerun_command")
_names("rules.transcribe", "check_report", "default_position", "find_card", "try_card")
_module("deals", "rules.deals")
_module("blitz_ranks", "rules.blitz_ranks")
# kernel
_names("kernel.kernel", "CODE_UNDECIDED")
_names(
    "kernel.program", "copy_keys", "copy_keys_enabled", "move_order", "uses_extended", "win_info"
)
_names("kernel.ordering", "priority_table")
_module("kernel_module", "kernel.kernel")
_module("exhaust_kernel", "kernel.exhaust_kernel")
# search
_names("search.search", "MAX_DEPTH", "reference_search", "stars_lost")
_names(
    "search.solver",
    "DEFAULT_NODE_LIMIT",
    "PORTFOLIO_FIRST",
    "SolveResult",
    "compiled",
    "solve",
    "solve_batch",
    "solve_first",
    "table_bits_for",
    "zeros_aligned",
)
_names("search.split", "SPLIT_LIMIT", "solve_split")
_names(
    "search.escalate",
    "CEILING",
    "FIRST_LIMIT",
    "RICH_CEILING",
    "RICH_ESCALATION",
    "Escalation",
    "continues_one_pass",
    "solve_escalating",
)
_names(
    "search.agents",
    "DEFAULT_BUDGET",
    "DEFAULT_WEIGHTS",
    "play_greedy",
    "play_lookahead",
    "play_random",
)
_names("search.explain", "ending_words", "explain_loss", "is_proof")
_names(
    "search.replay",
    "Line",
    "render_turns",
    "replay_line",
    "replayed",
    "rerun_of",
    "transcript",
    "where_it_stops",
)
_names(
    "search.session",
    "Session",
    "Verdict",
    "best_move",
    "line_of_file",
    "position_before",
    "position_lines",
)
_module("exhaust", "search.exhaust")
# studies
_names(
    "studies.study",
    "SWEEP_NODE_LIMIT",
    "campaign_study",
    "config_from_params",
    "config_to_params",
    "matrix_configs",
    "parse_configs",
    "sweep_case",
    "sweep_chunk",
    "sweep_study",
)
_names("studies.sweep_caption", "caption")
_names("studies.campaign", "campaign_config")
_names("studies.edits", "Edit", "edited_config")
_names(
    "studies.report",
    "campaign_caption",
    "headline_table",
    "REPORT_STEPS",
    "redraw_report",
    "summarize",
    "to_markdown",
    "write_campaign_report",
    "write_index_page",
    "write_report",
)
_module("sensitivity", "studies.sensitivity")
_module("targets", "studies.targets")

# the contract every game's front door keeps (solvers/common/game.py)
_names(
    "game",
    "NAME",
    "PLAYERS",
    "Options",
    "options_from_rules",
    "rules_of",
    "RULE_SAMPLES",
    "new_game",
    "to_move",
    "legal_actions",
    "apply",
    "describe",
    "outcome",
    "view",
    "View",
    "resample",
    "AGENTS",
    "make_agent",
    "QUICK_AGENTS",
    "reference_and_kernel",
    "STUDIES",
)
_names("warmup", "KERNELS")

__all__ = sorted(_WHERE)


# Not kept: the door shows each room's current value, so a test that patches a room
# module patches what the command line finds through the door.
__getattr__, __dir__ = front_door(__name__, _WHERE, keep=False)
