"""Every example runs: each `bombsolve` line of every --help and of the READMEs' code blocks.

The examples are collected from the command tree, README.md and results/*/README.md as they
stand (a new example is tested without touching this file), sizes are made small where a
flag allows (`SMALL`, `SIZED`), output paths go to a temporary folder, a Dask scheduler
address goes to a real local cluster (a scheduler and two workers as processes), and each
must exit 0 or the code its line documents in a comment ("# exits 10: ...").

An example that reads the same after the sizes are made small (in a --help and in the
README, or `--games 1000` and `--games 2000`) runs once: every later copy checks that the
same arguments ran and the first one's exit code.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from bombsolve.cli.main import cli

pytestmark = pytest.mark.slow  # the fast subset: python3 -m pytest -m "not slow"

ROOT = Path(__file__).resolve().parents[1]

#: Flags whose value is a size: the example runs with this small value instead.
SMALL = {
    "--games": "2",
    "-n": "2",
    "--deals": "4",
    "--campaigns": "2",
    "--card-games": "4",
    "--kernel-games": "4",
    "--heuristic-deals": "2",
    "--sample": "4",
    "--ranks": "0:4",
    "--groups": "0:1",
}
#: Commands that would run for minutes or hours without a size flag get one: the full Blitz
#: count; a Bombastic study's 1,000,000 random kernel games; the positions a sweep's or a
#: campaign's hardest deals may search (undecided past it; an escalating sweep keeps its own
#: ceiling).
SIZED = {
    ("allisbomb", "exhaust"): (("--ranks", "--sample", "--groups"), ["--ranks", "0:4"]),
    ("bombastic", "study"): (("--kernel-games",), ["--kernel-games", "4"]),
    ("allisbomb", "sweep"): (("--node-limit", "--escalate"), ["--node-limit", "20000"]),
    ("allisbomb", "campaign"): (("--node-limit",), ["--node-limit", "20000"]),
}
#: Flags made smaller only when larger (a depth beyond this takes minutes).
AT_MOST = {"--depth": 1, "--node-limit": 200_000, "--time-limit": 5}
#: The flag whose value is a Dask scheduler address: replaced by a running local cluster's.
SCHEDULER = "--scheduler"
#: The first example of every command that takes `--seed` uses this seed (one convention
#: across the four games), except where a seed does not apply to that example.
FIRST_SEED = "42"
SEED_NOT_APPLIED = {
    # exhausts every Blitz deal: the seed drives only --sample (its third example)
    ("allisbomb", "exhaust"): "--sample",
}  #: An example's documented exit code, in its comment: "bombsolve ... # exits 10: a loss".
EXITS = re.compile(r"#.*\bexits (\d+)\b")


def _walk(cmd: click.Command, path: list[str]):
    yield path, cmd
    if isinstance(cmd, click.Group):
        for sub in cmd.commands.values():  # (definition order: a sweep before its report)
            yield from _walk(sub, [*path, sub.name])


def _commands(line: str) -> list[tuple[str, int]]:
    """The bombsolve commands of one example line (`a && b` is two; comments dropped),
    each with the exit code its comment documents (0 if none)."""
    m = EXITS.search(line)
    code = int(m.group(1)) if m else 0
    line = re.sub(r"\s+#\s.*$", "", line.strip()).removeprefix("$ ")
    parts = [p.strip() for p in line.split("&&") if p.strip().startswith("bombsolve ")]
    return [(p, code if i == len(parts) - 1 else 0) for i, p in enumerate(parts)]


def help_examples() -> list[tuple[str, str, int]]:
    """(where, command, exit code) for every `bombsolve` line in the help of every command."""
    out = []
    for path, cmd in _walk(cli, ["bombsolve"]):
        for line in (cmd.help or "").splitlines():
            for c, code in _commands(line):
                out.append((" ".join(path) + " --help", c, code))
    return out


def readme_files() -> list[Path]:
    """The READMEs whose code blocks hold examples: the user's guide and each game's results."""
    return [ROOT / "README.md", *sorted((ROOT / "results").glob("*/README.md"))]


def readme_examples() -> list[tuple[str, str, int]]:
    """(where, command, exit code) for every `bombsolve` line in a code block of a README."""
    out = []
    for path in readme_files():
        fenced = False
        for i, line in enumerate(path.read_text().splitlines(), 1):
            if line.strip().startswith("```"):
                fenced = not fenced
                continue
            if fenced:
                # (a `pip install ... && bombsolve ...` line keeps its bombsolve part)
                for c, code in _commands(line):
                    out.append((f"{path.relative_to(ROOT)}:{i}", c, code))
    return out


def shrink(command: str) -> list[str]:
    """The arguments of `command` (after `bombsolve`) with small sizes substituted."""
    args = shlex.split(command)[1:]
    out: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        flag, eq, val = a.partition("=")
        has_value = bool(eq) or (i + 1 < len(args) and flag in {*SMALL, *AT_MOST})
        if has_value and (flag in SMALL or flag in AT_MOST):
            value = val if eq else args[i + 1]
            if flag in SMALL:
                value = SMALL[flag]
            elif float(value) > AT_MOST[flag]:
                value = str(AT_MOST[flag])
            out += [flag, value]
            i += 1 if eq else 2
            continue
        out.append(a)
        i += 1
    for (game, command), (flags, extra) in SIZED.items():
        if out[:2] == [game, command] and not any(f in out for f in flags):
            out += extra
    return out


def _writes_study(command: str) -> bool:
    return "--out" in shlex.split(command)


#: Examples that write a folder (`--out`) run before those that read one (`report DIR`,
#: `export DIR`, `--study DIR`), in their order of appearance otherwise.
EXAMPLES = sorted(help_examples() + readme_examples(), key=lambda e: not _writes_study(e[1]))


def test_examples_are_found():
    assert len(help_examples()) >= 20
    assert len(readme_examples()) >= 10
    for where, c, _code in EXAMPLES:
        assert "..." not in c, f"{where}: an example must run as written: {c}"


def _target(args: list[str]) -> tuple[tuple[str, ...], click.Command]:
    """The command an example's arguments (after `bombsolve`) invoke, and its path."""
    cmd: click.Command = cli
    path: list[str] = []
    for a in args:
        if not isinstance(cmd, click.Group) or a not in cmd.commands:
            break
        cmd = cmd.commands[a]
        path.append(a)
    return tuple(path), cmd


