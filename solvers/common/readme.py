"""Generated blocks in README.md: written by a command, never typed by hand (STYLE.md).

A block sits between ``<!-- generated:NAME sha=HASH -->`` and ``<!-- /generated:NAME -->``.
HASH is the SHA-256 prefix of the block's text as last written; a block whose text no
longer matches its hash was edited by hand, and `update_block` refuses to overwrite it.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from bombsolve.solvers.common.errors import BadInput
from bombsolve.solvers.common.files import write_text_atomic


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(
        rf"<!-- generated:{re.escape(name)} sha=(?P<sha>[0-9a-f]+) -->\n(?P<body>.*?)"
        rf"<!-- /generated:{re.escape(name)} -->",
        re.S,
    )


def render_block(name: str, body: str) -> str:
    """Return the block text for `body` (which should end with a newline)."""
    if not body.endswith("\n"):
        body += "\n"
    return f"<!-- generated:{name} sha={_digest(body)} -->\n{body}<!-- /generated:{name} -->"


def update_block(path: str | os.PathLike, name: str, body: str, anchor: str | None = None) -> bool:
    """Replace block `name` in the file at `path` with `body`; return True if it changed.

    If the block is missing it is inserted after the line `anchor` (or appended). Raises
    `BadInput` if the block was edited by hand since it was generated.
    """
    p = Path(path)
    text = p.read_text()
    new_block = render_block(name, body)
    m = _pattern(name).search(text)
    if m:
        if _digest(m.group("body")) != m.group("sha"):
            raise BadInput(
                f"{p}: the generated block '{name}' was edited by hand; "
                "move the edits out of it (or delete the block) and run again"
            )
        new_text = text[: m.start()] + new_block + text[m.end() :]
    elif anchor is not None and anchor in text:
        i = text.index(anchor) + len(anchor)
        new_text = text[:i] + "\n\n" + new_block + text[i:]
    else:
        new_text = text.rstrip("\n") + "\n\n" + new_block + "\n"
    if new_text == text:
        return False
    write_text_atomic(p, new_text)
    return True
