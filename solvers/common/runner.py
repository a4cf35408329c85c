"""The study runner shared by every game (DESIGN.md, "Truth of results", "Runs that last").

A study is a pure function over a chunk of cases. The runner

- splits ``n_cases`` into chunks of ``chunk_size`` and gives chunk *i* the child
  ``SeedSequence(seed, spawn_key=(i,))`` (the same child ``SeedSequence(seed).spawn(n)[i]``
  gives), so results are identical for any number of workers or machines;
- runs the chunks in this process (``workers=1``), on a local process pool, or on a Dask
  distributed cluster (``scheduler="tcp://host:port"``);
- writes each finished chunk atomically as Parquet (``chunks/chunk-000042.parquet``, with the
  study's identity in the file's metadata) and a ``manifest.json`` naming the command,
  parameters, input files and their hashes, versions, git commit and times;
- on a re-run with the same study resumes with only the missing chunks; a chunk file that is
  truncated, corrupt or belongs to another study is recomputed, never read as data; a
  different study pointed at the same folder is refused with `BadInput`;
- with a ``time_budget`` stops starting chunks once the budget is spent, so a study too long
  for one sitting is computed over several runs (each run is recorded in the manifest);
  ``Study.order`` chooses which chunks go first (results do not depend on it), so that a
  partial study is a fair sample of every part of it, and ``load_study(..., partial=True)``
  reads what is done.

Example:

>>> import tempfile
>>> from solvers.common.toy import coin_chunk
>>> study = Study("toy.coin", {"p": 0.5}, n_cases=10, seed=1, chunk_fn=coin_chunk, chunk_size=4)
>>> with tempfile.TemporaryDirectory() as out:
...     df = run_study(study, out, workers=1, progress=False)
>>> list(df["case"])
[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime as _dt
import hashlib
import json
import os
import platform
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from solvers import __version__
from solvers.common.errors import BadInput
from solvers.common.files import atomic_path, write_text_atomic
from solvers.common.host import host_info
from solvers.common.progress import progress_bar, wants_progress

MANIFEST = "manifest.json"
CHUNK_DIR = "chunks"
_META_KEY = b"bombsolve.chunk"
DASK_CONNECT_TIMEOUT = "10s"

#: A time budget set by a command's ``--time-budget`` for every study it runs (`time_budget`).
_COMMAND_BUDGET: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "bombsolve_time_budget", default=None
)


class StudyPaused(Exception):
    """A study stopped at a command's time budget before all its chunks were done."""

    def __init__(self, out_dir: Path, done: int, total: int) -> None:
        super().__init__(
            f"stopped at the time budget with {done} of {total} chunks of {out_dir} done; "
            "re-run the same command to resume"
        )


@contextlib.contextmanager
def time_budget(seconds: float | None):
    """Give every `run_study` inside the block this time budget (for ``--time-budget``).

    A study left unfinished there raises `StudyPaused` instead of returning part of its rows,
    so that no command builds a report from a partial study by accident.
    """
    token = _COMMAND_BUDGET.set(seconds)
    try:
        yield
    finally:
        _COMMAND_BUDGET.reset(token)


ChunkFn = Callable[[Mapping[str, Any], "ChunkSpec"], pd.DataFrame]


@dataclass(frozen=True)
class ChunkSpec:
    """One chunk of a study: cases ``[start, stop)`` and the seed material for them."""

    index: int
    start: int
    stop: int
    seed: int

    @property
    def seed_seq(self) -> np.random.SeedSequence:
        """The chunk's child of the study's root ``SeedSequence(seed)``."""
        return np.random.SeedSequence(self.seed, spawn_key=(self.index,))

    def rng(self) -> np.random.Generator:
        """A generator seeded from this chunk's ``SeedSequence`` child."""
        return np.random.default_rng(self.seed_seq)

    def case_seeds(self) -> np.ndarray:
        """One uint64 seed per case of the chunk, in case order."""
        n = self.stop - self.start
        # A grandchild sequence keeps these independent of whatever rng() draws.
        seq = np.random.SeedSequence(self.seed, spawn_key=(self.index, 0))
        return seq.generate_state(max(n, 1), dtype=np.uint64)[:n]

    def __len__(self) -> int:
        return self.stop - self.start


