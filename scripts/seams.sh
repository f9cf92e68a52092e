#!/usr/bin/env bash
# Branch sites on a play convention outside its seams (issue 51). A play convention (misère,
# loopy) is a value that enters through one seam: the game and its play (grundy-core's play.rs,
# game.rs, game/, loopy.rs, the table that carries either kind of cell: table.rs, table/), the
# fill request that chooses the engine and says what a table holds (grundy-compute's request.rs)
# and the engines that compute each convention (misere*, retrograde*, reference.rs), and the play
# of sums, where each component's rule meets the others (positions, moves and misere*), and the
# command line's play value (grundy-cli's play.rs, where `--play` becomes a `Play`). Everywhere else, code that tests
# the convention is a copied decision; at most MAX sites of each kind may stand (front ends that
# show a convention's own output: a loopy board's draws, a misère sum's words).
#
# A site is a line outside comments and test modules that branches on the convention: it compares
# with `Play::Misere`/`Play::Normal`, or tests `is_loopy()`/`loopy()` in an `if`, `match`, filter
# or boolean, or maps a table's `loopy()` cells. `scripts/seams.sh -v` lists them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

MAX=3
seams='^crates/(core/src/(play|game|loopy|table)(\.rs|/)|compute/src/(request|reference|misere|retrograde)(\.rs|/)|play/src/(positions|moves|misere)(\.rs|/)|cli/src/play\.rs$)'
# Test modules kept in files of their own (`#[cfg(test)] mod compositions;`).
tests='^crates/compute/src/compositions\.rs$'

sites() {
  local pattern=$1
  for file in $(git ls-files 'crates/*.rs' | grep -v -e '/tests/' -e '/benches/' -e '/tests\.rs$' | grep -Ev -e "$seams" -e "$tests"); do
    awk -v file="$file" -v pattern="$pattern" '
      /^#\[cfg\(test\)\]/ { exit }
      /^[[:space:]]*\/\// { next }
      $0 ~ pattern { sub(/^[[:space:]]+/, ""); print file ":" FNR ": " $0 }
    ' "$file"
  done
}

misere=$(sites '(==|!=|=>)[[:space:]]*(grundy_core::)?Play::(Misere|Normal)|Play::(Misere|Normal)[[:space:]]*(==|!=|=>)')
loopy=$(sites '(if|match|filter|&&|\|\||!)[^;]*(is_loopy\(\)|\.loopy\(\))|\.loopy\(\)\.(map|is_some|is_none|and_then|ok_or)')

count() { if [ -z "$1" ]; then echo 0; else wc -l <<<"$1"; fi; }
status=0
for kind in misere loopy; do
  listed=${!kind}
  n=$(count "$listed")
  echo "branch sites on $kind play outside the seams: $n (at most $MAX)"
  if [ "${1:-}" = -v ] || [ "$n" -gt "$MAX" ]; then
    [ -n "$listed" ] && sed 's/^/  /' <<<"$listed"
  fi
  [ "$n" -le "$MAX" ] || status=1
done
exit $status
