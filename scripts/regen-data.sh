#!/usr/bin/env bash
# Rebuilds the curated datasets in data/ (and the pictures in docs/images/) with the release build
# of grundy, then verifies them against data/SHA256SUMS.
#
#   scripts/regen-data.sh            rebuild everything and verify the hashes
#   scripts/regen-data.sh FILE...    rebuild only these (e.g. data/known-games.jsonl.gz, the
#                                    index of known games, about 15 minutes on 2 cores) and
#                                    verify their hashes
#   scripts/regen-data.sh --update   rebuild, then rewrite data/SHA256SUMS and the table in
#                                    data/README.md (after a deliberate change of output)
#
# Files under data/large/ are over ~1 MB: they are listed and verified like the others but not
# committed (.gitignore); this script is how they are obtained.
set -euo pipefail
cd "$(dirname "$0")/.."
update=no
[ "${1:-}" = "--update" ] && update=yes && shift
only=("$@")

cargo build --quiet --release -p grundy-cli
# Where cargo puts the build: CARGO_TARGET_DIR when set (relative to the repository), else target/.
grundy="${CARGO_TARGET_DIR:-target}/release/grundy"

# The index of known games: every family and game it holds (3-D games have no lines to keep).
index_families="octal:0.? octal:0.?? octal:0.??? octal:0.???? octal:4.? octal:4.?? octal:4.??? \
hex:0.? hex:0.?? hex:4.? hex:4.?? subtraction:any-of-12 subtraction:all-but-1-of-12 \
subtraction:all-but-2-of-12 subtraction:all-but-3-of-12 kayles dawsons-kayles dawsons-chess \
grundys-game subtract-a-square subtract-a-prime nim wythoff wythoff-short-diagonal kiki cutting \
prime-steps fibonacci-rook data/games/cutting.toml data/games/dawsons-chess.toml \
data/games/dawsons-kayles.toml data/games/fibonacci-rook.toml data/games/grundys-game.toml \
data/games/kayles.toml data/games/kiki.toml data/games/nim.toml data/games/prime-steps.toml \
data/games/subtract-a-prime.toml data/games/subtract-a-square.toml \
data/games/wythoff-short-diagonal.toml data/games/wythoff.toml"

# file | what it is | arguments (the output path is appended as --out FILE)
datasets=(
  "data/cutting-200.csv|the cutting game, contest size, values|compute cutting --size 200x200"
  "data/kiki-2000-outcome.csv.gz|kiki's game, contest size, P/N (gzip; pandas reads it as it is)|compute kiki --size 2000x2000 --outcome"
  "data/large/kiki-2000-outcome.csv|the same, uncompressed (8 MB, not committed)|compute kiki --size 2000x2000 --outcome"
  "data/prime-steps-500.csv|the prime-step board, contest size, values|compute prime-steps --size 500x500"
  "data/wythoff-500.npy|Wythoff's game, values as uint16 (numpy)|compute wythoff --size 500x500 --format npy"
  "data/cutting-2000-outcome.csv.gz|the cutting game's P-positions to 2000 (gzip)|compute cutting --size 2000x2000 --outcome"
  "data/kayles-10000.b|Kayles (octal 0.77), OEIS b-file (A002186)|compute kayles --size 10000 --format bfile"
  "data/dawsons-kayles-10000.b|Dawson's Kayles (octal 0.07), OEIS b-file (A002187 shifted)|compute dawsons-kayles --size 10000 --format bfile"
  "data/grundys-game-2000.b|Grundy's game, OEIS b-file (A002188)|compute grundys-game --size 2000 --format bfile"
  "data/subtract-a-square-10000.b|subtract-a-square, OEIS b-file (A014586)|compute subtract-a-square --size 10000 --format bfile"
  "docs/images/wythoff-300.png|the picture in the README: Wythoff's game, values|plot wythoff --size 299x299"
  "docs/images/cutting-200-outcome.png|the cutting game's P-positions|plot cutting --size 200x200 --outcome"
  "docs/images/kayles-300.png|Kayles against n|plot kayles --size 300"
  "data/surveys/octal-0.dd.csv|every octal code 0.d1d2 (d2 > 0): periods proved to 2^19 values, classes|survey octal:0.?? --until-proved --limit 524288 --no-seconds"
  "data/surveys/subtraction-3-of-12.csv|every subtraction set of three amounts from 1..=12|survey subtraction:3-of-12 --until-proved --limit 1048576 --no-seconds"
  "data/surveys/octal-0.ddd.csv|every octal code 0.d1d2d3 (d3 > 0): periods proved to 2^16 values, classes|survey octal:0.??? --until-proved --limit 65536 --no-seconds"
  "data/known-games.jsonl.gz|the index of known games that \`grundy identify\` searches (see data/README.md)|survey ${index_families} --size 1023 --until-proved --limit 16384 --format index"
)

mkdir -p data/large docs/images data/surveys
# The arguments hold wildcards for grundy (octal:0.??), not for the shell.
set -f
wanted() {
  [ ${#only[@]} -eq 0 ] && return 0
  local f
  for f in "${only[@]}"; do [ "$f" = "$1" ] && return 0; done
  return 1
}
for entry in "${datasets[@]}"; do
  IFS='|' read -r file _ args <<<"$entry"
  wanted "$file" || continue
  # A .npy or b-file gets its provenance beside it, but that records the build's revision and
  # the date, so it would change on every rebuild: data/ is checked by its files' bytes.
  case "$file" in *.npy | *.b) args="$args --no-provenance" ;; esac
  # shellcheck disable=SC2086 # the arguments are words
  "$grundy" $args --quiet --force --out "$file"
  echo "built $file"
done

if [ "$update" = yes ]; then
  # Every listed file is summed again: refuse before anything is rewritten when one is missing
  # (data/large/ is not committed: a run with FILE arguments does not make it).
  for entry in "${datasets[@]}"; do
    file=${entry%%|*}
    if [ ! -f "$file" ]; then
      echo "regen-data.sh: --update sums every listed file, but $file is missing; run it once without FILE arguments" >&2
      exit 1
    fi
  done
  # Files listed that this script does not build (a picture the browser test makes) stay.
  kept=$(grep -v -F -f <(for entry in "${datasets[@]}"; do echo "  ${entry%%|*}"; done) data/SHA256SUMS || true)
  : >data/SHA256SUMS
  table=$'| file | what | bytes | SHA-256 | command |\n|---|---|---|---|---|'
  for entry in "${datasets[@]}"; do
    IFS='|' read -r file what args <<<"$entry"
    sum=$(sha256sum "$file" | cut -d' ' -f1)
    echo "$sum  $file" >>data/SHA256SUMS
    bytes=$(stat -c %s "$file")
    table+=$'\n'"| \`$file\` | $what | $bytes | \`$sum\` | \`grundy $args --out $file\` |"
  done
  [ -n "$kept" ] && echo "$kept" >>data/SHA256SUMS
  # Replace the table between the markers in data/README.md.
  python3 - "$table" <<'PY'
import sys
path = "data/README.md"
text = open(path).read()
start, end = "<!-- datasets:start -->", "<!-- datasets:end -->"
head, rest = text.split(start)
_, tail = rest.split(end)
open(path, "w").write(f"{head}{start}\n{sys.argv[1]}\n{end}{tail}")
PY
  echo "updated data/SHA256SUMS and data/README.md"
fi
if [ ${#only[@]} -eq 0 ]; then
  sha256sum --check --strict data/SHA256SUMS
else
  for f in "${only[@]}"; do grep -F "  $f" data/SHA256SUMS; done | sha256sum --check --strict
fi
