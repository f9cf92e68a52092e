#!/usr/bin/env bash
# The board workloads against plain single-thread C loops (issue 33, item 5): for each, grundy on
# two threads and `scripts/board-loops.c` (cc -O2) are timed side by side in one hyperfine run,
# their sums checked equal, and the ratio printed (C seconds / grundy seconds: 2.0 is two cores'
# worth).
#
#   scripts/bench-boards.sh           the issue's sizes (several minutes)
#   scripts/bench-boards.sh --quick   small sizes, for a smoke run
#
# Needs cc, hyperfine and jq (Debian packages: gcc, hyperfine, jq).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
for tool in cc hyperfine jq; do
  command -v "$tool" >/dev/null || { echo "bench-boards.sh needs $tool" >&2; exit 2; }
done
cargo build --release -q -p grundy-cli
bin="${CARGO_TARGET_DIR:-target}/release/grundy"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/board-loops" scripts/board-loops.c

if [ "${1:-}" = "--quick" ]; then
  runs=("cutting 600" "kiki 4000" "wythoff 2048" "prime-steps 1000")
else
  runs=("cutting 3000" "kiki 15000" "wythoff 16384" "prime-steps 4000")
fi

echo "| workload | plain C loop, 1 thread (s) | grundy, 2 threads (s) | C / grundy |"
echo "|---|---|---|---|"
for run in "${runs[@]}"; do
  read -r game n <<<"$run"
  c_sum=$("$work/board-loops" "$game" "$n")
  ours=$("$bin" compute "$game" --size "${n}x${n}" --threads 2 --format summary --quiet)
  ours_sum=$(jq -r .sum <<<"$ours")
  if [ "$c_sum" != "$ours_sum" ]; then
    echo "bench-boards.sh: $game ${n}x${n}: the C loop sums to $c_sum, grundy to $ours_sum" >&2
    exit 1
  fi
  hyperfine -N -w 1 -r 3 --export-json "$work/times.json" \
    "$work/board-loops $game $n" \
    "$bin compute $game --size ${n}x${n} --threads 2 --format summary --quiet" >/dev/null
  read -r c ours_s < <(jq -r '[.results[].mean] | @tsv' "$work/times.json")
  printf '| %s %s² | %.3f | %.3f | %.2f |\n' "$game" "$n" "$c" "$ours_s" \
    "$(awk -v a="$c" -v b="$ours_s" 'BEGIN { print a / b }')"
done
