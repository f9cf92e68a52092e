#!/usr/bin/env bash
# MPI checks (issue 16): a survey shared among 1, 2 and 4 ranks (oversubscribed on this machine)
# writes the same bytes as one process; a killed rank ends the job within seconds with a
# non-zero exit; the survey then resumes from its partial file.
#
#   scripts/mpi-test.sh MPI_GRUNDY PLAIN_GRUNDY
#
# MPI_GRUNDY is built with `--features mpi` (needs MPICH: libmpich-dev mpich libclang-dev).
set -euo pipefail
mpi_grundy=$(realpath "$1")
plain=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

fail() { echo "mpi-test: $*" >&2; exit 1; }

"$plain" survey 'octal:0.??' --size 3000 --no-seconds --quiet >one.csv
"$plain" survey 'octal:0.1??' --until-proved --limit 65536 --no-seconds --quiet --format json >one.json
for ranks in 1 2 4; do
  mpirun -n "$ranks" "$mpi_grundy" survey 'octal:0.??' --size 3000 --no-seconds --quiet >"mpi-$ranks.csv"
  cmp one.csv "mpi-$ranks.csv" || fail "$ranks ranks: the CSV differs from one process's"
  mpirun -n "$ranks" "$mpi_grundy" survey 'octal:0.1??' --until-proved --limit 65536 --no-seconds \
    --quiet --format json --out "mpi-$ranks.json"
  cmp one.json "mpi-$ranks.json" || fail "$ranks ranks: the JSON differs from one process's"
  echo "mpi-test: $ranks ranks: byte-identical to one process"
done

# A killed rank ends the whole job, with a non-zero exit, never a hang.
"$plain" survey 'octal:0.???' --until-proved --limit 16384 --no-seconds --quiet --out whole.csv
mpirun -n 3 "$mpi_grundy" survey 'octal:0.???' --until-proved --limit 16384 --no-seconds --quiet \
  --out killed.csv >/dev/null 2>&1 &
job=$!
for _ in $(seq 100); do
  [ -s killed.csv.partial ] && break
  sleep 0.1
done
worker=$( (pgrep -f -- "--out killed.csv" || true) | tail -1)
[ -n "$worker" ] || fail "no rank to kill"
kill -9 "$worker"
started=$(date +%s)
status=0
wait "$job" || status=$?
[ "$status" -ne 0 ] || fail "the job succeeded although a rank was killed"
[ $(( $(date +%s) - started )) -le 10 ] || fail "the job took more than 10 s to end"
[ ! -e killed.csv ] || fail "a killed job wrote its output"
echo "mpi-test: a killed rank ended the job (exit $status)"
# The rows done so far are kept: the survey resumes, on another number of ranks.
mpirun -n 2 "$mpi_grundy" survey 'octal:0.???' --until-proved --limit 16384 --no-seconds --quiet \
  --out killed.csv --resume
cmp whole.csv killed.csv || fail "the resumed survey differs from one run straight through"
echo "mpi-test: the survey resumed to the same bytes"
