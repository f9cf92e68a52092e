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

# kill_a_rank JOB OUT: kills one rank of the background job JOB (the one whose command line names
# --out OUT) and checks that the whole job ends within 10 s, with a non-zero exit and no OUT.
kill_a_rank() {
  local job=$1 out=$2 worker started status=0
  worker=$( (pgrep -f -- "--out $out" || true) | tail -1)
  [ -n "$worker" ] || fail "no rank to kill"
  kill -9 "$worker"
  started=$(date +%s)
  wait "$job" || status=$?
  [ "$status" -ne 0 ] || fail "the job succeeded although a rank was killed"
  [ $(( $(date +%s) - started )) -le 10 ] || fail "the job took more than 10 s to end"
  [ ! -e "$out" ] || fail "a killed job wrote $out"
  echo "mpi-test: a killed rank ended the job writing $out (exit $status)"
}

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
kill_a_rank "$job" killed.csv
# The rows done so far are kept: the survey resumes, on another number of ranks.
mpirun -n 2 "$mpi_grundy" survey 'octal:0.???' --until-proved --limit 16384 --no-seconds --quiet \
  --out killed.csv --resume
cmp whole.csv killed.csv || fail "the resumed survey differs from one run straight through"
echo "mpi-test: the survey resumed to the same bytes"

# Distributed fills: 2-D tables shared among ranks by bands of rows. A slide game (Wythoff), a
# split game (cutting), a jump game (prime steps) and a step game (kiki), in every format, on 1,
# 2 and 4 ranks: the same bytes as one process (summaries but for their seconds).
no_seconds() { sed 's/,"seconds":[0-9.e+-]*//' "$1"; }
for game in wythoff:1500x1700 cutting:400x400 prime-steps:300x500 kiki:1000x1300; do
  name=${game%%:*} size=${game#*:}
  for format in npy grid long summary; do
    "$plain" compute "$name" --size "$size" --format "$format" --quiet --out "one.$format"
    for ranks in 1 2 4; do
      mpirun -n "$ranks" "$mpi_grundy" compute "$name" --size "$size" --format "$format" \
        --threads 1 --quiet --out "mpi.$format"
      if [ "$format" = summary ]; then
        [ "$(no_seconds one.summary)" = "$(no_seconds mpi.summary)" ] \
          || fail "$name $size on $ranks ranks: the summary differs from one process's"
      else
        cmp "one.$format" "mpi.$format" \
          || fail "$name $size on $ranks ranks: the $format output differs from one process's"
      fi
    done
  done
  echo "mpi-test: compute $name $size on 1, 2 and 4 ranks: byte-identical to one process"
done
"$plain" compute wythoff --size 8000x8000 --format npy --quiet --out w1.npy
mpirun -n 4 "$mpi_grundy" compute wythoff --size 8000x8000 --format npy --out w.npy --threads 1 --quiet
cmp w1.npy w.npy || fail "wythoff 8000x8000 on 4 ranks differs from one process's"
rm w1.npy w.npy
echo "mpi-test: compute wythoff --size 8000x8000 --format npy on 4 ranks: byte-identical"

# A table that does not fit one rank's memory cap (kiki 12000², 144 MB of cells; each rank may
# use 100 MB of data): one process fails, four ranks compute it.
cap_kb=100000
status=0
(ulimit -d $cap_kb; exec "$plain" compute kiki --size 12000x12000 --format summary --threads 1 \
  --quiet >/dev/null 2>&1) || status=$?
[ "$status" -ne 0 ] || fail "one process computed kiki 12000² within $cap_kb KB: no proof"
mpirun -n 4 sh -c "ulimit -d $cap_kb; exec '$mpi_grundy' compute kiki --size 12000x12000 \
  --format summary --threads 1 --quiet" >capped.summary
grep -q '"cells":144000000,"sum":215988000,"max":3,"p_positions":36000000' capped.summary \
  || fail "four ranks capped at $cap_kb KB each did not compute kiki 12000²"
echo "mpi-test: kiki 12000² on 4 ranks within $cap_kb KB of data each (one process fails)"

# A killed rank ends a distributed fill at once, with a non-zero exit and no output.
mpirun -n 3 "$mpi_grundy" compute wythoff --size 12000x12000 --format npy --threads 1 --quiet \
  --out killed.npy >/dev/null 2>&1 &
job=$!
sleep 2
kill_a_rank "$job" killed.npy

# Ctrl-C saves a cut between bands (a streamed checkpoint); it resumes on another number of
# ranks, and in one process with --stream, to the summary of a run straight through.
"$plain" compute kiki --size 20000x9000 --format summary --quiet --out whole.summary
mpirun -n 3 "$mpi_grundy" compute kiki --size 20000x9000 --format summary --threads 1 --quiet \
  --checkpoint cut.ckpt --checkpoint-every 0 --out cut.summary 2>stopped.err &
job=$!
for _ in $(seq 200); do
  [ -s cut.ckpt ] && break
  sleep 0.05
done
kill -INT "$job"
status=0
wait "$job" || status=$?
[ "$status" -eq 130 ] || fail "an interrupted fill ended with $status, not 130"
grep -q "saved .* rows to checkpoint cut.ckpt" stopped.err || fail "no word of the saved cut"
[ ! -e cut.summary ] || fail "an interrupted fill wrote its output"
cp cut.ckpt cut-copy.ckpt
mpirun -n 2 "$mpi_grundy" compute kiki --size 20000x9000 --format summary --threads 1 --quiet \
  --checkpoint cut.ckpt --out cut.summary
[ "$(no_seconds whole.summary)" = "$(no_seconds cut.summary)" ] \
  || fail "the fill resumed on 2 ranks differs from one run straight through"
[ ! -e cut.ckpt ] || fail "the checkpoint was not deleted once the summary was written"
"$plain" compute kiki --size 20000x9000 --format summary --stream --quiet \
  --checkpoint cut-copy.ckpt --out stream.summary
[ "$(no_seconds whole.summary)" = "$(no_seconds stream.summary)" ] \
  || fail "the cut resumed by one process with --stream differs"
echo "mpi-test: a cut saved on 3 ranks resumed on 2 ranks and in one process"

# Refusals: one line each, exit 2, on every number of ranks. Each is said before the job ends
# (an MPI_Abort can end it before the line reaches the terminal: the job ends normally instead).
expect_refusal() {
  local want=$1
  shift
  status=0
  mpirun -n 2 "$mpi_grundy" "$@" >refused.out 2>refused.err || status=$?
  [ "$status" -ne 0 ] || fail "$* was not refused"
  grep -q "$want" refused.err || fail "$* was refused without saying '$want': $(cat refused.err)"
}
expect_refusal "only 2-D tables are shared" compute kayles --size 100
expect_refusal "stream is for one process" compute kiki --size 100x100 --stream --format summary
expect_refusal "reach back a bounded number" compute cutting --size 100x100 --format summary \
  --checkpoint c.ckpt
expect_refusal "cannot write" compute kiki --size 100x100 --out /nonexistent/dir/k.csv
expect_refusal "cannot write" survey 'octal:0.??' --size 3000 --out /nonexistent/dir/s.csv
# A member that fails on a worker: rank 0 says why, once the items in hand are back.
expect_refusal "but only 5.0 MiB" survey 'octal:0.??' --size 3000000 --max-memory 5M
echo "mpi-test: bad distributed fills are refused with one line"
