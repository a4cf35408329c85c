"""Catch the Bomber: the front door (solvers/common/game.py, DESIGN.md "Shape").

Rooms, in import order (each imports only rooms above it):

- ``rules``: the plain-Python reference engine, section by section of the rulebook, and
  `Options`, the points it leaves open.
- ``kernel``: the same rules compiled with Numba, random-agent playouts.
- ``warmup``: the kernels as `Kernel` records (`KERNELS`).
- ``agents``: who chooses the actions, seeing one seat's view (`AGENTS`).
- ``charts``: the outcome words and the charts of the studies.
- ``study``: the batch studies on the shared runner (`STUDIES`).
- ``game``: the contract's functions over the reference engine (`apply` leaves its
  argument unchanged) and the kernel beside it.

Everything outside this package imports these names from here; each loads its room on
first use (PEP 562), so ``from bombsolve.solvers.bomber import NAME`` costs no Numba or pandas.
``prepare`` (the engine's deal: players, seed, options, extras), ``apply_in_place`` and
``action_text`` are the engine's own ``new_game``, ``apply`` and ``describe``, under
names apart from the contract's.
"""

from __future__ import annotations

from bombsolve.solvers.common.game import front_door

#: Where each name lives: {name: (room, name in the room)}.
_ROOMS: dict[str, tuple[str, str]] = {
    # the contract (bombsolve.solvers.common.game.FRONT_DOOR)
    **{
        name: ("game", name)
        for name in (
            "NAME",
            "PLAYERS",
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
            "resample",
            "reference_and_kernel",
        )
    },
    "Options": ("rules", "Options"),
    "AGENTS": ("agents", "AGENTS"),
    "make_agent": ("agents", "make_agent"),
    "QUICK_AGENTS": ("agents", "QUICK_AGENTS"),
    "KERNELS": ("warmup", "KERNELS"),
    "STUDIES": ("study", "STUDIES"),
    # the reference engine, for the command line and the scripts
    **{
        name: ("rules", name)
        for name in (
            "AGENT_SALT",
            "CARD_NAMES",
            "CARD_SHORT",
            "EXTRA_NAMES",
            "EXTRAS",
            "FIXED_READINGS",
            "LOCATION_NAMES",
            "OPEN_READINGS",
            "OUTCOME_NAMES",
            "Card",
            "State",
            "View",
            "check_setup",
            "decode",
            "line_text",
            "parse_rules",
            "value_text",
            "winners",
        )
    },
    "prepare": ("rules", "new_game"),
    "apply_in_place": ("rules", "apply"),
    "action_text": ("rules", "describe"),
    "game_seed": ("game", "game_seed"),
    **{name: ("agents", name) for name in ("agents_label", "parse_agents", "play_game")},
    **{name: ("kernel", name) for name in ("COLUMNS", "run_random_games")},
    "OUTCOME_LABELS": ("charts", "OUTCOME_LABELS"),
    **{
        name: ("study", name)
        for name in (
            "PARTS",
            "achievements",
            "against_default",
            "case_game",
            "check_part_folder",
            "collect_part",
            "conditions",
            "make_study",
            "play_study",
            "summarise",
            "write_part",
        )
    },
}

__all__ = list(_ROOMS)


__getattr__, __dir__ = front_door(__name__, _ROOMS)
