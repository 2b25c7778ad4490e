#!/usr/bin/env python3
"""Seeded, stratified choice of sessions for the issue-35 recall reading.

Why: recall of the `loops` miner is measured on sessions a person read call by call; the sample
must be reproducible (one seed) and lean on failed runs, where agents get stuck.
Method: 16 sessions per dataset; in each, 11 failed runs (unresolved / unresolved_empty_patch /
failure) and 5 successful ones (resolved / success); runs with no outcome (eval_error, no_eval) are
left out. gpt-5-cam: 16 of its 19 labelled run configurations, one session each, the Python-call
run cam-test3-output and the indented-fence run cam-mini-reasoning-low always among them; which
of those runs gets a success is drawn too. deepseek: per label the runs are drawn round-robin so
every labelled run is represented. Usage: sample.py DATASETS_ROOT > sample.json
"""
import gzip, json, os, random, sys

SEED = 35
FAILED = {"unresolved", "unresolved_empty_patch", "failure"}
OK = {"resolved", "success"}
N_FAILED, N_OK = 11, 5


def main(root: str) -> None:
    rng = random.Random(SEED)
    out = []
    # gemini-3-pro: instance -> label
    d = "mini-swe-agent-gemini-3-pro"
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    for want, n in ((FAILED, N_FAILED), (OK, N_OK)):
        pool = sorted(i for i, l in labels.items() if l in want and os.path.exists(os.path.join(root, d, "trajs", i + ".traj.json.gz")))
        for i in rng.sample(pool, n):
            out.append({"ref": f"{d}/trajs/{i}.traj.json.gz", "dataset": d, "label": labels[i]})
    # gpt-5-cam: one session from each of 16 runs
    d = "mini-swe-agent-gpt-5-cam"
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    runs = sorted(r for r, m in labels.items() if any(l in FAILED | OK for l in m.values()))
    forced = ["cam-test3-output", "cam-mini-reasoning-low"]
    others = [r for r in runs if r not in forced]
    chosen = forced + rng.sample(others, 16 - len(forced))
    ok_runs = set(rng.sample(chosen, N_OK))
    for r in chosen:
        want = OK if r in ok_runs else FAILED
        pool = sorted(i for i, l in labels[r].items() if l in want and os.path.exists(os.path.join(root, d, "run_results", r, i, i + ".traj.json.gz")))
        i = rng.choice(pool)
        out.append({"ref": f"{d}/run_results/{r}/{i}/{i}.traj.json.gz", "dataset": d, "label": labels[r][i]})
    # deepseek tool calls: run -> instance -> label; round-robin over runs per label
    d = "mini-swe-agent-deepseek-tool-calls"
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    for want, n in ((FAILED, N_FAILED), (OK, N_OK)):
        runs = sorted(r for r, m in labels.items() if any(l in want for l in m.values()))
        rng.shuffle(runs)
        pools = {r: sorted(i for i, l in labels[r].items() if l in want and os.path.exists(os.path.join(root, d, "output", r, i, i + ".traj.json.gz"))) for r in runs}
        for r in runs:
            rng.shuffle(pools[r])
        k = 0
        while k < n:
            r = runs[k % len(runs)] if k < len(runs) else rng.choice(runs)
            i = pools[r].pop()
            out.append({"ref": f"{d}/output/{r}/{i}/{i}.traj.json.gz", "dataset": d, "label": labels[r][i]})
            k += 1
    # tau-bench airline: "<task>/trial<k>" -> success / failure
    d = "tau-bench-airline"
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    for want, n in ((FAILED, N_FAILED), (OK, N_OK)):
        pool = sorted((k for k, l in labels.items() if l in want), key=lambda k: (int(k.split("/")[0]), k))
        for k in rng.sample(pool, n):
            out.append({"ref": f"{d}/historical_trajectories/gpt-4o-airline.json.gz#{k}", "dataset": d, "label": labels[k]})
    json.dump({"seed": SEED, "sessions": out}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/datasets")
