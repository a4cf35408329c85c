"""Bomb the Dragon (Dragon Bomb): cards, reference rules, Numba kernel, strategies, studies
(rulebook: shared/rules/bomb-the-dragon.txt).

Rooms (DESIGN.md, "Shape"), in import order:
- `cards`        the 45 Firecracker and 19 Dragon Body cards (cards.toml) -> `Cards`.
- `readings`     the rulebook's open points in words, and the presets (`gamepark`).
- `rules`        the plain-Python reference engine: `Options`, `GameState`, one decision
                 at a time (legal actions as ints, `advance`), `play_game`.
- `kernel`       the same rules and strategies in Numba, for fast playouts.
- `agents`       the strategies (random, greedy, position, montecarlo): `act(view,
                 legal, rng)`, the registry `AGENTS`, `make_agent`.
- `game`         a game as the front door shows it: `new_game`, `apply`, `view`,
                 `resample`, `outcome`, `reference_and_kernel`.
- `warmup`       the kernels as `Kernel` records (`KERNELS`).
- `charts`       the studies' charts.
- `study`        the balance studies on the shared runner (seats, ladder, readings).
- `preset_study` a preset against the default rules, game for game.

This door exports the contract every game keeps (solvers/common/game.py) and the names
the CLI and the scripts use; each loads on first use (PEP 562), so importing the package
compiles and imports nothing heavy.
"""

from __future__ import annotations

from bombsolve.solvers.common.game import front_door

#: Where each exported name lives: (module, name there).
_WHERE: dict[str, tuple[str, str]] = {
    **{
        name: ("game", name)
        for name in (
            "NAME",
            "PLAYERS",
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
    **{
        name: ("rules", name)
        for name in (
            "Options",
            "options_from_rules",
            "rules_of",
            "RULE_SAMPLES",
            "GameState",
            "View",
            "play_game",
        )
    },
    **{
        name: ("agents", name)
        for name in (
            "AGENTS",
            "make_agent",
            "QUICK_AGENTS",
            "make_agents",
            "resolve_name",
            "KERNEL_STRATEGIES",
            "CODES",
        )
    },
    "KERNELS": ("warmup", "KERNELS"),
    "run_games": ("kernel", "run_games"),
    "load_cards": ("cards", "load_cards"),
    "PRESETS": ("readings", "PRESETS"),
    "READINGS": ("readings", "READINGS"),
    **{
        name: ("study", name)
        for name in (
            "play_study",
            "run_seats",
            "run_ladder",
            "run_readings",
            "build_reference",
            "draw_seat_charts",
            "draw_ladder_chart",
            "draw_readings_chart",
            "draw_reference_charts",
            "manifests_of",
            "ladder_markdown",
            "self_play_tests",
            "REFERENCE_SIZES",
        )
    },
    **{
        name: ("preset_study", name)
        for name in (
            "build_preset_study",
            "comparison_markdown",
            "draw_preset_charts",
            "replicate_check",
        )
    },
    "PRESET_SIZES": ("preset_study", "SIZES"),
    "STUDIES": ("preset_study", "STUDIES"),
}

__all__ = sorted(_WHERE)


__getattr__, __dir__ = front_door(__name__, _WHERE)
