#!/usr/bin/env bash
# Times the issue-6 workloads with the release binary and prints a Markdown table: workload, size,
# seconds, cells per second, peak memory (from /usr/bin/time -v), and, where the reference fill is
# run beside it, the speed-up over the reference of the same binary. Then a second table: octal
# games computed by grundy and by the public solver ogsolve (installed into tools/ on first use),
# side by side.
#
#   scripts/bench.sh            # the full table (takes several minutes)
#   scripts/bench.sh --quick    # smaller sizes, for a smoke run
#   REFERENCE=1 scripts/bench.sh  # also time the reference fill on the reference sizes (slow)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v /usr/bin/time >/dev/null || { echo "bench.sh needs /usr/bin/time (Debian package: time)" >&2; exit 2; }
cargo build --release -q -p grundy-cli
# Where cargo puts the build: CARGO_TARGET_DIR when set (relative to the repository), else target/.
bin="${CARGO_TARGET_DIR:-target}/release/grundy"

quick=0
[ "${1:-}" = "--quick" ] && quick=1

# workload, size, threads
if [ "$quick" = 1 ]; then
  runs=("kiki 4000x4000 2" "wythoff 2048x2048 2" "nim 2048x2048 2" "cutting 500x500 2" "prime-steps 1000x1000 2")
else
  runs=(
    "kiki 20000x20000 2"
    "wythoff 16384x16384 2"
    "nim 16384x16384 2"
    "cutting 4000x4000 2" "cutting 4000x4000 1"
    "prime-steps 4000x4000 2" "prime-steps 4000x4000 1"
    "wythoff 2048x2048 2"
  )
fi

measure() { # game size threads engine -> "seconds peak_kib cells"
  local out err
  err=$(mktemp)
  out=$(/usr/bin/time -v "$bin" compute "$1" --size "$2" --threads "$3" --engine "$4" --format summary --quiet 2>"$err")
  local secs cells peak
  secs=$(printf '%s' "$out" | sed -E 's/.*"seconds":([0-9.eE+-]+).*/\1/')
  cells=$(printf '%s' "$out" | sed -E 's/.*"cells":([0-9]+).*/\1/')
  peak=$(sed -nE 's/.*Maximum resident set size \(kbytes\): ([0-9]+).*/\1/p' "$err")
  rm -f "$err"
  echo "$secs $peak $cells"
}

echo "| workload | threads | seconds | cells/s | peak memory (MiB) | speed-up over reference |"
echo "|---|---|---|---|---|---|"
for run in "${runs[@]}"; do
  read -r game size threads <<<"$run"
  read -r secs peak cells < <(measure "$game" "$size" "$threads" tiles)
  rate=$(awk -v c="$cells" -v s="$secs" 'BEGIN { printf "%.3g", c / s }')
  mib=$(awk -v k="$peak" 'BEGIN { printf "%.0f", k / 1024 }')
  speedup="-"
  if [ "${REFERENCE:-0}" = 1 ] && [ "$game $size" = "wythoff 2048x2048" ]; then
    read -r rsecs _ _ < <(measure "$game" "$size" 1 reference)
    speedup=$(awk -v r="$rsecs" -v s="$secs" 'BEGIN { printf "%.0fx (reference %.0f s)", r / s, r }')
  fi
  echo "| \`$game --size $size\` | $threads | $secs | $rate | $mib | $speedup |"
done

# Octal games against the public solver `ogsolve` (rare/common method, one thread), side by side
# on the same games in this run. It is installed into tools/ (ignored by git) on first use.
tools="${TOOLS_DIR:-tools}"
if [ ! -x "$tools/bin/ogsolve" ]; then
  echo "installing ogsolve into $tools (cargo install ogsolve --root $tools)" >&2
  cargo install -q ogsolve --root "$tools" >&2
fi
if [ "$quick" = 1 ]; then heaps=1000000; else heaps=10000000; fi
seconds() { # command... -> wall seconds of one run
  /usr/bin/time -f "%e" "$@" 2>&1 >/dev/null | tail -1
}
echo
echo "| game | heap sizes | ogsolve -m rc2 (s) | grundy (s) | ogsolve / grundy |"
echo "|---|---|---|---|---|"
for code in 0.16 0.56 0.127 0.354; do
  og=$(seconds "$tools/bin/ogsolve" -m rc2 -n "$heaps" "$code")
  ours=$(seconds "$bin" compute "octal:$code" --size "$heaps" --format summary --quiet)
  ratio=$(awk -v a="$og" -v b="$ours" 'BEGIN { printf "%.2f", a / b }')
  echo "| $code | $heaps | $og | $ours | $ratio |"
done

# Kiki against a plain C loop over a byte table (issue 18's baseline: one thread, cc -O2), side by
# side in this run.
if command -v cc >/dev/null; then
  loop_dir=$(mktemp -d)
  # The loop is scripts/board-loops.c's (scripts/bench-boards.sh runs every board against it).
  cc -O2 -o "$loop_dir/board-loops" scripts/board-loops.c
  if [ "$quick" = 1 ]; then side=4000; else side=15000; fi
  c=$(seconds "$loop_dir/board-loops" kiki "$side")
  ours=$(seconds "$bin" compute kiki --size "${side}x${side}" --threads 2 --format summary --quiet)
  echo
  echo "| kiki | plain C loop, 1 thread (s) | grundy, 2 threads (s) | C / grundy |"
  echo "|---|---|---|---|"
  echo "| ${side}x${side} | $c | $ours | $(awk -v a="$c" -v b="$ours" 'BEGIN { printf "%.2f", a / b }') |"
  rm -rf "$loop_dir"
fi
