#!/usr/bin/env python3
"""Add or replace one session's reading in /work/coord/recall-readings.json (atomic write).
Usage: record.py REF "note" ["FROM-TO|reason" ...]   (label, dataset, calls taken from the sample / the file)
"""
import json, os, sys
sys.path.insert(0, os.path.dirname(__file__))
import read

OUT = "/work/coord/recall-readings.json"
ROOT = "/work/shared/datasets"
ref, note, *stretches = sys.argv[1:]
sample = {}
for f in ("/work/coord/recall-sample.json", "/work/coord/recall-sample-batch2.json"):
    if os.path.exists(f):
        sample.update({s["ref"]: s for s in json.load(open(f))["sessions"]})
doc = json.load(open(OUT))
rows, _ = read.load(ROOT, ref)
calls = sum(1 for r in rows if r[0] == "call")
stuck = []
for s in stretches:
    rng, reason = s.split("|", 1)
    a, b = (int(x) for x in rng.split("-"))
    assert 0 <= a < b < calls, (a, b, calls)
    stuck.append({"from": a, "to": b, "reason": reason})
doc["sessions"][ref] = {"dataset": sample[ref]["dataset"], "label": sample[ref]["label"], "calls": calls, "stuck": stuck, "note": note}
tmp = OUT + ".tmp"
json.dump(doc, open(tmp, "w"), indent=1)
os.replace(tmp, OUT)
print(f"recorded {ref}: {len(stuck)} stretches, {sum(x['to']-x['from']+1 for x in stuck)} stuck calls; total sessions {len(doc['sessions'])}")
