#!/usr/bin/env bash
# A sharded `loopsim tune --sessions` as a Slurm job array, then a merge that waits for it:
#   bash examples/distributed/slurm-array.sh SESSIONS_DIR RESULTS_DIR [configs|sessions] [TUNE OPTIONS...]
# Slurm gives each task SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT; `--shard auto` reads them.
# By configs (the default), each task runs a quarter of the configs over every session; by sessions,
# each runs a quarter of the sessions under every config (for a dataset larger than the grid).
# Prints the two job ids (array, merge); each task's log is RESULTS_DIR/slurm-JOB_TASK.out.
set -euo pipefail
sessions="${1:?sessions folder}"
results="${2:?results folder}"
by="${3:-configs}"
extra=""
if [ $# -gt 3 ]; then extra=$(printf " %q" "${@:4}"); fi
cd "$(dirname "$0")/../.."
mkdir -p "$results"
array=$(sbatch --parsable --array=1-4 --cpus-per-task=2 --job-name=loopsim-tune --output="$results/slurm-%A_%a.out" \
  --wrap "node bin/loopsim.js tune --sessions '$sessions' --shard auto --by $by --workers 2 --out '$results/parts' --force$extra")
merge=$(sbatch --parsable --dependency="afterok:$array" --job-name=loopsim-merge --output="$results/slurm-%j.out" \
  --wrap "node bin/loopsim.js merge '$results/parts' --out '$results/report' --force")
echo "$array $merge"
