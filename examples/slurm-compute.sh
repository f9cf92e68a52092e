#!/bin/bash
# Wythoff's table to 100000 x 100000 (10^10 cells) on a Slurm cluster, summed up: the table is
# cut into bands of rows dealt to the ranks in turn, each rank passes the bottom of its band to
# the next as a pipelined wavefront, and no rank holds more than its band, the line summaries and
# (on rank 0) one finished band of another rank. The state between two bands is saved every ten
# minutes, so a job that hits its time limit goes on when resubmitted (on any number of ranks).
#
# Build once, against the cluster's MPI (its mpicc on PATH, e.g. `module load openmpi` or
# `module load mpich`; the bindings also need libclang):
#   cargo build --release -p grundy-cli --features mpi
#
#SBATCH --job-name=grundy-wythoff
#SBATCH --nodes=16
#SBATCH --ntasks-per-node=32
#SBATCH --cpus-per-task=1
#SBATCH --mem-per-cpu=3G
#SBATCH --time=02:00:00

set -euo pipefail
srun --cpu-bind=cores target/release/grundy compute wythoff --size 99999x99999 \
  --threads "$SLURM_CPUS_PER_TASK" --format summary --quiet \
  --checkpoint wythoff-100k.ckpt --checkpoint-every 600 --out wythoff-100k.json
