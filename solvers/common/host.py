"""What machine a figure was measured on: every benchmark and study manifest records it.

An absolute rate (positions, games or deals per second per core) means little without the
core it ran on: this project's sessions have run on virtual machines whose cores differ by
2.4x on the same code (All Is Bomb's reference search: 10,700-12,900 positions per second on
one, 29,000-30,000 on the next). Ratios measured in one run carry over; absolute figures
need this record beside them.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path
from typing import Any

CPUINFO = Path("/proc/cpuinfo")


def cpu_model(cpuinfo: Path = CPUINFO) -> str:
    """The processor's name, with family and model where /proc/cpuinfo gives them (e.g.
    'AMD EPYC (family 26, model 2)'); `platform`'s answer where there is no such file."""
    fields: dict[str, str] = {}
    try:
        with cpuinfo.open() as f:
            for line in f:
                if not line.strip():
                    if fields:
                        break  # the first processor's block is enough
                    continue
                key, _, value = line.partition(":")
                key = key.strip()
                if key in ("model name", "cpu family", "model") and key not in fields:
                    fields[key] = value.strip()
    except OSError:
        pass
    name = fields.get("model name") or platform.processor() or platform.machine()
    if "cpu family" in fields:
        name += f" (family {fields['cpu family']}, model {fields.get('model', '?')})"
    return name


def host_info() -> dict[str, Any]:
    """Machine, processor, logical cores and Python version, for a result's record."""
    return {
        "machine": platform.machine(),
        "cpu": cpu_model(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
    }
