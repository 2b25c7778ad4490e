#!/usr/bin/env python3
"""Seeded, stratified choice of sessions for the issue-35 recall reading.

Why: recall of the `loops` miner is measured on sessions a person read call by call; the sample
must be reproducible (one seed) and lean on failed runs, where agents get stuck.
Method: 16 sessions per dataset; in each, 11 failed runs (unresolved / unresolved_empty_patch /
failure) and 5 successful ones (resolved / success); runs with no outcome (eval_error, no_eval) are
left out. gpt-5-cam: 16 of its 19 labelled run configurations, one session each, the Python-call
run cam-test3-output and the indented-fence run cam-mini-reasoning-low always among them; which
of those runs gets a success is drawn too. deepseek: per label the runs are drawn round-robin so
every labelled run is represented. Batch 2 (`--batch 2`, seed 36): 4 more per dataset (3 failed, 1 successful), none from batch 1;
gpt-5-cam takes the 3 labelled runs batch 1 left out plus one more drawn run.
Batch 3 (`--batch 3`, seed 37): the held-out sample, read after the miner's changing-args rules
were tuned on batches 1 and 2, so recall measured on it is not fitted: 12 more per dataset (9
failed, 3 successful), none from batches 1 or 2, drawn from each dataset's whole labelled pool.
Batch 4 (`--batch 4`, seed 38): a second held-out draw, the same way, none from batches 1-3, read
when the first held-out batch proved to hold too few stuck calls for a useful interval.
Batch 5 (`--batch 5`, seed 39): 24 per dataset (18 failed, 6 successful), none from batches 1-4: the
held-out sample for the rules revised after batches 3 and 4 measured the first revision (those
two batches then became development data).
Batch 6 (`--batch 6`, seed 40): up to 48 per dataset (36 failed, or every failed run left where fewer remain; 12 successful), none from batches 1-5: the
held-out sample for the rules revised after batch 5 measured them (batches 3-5 then became
development data, read by the rules' author).
Batch 7 (`--batch 7`, seed 41): up to 48 per dataset (48 failed, or every failed run left: none
of gemini-3-pro and deepseek, whose failed runs batches 1-6 used up; 12 successful), none from
batches 1-6: the held-out sample for the rules revised after batch 6 measured them.
Batch 8 (`--batch 8`, seed 42): more held-out sessions for the same rules as batch 7, read after
batch 7: 48 more failed gpt-5-cam runs (the only dataset with failed runs left), and every run of
deepseek's reasoner configuration (no outcome label: its runs were never evaluated; recall needs
none), none from batches 1-7.
Batch 9 (`--batch 9`, seed 43): the held-out sample for the fourth round of rules, written with
batches 1-8 in view: 96 more failed gpt-5-cam runs (unresolved or empty patch, the only failed runs
left), 24 resolved deepseek runs (deepseek's loops were the ones no rule found in batches 7-8, and
its failed runs are used up: an agent that got stuck and recovered still shows its loop), 12
resolved gemini-3-pro runs and 12 successful tau-bench runs, none from batches 1-8.
Batch 10 (`--batch 10`, seed 44): more held-out sessions for the same fourth-round rules, drawn
while batch 9 was being read, because batch 9's stuck calls sat in few sessions: every failed
gpt-5-cam run left (the last failed runs of any dataset), none from batches 1-9.
Batch 11 (`--batch 11 CORPUS_ROOT`, seed 45): the 60 mini-swe-agent sessions of ../shared/corpus
(Gemini 3 Pro on SWE-bench Verified, 30 unresolved and 30 resolved; none is among the datasets'
gemini-3-pro sessions), more held-out sessions for the fourth round's rules, in a seeded order; refs
are relative to the corpus root, as `loops ../shared/datasets ../shared/corpus` names them.
Batch 12 (`--batch 12 DATASETS_ROOT CORPUS_ROOT`, seed 46): the held-out sample for the fifth round of
rules, written with batches 1-8 in view: every session of ../shared/corpus outside its mini-swe-agent
folder with 3 calls or more (the Agent Data Protocol samples of 23 public datasets, Claude Code, Codex
and pi sessions: other harnesses than the ones every earlier batch came from; listed by
scripts/recall/show-session.mjs --list, which reads them through loopsim's importers, so a built
checkout is needed; no outcome labels: recall needs none), and, with no failed run left unread in
any dataset, resolved runs: 48 gpt-5-cam, 24 gemini-3-pro, and every deepseek resolved run and
tau-bench success left, none from batches 1-11. Each entry names its root (datasets or corpus);
corpus refs are relative to the corpus root. Read with show-session.mjs (corpus) or read.py.
Batch 13 (`--batch 13`, seed 47): every session of ../shared/datasets no earlier batch drew (411
resolved gpt-5-cam runs, its 65 runs without an outcome (eval_error, no_eval), 233 resolved
gemini-3-pro runs: 709 sessions), so that every session of the datasets is read once; more held-out
sessions for the fifth round's rules, read after they were set. In a seeded order.
Usage: sample.py DATASETS_ROOT [--batch 2..13] > sample.json
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


def read_before(batch: int) -> set:
    """Every session ref the earlier batches' lists hold: a batch never draws a session read before."""
    here = os.path.dirname(os.path.abspath(__file__))
    read = set()
    for k in range(1, batch):
        read |= {x["ref"] for x in json.load(open(os.path.join(here, f"sample-batch{k}.json")))["sessions"]}
    return read


