#!/usr/bin/env bash
# The release builds of one CI run share a target directory: the command line's, the mpi
# feature's, the oracles' tests' and the Python package's (outside the workspace, with a lock file of its own). Cargo
# reuses a crate's build only when its version and features agree in every one of them; one crate
# low in the graph that differs (libc, syn, num-traits) compiles everything above it again, minutes
# on 2 cores. This script fails, naming them, when a crate shared by two of those graphs differs in
# version or features (the fix: ask for the feature in the other graph's Cargo.toml, beside the
# crates that are there for this reason alone, or align the lock files).
#
#   scripts/shared-features.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

graph() { cargo tree "$@" -e normal,build -f '{p}|{f}' --prefix none | sed 's/ (\*)$//' | sort -u; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
graph -p grundy-cli >"$work/cli"
graph -p grundy-cli --features mpi >"$work/mpi"
# grundy-play's and grundy-compute's release tests (the misère and sparse oracles), with their
# dev-dependencies.
graph -p grundy-play -p grundy-compute -e dev >"$work/play"
(cd crates/python && graph) >"$work/python"
# What the graphs share and must agree on: the libraries and everything they are built from.
# (A crate below none of them, such as a build tool of the mpi crate's, is built apart anyway.)
libraries=(-p grundy-core -p grundy-compute -p grundy-laws -p grundy-play -p grundy-catalog -p grundy-plot -p grundy-view -p grundy-parquet)
cargo tree "${libraries[@]}" -e normal,build -f '{p}' --prefix none | sed 's/ (\*)$//' | sort -u >"$work/libraries"

python3 - "$work" <<'EOF'
import sys
from pathlib import Path


def load(path):
    """(name, version) -> features of the registry crates in one graph."""
    crates = {}
    for line in Path(path).read_text().splitlines():
        package, _, features = line.partition("|")
        words = package.split()
        if len(words) != 2:  # a path crate of the workspace: its builds differ by design
            continue
        name, version = words
        crates.setdefault((name, version), set()).update(f for f in features.split(",") if f)
    return crates


work = Path(sys.argv[1])
# By name, not version: a lock file that drifted to another version of a library's dependency
# must stay in view, to be named below.
libraries = {line.split()[0] for line in (work / "libraries").read_text().splitlines() if line.strip()}
graphs = {
    name: {key: features for key, features in load(work / name).items() if key[0] in libraries}
    for name in ("cli", "mpi", "play", "python")
}
problems = []
names = sorted(graphs)
for i, a in enumerate(names):
    for b in names[i + 1:]:
        for key in sorted(set(graphs[a]) & set(graphs[b])):
            if graphs[a][key] != graphs[b][key]:
                only_a = sorted(graphs[a][key] - graphs[b][key])
                only_b = sorted(graphs[b][key] - graphs[a][key])
                problems.append(f"{key[0]} {key[1]}: {a} alone has {only_a}, {b} alone has {only_b}")
        for name in sorted({n for n, _ in graphs[a]} & {n for n, _ in graphs[b]}):
            va = sorted(v for (n, v) in graphs[a] if n == name)
            vb = sorted(v for (n, v) in graphs[b] if n == name)
            if not set(va) & set(vb):  # the lock files drifted apart
                problems.append(f"{name}: {a} uses {va}, {b} uses {vb}")
if problems:
    print("shared-features: these crates would be compiled once per graph:", file=sys.stderr)
    for problem in problems:
        print(f"  {problem}", file=sys.stderr)
    sys.exit(1)
print(f"shared-features: the cli, mpi, play and python graphs agree on every crate they share")
EOF
