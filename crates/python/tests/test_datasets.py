"""Tables written by the command-line tool, read the way a data pipeline reads them: Parquet in
pandas, polars and DuckDB with the dtypes of the .npy, CSV with its provenance `#` lines skipped
by pandas, and every recorded checksum what an independent SHA-256 of the values (little-endian
uint32, row-major) gives.

The CLI binary is $GRUNDY_CLI, or the workspace's target/release/grundy, or target/debug/grundy.
"""

import hashlib
import json

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

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


def test_parquet_reads_in_pandas_polars_and_duckdb_with_the_npy_values(tmp_path):
    parquet = tmp_path / "wythoff.parquet"
    npy = tmp_path / "wythoff.npy"
    cli("compute", "wythoff", "--size", "40x300", "--format", "parquet", "--out", str(parquet), "--quiet")
    cli("compute", "wythoff", "--size", "40x300", "--format", "npy", "--out", str(npy), "--quiet")
    values = np.load(npy)
    assert values.dtype == np.uint16

    frame = pd.read_parquet(parquet)
    assert list(frame.columns) == ["a", "b", "g"]
    assert frame.dtypes.to_dict() == {"a": np.int8, "b": np.int16, "g": np.uint16}
    grid = frame.pivot(index="a", columns="b", values="g").to_numpy()
    assert (grid == values).all()

    table = pl.read_parquet(parquet)
    assert table.schema == pl.Schema({"a": pl.Int8, "b": pl.Int16, "g": pl.UInt16})
    assert (table["g"].to_numpy() == values.ravel()).all()

    rows = duckdb.sql(f"select a, b, g from '{parquet}' order by a, b").fetchnumpy()
    assert (rows["g"] == values.ravel()).all()
    kinds = duckdb.sql(f"select distinct typeof(a), typeof(b), typeof(g) from '{parquet}'").fetchall()
    assert kinds == [("TINYINT", "SMALLINT", "USMALLINT")]

    record = json.loads(pq.read_metadata(parquet).metadata[b"grundy.provenance"])
    assert record["game"] == "wythoff"
    assert record["values_sha256"] == sha256_of_values(values)


def test_parquet_outcomes_and_heap_games(tmp_path):
    outcomes = tmp_path / "kiki.parquet"
    cli("compute", "kiki", "--size", "30x20", "--outcome", "--format", "parquet", "--out", str(outcomes), "--quiet")
    frame = pd.read_parquet(outcomes)
    assert list(frame.columns) == ["n", "m", "outcome"]
    assert set(frame["outcome"]) == {"P", "N"}
    # kiki's P-positions: n odd and m odd.
    p = frame[frame["outcome"] == "P"]
    assert ((p["n"] % 2 == 1) & (p["m"] % 2 == 1)).all() and len(p) == 15 * 10

    heaps = tmp_path / "kayles.parquet"
    bfile = tmp_path / "kayles.b"
    cli("compute", "kayles", "--size", "1000", "--format", "parquet", "--out", str(heaps), "--quiet")
    cli("compute", "kayles", "--size", "1000", "--format", "bfile", "--out", str(bfile), "--quiet")
    frame = pd.read_parquet(heaps)
    assert list(frame.columns) == ["n", "g"]
    expected = [int(line.split()[1]) for line in bfile.read_text().splitlines()]
    assert frame["g"].tolist() == expected


def test_a_value_changed_in_a_parquet_table_is_a_checksum_mismatch(tmp_path):
    parquet = tmp_path / "kiki.parquet"
    cli("compute", "kiki", "--size", "30x20", "--format", "parquet", "--out", str(parquet), "--quiet")
    assert cli("show", str(parquet)).returncode == 0
    table = pq.read_table(parquet)
    values = table.column("g").to_numpy().copy()
    values[123] = (values[123] + 1) % 4
    changed = table.set_column(2, "g", pa.array(values, type=table.schema.field("g").type))
    # The schema's metadata, provenance included, goes with the table.
    pq.write_table(changed, parquet)
    done = cli("show", str(parquet), check=False)
    assert done.returncode != 0
    assert "its values do not match its provenance" in done.stderr


