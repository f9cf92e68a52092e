#!/usr/bin/env bash
# `grundy check` against a plain C loop that evaluates the same claim over the same values
# (issue 62): each table is written once as .npy, then `grundy check TABLE.npy` (two threads)
# and `scripts/check-loop.c` (cc -O2, one thread) read it and check the claim, timed side by
# side in one hyperfine run. Both must find no disagreement. Prints grundy / C per claim.
#
#   scripts/bench-check.sh           8191 x 8191 tables (about a minute)
#   scripts/bench-check.sh --quick   1024 x 1024, for a smoke run
#
# Needs cc, hyperfine and jq (Debian packages: gcc, hyperfine, jq).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
for tool in cc hyperfine jq; do
  command -v "$tool" >/dev/null || { echo "bench-check.sh needs $tool" >&2; exit 2; }
done
cargo build --release -q -p grundy-cli
bin="${CARGO_TARGET_DIR:-target}/release/grundy"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/check-loop" scripts/check-loop.c -lm
n=8191
[ "${1:-}" = "--quick" ] && n=1023

echo "| table | claim | C loop, 1 thread (s) | grundy check, 2 threads (s) | grundy / C |"
echo "|---|---|---|---|---|"
while IFS='|' read -r game option claim; do
  # kiki's board starts at (1, 1): the array's (0, 0) is the cell (1, 1), so i and j are
  # shifted in the claim as they are in the C loop.
  size="${n}x${n}"
  [ "$game" = kiki ] && size="$((n + 1))x$((n + 1))"
  "$bin" compute "$game" --size "$size" --format npy --out "$work/$game.npy" --quiet
  "$work/check-loop" "$game" "$work/$game.npy" >/dev/null
  "$bin" check "$work/$game.npy" "--$option" "$claim" --quiet >/dev/null
  hyperfine -N -w 1 -r 5 --export-json "$work/times.json" \
    "$work/check-loop $game $work/$game.npy" \
    "$bin check $work/$game.npy --$option '$claim' --quiet" >/dev/null
  c=$(jq '.results[0].median' "$work/times.json")
  ours=$(jq '.results[1].median' "$work/times.json")
  printf '| %s %s² | `--%s "%s"` | %.3f | %.3f | %.2f |\n' \
    "$game" "$((n + 1))" "$option" "$claim" "$c" "$ours" "$(jq -n "$ours / $c")"
done <<'CLAIMS'
nim|values|xor(i, j)
wythoff|p-set|min(i, j) == floor(abs(i - j) * phi)
kiki|p-set|i % 2 == 0 && j % 2 == 0
CLAIMS
