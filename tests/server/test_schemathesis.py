"""Schemathesis over the served OpenAPI document: no generated request gets a 5xx."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.server.harness import ServerProcess

SCHEMATHESIS = shutil.which("schemathesis") or str(
    Path(__file__).resolve().parents[2] / ".venv/bin/schemathesis"
)


@pytest.mark.skipif(not Path(SCHEMATHESIS).exists(), reason="schemathesis is not installed")
def test_openapi_fuzzing_finds_no_server_error(server: ServerProcess) -> None:
    run = subprocess.run(
        [
            SCHEMATHESIS,
            "run",
            f"{server.base}/openapi.json",
            "--max-examples",
            "30",
            "--checks",
            "not_a_server_error",
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "passed" in run.stdout
