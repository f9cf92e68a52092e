#!/usr/bin/env bash
# Rebuilds the curated datasets in data/ and the README's pictures in docs/images/ from their
# recipes (data/recipe.toml, docs/images/recipe.toml) with the release build of grundy: each file
# that is not already what its recipe states is made again, then each folder's SHA256SUMS,
# manifest.json and README.md (its dataset card) are written.
#
#   scripts/regen-data.sh           make what changed (data/large/, not committed, on a fresh
#                                   checkout; everything after a change of grundy's version)
#   scripts/regen-data.sh --force   make every file again (the index of known games takes about
#                                   8 minutes on 2 cores)
#
# `git diff --stat data docs/images` then shows what a change of output changed. CI rebuilds
# both collections with --force and compares them with the committed bytes
# (crates/cli/tests/datasets.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release -p grundy-cli
# Where cargo puts the build: CARGO_TARGET_DIR when set (relative to the repository), else target/.
grundy="${CARGO_TARGET_DIR:-target}/release/grundy"
"$grundy" dataset data/recipe.toml --out data "$@"
"$grundy" dataset docs/images/recipe.toml --out docs/images "$@"