CARD_RECIPE = """
title = "Every way to load a table"

[[table]]
file = "kiki.csv"
about = "grid"
game = "kiki"
size = "12x10"

[[table]]
file = "kiki-long.csv.gz"
about = "long, gzip"
game = "kiki"
size = "12x10"
format = "long"

[[table]]
file = "kayles.csv"
about = "a heap game's CSV"
game = "kayles"
size = 40

[[table]]
file = "wythoff.npy"
about = "numpy"
game = "wythoff"
size = "20x20"

[[table]]
file = "kayles.b"
about = "b-file"
game = "kayles"
size = 40

[[table]]
file = "cutting.parquet"
about = "Parquet"
game = "cutting"
size = "9x12"

[[table]]
file = "cutting.json"
about = "summary"
game = "cutting"
size = "9x12"

[[table]]
file = "kayles-rare.csv"
about = "rare heaps"
game = "kayles"
size = 200
format = "rare"

[[plot]]
file = "kiki.png"
about = "picture"
game = "kiki"
size = "12x10"

[[survey]]
file = "octal.csv"
about = "survey"
families = ["octal:0.?"]
options = ["--no-seconds"]

[[survey]]
file = "octal.json"
about = "survey as JSON"
families = ["octal:0.?"]
format = "json"

[[survey]]
file = "index.jsonl.gz"
about = "an index"
families = ["octal:0.?"]
size = 100
format = "index"
"""


def test_every_example_on_a_dataset_card_runs_in_its_folder(tmp_path, monkeypatch):
    """The card's Python examples are what a new user pastes first: each must run as written,
    in the collection's folder, and load the file it names."""
    (tmp_path / "recipe.toml").write_text(CARD_RECIPE)
    out = tmp_path / "out"
    cli("dataset", str(tmp_path / "recipe.toml"), "--out", str(out), "--quiet")
    card = (out / "README.md").read_text()
    examples = [block.split("```")[0] for block in card.split("```python\n")[1:]]
    assert len(examples) == 10, card
    monkeypatch.chdir(out)
    for example in examples:
        scope = {}
        *lines, last = example.strip().splitlines()
        exec("\n".join(lines), scope)
        # The last line is an expression showing what was loaded: it must evaluate.
        shown = eval(last.split("  #")[0], scope)
        assert shown is not None, example
    # The grid example reads the cell it says it reads: kiki's (3, 5) is a P-position (both odd).
    grid = pd.read_csv(out / "kiki.csv", index_col=0)
    assert grid.loc[3, "5"] == 0 and grid.loc[3, "4"] != 0


def test_a_loopy_long_csv_has_integer_values_in_pandas_and_polars(tmp_path):
    # Issue 50: `inf` in a loopy table's g column made it float64 in pandas. ∞ is -1 (as
    # `check --holds` reads g there) and the ∞ value, `inf(K)` as `value` writes it, is a
    # string column beside it.
    csv = tmp_path / "knight.csv"
    cli("compute", "knight-retreat", "--size", "63x63", "--format", "long", "--out", str(csv), "--quiet")
    frame = pd.read_csv(csv)
    assert frame["g"].dtype == np.int64
    infinite = frame[frame["g"] == -1]
    assert len(infinite) > 0 and infinite["infinite"].str.match(r"^inf\([0-9,]*\)$").all()
    assert frame.loc[frame["g"] >= 0, "infinite"].isna().all()
    table = pl.read_csv(csv)
    assert table.schema["g"] == pl.Int64 and table.schema["infinite"] == pl.String
    # The same K as `grundy value` gives.
    row = infinite.iloc[0]
    shown = cli("value", "knight-retreat", f"{row['n']}x{row['m']}").stdout
    assert row["infinite"] in shown, shown
