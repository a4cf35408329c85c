"""Atomic output: a file appears whole or not at all (DESIGN.md, "Runs that last").

Files get the modes the process umask gives (0644 under the usual 022), like any Unix
tool's output, not the private 0600 of a temporary file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from solvers.common.errors import BadInput


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def check_output_file(path: str | os.PathLike, option: str = "output file") -> None:
    """Refuse, with one line naming `option`, a file that cannot be written: it is a
    folder, a parent of it is a file, or the folder it goes in cannot be written (tried by
    creating and removing a probe file). Nothing is left behind."""
    path = Path(path)
    if path.is_dir():
        raise BadInput(f"{option} {path} is a folder; expected a file name")
    parent = path.parent
    while not parent.exists():
        if parent.parent == parent:
            break
        parent = parent.parent
    if not parent.is_dir():
        raise BadInput(f"{option} {path}: {parent} is a file; expected a folder there")
    try:
        fd, probe = tempfile.mkstemp(prefix=".bombsolve-probe.", dir=parent)
    except OSError as exc:
        raise BadInput(
            f"{option} {path}: cannot write into {parent} ({exc.strerror}); expected a "
            "writable folder"
        ) from None
    os.close(fd)
    os.unlink(probe)


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path beside `path`; rename it onto `path` only on success.

    Writers write to the yielded path; on any exception the temporary file is removed
    and `path` is left as it was, so a killed or failed run leaves nothing half-written.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        # A writer may have replaced the file: set the mode on what is there now.
        os.chmod(tmp_path, 0o666 & ~_umask())
        os.replace(tmp_path, path)
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise


def write_text_atomic(path: str | os.PathLike, text: str) -> None:
    """Write `text` to `path` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text)
