"""`bombsolve bombastic`: Bombastic: exact odds, agents, tournaments and balance studies."""

from __future__ import annotations

import click


@click.group(name="bombastic")
def bombastic() -> None:
    """Bombastic: exact odds, agents, tournaments and balance studies."""
