#!/usr/bin/env bash
# A sharded `loopsim tune --sessions` as a Slurm job array, then a merge that waits for it:
#   bash examples/distributed/slurm-array.sh SESSIONS_DIR RESULTS_DIR
# Slurm gives each task SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT; `--shard auto` reads them.
set -euo pipefail
sessions="${1:?sessions folder}"
results="${2:?results folder}"
cd "$(dirname "$0")/../.."
array=$(sbatch --parsable --array=1-4 --cpus-per-task=2 --job-name=loopsim-tune \
  --wrap "node bin/loopsim.js tune --sessions '$sessions' --shard auto --workers 2 --out '$results/parts' --force")
sbatch --dependency="afterok:$array" --job-name=loopsim-merge \
  --wrap "node bin/loopsim.js merge '$results/parts' --out '$results/report' --force"
