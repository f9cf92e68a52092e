"""grundy.compute from Python against the CLI's own fill time (issue 15's target: within 10 %).

Usage: python scripts/bench_python.py [GAME] [SIZE] [RUNS]   (default: wythoff 4000x4000 5)
Needs the package installed (pip install ./crates/python) and a release CLI
($GRUNDY_CLI or target/release/grundy). Runs alternate between the two; medians are printed.
"""

import json
import os
import statistics
import subprocess
import sys
import time

import grundy

game = sys.argv[1] if len(sys.argv) > 1 else "wythoff"
size = sys.argv[2] if len(sys.argv) > 2 else "4000x4000"
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
cli = os.environ.get("GRUNDY_CLI", os.path.join(os.path.dirname(__file__), "..", "target", "release", "grundy"))
coords = tuple(int(c) for c in size.split("x"))

python_seconds, cli_seconds = [], []
grundy.compute(game, coords)  # warm-up
for _ in range(runs):
    started = time.perf_counter()
    table = grundy.compute(game, coords)
    python_seconds.append(time.perf_counter() - started)
    del table
    out = subprocess.run([cli, "compute", game, "--size", size, "--format", "summary", "--quiet"],
                         capture_output=True, text=True, check=True).stdout
    cli_seconds.append(json.loads(out)["seconds"])

p, c = statistics.median(python_seconds), statistics.median(cli_seconds)
print(f"{game} {size}, {runs} runs each, alternating")
print(f"grundy.compute (Python, whole call): median {p:.3f} s  (runs: {', '.join(f'{s:.3f}' for s in python_seconds)})")
print(f"CLI fill time (summary 'seconds'):   median {c:.3f} s  (runs: {', '.join(f'{s:.3f}' for s in cli_seconds)})")
print(f"Python / CLI: {p / c:.3f}")
