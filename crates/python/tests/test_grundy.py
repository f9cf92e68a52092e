"""The Python package against the command-line tool: the same tables (values, dtype, shape),
the same reports, the same pictures; and the package's own promises (no copy, errors,
interruption, progress, the GIL released).

The CLI binary is $GRUNDY_CLI, or the workspace's target/release/grundy, or target/debug/grundy.
"""

import json
import os
import pickle
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import grundy
from command_line import ROOT, cli, cli_path

def catalog_games():
    names = [g.name for g in grundy.games() if ":" not in g.name and not grundy.Game(g.name).loopy]
    return names + ["subtraction:1,3,4", "octal:0.137", "octal:4.07", "subtraction:2,5"]


def small_size(game):
    g = grundy.Game(game)
    return tuple(m + {1: 300, 2: 30, 3: 7}[g.dims] for m in g.mins)


@pytest.mark.parametrize("game", catalog_games())
def test_every_catalog_game_equals_the_cli(game, tmp_path):
    size = small_size(game)
    table = grundy.compute(game, size)
    out = tmp_path / "table.npy"
    cli("compute", game, "--size", "x".join(map(str, size)), "--format", "npy", "--out", str(out), "--quiet")
    expected = np.load(out)
    assert table.dtype == expected.dtype, game
    assert table.shape == expected.shape, game
    assert np.array_equal(np.asarray(table), expected), game
    g = grundy.Game(game)
    assert table.axes == g.axes and table.mins == g.mins and table.game == g
    assert table.shape == tuple(s - m + 1 for s, m in zip(size, g.mins))


@pytest.mark.parametrize("engine", ["auto", "tiles", "waves", "reference"])
def test_engines_and_threads_agree(engine):
    expected = grundy.compute("wythoff", (60, 70), engine="reference")
    for threads in (1, 2, 3):
        table = grundy.compute("wythoff", (60, 70), engine=engine, threads=threads)
        assert np.array_equal(table, expected), (engine, threads)
    heaps = grundy.compute("octal:0.137", 2000, engine="sparse")
    assert np.array_equal(heaps, grundy.compute("octal:0.137", 2000, engine="reference"))


def test_dtype_is_the_narrowest_and_the_table_is_not_copied():
    assert grundy.compute("kiki", (50, 50)).dtype == np.uint8
    wythoff = grundy.compute("wythoff", (300, 300))
    assert wythoff.dtype == np.uint16
    assert isinstance(wythoff, grundy.Table) and isinstance(wythoff, np.ndarray)
    # The memory is the engine's: at the bottom of the chain of views is no numpy array that
    # owns a copy, but the Rust allocation numpy took over.
    base = wythoff
    while isinstance(base, np.ndarray) and base.base is not None:
        base = base.base
    assert not isinstance(base, np.ndarray), "the values were copied into a numpy-owned array"


def test_table_coordinates():
    table = grundy.compute("kiki", (20, 30))
    assert table.mins == (1, 1) and table.axes == ("n", "m")
    assert table.at(1, 1) == table[0, 0] and table.at(20, 30) == table[-1, -1]
    assert [len(c) for c in table.coords] == [20, 30] and table.coords[0][0] == 1
    part = table[2:5, :]
    assert part.axes is None and part.mins is None
    copy = pickle.loads(pickle.dumps(table))
    assert np.array_equal(copy, table) and copy.mins == (1, 1) and copy.game == table.game
    with pytest.raises(grundy.InputError):
        table.at(0, 1)


def test_value_matches_the_cli():
    assert grundy.value("kayles", 10) == 2
    assert grundy.value("subtraction:2,5", 5, 12) == 0
    assert grundy.value("wythoff", (3, 5)) == 0
    assert grundy.value("nim", (3, 5)) == 3 ^ 5
    cases = [
        (["kayles", "10"], [10]),
        (["subtraction:2,5", "5", "12"], [5, 12]),
        (["wythoff", "3x5"], [(3, 5)]),
        # Beyond any table: a proved period, a strip that repeats (as the CLI answers them).
        (["kayles", "10^18", "12345678901"], [10**18, 12345678901]),
        (["kiki", "1000000000000x3", "7x99999999999"], [(10**12, 3), (7, 99999999999)]),
    ]
    for args, positions in cases:
        out = json.loads(cli("value", *args, "--json").stdout)
        assert grundy.value(args[0], *positions) == out["value"]