def batch2(root: str) -> None:
    first = {x["ref"] for x in json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "sample-batch1.json")))["sessions"]}
    first_runs = {r.split("/")[2] for r in first if r.startswith("mini-swe-agent-gpt-5-cam/")}
    rng = random.Random(SEED + 1)
    out = []

    def take(pool, n):
        pool = [p for p in pool if p[0] not in first]
        return rng.sample(pool, n)

    d = "mini-swe-agent-gemini-3-pro"
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    for want, n in ((FAILED, 3), (OK, 1)):
        pool = sorted((f"{d}/trajs/{i}.traj.json.gz", l) for i, l in labels.items() if l in want)
        out += [{"ref": r, "dataset": d, "label": l} for r, l in take(pool, n)]
    d = "mini-swe-agent-gpt-5-cam"
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    runs = sorted(r for r, m in labels.items() if any(l in FAILED | OK for l in m.values()))
    left = [r for r in runs if r not in first_runs]
    chosen = left + rng.sample([r for r in runs if r in first_runs], 4 - len(left))
    ok_run = rng.choice(chosen)
    for r in chosen:
        want = OK if r == ok_run else FAILED
        pool = sorted((f"{d}/run_results/{r}/{i}/{i}.traj.json.gz", l) for i, l in labels[r].items() if l in want and os.path.exists(os.path.join(root, d, "run_results", r, i, i + ".traj.json.gz")))
        out += [{"ref": ref, "dataset": d, "label": l} for ref, l in take(pool, 1)]
    d = "mini-swe-agent-deepseek-tool-calls"
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    for want, n in ((FAILED, 3), (OK, 1)):
        pool = sorted((f"{d}/output/{r}/{i}/{i}.traj.json.gz", l) for r, m in labels.items() for i, l in m.items() if l in want and os.path.exists(os.path.join(root, d, "output", r, i, i + ".traj.json.gz")))
        out += [{"ref": r, "dataset": d, "label": l} for r, l in take(pool, n)]
    d = "tau-bench-airline"
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    for want, n in ((FAILED, 3), (OK, 1)):
        pool = sorted(((f"{d}/historical_trajectories/gpt-4o-airline.json.gz#{k}", l) for k, l in labels.items() if l in want), key=lambda p: (int(p[0].split("#")[1].split("/")[0]), p[0]))
        out += [{"ref": r, "dataset": d, "label": l} for r, l in take(pool, n)]
    json.dump({"seed": SEED + 1, "batch": 2, "sessions": out}, sys.stdout, indent=1)
    print()


