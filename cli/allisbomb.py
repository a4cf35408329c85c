"""`bombsolve allisbomb`: All Is Bomb: solve a shuffle under perfect play, sweep win rates."""

from __future__ import annotations

import click


@click.group(name="allisbomb")
def allisbomb() -> None:
    """All Is Bomb: solve a shuffle under perfect play, sweep win rates."""
