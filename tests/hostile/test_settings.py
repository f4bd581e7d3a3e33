"""A bad ``TUTEPGN_*`` size setting is a command's usage error naming the variable (status 2), and a service
refuses to start on it: never a traceback, never a limit silently ignored."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

TUTE = [sys.executable, "-m", "tutepgn.cli"]
SAMPLE = Path(__file__).resolve().parents[2] / "samples"


@pytest.mark.parametrize(("variable", "value", "minimum", "words"), [
    ("TUTEPGN_MAX_RECORD_BYTES", "abc", 4096, ["validate", str(SAMPLE)]),
    ("TUTEPGN_MAX_RECORD_BYTES", "100", 4096, ["convert", "--to", "json", str(SAMPLE / "tutes.tpgn")]),
    ("TUTEPGN_MAX_JSON_DEPTH", "²", 8, ["convert", "--to", "tpgn", "JSON"]),
])
def test_a_bad_size_setting_is_a_usage_error(variable: str, value: str, minimum: int, words: list[str],
                                            tmp_path: Path) -> None:
    if "JSON" in words:  # a JSON input, the only kind whose depth is read
        json_file = tmp_path / "tutes.json"
        json_file.write_text(subprocess.run([*TUTE, "convert", "--to", "json", str(SAMPLE / "tutes.tpgn")],
                                            capture_output=True, text=True, check=True).stdout)
        words = [str(json_file) if word == "JSON" else word for word in words]
    proc = subprocess.run([*TUTE, *words], env=dict(os.environ, **{variable: value}), capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert f"{variable}={value!r}: give a whole number of at least {minimum}" in proc.stderr


def test_the_service_refuses_to_start_on_a_bad_setting(tmp_path: Path) -> None:
    proc = subprocess.run([*TUTE, "serve", "--db", str(tmp_path / "a.duckdb"), "--port", "1"],
                          env=dict(os.environ, TUTEPGN_MAX_JSON_DEPTH="2"), capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "TUTEPGN_MAX_JSON_DEPTH='2'" in proc.stderr and "Uvicorn running" not in proc.stderr
