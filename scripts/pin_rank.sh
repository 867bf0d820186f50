#!/usr/bin/env bash
# pin_rank.sh CPU,CPU,... PROGRAM [ARGS...]: run under `mpirun --bind-to none`, pins this MPI
# rank to one CPU of the list (rank r to the (r mod n)-th, OS CPU numbers as taskset reads them)
# and execs PROGRAM. scripts/bench_cost.sh uses it for CPUS=...: Open MPI 4.1's --cpu-set binds
# every rank to the whole set (not one core each) and numbers CPUs by hwloc's logical index,
# which on a machine with hyperthreads is not the kernel's.
set -euo pipefail
IFS=, read -r -a cpus <<< "$1"
shift
rank="${OMPI_COMM_WORLD_LOCAL_RANK:-${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}}"
exec taskset -c "${cpus[$((rank % ${#cpus[@]}))]}" "$@"