def batch3(root: str, batch: int = 3, failed: int = 9, ok: int = 3) -> None:
    read = read_before(batch)
    rng = random.Random(SEED + batch - 1)
    out = []

    def take(pool, n):
        # Batch 6 asks for more failed runs than some datasets have left: it takes them all.
        left = [p for p in pool if p[0] not in read]
        return rng.sample(left, min(n, len(left)))

    def labelled(d, pairs):
        for want, n in ((FAILED, failed), (OK, ok)):
            pool = sorted(((r, l) for r, l in pairs if l in want and os.path.exists(os.path.join(root, r.split("#")[0]))), key=lambda p: p[0])
            out.extend({"ref": r, "dataset": d, "label": l} for r, l in take(pool, n))

    d = "mini-swe-agent-gemini-3-pro"
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    labelled(d, [(f"{d}/trajs/{i}.traj.json.gz", l) for i, l in labels.items()])
    d = "mini-swe-agent-gpt-5-cam"
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    labelled(d, [(f"{d}/run_results/{r}/{i}/{i}.traj.json.gz", l) for r, m in labels.items() for i, l in m.items()])
    d = "mini-swe-agent-deepseek-tool-calls"
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    labelled(d, [(f"{d}/output/{r}/{i}/{i}.traj.json.gz", l) for r, m in labels.items() for i, l in m.items()])
    d = "tau-bench-airline"
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    labelled(d, [(f"{d}/historical_trajectories/gpt-4o-airline.json.gz#{k}", l) for k, l in labels.items()])
    json.dump({"seed": SEED + batch - 1, "batch": batch, "sessions": out}, sys.stdout, indent=1)
    print()


def batch8(root: str) -> None:
    read = read_before(8)
    rng = random.Random(SEED + 7)
    out = []
    d = "mini-swe-agent-gpt-5-cam"
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    pool = sorted((f"{d}/run_results/{r}/{i}/{i}.traj.json.gz", l) for r, m in labels.items() for i, l in m.items() if l in FAILED and os.path.exists(os.path.join(root, d, "run_results", r, i, i + ".traj.json.gz")))
    out += [{"ref": r, "dataset": d, "label": l} for r, l in rng.sample([p for p in pool if p[0] not in read], 48)]
    d = "mini-swe-agent-deepseek-tool-calls"
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    r = "deepseek_reasoner_dev"
    out += [{"ref": f"{d}/output/{r}/{i}/{i}.traj.json.gz", "dataset": d, "label": l} for i, l in sorted(labels[r].items()) if os.path.exists(os.path.join(root, d, "output", r, i, i + ".traj.json.gz")) and f"{d}/output/{r}/{i}/{i}.traj.json.gz" not in read]
    json.dump({"seed": SEED + 7, "batch": 8, "sessions": out}, sys.stdout, indent=1)
    print()


def batch9(root: str) -> None:
    read = read_before(9)
    rng = random.Random(SEED + 8)
    out = []

    def take(d, pairs, want, n):
        pool = sorted((r, l) for r, l in pairs if l in want and r not in read and os.path.exists(os.path.join(root, r.split("#")[0])))
        out.extend({"ref": r, "dataset": d, "label": l} for r, l in rng.sample(pool, n))

    d = "mini-swe-agent-gpt-5-cam"
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    take(d, [(f"{d}/run_results/{r}/{i}/{i}.traj.json.gz", l) for r, m in labels.items() for i, l in m.items()], FAILED, 96)
    d = "mini-swe-agent-deepseek-tool-calls"
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    take(d, [(f"{d}/output/{r}/{i}/{i}.traj.json.gz", l) for r, m in labels.items() for i, l in m.items()], OK, 24)
    d = "mini-swe-agent-gemini-3-pro"
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    take(d, [(f"{d}/trajs/{i}.traj.json.gz", l) for i, l in labels.items()], OK, 12)
    d = "tau-bench-airline"
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    take(d, [(f"{d}/historical_trajectories/gpt-4o-airline.json.gz#{k}", l) for k, l in labels.items()], OK, 12)
    json.dump({"seed": SEED + 8, "batch": 9, "sessions": out}, sys.stdout, indent=1)
    print()


def batch10(root: str) -> None:
    read = read_before(10)
    rng = random.Random(SEED + 9)
    d = "mini-swe-agent-gpt-5-cam"
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    pool = sorted((f"{d}/run_results/{r}/{i}/{i}.traj.json.gz", l) for r, m in labels.items() for i, l in m.items() if l in FAILED and os.path.exists(os.path.join(root, d, "run_results", r, i, i + ".traj.json.gz")))
    left = [p for p in pool if p[0] not in read]
    rng.shuffle(left)
    out = [{"ref": r, "dataset": d, "label": l} for r, l in left]
    json.dump({"seed": SEED + 9, "batch": 10, "sessions": out}, sys.stdout, indent=1)
    print()


