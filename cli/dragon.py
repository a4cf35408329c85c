"""`bombsolve dragon`: Bomb the Dragon (Dragon Bomb): simulator, strategies and balance studies."""

from __future__ import annotations

import click


@click.group(name="dragon")
def dragon() -> None:
    """Bomb the Dragon (Dragon Bomb): simulator, strategies and balance studies."""
