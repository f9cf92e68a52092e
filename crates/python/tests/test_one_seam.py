"""Issue 51: a play convention enters through one seam. The package computes a game under
misère play, and a loopy game, on the engine the library chooses for it — the one the command
line says it runs (``GRUNDY_SAY_ENGINE``) — and gets the command line's table."""

import os
import subprocess

import numpy as np
import pytest

import grundy
from command_line import cli_path


def _cli(*args):
    env = dict(os.environ, GRUNDY_SAY_ENGINE="1")
    done = subprocess.run([cli_path(), *args], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    engines = {line.split(": ")[-1] for line in done.stderr.splitlines() if line.startswith("grundy: engine: ")}
    assert len(engines) == 1, done.stderr
    return done.stdout, engines.pop()


def _column(csv, index):
    return [int(line.split(",")[index]) for line in csv.splitlines()[1:]]


@pytest.mark.parametrize("game,size,engine", [("subtraction:1,2,5", 40, "tiles"), ("kayles", 24, "search")])
def test_misere_heap_games_take_the_command_lines_path(game, size, engine):
    csv, said = _cli("compute", game, "--misere", "--size", str(size))
    table = grundy.compute(game, size, misere=True)
    assert (table.engine, said) == (engine, engine)
    assert table.tolist() == _column(csv, 1)


def test_a_loopy_spec_takes_the_command_lines_path(tmp_path):
    spec = tmp_path / "shuffle.toml"
    spec.write_text(subprocess.run([cli_path(), "show", "diagonal-shuffle"], capture_output=True, text=True, check=True).stdout)
    csv, said = _cli("compute", str(spec), "--size", "63x63", "--format", "long")
    table = grundy.compute(str(spec), (63, 63))
    assert (table.engine, said) == ("retrograde", "retrograde")
    # The CSV's `g` column: a finite value, or -1 for ∞; the array has them the same way.
    assert table.dtype == np.int64
    assert table.ravel().tolist() == _column(csv, 2)
    assert (table == -1).any() and (table == 0).any()
