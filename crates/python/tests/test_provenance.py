"""Tables written by the command-line tool with their provenance, read the way a data pipeline
reads them: pandas skips the CSV's `#` lines, and the recorded checksum is what an independent
SHA-256 of the values (little-endian uint32, row-major) gives.

The CLI binary is $GRUNDY_CLI, or the workspace's target/release/grundy, or target/debug/grundy.
"""

import hashlib
import json

import numpy as np
import pandas as pd

from command_line import cli


def sha256_of_values(values):
    return "sha256:" + hashlib.sha256(np.ascontiguousarray(values, dtype="<u4").tobytes()).hexdigest()


def test_a_csv_with_provenance_loads_in_pandas_and_its_checksum_is_the_values(tmp_path):
    csv = tmp_path / "wythoff.csv"
    npy = tmp_path / "wythoff.npy"
    cli("compute", "wythoff", "--size", "40x30", "--provenance", "--out", str(csv), "--quiet")
    cli("compute", "wythoff", "--size", "40x30", "--format", "npy", "--out", str(npy), "--quiet")
    frame = pd.read_csv(csv, index_col=0, comment="#")
    values = np.load(npy)
    assert frame.shape == values.shape == (41, 31)
    assert (frame.to_numpy() == values).all()
    sidecar = json.loads((tmp_path / "wythoff.npy.json").read_text())
    assert sidecar["game"] == "wythoff"
    assert sidecar["size"] == [40, 30]
    assert sidecar["values_sha256"] == sha256_of_values(values)
    last = csv.read_text().splitlines()[-1]
    assert last == "# grundy values_sha256: " + sha256_of_values(values)


def test_outcomes_hash_as_zero_and_one(tmp_path):
    csv = tmp_path / "kiki.csv"
    cli("compute", "kiki", "--size", "20x20", "--outcome", "--provenance", "--out", str(csv), "--quiet")
    frame = pd.read_csv(csv, index_col=0, comment="#")
    ones = (frame.to_numpy() == "N").astype("<u4")
    record = json.loads(cli("show", str(csv), "--json").stdout)
    assert record["cells"] == "outcomes"
    assert record["values_sha256"] == sha256_of_values(ones)
