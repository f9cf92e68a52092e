#!/usr/bin/env bash
# The release builds of one CI run share a target directory: the command line's, the mpi
# feature's and the Python package's (outside the workspace, with a lock file of its own). Cargo
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
(cd crates/python && graph) >"$work/python"

python3 - "$work" <<'EOF'
import sys
from pathlib import Path


def load(path):
    """name -> (versions, features by version) of the registry crates in one graph."""
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
graphs = {name: load(work / name) for name in ("cli", "mpi", "python")}
problems = []
names = sorted(graphs)
for i, a in enumerate(names):
    for b in names[i + 1:]:
        for key in sorted(set(graphs[a]) & set(graphs[b])):
            if graphs[a][key] != graphs[b][key]:
                only_a = sorted(graphs[a][key] - graphs[b][key])
                only_b = sorted(graphs[b][key] - graphs[a][key])
                problems.append(f"{key[0]} {key[1]}: {a} alone has {only_a}, {b} alone has {only_b}")
        versions = lambda g: {n: v for (n, v) in graphs[g]}
        for name in sorted(set(versions(a)) & set(versions(b))):
            va = sorted(v for (n, v) in graphs[a] if n == name)
            vb = sorted(v for (n, v) in graphs[b] if n == name)
            if not set(va) & set(vb):  # the lock files drifted apart
                problems.append(f"{name}: {a} uses {va}, {b} uses {vb}")
if problems:
    print("shared-features: these crates would be compiled once per graph:", file=sys.stderr)
    for problem in problems:
        print(f"  {problem}", file=sys.stderr)
    sys.exit(1)
print(f"shared-features: the cli, mpi and python graphs agree on every crate they share")
EOF
