#!/usr/bin/env bash
# Runs each cargo-fuzz target for SECONDS (default 300) with nightly Rust and cargo-fuzz
# (`cargo install cargo-fuzz`). A crash leaves its input in fuzz/artifacts/TARGET/; copy it to
# fuzz/regressions/TARGET/ so that `cargo test` replays it (crates/*/tests/fuzz_regressions.rs).
set -euo pipefail
seconds=${1:-300}
cd "$(dirname "$0")/../fuzz"
for target in spec csv expr; do
    mkdir -p "corpus/$target"
    # Seed the corpus with the inputs the tests already know.
    case $target in
        spec) cp ../crates/core/games/*.toml "corpus/$target/" ;;
        csv)
            grundy=(cargo run -q --release --manifest-path ../Cargo.toml -p grundy-cli --)
            "${grundy[@]}" compute nim --size 4x4 --out "corpus/$target/grid.csv"
            "${grundy[@]}" compute kiki --size 3x5 --outcome --out "corpus/$target/outcome.csv"
            "${grundy[@]}" compute cutting-cuboid --size 2x2x3 --format long --out "corpus/$target/long.csv"
            "${grundy[@]}" compute kayles --size 20 --format long --out "corpus/$target/heap.csv" ;;
    esac
    if [ -d "regressions/$target" ]; then cp "regressions/$target"/* "corpus/$target/"; fi
    echo "== $target for ${seconds}s"
    cargo +nightly fuzz run "$target" "corpus/$target" -- -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096
done