def batch11(root: str) -> None:
    # root is the corpus folder here: its mini-swe-agent sessions were never drawn before.
    rng = random.Random(SEED + 10)
    labels = json.load(open(os.path.join(root, "mini-swe-agent", "labels.json")))
    out = [{"ref": f"mini-swe-agent/trajs/{i}.traj.json", "dataset": "corpus mini-swe-agent", "label": l} for i, l in sorted(labels.items()) if l in FAILED | OK and os.path.exists(os.path.join(root, "mini-swe-agent", "trajs", i + ".traj.json"))]
    rng.shuffle(out)
    json.dump({"seed": SEED + 10, "batch": 11, "root": "corpus", "sessions": out}, sys.stdout, indent=1)
    print()


def labelled_refs(root: str, d: str) -> list:
    """(ref, label) of every labelled session of dataset d that is on disk, refs as `loops` names them."""
    labels = json.load(open(os.path.join(root, d, "labels.json")))
    if d == "mini-swe-agent-gpt-5-cam":
        pairs = [(f"{d}/run_results/{r}/{i}/{i}.traj.json.gz", l) for r, m in sorted(labels.items()) for i, l in sorted(m.items())]
    elif d == "mini-swe-agent-deepseek-tool-calls":
        pairs = [(f"{d}/output/{r}/{i}/{i}.traj.json.gz", l) for r, m in sorted(labels.items()) for i, l in sorted(m.items())]
    elif d == "mini-swe-agent-gemini-3-pro":
        pairs = [(f"{d}/trajs/{i}.traj.json.gz", l) for i, l in sorted(labels.items())]
    else:
        pairs = [(f"{d}/historical_trajectories/gpt-4o-airline.json.gz#{k}", l) for k, l in sorted(labels.items())]
    return [(r, l) for r, l in pairs if os.path.exists(os.path.join(root, r.split("#")[0]))]


def batch12(root: str, corpus: str) -> None:
    import subprocess
    read = read_before(12)
    rng = random.Random(SEED + 11)
    show = os.path.join(os.path.dirname(os.path.abspath(__file__)), "show-session.mjs")
    listing = subprocess.run(["node", show, corpus, "--list"], check=True, capture_output=True, text=True).stdout
    out = []
    for line in sorted(listing.splitlines()):
        ref, calls = line.split("\t")
        if not ref.startswith("mini-swe-agent/") and int(calls) >= 3:
            out.append({"ref": ref, "root": "corpus", "dataset": "corpus " + (ref.split("#")[0] if ref.startswith("adp/") else ref.split("/")[0]), "label": "unlabelled"})

    def take(d, want, n=None):
        pool = sorted((r, l) for r, l in labelled_refs(root, d) if l in want and r not in read)
        chosen = pool if n is None or n >= len(pool) else rng.sample(pool, n)
        out.extend({"ref": r, "root": "datasets", "dataset": d, "label": l} for r, l in chosen)

    take("mini-swe-agent-gpt-5-cam", OK, 48)
    take("mini-swe-agent-gemini-3-pro", OK, 24)
    take("mini-swe-agent-deepseek-tool-calls", OK)
    take("tau-bench-airline", OK)
    rng.shuffle(out)
    json.dump({"seed": SEED + 11, "batch": 12, "sessions": out}, sys.stdout, indent=1)
    print()


def batch13(root: str) -> None:
    read = read_before(13)
    rng = random.Random(SEED + 12)
    out = [{"ref": r, "dataset": d, "label": l} for d in ("mini-swe-agent-gpt-5-cam", "mini-swe-agent-gemini-3-pro", "mini-swe-agent-deepseek-tool-calls") for r, l in labelled_refs(root, d)]
    out = [x for x in out if x["ref"] not in read]
    rng.shuffle(out)
    json.dump({"seed": SEED + 12, "batch": 13, "sessions": out}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--") and a not in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13")]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "datasets")
    batch = sys.argv[sys.argv.index("--batch") + 1] if "--batch" in sys.argv else "1"
    {"1": main, "2": batch2, "3": batch3, "4": lambda r: batch3(r, 4), "5": lambda r: batch3(r, 5, 18, 6), "6": lambda r: batch3(r, 6, 36, 12), "7": lambda r: batch3(r, 7, 48, 12), "8": batch8, "9": batch9, "10": batch10, "11": batch11, "13": batch13, "12": lambda r: batch12(r, args[1] if len(args) > 1 else os.path.join(os.path.dirname(r.rstrip("/")), "corpus"))}[batch](root)