def _takes_seed(cmd: click.Command) -> bool:
    return any("--seed" in p.opts for p in cmd.params)


def test_first_help_example_uses_the_one_seed_where_a_seed_applies():
    # One convention across the four games: the first example of each help, when the
    # command it runs takes --seed, runs it with --seed 42.
    firsts: dict[str, str] = {}
    for where, c, _code in help_examples():
        firsts.setdefault(where, c)
    checked = 0
    for where, c in firsts.items():
        args = shlex.split(c)[1:]
        path, cmd = _target(args)
        if not _takes_seed(cmd):
            continue
        if path in SEED_NOT_APPLIED:
            # the exemption holds only while the seed still needs that flag, which is absent
            assert SEED_NOT_APPLIED[path] not in args, f"{where}: {c}"
            continue
        i = args.index("--seed") if "--seed" in args else -1
        assert i >= 0 and args[i + 1] == FIRST_SEED, (
            f"{where}: the first example should use --seed {FIRST_SEED}: {c}"
        )
        checked += 1
    assert checked >= 15


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A folder to run the examples in: results/ of the repository reachable, and the
    files the examples read (a mid-game position, a saved solve, card files) present."""
    d = tmp_path_factory.mktemp("examples")
    (d / "results").symlink_to(ROOT / "results")
    r = CliRunner().invoke(cli, ["allisbomb", "--seed", "42", "--json"])
    position = json.loads(r.stdout)["position"]
    (d / "position.json").write_text(json.dumps(position))
    # `--save deal.json && ... replay deal.json` is two examples; the replay must not depend
    # on the first having run before it (a test run alone, or in another order)
    r = CliRunner().invoke(cli, ["allisbomb", "--seed", "0", "--save", str(d / "deal.json")])
    assert r.exit_code == 0, r.output
    # a card owner's transcription (`cards check mycards.toml`) and an edited variant
    # (`sensitivity --variant mine.toml`): copies of the shipped base set
    base = ROOT / "solvers" / "allisbomb" / "data" / "base.toml"
    for name in ("mycards.toml", "mine.toml"):
        shutil.copy(base, d / name)
    return d


#: Exit code and output of each example run so far, by its arguments (as run).
RUNS: dict[tuple[str, ...], tuple[int, str]] = {}


@pytest.mark.parametrize(
    ("where", "command", "want"), EXAMPLES, ids=[f"{w}: {c}" for w, c, _ in EXAMPLES]
)
def test_example_runs(where, command, want, workdir, monkeypatch, request):
    monkeypatch.chdir(workdir)
    args = shrink(command)
    key = tuple(args)
    if key not in RUNS:
        if SCHEDULER in args:
            # a real scheduler and workers (separate processes), started for the first such
            # example and shared by the module's later ones
            cluster = request.getfixturevalue("dask_cluster")
            args[args.index(SCHEDULER) + 1] = cluster.address
        for i, a in enumerate(args[:-1]):
            if a == "--out":  # inside the work folder (an absolute path too), and empty: the
                # same folder may hold another example's study, which the runner would refuse
                out = workdir / args[i + 1].lstrip("/")
                shutil.rmtree(out, ignore_errors=True)
                args[i + 1] = str(out)
        r = CliRunner().invoke(cli, args)
        RUNS[key] = (r.exit_code, r.output)
    code, output = RUNS[key]
    assert code == want, f"{where}: {command!r} ran as {args}:\n{output}"
