"""The systemd unit of docs/deployment.md is one systemd reads without a complaint
(``systemd-analyze verify``; systemd itself cannot run here)."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from served import DEV_SCRIPT, REPOSITORY

pytestmark = pytest.mark.slow  # runs systemd's tools


def _documented_unit() -> str:
    doc = (REPOSITORY / "docs" / "deployment.md").read_text(encoding="utf-8")
    (unit,) = [block.split("```", 1)[0] for block in doc.split("```ini\n")[1:]]
    return unit


def test_the_documented_systemd_unit_verifies(tmp_path):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("needs systemd-analyze")
    unit = _documented_unit()
    assert "ExecStart=/opt/ledger/bin/marriage-ledger serve " in unit
    # verify checks that the command exists: the suite's own console script stands in.
    path = tmp_path / "marriage-ledger@8001.service"
    path.write_text(unit.replace("/opt/ledger/bin/marriage-ledger", str(DEV_SCRIPT)))
    done = subprocess.run(
        ["systemd-analyze", "verify", str(path)], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
