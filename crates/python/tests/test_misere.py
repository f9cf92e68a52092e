"""Misère play from Python: the same answers as the command line, against the definition."""

import json
import os
import subprocess

from pathlib import Path

import numpy as np
import pytest

import grundy

ROOT = Path(__file__).resolve().parents[3]


def cli_path():
    for candidate in (os.environ.get("GRUNDY_CLI"), ROOT / "target" / "release" / "grundy", ROOT / "target" / "debug" / "grundy"):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    pytest.skip("no grundy binary: set GRUNDY_CLI or build the workspace")


def _misere_p_board(options, pos, memo):
    """Whether pos is a misère P-position: it has an option and every option is N."""
    if pos not in memo:
        opts = options(pos)
        memo[pos] = bool(opts) and all(not _misere_p_board(options, o, memo) for o in opts)
    return memo[pos]


def test_misere_kiki_table_follows_the_definition():
    table = grundy.compute("kiki", (25, 30), misere=True)
    assert table.game.play == "misere"

    def options(p):
        n, m = p
        return [q for q in ((n - 1, m), (n, m - 1), (n - 1, m - 1)) if q[0] >= 1 and q[1] >= 1]

    memo = {}
    for n in range(1, 26):
        for m in range(1, 31):
            assert (table.at(n, m) == 0) == _misere_p_board(options, (n, m), memo), (n, m)
    assert not np.array_equal(np.asarray(table), np.asarray(grundy.compute("kiki", (25, 30))))


def test_misere_kayles_genus_and_values():
    rows = grundy.genus("kayles", 5)
    assert [r.genus for r in rows] == ["0^120", "1^031", "2^20", "3^31", "1^031", "4^146"]
    assert rows[5].tameness == "restive"
    values = grundy.compute("kayles", 20, misere=True)
    assert list(values[:6]) == [r.misere for r in rows]


def test_misere_sums_follow_bouton():
    # Nim heaps 1, 1, 1: P under misère play; 2, 2: P; 2, 3: N.
    assert grundy.value([("nim", (1, 1)), ("nim", (1, 0))], misere=True) == 0
    assert grundy.value("nim", (2, 2), misere=True) == 0
    assert grundy.value("nim", (2, 3), misere=True) != 0
    assert grundy.value("kayles", 5, 7, misere=True) == 4
    with pytest.raises(grundy.InputError, match="one convention"):
        grundy.value([("kayles", 5), (grundy.Game("kayles").misere(), 7)])


def test_misere_agrees_with_the_command_line():
    cli = cli_path()
    out = subprocess.run([cli, "value", "--misere", "kayles", "9", "12", "--json"], check=True, capture_output=True, text=True).stdout
    assert json.loads(out)["value"] == grundy.value("kayles", 9, 12, misere=True)
    csv = subprocess.run([cli, "compute", "kayles", "--size", "20", "--misere"], check=True, capture_output=True, text=True).stdout
    genera = [line.split(",")[2] for line in csv.splitlines()[1:]]
    assert genera == [r.genus for r in grundy.genus("kayles", 20)]


def test_misere_patterns_prove_subtraction_periods():
    report = grundy.patterns("subtraction:1,3,4", 200, misere=True)
    assert report.proved
    assert "under misère play too" in report.argument
    with pytest.raises(grundy.InputError, match="play and misere are for games"):
        grundy.patterns(np.zeros(5, dtype=np.uint8), misere=True)


def test_misere_octal_codes_that_take_a_whole_heap():
    """Issue 58: the empty position (what taking a whole heap leaves) is worth 1 under misère
    play, and the package's table, its genus column and the command line say so alike."""
    # 0.3 is subtraction {1}: a heap's misère value is 1 on even heaps, 0 on odd ones.
    table = grundy.compute("octal:0.3", (20,), misere=True)
    assert [int(v) for v in np.asarray(table)] == [(n + 1) % 2 for n in range(21)]
    # 0.1: heap 1's one move takes it whole, and its mover makes the last move: heap 1 is P.
    values = [int(v) for v in np.asarray(grundy.compute("octal:0.1", (10,), misere=True))]
    assert values == [1, 0] + [1] * 9
    rows = grundy.genus("octal:0.31", 12)
    table = grundy.compute("octal:0.31", (12,), misere=True)
    assert [r.misere for r in rows] == [int(v) for v in np.asarray(table)]
    assert [r.genus for r in rows[:2]] == ["0^120", "1^031"]
    out = subprocess.run(
        [cli_path(), "compute", "octal:0.31", "--size", "12", "--misere"],
        check=True, capture_output=True, text=True,
    ).stdout.splitlines()[1:]
    assert [int(line.split(",")[1]) for line in out] == [int(v) for v in np.asarray(table)]


def test_play_is_one_value_as_the_command_lines():
    """``play="misere"`` is ``misere=True``; ``play="normal"`` plays a misère spec normally, as
    ``--play normal`` does; a convention that is neither, or two at once, is refused."""
    assert np.array_equal(grundy.compute("kayles", 20, play="misere"), grundy.compute("kayles", 20, misere=True))
    spec = 'name = "m"\nplay = "misere"\naxes = [{ name = "n", min = 0 }]\n[[rules]]\nkind = "jump"\ndirections = [[-1]]\nsteps = [1, 2]\n'
    game = grundy.Game.from_spec(spec)
    assert game.play == "misere" and game.with_play("normal").play == "normal"
    normal = [int(v) for v in np.asarray(grundy.compute(game, 6, play="normal"))]
    assert normal == [n % 3 for n in range(7)]
    assert normal == [int(v) for v in np.asarray(grundy.compute("subtraction:1,2", 6))]
    assert grundy.value(game, 3) != 0 and grundy.value(game, 3, play="normal") == 0
    assert grundy.value(game, 1) == 0 and grundy.value(game, 1, play="normal") == 1
    out = subprocess.run(
        [cli_path(), "compute", "kayles", "--size", "12", "--play", "misere", "--format", "bfile", "--quiet"],
        check=True, capture_output=True, text=True,
    ).stdout
    assert [int(line.split()[1]) for line in out.splitlines()] == [int(v) for v in grundy.compute("kayles", 12, play="misere")]
    for bad in ({"play": "loopy"}, {"play": 1}, {"play": "normal", "misere": True}):
        with pytest.raises(grundy.InputError):
            grundy.compute("kayles", 5, **bad)
