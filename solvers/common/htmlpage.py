"""A study report as one self-contained HTML page (DESIGN.md, "Truth of results").

`write_index_html` writes ``index.html`` beside a report's tables and charts, in the order
a reader wants them: the headline tables first, then the charts (embedded as PNG data URIs),
then the detail tables folded (``<details>``), then each study's manifest (rules, cards,
provenance, seeds, version) in plain sections. The page asks for nothing outside itself (no
scripts, fonts, style sheets or images by address), so it reads offline, can be mailed or
pasted as it is, and prints. It fits a 1,280-pixel window and a 375-pixel phone: a table
wider than the page scrolls inside its own box, and long words (paths, hashes) wrap.
"""

from __future__ import annotations

import base64
import html
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from bombsolve.solvers.common.files import write_text_atomic

_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 1100px; margin: 2em auto;
       padding: 0 1em; color: #222; overflow-wrap: anywhere; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
.scroll { max-width: 100%; overflow-x: auto; margin: .5em 0 1.5em; }
table { border-collapse: collapse; font-size: 13px; overflow-wrap: normal; }
th, td { border: 1px solid #ccc; padding: 3px 7px; text-align: right; }
td { white-space: nowrap; }
th { background: #f2f2f2; vertical-align: bottom; }
td:first-child, th:first-child { text-align: left; }
figure { margin: 1em 0 2em; } figure img { max-width: 100%; height: auto;
                                           border: 1px solid #eee; }
figcaption, .caption { color: #555; font-size: 12px; }
details { margin: .5em 0; } summary { cursor: pointer; font-weight: 600; }
code, pre { font: 12px ui-monospace, monospace; background: #f7f7f7; }
pre { padding: .6em; overflow-x: auto; white-space: pre-wrap; }
dl { display: grid; grid-template-columns: minmax(5em, max-content) minmax(0, 1fr);
     gap: 2px 1em; }
dt { font-weight: 600; } dd { margin: 0; }
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _number(x: float) -> str:
    """A float cell without scientific notation: 16,370 or 0.9125."""
    if x != x:  # NaN
        return ""
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.4g}" if abs(x) >= 1e-3 else f"{x:.6f}"


def _table(df: pd.DataFrame) -> str:
    ints = {
        c: (lambda v: f"{v:,}")
        for c in df.columns
        if pd.api.types.is_integer_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c])
    }
    html_table = df.to_html(index=False, border=0, na_rep="", float_format=_number, formatters=ints)
    return f"<div class='scroll'>{html_table}</div>"


def path_words(path: Path) -> str:
    """A chart's file stem as words: 'win_rate_by_config' -> 'win rate by config'."""
    return path.stem.replace("_", " ")


def _image(path: Path) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f'<img alt="{_e(path.stem)}" src="data:image/png;base64,{data}">'


def _manifest_section(name: str, manifest: Mapping[str, Any]) -> str:
    ident = manifest.get("identity", {})
    params = ident.get("params", {})
    rows = [
        ("study", ident.get("study")),
        ("command", manifest.get("command")),
        ("cases", f"{ident.get('n_cases', 0):,}"),
        ("seed", f"SeedSequence({ident.get('seed')}), chunks of {ident.get('chunk_size')}"),
        ("bombsolve", manifest.get("versions", {}).get("bombsolve")),
        ("git commit", manifest.get("git_commit")),
        ("started / finished", f"{manifest.get('started')} / {manifest.get('finished')}"),
    ]
    host = manifest.get("host")
    if host:
        rows.append(("host", json.dumps(host, sort_keys=True)))
    versions = ", ".join(f"{k} {v}" for k, v in sorted(manifest.get("versions", {}).items()))
    rows.append(("versions", versions))
    files = manifest.get("input_files", [])
    cards = "".join(
        f"<li><code>{_e(Path(f['path']).name)}</code> sha256 <code>{_e(f['sha256'][:16])}</code></li>"
        for f in files
    )
    body = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in rows)
    return (
        f"<h3>{_e(name)}</h3><dl>{body}</dl>"
        + (f"<p>Cards and input files:</p><ul>{cards}</ul>" if cards else "")
        + "<p>Rules and parameters:</p>"
        + f"<pre>{_e(json.dumps(params, indent=1, sort_keys=True))}</pre>"
    )


def write_index_html(
    folder: str | os.PathLike,
    title: str,
    caption: str,
    tables: Sequence[tuple[str, pd.DataFrame]],
    charts: Sequence[Path | tuple[Path, str]],
    manifests: Mapping[str, Mapping[str, Any]],
    headline: Sequence[tuple[str, pd.DataFrame]] = (),
) -> Path:
    """Write ``folder/index.html``: the `headline` tables (title, rows) open at the top,
    then `charts` (PNG files, embedded; each alone or with the words under it), then the
    detail `tables` (title, rows), each folded, then each study's manifest; the `caption`
    (provenance) under the title and under every chart and table. Empty tables are left
    out. Returns its path."""
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{_e(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
    ]
    provenance = f"<p class='caption'>{_e(caption)}</p>"
    for name, df in headline:
        if len(df):
            parts.append(f"<h2>{_e(name)}</h2>{_table(df)}{provenance}")
    if charts:
        parts.append("<h2>Charts</h2>")
    for chart in charts:
        path, words = chart if isinstance(chart, tuple) else (chart, path_words(chart))
        beside = path.with_suffix(".csv")
        data = f" Its data: <code>{_e(beside.name)}</code>." if beside.exists() else ""
        parts.append(f"<figure>{_image(path)}<figcaption>{_e(words)}{data}</figcaption></figure>")
    shown = [(name, df) for name, df in tables if len(df)]
    if shown:
        parts.append("<h2>Detail tables</h2>")
    for name, df in shown:
        parts.append(
            f"<details><summary>{_e(name)} ({len(df):,} rows)</summary>{_table(df)}"
            f"{provenance}</details>"
        )
    if not headline:
        parts.insert(4, provenance)
    parts.append("<h2>How these figures were made</h2>")
    for name, manifest in manifests.items():
        parts.append(_manifest_section(name, manifest))
    parts.append("</body></html>\n")
    out = Path(folder) / "index.html"
    write_text_atomic(out, "\n".join(parts))
    return out
