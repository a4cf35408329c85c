"""`bombsolve bomber`: Catch the Bomber: simulator, hidden-role agents and balance studies."""

from __future__ import annotations

import click


@click.group(name="bomber")
def bomber() -> None:
    """Catch the Bomber: simulator, hidden-role agents and balance studies."""
