"""Runs the per-call scorer experiment end to end, one step after another (about 10 minutes on one
core; numpy is the only package needed). Run from the repository root after `npm run build`:

  python3 scripts/experiments/per-call-scorer/run.py [--scratch DIR] [--judgements FILE] [--shared DIR]

Every intermediate file (rows.jsonl, features.npz, the out-of-fold and final scores, one .log per
step) goes to the scratch folder, by default a new one under the system's temporary folder; nothing
is written into the repository. Each step's output is printed and kept as SCRATCH/<step>.log."""
import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
STEPS = ["features", "select_all_calls", "select_residual", "final_evaluation", "fit_out_of_fold", "fit_residual"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scratch", help="folder for intermediate files (default: a new temporary folder)")
    parser.add_argument("--judgements", default="reports/real-loops/judgements.json")
    parser.add_argument("--shared", default="../shared")
    args = parser.parse_args()
    scratch = Path(args.scratch) if args.scratch else Path(tempfile.mkdtemp(prefix="per-call-scorer-"))
    scratch.mkdir(parents=True, exist_ok=True)
    print(f"scratch: {scratch}", flush=True)
    # One BLAS thread: the figures then do not depend on the machine's core count, and the run
    # takes one core of a shared machine. No __pycache__ written next to the scripts either.
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
    with open(scratch / "rows.jsonl", "w") as rows, open(scratch / "dump.log", "w") as log:
        subprocess.run(["node", str(HERE / "dump.mjs"), args.judgements, args.shared], stdout=rows, stderr=log, check=True)
    print((scratch / "dump.log").read_text(), end="", flush=True)
    for step in STEPS:
        print(f"== step {step}", flush=True)
        result = subprocess.run([sys.executable, str(HERE / f"{step}.py"), str(scratch)], env=env, stdout=subprocess.PIPE, text=True, check=True)
        (scratch / f"{step}.log").write_text(result.stdout)
        print(result.stdout, end="", flush=True)


if __name__ == "__main__":
    main()
