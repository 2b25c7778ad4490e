#!/usr/bin/env python3
"""Add or replace one session's reading in a reader's working file (atomic write).
Usage: READINGS=FILE [DATASETS=ROOT] record.py REF "note" ["FROM-TO|reason" ...]
(label, dataset and calls are taken from the batch lists beside this script and from the file;
READINGS is the reader's own file, in the shape of judgements.json's `sessions` section)
"""
import json, os, sys
sys.path.insert(0, os.path.dirname(__file__))
import read

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.environ["READINGS"]
ROOT = os.environ.get("DATASETS", os.path.join(HERE, "..", "..", "..", "shared", "datasets"))
ref, note, *stretches = sys.argv[1:]
sample = {}
for f in (os.path.join(HERE, f"sample-batch{k}.json") for k in (1, 2, 3)):
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
