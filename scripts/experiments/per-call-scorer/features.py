"""Per-call scorer experiment, step 2: the rows dump.mjs wrote -> one feature matrix.

Every feature is read from the call's own session only: the call's facts, its neighbours' (+-3
calls), counts over the previous and next 5 and 10 calls, and the session's rate of each indicator.
The readers' verdict (`stuck`) is the target and never a feature.

Usage: features.py SCRATCH   (reads SCRATCH/rows.jsonl, writes SCRATCH/features.npz)"""
import json
import sys
from pathlib import Path

import numpy as np

# The per-call facts dump.mjs writes, used as they are.
FACTS = ["failed", "rejected", "silent", "subst", "noOutcome", "shell", "hasFam", "wrote", "changed", "stale", "zoom",
         "recheck", "recheckSame", "unlanded", "never", "creates", "inMined", "resLen", "resAll", "resWin", "shapeAll",
         "shapeWin", "rawAll", "rawWin", "famAll", "famWin", "sigAll", "sigWin", "rejAll", "rejWin", "hears30", "hears10",
         "zooms10", "isNew", "worked", "revert", "sameAsPrevRes", "sameAsPrevFam", "sinceNew", "sinceChanged",
         "sinceWorked", "sinceNotStale", "pos"]
# Categorical facts, one 0/1 column per value; None: the values found in the rows, sorted.
CATEGORIES = {"rule": ["repeat", "failing", "alternation", "same-failure", "same-rejection", "unchanged-recheck", "no-effect",
                       "no-new-fact", "unlanded-edits", "unmoved-break", "idle-recheck"],
              "wkind": ["none", "unknown", "creates", "writes"],
              "famKind": ["unparsed", "install", "module", "other"],
              "fmt": None}
# Indicators whose values around the call (neighbours, rolling counts, session rate) are features
# too: going round shows in a stretch of calls more than in any one call.
CONTEXT = ["stale", "failed", "rejected", "isNew", "changed", "inMined", "hasFam", "worked", "wrote", "silent"]
NEIGHBOURS = (-3, -2, -1, 1, 2, 3)
WINDOWS = (5, 10)


def load_rows(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def session_bounds(groups):
    """For each row, the index of its session's first and last row (a session's rows are contiguous)."""
    n = len(groups)
    first = np.zeros(n, int)
    last = np.zeros(n, int)
    start = 0
    for i in range(n):
        if i > 0 and groups[i] != groups[i - 1]:
            start = i
        first[i] = start
    end = n - 1
    for i in range(n - 1, -1, -1):
        if i < n - 1 and groups[i] != groups[i + 1]:
            end = i
        last[i] = end
    return first, last


def build(rows):
    formats = sorted({r["fmt"] for r in rows})
    names, columns = [], []
    n = len(rows)

    def add(name, values):
        names.append(name)
        columns.append(np.asarray(values, dtype=np.float64))

    for f in FACTS:
        add(f, [r[f] for r in rows])
    add("logN", [np.log1p(r["n"]) for r in rows])
    add("k", [r["k"] for r in rows])
    add("hasRej", [1 if r["rejKind"] else 0 for r in rows])
    for category, values in CATEGORIES.items():
        for v in formats if values is None else values:
            add(f"{category}={v}", [1 if r[category] == v else 0 for r in rows])
    # Coarser indicators: the answer heard again recently, a failure family met before, the exact
    # call sent recently.
    derived = {
        "heard": np.array([1 if (r["hears10"] > 0 or r["resWin"] > 0) else 0 for r in rows], float),
        "repeatedFam": np.array([1 if r["famAll"] > 0 else 0 for r in rows], float),
        "sameRaw": np.array([1 if r["rawWin"] > 0 else 0 for r in rows], float),
    }
    for name, v in derived.items():
        add(name, v)
    context = {f: np.array([r[f] for r in rows], float) for f in CONTEXT}
    context.update(derived)
    first, last = session_bounds([r["ref"] for r in rows])
    idx = np.arange(n)
    for f, v in context.items():
        for d in NEIGHBOURS:
            j = idx + d
            inside = (j >= first) & (j <= last)
            add(f"{f}@{d:+d}", np.where(inside, v[np.clip(j, 0, n - 1)], -1))  # -1: no such neighbour
        cumulative = np.concatenate([[0], np.cumsum(v)])
        for w in WINDOWS:
            lo = np.maximum(idx - w, first)
            add(f"{f}_prev{w}", cumulative[idx] - cumulative[lo])
            hi = np.minimum(idx + w, last)
            add(f"{f}_next{w}", cumulative[hi + 1] - cumulative[idx + 1])
        add(f"{f}_sessRate", (cumulative[last + 1] - cumulative[first]) / (last - first + 1))
    X = np.vstack(columns).T
    y = np.array([r["stuck"] for r in rows], float)
    split = np.array([r["split"] for r in rows])
    groups = np.array([r["ref"] for r in rows])
    return X, y, split, groups, names


def load_features(scratch):
    """The matrix features.py saved: X, y (stuck), split (fit/test/heldout), groups (session ref), names."""
    data = np.load(Path(scratch) / "features.npz")
    return data["X"], data["y"], data["split"], data["groups"], list(data["names"])


if __name__ == "__main__":
    scratch = Path(sys.argv[1])
    X, y, split, groups, names = build(load_rows(scratch / "rows.jsonl"))
    np.savez(scratch / "features.npz", X=X, y=y, split=split, groups=groups, names=np.array(names))
    print(f"features: {X.shape[0]} calls, {X.shape[1]} features, {int(y.sum())} stuck")