def test_games_and_show_match_the_cli():
    listed = cli("games").stdout.splitlines()
    assert [line.split()[0] for line in listed] == [g.name for g in grundy.games()]
    for game in ("kiki", "octal:0.137", "subtraction:1,3,4"):
        assert grundy.show(game) == cli("show", game).stdout


def test_spec_from_text_and_path(tmp_path):
    text = grundy.show("kiki")
    from_text = grundy.Game.from_spec(text)
    path = tmp_path / "mine.toml"
    path.write_text(text)
    for game in (from_text, grundy.Game.from_spec(path), grundy.Game.from_spec(str(path)), str(path)):
        assert np.array_equal(grundy.compute(game, (12, 12)), grundy.compute("kiki", (12, 12)))


def untimed(value):
    """`value` with every "in N.NN s" of its strings replaced by "in ... s"."""
    if isinstance(value, str):
        return re.sub(r"in \d+\.\d+ s", "in ... s", value)
    if isinstance(value, list):
        return [untimed(v) for v in value]
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize(
    "game,size",
    [("kayles", "1000"), ("octal:0.137", "2000"), ("kiki", "60x60"), ("wythoff", "80x80"), ("cutting", "40x40")],
)
def test_patterns_equal_the_cli_json(game, size):
    coords = tuple(int(c) for c in size.split("x"))
    report = grundy.patterns(game, coords if len(coords) > 1 else coords[0])
    expected = json.loads(cli("patterns", game, "--size", size, "--json").stdout)
    # A proof's argument ends with the seconds it took ("in 0.01 s"), which two runs need not
    # share: everything else must be equal.
    assert untimed(report.to_dict()) == untimed(expected)
    assert isinstance(report, grundy.SequenceReport if len(coords) == 1 else grundy.BoardReport)
    # The same report from the table, computed first.
    table = grundy.compute(game, coords if len(coords) > 1 else coords[0])
    assert grundy.patterns(table).to_dict() == expected


def test_patterns_until_proved():
    report = grundy.patterns("octal:0.16", until_proved=True)
    expected = json.loads(cli("patterns", "octal:0.16", "--until-proved", "--json").stdout)
    assert report.to_dict() == expected
    assert (report.period, report.preperiod, report.proved) == (149459, 105351, True)
    assert report.until_proved.values == 1048576
    assert "Octal Periodicity" in report.argument


@pytest.mark.parametrize(
    "game,size,claim,expression",
    [
        ("kiki", "40x40", "p_set", "n % 2 == 1 && m % 2 == 1"),
        ("kiki", "40x40", "p_set", "n % 2 == 1"),
        ("nim", "30x30", "values", "xor(a, b)"),
        ("wythoff", "50x50", "holds", "g <= a + b"),
        ("kayles", "500", "values", "n % 3"),
    ],
)
def test_check_equals_the_cli_json(game, size, claim, expression):
    coords = tuple(int(c) for c in size.split("x"))
    report = grundy.check(game, coords if len(coords) > 1 else coords[0], **{claim: expression})
    option = "--" + claim.replace("_", "-")
    done = cli("check", game, "--size", size, option, expression, "--json", check=False)
    assert done.returncode in (0, 1), done.stderr
    assert report.to_dict() == json.loads(done.stdout)
    assert report.agrees == (done.returncode == 0)
    assert all(isinstance(c, tuple) and isinstance(c.position, tuple) for c in report.counterexamples)


def test_every_claim_kind_is_a_keyword():
    # Issue 60, item 3: the kinds are the library's (`ClaimKind::from_str`), draws included;
    # a draws claim needs a loopy game's table, which `check` here refuses in one line.
    with pytest.raises(grundy.InputError, match="draws claim|no draws"):
        grundy.check("kiki", (10, 10), draws="n == m")
    with pytest.raises(grundy.InputError, match="loopy game's"):
        grundy.check("diagonal-shuffle", (63, 63), draws="(n + m) % 2 == 1")
    with pytest.raises(grundy.InputError, match="exactly one claim: p_set=, values=, holds= or draws="):
        grundy.check("kiki", (10, 10))


def test_check_on_plain_arrays():
    values = np.add.outer(np.arange(10), np.arange(10)) % 3
    report = grundy.check(values, values="(n + m) % 3")
    assert report.agrees and not report.proved
    report = grundy.check(values, axes=("x", "y"), mins=(5, 6), values="(x + y) % 3")
    assert report.disagreements > 0 and report.counterexamples[0].position[0] >= 5


