"""bombsolve.solvers.common.host: the machine record beside every absolute figure."""

from __future__ import annotations

import platform

from bombsolve.solvers.common import host

CPUINFO = """processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 26
model\t\t: 2
model name\t: AMD EPYC

processor\t: 1
vendor_id\t: GenuineIntel
cpu family\t: 6
model\t\t: 85
model name\t: Other
"""


def test_cpu_model_reads_the_first_processor(tmp_path):
    f = tmp_path / "cpuinfo"
    f.write_text(CPUINFO)
    assert host.cpu_model(f) == "AMD EPYC (family 26, model 2)"


def test_cpu_model_without_cpuinfo_falls_back_to_platform(tmp_path):
    want = platform.processor() or platform.machine()
    assert host.cpu_model(tmp_path / "missing") == want
    f = tmp_path / "cpuinfo"
    f.write_text("processor\t: 0\nmodel name\t: Some ARM core\n")
    assert host.cpu_model(f) == "Some ARM core"  # no family line: the name alone


def test_host_info_fields():
    info = host.host_info()
    assert set(info) == {"machine", "cpu", "cpus", "python"}
    assert info["cpu"] and info["cpus"] >= 1
    assert info["python"] == platform.python_version()
