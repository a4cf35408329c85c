"""``python3 -m bombsolve.cli``: the ``bombsolve`` command, for an environment without the
console script on its PATH."""

from bombsolve.cli.main import cli

cli(prog_name="bombsolve")
