"""The command-line tool the tests compare the package with: $GRUNDY_CLI, or the workspace's
target/release/grundy, or target/debug/grundy."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def cli_path():
    for candidate in (
        os.environ.get("GRUNDY_CLI"),
        ROOT / "target" / "release" / "grundy",
        ROOT / "target" / "debug" / "grundy",
    ):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    pytest.skip("no grundy binary: set GRUNDY_CLI or build the workspace")


def cli(*args, check=True):
    done = subprocess.run([cli_path(), *args], capture_output=True, text=True)
    if check and done.returncode != 0:
        raise AssertionError(f"grundy {' '.join(args)}: {done.stderr}")
    return done
