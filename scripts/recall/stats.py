#!/usr/bin/env python3
"""Counts for the summary notes: stuck calls that repeat an earlier call verbatim vs with changed arguments.
Usage: stats.py [READINGS [DATASETS_ROOT]]  (defaults: reports/real-loops/judgements.json, ../shared/datasets)
"""
import json, re, sys, os
sys.path.insert(0, os.path.dirname(__file__))
import read
REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
READINGS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "reports", "real-loops", "judgements.json")
ROOT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(REPO, "..", "shared", "datasets")
d = json.load(open(READINGS))
st = sum(len(s["stuck"]) for s in d["sessions"].values())
calls = sum(x["to"] - x["from"] + 1 for s in d["sessions"].values() for x in s["stuck"])
in_stretch_ident = in_stretch_changed = sess_ident = 0
pure_identical = 0
for ref, s in d["sessions"].items():
    if not s["stuck"]:
        continue
    rows, _ = read.load(ROOT, ref)
    acts = [re.sub(r"\s+", " ", r[1]).strip() for r in rows if r[0] == "call"]
    for x in s["stuck"]:
        span = acts[x["from"]:x["to"] + 1]
        if len(set(span)) == 1:
            pure_identical += 1
        for k in range(x["from"], x["to"] + 1):
            if acts[k] in acts[:k]:
                sess_ident += 1
            if k > x["from"]:
                if acts[k] in acts[x["from"]:k]:
                    in_stretch_ident += 1
                else:
                    in_stretch_changed += 1
tot = sum(s["calls"] for s in d["sessions"].values())
print(f"stretches {st}, stuck calls {calls} of {tot}; stretches made only of identical calls: {pure_identical}")
print(f"stuck calls repeating an earlier call of the session verbatim: {sess_ident}; not: {calls - sess_ident}")
print(f"repeat calls after each stretch's first call: {in_stretch_ident + in_stretch_changed} ({in_stretch_ident} verbatim repeats of a call in the stretch, {in_stretch_changed} changed)")
