#!/usr/bin/env bash
# Every library crate builds from the files its package lists, without the repository around it.
#
#   scripts/check-packages.sh
#
# What `cargo package`'s own verification proves, at the cost of a check rather than a second
# debug build of every dependency: the crates are packed (`--no-verify`), unpacked side by side
# into a workspace of their own in a new temporary folder, with each other's registry
# dependencies patched to those unpacked copies, and checked there with the lock file's versions
# in the caller's target directory, where the dependencies are already compiled.
#
# Why not `cargo package` as it is: it verifies through a registry at
# <target dir>/package/tmp-registry, unpacks each crate into $CARGO_HOME/registry/src/<hash of that
# path>/ and never unpacks it again while that copy exists, so a machine that keeps $CARGO_HOME
# verifies an earlier run's crates (stop 66 failed so), unless every run has a new target
# directory, in which every dependency is compiled again (minutes on 2 cores). Here the unpacked
# copies are path crates in a folder new on every run: nothing is reused but the dependencies.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD"

crates=(grundy-expr grundy-core grundy-compute grundy-laws grundy-play grundy-catalog grundy-plot grundy-parquet grundy-view grundy-mpi)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

packages=()
for crate in "${crates[@]}"; do packages+=(-p "$crate"); done
CARGO_TARGET_DIR="$work/pack" cargo package --no-verify --allow-dirty --quiet "${packages[@]}"

mkdir "$work/unpacked"
for crate in "${crates[@]}"; do
  tar -xzf "$work/pack/package/$crate-0.1.0.crate" -C "$work/unpacked"
done
{
  echo '[workspace]'
  echo 'resolver = "2"'
  printf 'members = ['
  printf '"%s-0.1.0", ' "${crates[@]}"
  printf ']\n\n[patch.crates-io]\n'
  for crate in "${crates[@]}"; do
    printf '%s = { path = "%s-0.1.0" }\n' "$crate" "$crate"
  done
} >"$work/unpacked/Cargo.toml"
# The repository's versions of every dependency (cargo drops the entries no package uses).
cp Cargo.lock "$work/unpacked/Cargo.lock"

CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}" \
  cargo check --quiet --offline --workspace --manifest-path "$work/unpacked/Cargo.toml"
echo "check-packages: ${#crates[@]} library crates build from their packages' files"