def test_plot_writes_the_cli_picture(tmp_path):
    ours = tmp_path / "ours.png"
    assert grundy.plot("wythoff", (100, 100), out=ours) == str(ours)
    theirs = tmp_path / "theirs.png"
    cli("plot", "wythoff", "--size", "100x100", "--out", str(theirs))
    assert ours.read_bytes() == theirs.read_bytes()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".grundy-")]


@pytest.mark.parametrize("extension", ["svg", "pdf"])
def test_plot_writes_the_cli_vector_picture(tmp_path, extension):
    ours = tmp_path / f"ours.{extension}"
    assert grundy.plot("kiki", (40, 30), outcome=True, out=ours) == str(ours)
    theirs = tmp_path / f"theirs.{extension}"
    cli("plot", "kiki", "--size", "40x30", "--outcome", "--out", str(theirs))
    assert ours.read_bytes() == theirs.read_bytes()
    with pytest.raises(grundy.InputError, match="must be a .png, .svg or .pdf file"):
        grundy.plot("kiki", (4, 4), out=tmp_path / "x.jpg")


def test_plot_returns_a_figure():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    figure = grundy.plot(grundy.compute("kiki", (80, 80)), outcome=True)
    assert figure.get_axes()


@pytest.mark.parametrize(
    "call",
    [
        lambda: grundy.compute("no-such-game", 10),
        lambda: grundy.compute("kiki", (10,)),
        lambda: grundy.compute("kiki", (-5, 10)),
        lambda: grundy.compute("kiki", (10, 10), engine="fastest"),
        lambda: grundy.compute("kiki", (10, 10), engine="sparse"),
        lambda: grundy.compute("kiki", (10, 10), threads=0),
        lambda: grundy.Game.from_spec("this is not toml ["),
        lambda: grundy.check("kiki", (10, 10), p_set="n %% 2"),
        lambda: grundy.check("kiki", (10, 10), p_set="n", values="m"),
        lambda: grundy.check("kiki", (10, 10), values="q + 1"),
        lambda: grundy.patterns(np.array([[0.5, 1.0]])),
        lambda: grundy.patterns(np.array([-1, 2])),
        lambda: grundy.patterns("kiki", until_proved=True),
        lambda: grundy.value("kayles"),
        lambda: grundy.value("kiki", (0, 3)),
        lambda: grundy.value("wythoff", (3 * 10**9, 2)),
        lambda: grundy.plot("kiki", (10, 10), out="picture.jpg"),
        # Issue 28: each of these raised OverflowError, TypeError, ValueError or PanicException,
        # or was accepted.
        lambda: grundy.compute("kayles", 10**30),
        lambda: grundy.compute("wythoff", (2**63, 1)),
        lambda: grundy.compute("kayles", float("nan")),
        lambda: grundy.compute("kayles", 10.0),
        lambda: grundy.value("kayles", 10**1000),
        lambda: grundy.value("kayles", "x"),
        lambda: grundy.compute("kayles", 10, threads=-1),
        lambda: grundy.compute("kayles", 10, threads=10**30),
        lambda: grundy.compute("kayles", 10, threads=1.5),
        lambda: grundy.compute("kayles", 10, threads="2"),
        lambda: grundy.check("kiki", (5, 5), p_set="n % 2 == 1", period=(-2, 2)),
        lambda: grundy.plot("kiki", (5, 5), max_side=-1),
        lambda: grundy.patterns(np.zeros((3, 3), np.uint8), mins=(2**63 - 1, 0)),
        lambda: grundy.check(np.zeros((3, 3), np.uint8), mins=(2**63 - 1, 0), p_set="n == 0"),
        lambda: grundy.plot(np.zeros((3, 3), np.uint8), mins=(2**63 - 1, 0)),
        lambda: grundy.patterns(np.zeros((3, 3), np.uint8), mins=(-(2**63), 0)),
        lambda: grundy.check(np.zeros((2, 2, 2, 2), np.uint8), p_set="n == 0"),
        lambda: grundy.Game.from_spec('name = "x"\n' + "#" * (20 << 20)),
        lambda: grundy.Game.from_spec("/nonexistent.toml"),
        # The CLI refuses `--size 10` for a board: 10 could mean 10x10 or a slip.
        lambda: grundy.compute("wythoff", 10),
        lambda: grundy.value([("kayles", 10), "wythoff"]),
    ],
)
def test_bad_input_is_an_input_error(call):
    with pytest.raises(grundy.InputError) as raised:
        call()
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, grundy.GrundyError)
    assert str(raised.value) and "\n" not in str(raised.value).strip()


