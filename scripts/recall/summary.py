#!/usr/bin/env python3
"""Print a summary of the sessions read whole (Markdown), from the readings and a reader's shape tags.
Usage: summary.py READINGS SHAPES [NOTES] > summary.md
READINGS: a file with a `sessions` section (reports/real-loops/judgements.json); SHAPES: the reader's
tags {"shapes": {name: description}, "stretches": {ID: {"shape", "args"}}}; NOTES: Markdown appended.
"""
import collections, json, os, sys
R = json.load(open(sys.argv[1]))
S = json.load(open(sys.argv[2]))
ses = R["sessions"]
def grp(lbl):
    return "failed" if lbl in ("unresolved", "unresolved_empty_patch", "failure") else "succeeded"
rows = collections.defaultdict(lambda: [0, 0, 0, 0, 0])  # sessions, calls, sessions-with-stuck, stretches, stuck calls
for ref, s in ses.items():
    k = (s["dataset"], grp(s["label"]))
    r = rows[k]
    r[0] += 1; r[1] += s["calls"]; r[2] += 1 if s["stuck"] else 0; r[3] += len(s["stuck"]); r[4] += sum(x["to"] - x["from"] + 1 for x in s["stuck"])
shape_n = collections.Counter(); shape_calls = collections.Counter(); args = collections.Counter(); missing = []
for ref, s in ses.items():
    for x in s["stuck"]:
        sid = f"{ref}@{x['from']}"
        t = S["stretches"].get(sid)
        if t is None:
            missing.append(sid); continue
        shape_n[t["shape"]] += 1; shape_calls[t["shape"]] += x["to"] - x["from"] + 1; args[t["args"]] += x["to"] - x["from"] + 1
out = ["# Recall reading: summary (issue 35 item 2)", "",
       f"Sessions read: {len(ses)} (sample: scripts/recall/sample.py). Readings: {sys.argv[1]}; criteria: its `protocol`.", "",
       "| dataset | outcome | sessions | calls | sessions with a stuck stretch | stretches | stuck calls |", "|---|---|---|---|---|---|---|"]
tot = [0] * 5
for k in sorted(rows):
    r = rows[k]; tot = [a + b for a, b in zip(tot, r)]
    out.append(f"| {k[0]} | {k[1]} | {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} |")
out.append(f"| **all** | | {tot[0]} | {tot[1]} | {tot[2]} | {tot[3]} | {tot[4]} |")
out += ["", "## Loop shapes seen (stretches / stuck calls)", ""]
for sh, n in shape_n.most_common():
    out.append(f"- **{sh}** ({n} stretches, {shape_calls[sh]} calls): {S['shapes'][sh]}")
out += ["", f"Stuck calls in stretches whose arguments changed from call to call: {args['changed']}; in identical repeats: {args['identical']}.", ""]
out += ["## Every stretch", ""]
for ref, s in ses.items():
    for x in s["stuck"]:
        t = S["stretches"].get(f"{ref}@{x['from']}", {})
        out.append(f"- `{ref}@{x['from']}` calls {x['from']}-{x['to']} [{t.get('shape','?')}, args {t.get('args','?')}] ({s['label']}): {x['reason']}")
if missing:
    out += ["", "Untagged: " + ", ".join(missing)]
if len(sys.argv) > 3 and os.path.exists(sys.argv[3]):
    out += ["", open(sys.argv[3]).read()]
print("\n".join(out))
