"""Files a command reads and writes (DESIGN.md, "Runs that last" and "Command line").

Outputs are atomic: a file appears whole or not at all (`atomic_path`). What an output path
may be, decided once here for every command:

- absent or a regular file: written (a temporary file beside it, renamed onto it);
- a symbolic link to a regular file the user named (``--save FILE``, ``--csv FILE``:
  ``follow=True``): written through, the link kept (the file it points to is replaced);
  a link to nothing is refused, and so is any link among the files a command writes into
  a folder (a study's chunks and manifest, a report's tables), so that a folder received
  from someone else cannot make a command write outside it;
- ``-``, or a path that is standard output itself and not a regular file (``/dev/stdout``):
  the file is streamed to standard output;
- a folder, a FIFO, a device or a socket: refused with one line (`BadInput`, exit code 2),
  never replaced (renaming onto ``/dev/null`` as root would replace the system's).

Files are given the modes the process umask gives (0644 under the usual 022), like any
Unix tool's output, not the private 0600 of a temporary file. A disk that fills up while
writing raises `OutputFailed`, naming the file, with the temporary file removed.

Inputs are read by one reader (`read_input`): regular files, or ``-`` for standard
input, at most `MAX_INPUT_BYTES`; a FIFO, a device or a folder is refused at once (opened
without blocking, so a FIFO with no writer cannot hang the command).
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from bombsolve.solvers.common.errors import BadInput

#: No file bombsolve reads (a position, a solution, a card file, a manifest) is larger.
MAX_INPUT_BYTES = 64 * 2**20
#: The path that means standard output (for an output) or standard input (for an input).
STDIO = "-"
#: Errors of a write that the user cures by making room (or by another device), not by
#: changing the command: `OutputFailed`.
NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


class OutputFailed(Exception):
    """A write failed for want of room (a full disk or quota) or a device error.

    Not bad input: the command was right and a re-run after making room completes it (a
    study resumes). The command line exits with 74, sysexits' EX_IOERR.
    """

    def __init__(self, path: str | os.PathLike, reason: str) -> None:
        self.path, self.reason = str(path), reason
        super().__init__(
            f"cannot write {self.path} ({reason}); make room there (or choose another "
            "place) and re-run the same command"
        )


def no_room_reason(exc: OSError) -> str:
    """The words of an `OSError` in `NO_ROOM` (pyarrow puts its own text before them)."""
    return os.strerror(exc.errno) if exc.errno else str(exc)


def file_kind(mode: int) -> str:
    """What a file of this `st_mode` is, in words ("a FIFO", "a character device", ...)."""
    for test, words in (
        (stat.S_ISREG, "a regular file"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return words
    return "not a regular file"  # pragma: no cover - every Linux file kind is listed


def _is_stdout(st: os.stat_result) -> bool:
    try:
        return os.path.samestat(st, os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError, AttributeError):
        return False


def output_target(
    path: str | os.PathLike, option: str = "output file", follow: bool = True
) -> Path | None:
    """Where an output named `path` is written: None for standard output, else the regular
    file (new or existing; a symbolic link's target when `follow`) to replace.

    Raises BadInput, naming `option`, for a folder, a FIFO, a device, a socket, a link to
    nothing, a loop of links, and any link when not `follow` (see the module's list).
    """
    if str(path) == STDIO:
        return None
    p = Path(path)
    try:
        st = os.lstat(p)
    except (FileNotFoundError, NotADirectoryError):  # (a new file; the writer says more)
        return p
    except OSError as exc:
        raise BadInput(
            f"{option} {p}: cannot look at it ({exc.strerror}); expected a file"
        ) from None
    target = p
    if stat.S_ISLNK(st.st_mode):
        if not follow:
            raise BadInput(
                f"{option} {p} is a symbolic link; expected a regular file (bombsolve follows "
                "a link only to a file named on the command line: remove it)"
            )
        try:
            st = os.stat(p)
        except OSError as exc:
            reason = "to nothing" if exc.errno == errno.ENOENT else f"({exc.strerror})"
            raise BadInput(
                f"{option} {p} is a symbolic link {reason}; expected a regular file or a "
                "link to one"
            ) from None
        if _is_stdout(st):
            return None
        target = Path(os.path.realpath(p))
    if stat.S_ISREG(st.st_mode):
        return target
    if follow and _is_stdout(st):
        return None
    raise BadInput(
        f"{option} {p} is {file_kind(st.st_mode)}; expected a regular file (or - for "
        "standard output)"
    )


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def check_output_file(path: str | os.PathLike, option: str = "output file") -> None:
    """Refuse, with one line naming `option`, a file that cannot be written: it is not a
    regular file or a link to one (`output_target`), a parent of it is a file, or the
    folder it goes in cannot be written (tried by creating and removing a probe file).
    Nothing is left behind."""
    target = output_target(path, option)
    if target is None:
        return
    parent = target.parent
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


def _stream_to_stdout(tmp: Path) -> None:
    out = getattr(sys.stdout, "buffer", None)
    try:
        sys.stdout.flush()
        with open(tmp, "rb") as fh:
            if out is None:  # a text-only stdout (a test's capture)
                sys.stdout.write(fh.read().decode("utf-8", "replace"))
            else:
                shutil.copyfileobj(fh, out)
        (out or sys.stdout).flush()
    except OSError as exc:
        if exc.errno in NO_ROOM:
            raise OutputFailed("standard output", no_room_reason(exc)) from None
        raise


@contextlib.contextmanager
def atomic_path(
    path: str | os.PathLike, option: str = "output file", follow: bool = False
) -> Iterator[Path]:
    """Yield a temporary path beside `path`; rename it onto `path` only on success.

    Writers write to the yielded path; on any exception the temporary file is removed
    and `path` is left as it was, so a killed or failed run leaves nothing half-written.
    What `path` may be (a link, ``-``, ...) is `output_target`'s list; `follow=True` for a
    file the user named. Raises `OutputFailed` when the disk is full.
    """
    target = output_target(path, option, follow)
    if target is None:
        with tempfile.TemporaryDirectory(prefix="bombsolve-out.") as folder:
            tmp = Path(folder) / Path(str(path)).name
            yield tmp
            _stream_to_stdout(tmp)
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp_path: Path | None = None
    try:
        # Inside the try: a signal raised just after the file is made still removes it.
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        tmp_path = Path(tmp)
        os.close(fd)
        yield tmp_path
        # A writer may have replaced the file: set the mode on what is there now.
        os.chmod(tmp_path, 0o666 & ~_umask())
        # Looked at again: what `path` was when the writing began may have changed.
        if output_target(path, option, follow) != target:
            raise BadInput(f"{option} {path} changed while it was written; expected it left alone")
        os.replace(tmp_path, target)
    except OSError as exc:
        if tmp_path is not None:
            tmp_path.unlink(missing_ok=True)
        if exc.errno in NO_ROOM:
            raise OutputFailed(target, no_room_reason(exc)) from None
        raise
    except BaseException:
        if tmp_path is not None:
            tmp_path.unlink(missing_ok=True)
        raise


def write_text_atomic(
    path: str | os.PathLike, text: str, option: str = "output file", follow: bool = False
) -> None:
    """Write `text` to `path` atomically (`atomic_path`)."""
    with atomic_path(path, option, follow) as tmp:
        tmp.write_text(text)


def read_input(
    path: str | os.PathLike,
    what: str,
    expected: str = "a regular file",
    max_bytes: int = MAX_INPUT_BYTES,
    follow: bool = True,
) -> bytes:
    """The bytes of the input file `path` (``-``: standard input), described as `what`.

    Raises BadInput with one line for a file that is missing, unreadable, a folder, a FIFO,
    a device or a socket (`expected` says what was wanted), a symbolic link when not
    `follow` (a study folder's own files), or larger than `max_bytes` (checked by the size
    the file claims and by what is read, as standard input claims none).
    """
    label = f"{what} {str(path)!r}"
    too_large = f"{label} is larger than {max_bytes >> 20} MiB; expected {expected}"
    if str(path) == STDIO:
        data = sys.stdin.buffer.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise BadInput(too_large)
        return data
    # Non-blocking: opening a FIFO for reading otherwise waits for a writer, forever.
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise BadInput(f"{label} not found; expected {expected}") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow:
            raise BadInput(
                f"{label} is a symbolic link; expected {expected} (bombsolve follows no link "
                "in a study folder)"
            ) from None
        raise BadInput(f"cannot read {label} ({exc.strerror}); expected {expected}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise BadInput(f"{label} is {file_kind(st.st_mode)}; expected {expected}")
        if st.st_size > max_bytes:
            raise BadInput(too_large)
        os.set_blocking(fd, True)
        parts, size = [], 0
        while size <= max_bytes:
            block = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not block:
                break
            parts.append(block)
            size += len(block)
        if size > max_bytes:  # a file that grew while read
            raise BadInput(too_large)
        return b"".join(parts)
    except OSError as exc:
        raise BadInput(f"cannot read {label} ({exc.strerror}); expected {expected}") from None
    finally:
        os.close(fd)