def test_a_table_too_large_is_refused_before_allocating():
    with pytest.raises(grundy.TableTooLarge) as raised:
        grundy.compute("wythoff", (10**6, 10**6))
    assert isinstance(raised.value, MemoryError)
    assert "needs" in str(raised.value)


def test_progress_callback_and_bar(capsys):
    seen = []
    table = grundy.compute("wythoff", (5000, 5000), progress=lambda done, total: seen.append((done, total)))
    assert table.shape == (5001, 5001)
    assert seen, "a fill of several tenths of a second reports progress"
    assert all(total == 5001 * 5001 and 0 <= done <= total for done, total in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    grundy.compute("kiki", (200, 200), progress=True)
    err = capsys.readouterr().err
    assert "100%" in err or "kiki" in err


def test_the_gil_is_released_while_computing():
    ticks = 0
    done = threading.Event()

    def work():
        grundy.compute("wythoff", (5000, 5000))
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    started = time.monotonic()
    while not done.is_set() and time.monotonic() - started < 60:
        ticks += 1
        time.sleep(0.001)
    worker.join()
    assert ticks > 50, f"the main thread ran only {ticks} times during the fill"


@pytest.mark.parametrize(
    "call",
    [
        "grundy.compute('kiki', (40000, 40000))",
        # Issue 28: the reference engine asked once per row, and a heap game is one row.
        "grundy.compute('kayles', 10**6, engine='reference')",
        "grundy.compute('kiki', (3000, 3000), engine='reference')",
        # Kiki's values stay in byte cells: no widening pass (which runs whole) falls in the second.
        "grundy.compute('kiki', (40000, 40000), engine='waves')",
        "grundy.compute('octal:0.6', 10**7, engine='sparse')",
    ],
)
def test_ctrl_c_stops_a_fill_within_a_second(tmp_path, call):
    # Python's own handler, even where the parent ignores SIGINT (a background job); kiki's
    # values stay in byte cells, so no widening pass (which runs whole) falls in the second.
    script = (
        "import signal\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "import grundy\n"
        "print('started', flush=True)\n"
        f"{call}\n"
        "print('finished', flush=True)\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout.readline().strip() == "started"
    time.sleep(1.5)
    process.send_signal(signal.SIGINT)
    sent = time.monotonic()
    out, err = process.communicate(timeout=30)
    stopped = time.monotonic() - sent
    assert "KeyboardInterrupt" in err, err
    assert "finished" not in out
    assert process.returncode != 0
    assert stopped < 1.0, f"stopped {stopped:.2f} s after Ctrl-C"


def test_module_docstring_examples():
    import doctest

    failures, tried = doctest.testmod(grundy, verbose=False)
    assert tried > 0 and failures == 0


def test_the_example_notebook_executes():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("matplotlib")
    notebook = nbformat.read(ROOT / "examples" / "notebook.ipynb", as_version=4)
    nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3").execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(o.get("text", "") for o in outputs)
    assert "P-positions: n % 2 == 1 && m % 2 == 1" in text


# Issue 28: the boundary. Every bad argument of every type gives a GrundyError subclass.

BAD_VALUES = [None, True, -1, 0, 2**63, 10**30, -(2**63) - 1, 1.5, float("nan"), float("inf"), "2", "x", b"2",
              (), (1,), (1, 2, 3), [1.5, 2], object(), {"a": 1}, np.int64(-5), np.float32(3.0)]

CALLS = {
    "compute.size": lambda v: grundy.compute("kiki", v),
    "compute.heap": lambda v: grundy.compute("kayles", v),
    "compute.threads": lambda v: grundy.compute("kayles", 10, threads=v),
    "compute.engine": lambda v: grundy.compute("kayles", 10, engine=v),
    "value.position": lambda v: grundy.value("kayles", v),
    "value.board": lambda v: grundy.value("kiki", v),
    "value.threads": lambda v: grundy.value("kayles", 5, threads=v),
    "patterns.size": lambda v: grundy.patterns("kayles", v),
    "patterns.limit": lambda v: grundy.patterns("kayles", until_proved=True, limit=v),
    "patterns.mins": lambda v: grundy.patterns(np.zeros((3, 3), np.uint8), mins=v),
    "check.period": lambda v: grundy.check("kiki", (5, 5), p_set="n % 2 == 1", period=v),
    "check.show": lambda v: grundy.check("kiki", (5, 5), p_set="n % 2 == 1", show=v),
    "check.expression": lambda v: grundy.check("kiki", (5, 5), p_set=v),
    "plot.max_side": lambda v: grundy.plot("kiki", (5, 5), max_side=v, out="never.png"),
    "game": lambda v: grundy.compute(v, 10),
    "from_spec": lambda v: grundy.Game.from_spec(v),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_bad_argument_raises_a_grundy_error(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for bad in BAD_VALUES:
        try:
            CALLS[name](bad)
        except grundy.GrundyError as err:
            assert str(err) and "\n" not in str(err).strip(), (name, bad, err)
        except BaseException as err:  # noqa: B036 - what must not happen, whatever it is
            raise AssertionError(f"{name}({bad!r}) raised {type(err).__name__}: {err}") from err


def test_mins_at_the_coordinate_limit_raise_no_panic():
    for call in (grundy.patterns, grundy.plot):
        with pytest.raises(grundy.InputError):
            call(np.zeros((3, 3), np.uint8), mins=(2**63 - 1, 0))


def test_a_garbage_memory_budget_is_refused(monkeypatch):
    monkeypatch.setenv("GRUNDY_MAX_MEMORY", "garbage")
    for call in (
        lambda: grundy.compute("kiki", (5, 5)),
        lambda: grundy.check(np.zeros((3, 3), np.uint8), p_set="n == 0"),
    ):
        with pytest.raises(grundy.InputError, match="GRUNDY_MAX_MEMORY"):
            call()


def test_check_and_plot_keep_the_memory_budget(monkeypatch):
    # A 6001x6001 kiki table is 36 MB of bytes: it crosses without a copy into the check, whose
    # copy (36 MB) fits in 64M; a uint32 array of it needs a converted copy that is counted too.
    table = grundy.compute("kiki", (6000, 6000))
    monkeypatch.setenv("GRUNDY_MAX_MEMORY", "64M")
    assert grundy.check(table, p_set="n % 2 == 1 && m % 2 == 1").agrees
    monkeypatch.setenv("GRUNDY_MAX_MEMORY", "24M")
    with pytest.raises(grundy.TableTooLarge):
        grundy.check(table, p_set="n % 2 == 1 && m % 2 == 1")
    with pytest.raises(grundy.TableTooLarge):
        grundy.plot(table.astype(np.uint64), out="never.png")


@pytest.mark.parametrize("call", ["plot", "patterns", "view"])
def test_a_game_too_large_with_what_the_call_holds_is_refused_before_it_is_computed(call):
    # kiki 4000x4000: 16 MB of cells, which fit in 24M alone but not with what a picture, an
    # analysis or the view holds besides (issue 50: plot refused only once the table was made,
    # 40 MB later). A fresh process, so that its peak is this call's.
    script = f"""
import resource, grundy
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    grundy.{call}("kiki", (4000, 4000))
    print("computed")
except grundy.TableTooLarge:
    print("refused", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""
    env = {**os.environ, "GRUNDY_MAX_MEMORY": "24M"}
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    words = run.stdout.split()
    assert words[:1] == ["refused"], run.stdout + run.stderr
    assert int(words[1]) < 8 << 10, f"the peak rose by {int(words[1]) >> 10} MiB before the refusal"


def test_a_spec_file_larger_than_the_limit_is_refused(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text(grundy.show("kayles") + "#" * (17 << 20) + "\n[[rules]]\nkind = \"nonsense\"\n")
    with pytest.raises(grundy.InputError, match="larger than 16 MiB"):
        grundy.Game.from_spec(path)


def test_value_sums_different_games_as_the_cli_does():
    total = grundy.value([("kayles", 10), ("wythoff", (3, 5)), ("nim", (6, 2))])
    out = cli("value", "kayles", "10", "+", "wythoff", "3x5", "+", "nim", "6x2")
    assert f"sum: {total}" in out.stdout


def test_the_largest_heap_the_parser_accepts_is_answered():
    # Kayles' period is 12 from n = 71; 2^63 - 1 is 7 mod 12, as 79 is.
    assert grundy.value("kayles", 2**63 - 1) == grundy.value("kayles", 79)


def _forked_child(queue):
    import grundy as child_grundy

    queue.put(int(child_grundy.compute("wythoff", (300, 300)).sum()))


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_forked_or_spawned_child_computes(method):
    import multiprocessing

    expected = int(grundy.compute("wythoff", (300, 300)).sum())  # the parent's pool is running
    context = multiprocessing.get_context(method)
    queue = context.Queue()
    child = context.Process(target=_forked_child, args=(queue,))
    child.start()
    child.join(60)
    if child.is_alive():
        child.kill()
        raise AssertionError(f"a {method}ed child hung")
    assert child.exitcode == 0 and queue.get(timeout=5) == expected


def test_a_sum_of_many_components_of_one_game_is_answered_at_once():
    # Kayles: period 12 from 71 (4 1 2 8 1 4 7 2 1 8 2 7 by n % 12); 10^4 components, one proof.
    components = [("kayles", 10**12 + n) for n in range(10_000)]
    periodic = [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7]
    expected = 0
    for _, n in components:
        expected ^= periodic[n % 12]
    assert grundy.value(components) == expected
    assert grundy.value("kayles", *[n for _, n in components]) == expected


# ---- view (issue 29) -------------------------------------------------------------------------


def _get(url: str, headers: "dict[str, str] | None" = None) -> "tuple[int, bytes]":
    import urllib.error
    import urllib.request

    try:
        request = urllib.request.Request(url, headers=headers or {})
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def _api(page: "grundy.View", path: str) -> "tuple[int, bytes]":
    """An API request as the page sends it: the token in its header."""
    base = page.url.split("?")[0]
    return _get(base + path, {"X-Grundy-Token": page.token})


def test_view_serves_a_computed_table_with_its_moves():
    import json

    table = grundy.compute("wythoff", [40, 40])
    with grundy.view(table) as page:
        assert page.url.startswith("http://127.0.0.1:")
        assert page.url.endswith("/?token=" + page.token) and len(page.token) == 32
        assert page.running
        assert f'src="{page.url}"' in page._repr_html_()
        status, body = _api(page, "api/cell?pos=3,5")
        assert status == 200 and json.loads(body)["value"] == 0
        status, body = _api(page, "api/moves?pos=5,8")
        moves = json.loads(body)
        winning = sorted(
            tuple(o["to"][0]) for g in moves["components"][0]["groups"] for o in g["options"] if o["winning"]
        )
        assert winning == [(4, 7), (5, 3)]
        status, body = _api(page, "api/cell?pos=41,0")
        assert status == 400 and "outside the table" in json.loads(body)["error"]
        status, body = _get(page.url)
        assert status == 200 and b"view.js" in body
        # Without the token, or from a page that made its own name point here: refused
        # (issue 50).
        status, body = _get(page.url.split("?")[0] + "api/cell?pos=3,5")
        assert status == 403 and "token" in json.loads(body)["error"]
        status, _ = _get(page.url.split("?")[0] + "api/info", {"Host": "attacker.example", "X-Grundy-Token": page.token})
        assert status == 421
    assert not page.running
    page.stop()  # twice: nothing


def test_view_of_a_plain_array_has_values_but_no_moves():
    import json

    values = np.arange(12, dtype=np.uint8).reshape(3, 4)
    page = grundy.view(values, axes=["x", "y"], mins=[1, 1])
    try:
        status, body = _api(page, "api/cell?pos=2,3")
        assert status == 200 and json.loads(body)["value"] == 6
        status, body = _api(page, "api/moves?pos=2,3")
        assert status == 409
    finally:
        page.stop()


def test_view_refuses_what_it_cannot_show():
    with pytest.raises(grundy.InputError, match="1-D and 2-D"):
        grundy.view(np.zeros((2, 2, 2), dtype=np.uint8))
    with pytest.raises(grundy.InputError, match="port"):
        grundy.view(np.zeros(4, dtype=np.uint8), port=70000)
    with pytest.raises(grundy.InputError):
        grundy.view("wythoff")


def _octal(code, length):
    """Grundy values of an octal game by its definition (independent of grundy)."""
    whole, rest = code.split(".")
    digits = [int(whole)] + [int(d) for d in rest]
    g = []
    for n in range(length):
        seen = set()
        for k, digit in enumerate(digits):
            if k > n:
                break
            left = n - k
            if digit & 1 and left == 0 and k > 0:
                seen.add(0)
            if digit & 2 and left >= 1 and k > 0:
                seen.add(g[left])
            if digit & 4 and left >= 2:
                seen.update(g[a] ^ g[left - a] for a in range(1, left // 2 + 1))
        g.append(next(v for v in range(len(seen) + 1) if v not in seen))
    return g


def _members(found, section="same_values"):
    return {(m.game, match.shift) for match in getattr(found, section) for m in match.members}


def test_identify_equals_the_cli_json():
    found = grundy.identify("octal:0.137")
    assert found.to_dict() == json.loads(cli("identify", "octal:0.137", "--json").stdout)
    assert ("octal:0.07", 1) in _members(found)
    assert "octal:0.07" in found.names
    chess, kayles = _octal("0.137", 300), _octal("0.07", 301)
    assert chess == kayles[1:]


def test_identify_values_lists_arrays_and_lines():
    kayles = _octal("0.77", 150)
    for source in (kayles, tuple(kayles), np.array(kayles, dtype=np.uint8)):
        found = grundy.identify(source)
        assert ("kayles", 0) in _members(found)
        assert not found.proved and found.to == 149
    # A start moves the coordinates: a(n) = 0.77(n - 5).
    assert ("kayles", -5) in _members(grundy.identify(kayles, start=5))
    # Same P-positions only: Dawson's Kayles with its non-zero values raised.
    raised = [v + 1 if v else 0 for v in _octal("0.07", 300)]
    found = grundy.identify(raised)
    assert ("octal:0.07", 0) in _members(found, "same_p_positions")
    assert ("octal:0.07", 0) not in _members(found)
    # A line of a board, from the game or from its table.
    row = grundy.identify("cutting", (300, 300), row=2)
    assert row.sequence == "cutting row w = 2" and ("octal:0.07", -2) in _members(row)
    table = grundy.compute("cutting", (300, 300))
    assert grundy.identify(table, row=2).same_values == row.same_values
    # patterns names the rows too.
    report = grundy.patterns("cutting", (300, 300))
    assert any(line.line == "row w = 2" for line in report.known.lines)


def test_identify_refuses_bad_input(tmp_path):
    for call in (
        lambda: grundy.identify("cutting", (30, 30)),
        lambda: grundy.identify("kayles", row=2),
        lambda: grundy.identify([1, -2, 3]),
        lambda: grundy.identify([]),
        lambda: grundy.identify("kayles", shift=17),
        lambda: grundy.identify("kayles", row=1, column=2),
        lambda: grundy.identify("kayles", start=3),
        lambda: grundy.identify("cutting", (30, 30), row=99),
        lambda: grundy.identify(np.zeros((3, 3, 3), dtype=np.uint8)),
        lambda: grundy.identify([1, 2], index=tmp_path / "missing.idx"),
    ):
        with pytest.raises(grundy.InputError):
            call()
    bad = tmp_path / "bad.idx"
    bad.write_text("not an index\n")
    with pytest.raises(grundy.InputError, match="not an index of known games"):
        grundy.identify([0, 1, 2, 3], index=bad)


def test_proofs_and_law_searches_run_within_their_budgets():
    """Issue 59: the keywords of ``--proof-seconds`` and ``--law-seconds``, checked as the
    command line checks them; a proof that cannot end in its budget proves nothing and says so."""
    claim = "n % 2 == 1 && m % 2 == 1 && n % 7000 >= 0 && m % 7000 >= 0"
    report = grundy.check("kiki", (50, 50), p_set=claim, proof_seconds=1)
    assert report.verdict == "agrees" and not report.proved
    assert "the proof stopped" in report.argument
    for bad in (float("inf"), float("nan"), -1, 1e9):
        with pytest.raises(grundy.InputError, match="proof_seconds: a proof's time bound"):
            grundy.check("kiki", (5, 5), p_set="n == m", proof_seconds=bad)
        with pytest.raises(grundy.InputError, match="law_seconds: a law search's time bound"):
            grundy.patterns("kiki", (5, 5), law_seconds=bad)
    with pytest.raises(grundy.InputError, match="proof_seconds must be a number"):
        grundy.check("kiki", (5, 5), p_set="n == m", proof_seconds="10")
    skipped = grundy.patterns("kiki", (20, 20), law_seconds=0)
    assert skipped.laws == []
