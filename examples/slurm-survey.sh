#!/bin/bash
# A survey of every three-digit octal code on a Slurm cluster: rank 0 hands members out to the
# other ranks as they finish (dynamic load balancing) and writes the table; the rows done so far
# are kept in survey.csv.partial, so a job that hits its time limit is resubmitted with --resume.
#
# Build once, against the cluster's MPI (its mpicc on PATH, e.g. `module load openmpi` or
# `module load mpich`; the bindings also need libclang):
#   cargo build --release -p grundy-cli --features mpi
#
#SBATCH --job-name=grundy-survey
#SBATCH --nodes=4
#SBATCH --ntasks-per-node=8
#SBATCH --cpus-per-task=4
#SBATCH --time=04:00:00

set -euo pipefail
resume=()
[ -e survey.csv.partial ] && resume=(--resume)
srun --cpu-bind=cores target/release/grundy survey 'octal:0.???' \
  --until-proved --limit 16777216 --threads "$SLURM_CPUS_PER_TASK" \
  --no-seconds --quiet --out survey.csv "${resume[@]}"