@dataclass(frozen=True)
class Study:
    """What to run: a named, parametrised chunk function over ``n_cases`` cases."""

    name: str
    params: Mapping[str, Any]
    n_cases: int
    seed: int
    chunk_fn: ChunkFn
    chunk_size: int = 1000
    input_files: Sequence[str | os.PathLike] = ()
    progress_fn: Callable[[pd.DataFrame], str] | None = field(default=None, compare=False)
    #: Sort key for the order in which missing chunks are computed (default: by index). It
    #: never changes a result, only which chunks a partial run has.
    order: Callable[[ChunkSpec], Any] | None = field(default=None, compare=False)

    def chunks(self) -> list[ChunkSpec]:
        """All chunks of the study, in order."""
        if self.n_cases < 0:
            raise BadInput(f"number of cases {self.n_cases} is negative; expected 0 or more")
        if self.chunk_size < 1:
            raise BadInput(f"chunk size {self.chunk_size} is not positive; expected 1 or more")
        return [
            ChunkSpec(i, start, min(start + self.chunk_size, self.n_cases), self.seed)
            for i, start in enumerate(range(0, self.n_cases, self.chunk_size))
        ]

    def identity(self) -> dict[str, Any]:
        """Everything that determines the results; two runs with equal identity agree."""
        return {
            "study": self.name,
            "params": _jsonable(dict(self.params)),
            "n_cases": int(self.n_cases),
            "seed": int(self.seed),
            "chunk_size": int(self.chunk_size),
            "chunk_fn": f"{self.chunk_fn.__module__}.{self.chunk_fn.__qualname__}",
            "input_files": {str(Path(p).name): sha256_file(p) for p in self.input_files},
        }

    def identity_hash(self) -> str:
        """A short stable hash of `identity`."""
        text = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def sha256_file(path: str | os.PathLike) -> str:
    """Return the SHA-256 of a file's bytes."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _jsonable(value: Any) -> Any:
    """Normalise tuples, paths and NumPy scalars so identities compare as JSON."""
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, os.PathLike):
        return str(value)
    if isinstance(value, np.generic):
        return value.item()
    return value


def _git_commit() -> str:
    from solvers.common.version import commit

    return commit()


def _versions() -> dict[str, str]:
    import numba

    versions = {
        "bombsolve": __version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "pandas": pd.__version__,
        "pyarrow": pa.__version__,
    }
    try:
        import distributed

        versions["distributed"] = distributed.__version__
    except ImportError:  # pragma: no cover - dask is a declared dependency
        pass
    return versions


def _cores() -> int:
    """Cores this process may run on (the affinity mask, not the machine's total)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def chunk_path(out_dir: str | os.PathLike, index: int) -> Path:
    """The file that holds chunk `index` of the study in `out_dir`."""
    return Path(out_dir) / CHUNK_DIR / f"chunk-{index:06d}.parquet"


def run_chunk(chunk_fn: ChunkFn, params: Mapping[str, Any], chunk: ChunkSpec) -> pd.DataFrame:
    """Run one chunk and check that it returned exactly its cases (worker side)."""
    df = chunk_fn(params, chunk)
    if not isinstance(df, pd.DataFrame) or "case" not in df.columns:
        raise TypeError(
            f"chunk function {chunk_fn.__qualname__} must return a DataFrame with 'case'"
        )
    cases = np.unique(df["case"].to_numpy())
    if len(cases) != len(chunk) or (
        len(chunk) and (cases[0] != chunk.start or cases[-1] != chunk.stop - 1)
    ):
        raise ValueError(
            f"chunk {chunk.index} returned cases {cases[:3]}..., expected {chunk.start}..{chunk.stop - 1}"
        )
    return df.reset_index(drop=True)


def _write_chunk(out_dir: Path, chunk: ChunkSpec, df: pd.DataFrame, ident: str) -> None:
    table = pa.Table.from_pandas(df, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[_META_KEY] = json.dumps(
        {"identity": ident, "index": chunk.index, "start": chunk.start, "stop": chunk.stop}
    ).encode()
    table = table.replace_schema_metadata(meta)
    with atomic_path(chunk_path(out_dir, chunk.index)) as tmp:
        pq.write_table(table, tmp)


def _read_chunk(out_dir: Path, chunk: ChunkSpec, ident: str) -> pd.DataFrame | None:
    """Read a finished chunk, or None when it is missing, corrupt, or not this study's."""
    path = chunk_path(out_dir, chunk.index)
    if not path.exists():
        return None
    try:
        table = pq.read_table(path)
        meta = json.loads((table.schema.metadata or {})[_META_KEY])
        if meta != {
            "identity": ident,
            "index": chunk.index,
            "start": chunk.start,
            "stop": chunk.stop,
        }:
            return None
        df = table.to_pandas()
        cases = np.unique(df["case"].to_numpy())
        if len(cases) != len(chunk) or (len(chunk) and cases[0] != chunk.start):
            return None
        return df
    except Exception:  # noqa: BLE001 - any unreadable file is recomputed, never trusted
        return None


def _check_manifest(out_dir: Path, study: Study, ident: str) -> dict[str, Any] | None:
    path = out_dir / MANIFEST
    if not path.exists():
        if (out_dir / CHUNK_DIR).exists() and any((out_dir / CHUNK_DIR).iterdir()):
            raise BadInput(
                f"output folder {out_dir} holds chunks but no {MANIFEST}; use an empty folder"
            )
        return None
    try:
        manifest = json.loads(path.read_text())
        old = manifest["identity"]
    except (ValueError, KeyError) as exc:
        raise BadInput(
            f"{path} is not a bombsolve study manifest ({exc}); use another --out"
        ) from None
    if manifest.get("identity_hash") != ident:
        new = study.identity()
        diffs = [k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
        detail = "; ".join(f"{k}: {old.get(k)!r} there, {new.get(k)!r} now" for k in diffs[:3])
        raise BadInput(
            f"output folder {out_dir} holds a different study ({detail}); "
            "expected the same arguments to resume, or a new --out"
        )
    return manifest


def _write_manifest(out_dir: Path, manifest: dict[str, Any]) -> None:
    write_text_atomic(out_dir / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True) + "\n")


def run_study(
    study: Study,
    out_dir: str | os.PathLike,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: bool | None = None,
    command: str | None = None,
    time_budget: float | None = None,
) -> pd.DataFrame:
    """Run (or resume) `study` into `out_dir` and return all its rows, sorted by case.

    ``workers=None`` uses every core; ``workers=1`` runs in this process. ``scheduler`` sends the
    chunks to a Dask distributed scheduler instead. ``time_budget`` (seconds): start no chunk
    after it is spent; chunks already running finish and are kept, and the rows of the chunks
    done so far are returned (``df.attrs["complete"]`` says whether that is all of them).
    Raises `BadInput` when `out_dir` holds a different study.
    """
    out = Path(out_dir)
    from_command = time_budget is None and _COMMAND_BUDGET.get() is not None
    if from_command:
        time_budget = _COMMAND_BUDGET.get()
    chunks = study.chunks()
    ident = study.identity_hash()
    old = _check_manifest(out, study, ident)
    out.mkdir(parents=True, exist_ok=True)
    (out / CHUNK_DIR).mkdir(exist_ok=True)

    done: dict[int, pd.DataFrame] = {}
    for chunk in chunks:
        df = _read_chunk(out, chunk, ident)
        if df is not None:
            done[chunk.index] = df
    todo = [c for c in chunks if c.index not in done]
    if study.order is not None:
        todo.sort(key=study.order)
    if time_budget is not None and time_budget < 0:
        raise BadInput(f"time budget {time_budget} is negative; expected seconds >= 0")
    deadline = None if time_budget is None else time.monotonic() + time_budget

    if workers is not None and workers < 1:
        raise BadInput(f"--workers {workers} is not positive; expected 1 or more")
    n_workers = workers or _cores()
    run = {
        "started": _now(),
        "chunks_planned": len(todo),
        "chunks_computed": 0,
        "chunks_reused": len(done),
        # Each run's code version: a resumed study may mix chunks computed by several.
        "git_commit": _git_commit(),
        "executor": f"dask {scheduler}"
        if scheduler
        else f"processes x{min(n_workers, max(len(todo), 1))}",
    }
    manifest = old or {
        "identity": study.identity(),
        "identity_hash": ident,
        "started": run["started"],
        "runs": [],
    }
    manifest.update(
        {
            "command": command
            if command is not None
            else " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
            "input_files": [{"path": str(p), "sha256": sha256_file(p)} for p in study.input_files],
            "versions": _versions(),
            "git_commit": _git_commit(),
            "host": host_info(),
            "finished": None,
            "chunks_total": len(chunks),
            "chunks_done": len(done),
        }
    )
    manifest["runs"].append(run)
    _write_manifest(out, manifest)

    bar = progress_bar(
        len(chunks),
        study.name,
        unit="chunk",
        enabled=progress if progress is not None else wants_progress(),
    )
    bar.update(len(done))
    t0 = time.perf_counter()
    cases_run = 0

    def finish(chunk: ChunkSpec, df: pd.DataFrame) -> None:
        nonlocal cases_run
        _write_chunk(out, chunk, df, ident)
        done[chunk.index] = df
        run["chunks_computed"] += 1
        cases_run += len(chunk)
        bar.update(1)
        if not bar.disable:
            rate = cases_run / max(time.perf_counter() - t0, 1e-9)
            text = f"{rate:,.0f} cases/s"
            if study.progress_fn is not None:
                text += " | " + study.progress_fn(pd.concat(list(done.values()), ignore_index=True))
            bar.set_postfix_str(text)

    try:
        if todo:
            if scheduler:
                _run_dask(study, todo, scheduler, finish, deadline)
            elif n_workers == 1 or len(todo) == 1:
                for chunk in todo:
                    if _spent(deadline):
                        break
                    finish(chunk, run_chunk(study.chunk_fn, study.params, chunk))
            else:
                _run_pool(study, todo, n_workers, finish, deadline)
    finally:
        bar.close()
        run["finished"] = _now()
        manifest["chunks_done"] = len(done)
        if len(done) == len(chunks):
            manifest["finished"] = run["finished"]
        _write_manifest(out, manifest)

    if from_command and len(done) < len(chunks):
        raise StudyPaused(out, len(done), len(chunks))
    df = _concat(done[c.index] for c in chunks if c.index in done)
    df.attrs["complete"] = len(done) == len(chunks)
    return df


def _spent(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() >= deadline


def _concat(frames: Iterable[pd.DataFrame]) -> pd.DataFrame:
    frames = list(frames)
    if not frames:
        return pd.DataFrame({"case": pd.Series([], dtype="int64")})
    df = pd.concat(frames, ignore_index=True)
    return df.sort_values("case", kind="stable").reset_index(drop=True)


def _run_pool(
    study: Study, todo: list[ChunkSpec], n_workers: int, finish, deadline: float | None = None
) -> None:
    # Spawned (not forked) workers: no inherited threads or Numba state; the cache makes
    # their first compile cheap.
    ctx = get_context("spawn")
    n_workers = min(n_workers, len(todo))
    queue = list(reversed(todo))
    with ProcessPoolExecutor(max_workers=n_workers, mp_context=ctx) as pool:
        pending: dict = {}

        def top_up() -> None:
            # Two chunks per worker in flight: the workers never wait, and a time budget
            # leaves at most that much work running past it.
            while queue and len(pending) < 2 * n_workers and not _spent(deadline):
                c = queue.pop()
                pending[pool.submit(run_chunk, study.chunk_fn, study.params, c)] = c

        top_up()
        try:
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    chunk = pending.pop(fut)
                    finish(chunk, fut.result())
                top_up()
        except BaseException:
            for fut in pending:
                fut.cancel()
            raise


def _run_dask(
    study: Study, todo: list[ChunkSpec], scheduler: str, finish, deadline: float | None = None
) -> None:
    from distributed import Client, as_completed

    try:
        client = Client(scheduler, timeout=DASK_CONNECT_TIMEOUT)
    except OSError as exc:
        raise BadInput(
            f"cannot reach Dask scheduler {scheduler!r} ({exc}); expected tcp://HOST:PORT"
        ) from None
    try:
        ident = study.identity_hash()
        # Enough in flight to keep every worker busy; the rest wait here, so that a time
        # budget can stop them and the scheduler's queue stays short.
        width = 2 * max(1, len(client.scheduler_info().get("workers", {})))
        queue = list(reversed(todo))
        futures = {}

        def submit() -> None:
            c = queue.pop()
            fut = client.submit(
                run_chunk,
                study.chunk_fn,
                study.params,
                c,
                key=f"{study.name}-{c.index}-{ident}",
                pure=False,
            )
            futures[fut] = c
            running.add(fut)

        running = as_completed([])
        while queue and len(futures) < width and not _spent(deadline):
            submit()
        for fut in running:
            finish(futures.pop(fut), fut.result())
            if queue and not _spent(deadline):
                submit()
    finally:
        client.close()


def load_study(out_dir: str | os.PathLike, partial: bool = False) -> pd.DataFrame:
    """Return every row of a finished study folder, sorted by case.

    Raises `BadInput` when the folder is not a finished study. ``partial=True`` returns the
    rows of the chunks that are done instead (``df.attrs["complete"]`` says if that is all).
    """
    out = Path(out_dir)
    path = out / MANIFEST
    if not path.exists():
        raise BadInput(
            f"{out} has no {MANIFEST}; expected a study folder made by a bombsolve study"
        )
    try:
        manifest = json.loads(path.read_text())
        ident = manifest["identity_hash"]
        identity = manifest["identity"]
    except (ValueError, KeyError) as exc:
        raise BadInput(f"{path} is not a bombsolve study manifest ({exc})") from None
    n, size, seed = identity["n_cases"], identity["chunk_size"], identity["seed"]
    frames = []
    for i, start in enumerate(range(0, n, size)):
        chunk = ChunkSpec(i, start, min(start + size, n), seed)
        df = _read_chunk(out, chunk, ident)
        if df is None and partial:
            continue
        if df is None:
            raise BadInput(
                f"{out} is unfinished or damaged (chunk {i} missing or unreadable); "
                "re-run the same command to complete it"
            )
        frames.append(df)
    df = _concat(frames)
    df.attrs["complete"] = len(frames) == len(range(0, n, size))
    return df


def computed_by(manifest: Mapping[str, Any]) -> str:
    """The git commits whose runs computed a study's chunks (a resumed study may have
    several), short form, oldest first: what a caption should name."""
    commits = [r["git_commit"][:12] for r in manifest.get("runs", []) if r.get("chunks_computed")]
    unique = list(dict.fromkeys(commits)) or [manifest["git_commit"][:12]]
    return ", ".join(unique)


def load_manifest(out_dir: str | os.PathLike) -> dict[str, Any]:
    """Return the manifest of a study folder."""
    path = Path(out_dir) / MANIFEST
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise BadInput(f"{out_dir} has no {MANIFEST}; expected a study folder") from None
    except ValueError as exc:
        raise BadInput(f"{path} is not valid JSON ({exc})") from None
