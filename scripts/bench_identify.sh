#!/usr/bin/env bash
# Times `grundy identify` on 10^6 values from standard input (issue 30): Kayles (a match) and
# random values (no match). Needs hyperfine (Debian: apt-get install hyperfine).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release -p grundy-cli
grundy="$PWD/${CARGO_TARGET_DIR:-target}/release/grundy"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$grundy" compute kayles --size 999999 --format bfile --quiet | awk '{print $2}' >"$work/kayles-1e6.txt"
python3 -c "
import random
random.seed(1); print(' '.join(str(random.randint(0, 40)) for _ in range(10**6)))" >"$work/random-1e6.txt"
hyperfine --warmup 2 --runs 10 \
  "$grundy identify < $work/kayles-1e6.txt" \
  "$grundy identify < $work/random-1e6.txt"
