"""Per-call scorer experiment, step 7: diagnostics of the fit-half stuck calls the miner misses
(the residual). Fit half only: its readings were read while building the miner, the test half's
and batch 13's never are here.

It asks how many residual stuck calls show any per-call sign of "nothing new" that a scorer built
on these facts could pick up, which bounds what such a scorer can add. The bound depends on what
counts as a sign, so it is given for a narrow list (the one the README quotes) and a wider one.

Usage: fit_residual.py SCRATCH"""
import sys
from pathlib import Path

import numpy as np

from features import load_features

# Signs that a call added nothing: its answer was already heard (stale, heard), it failed or was
# refused, it was sent before as it is, it met a failure family met before, or it is an edit that
# never landed.
NARROW_SIGNS = ["stale", "heard", "failed", "rejected", "sameRaw", "repeatedFam", "unlanded"]
# Weaker signs too: a re-check, a zoom into an answer heard, a write that never took effect, a
# revert, the answer heard again anywhere in the last 30 calls (past a change too).
WIDER_SIGNS = NARROW_SIGNS + ["recheck", "zoom", "never", "revert", "hears30"]


def dataset_of(ref):
    return ref.split("/", 1)[0]


if __name__ == "__main__":
    scratch = Path(sys.argv[1])
    X, y, split, groups, names = load_features(scratch)
    fit = split == "fit"
    Xf, yf, gf = X[fit], y[fit], groups[fit]
    mined = Xf[:, names.index("inMined")] > 0
    stuck = yf > 0
    missed = stuck & ~mined
    n_stuck, mined_tp = int(stuck.sum()), int((stuck & mined).sum())
    has = lambda f: Xf[:, names.index(f)] > 0

    for label, signs in (("narrow", NARROW_SIGNS), ("wider", WIDER_SIGNS)):
        signed = np.zeros(len(yf), bool)
        for f in signs:
            signed |= has(f)
        picked = int((missed & signed).sum())
        print(f"{label} signs ({', '.join(signs)}):")
        print("  fit residual stuck calls: %d with a per-call nothing-new sign: %d, without: %d ; residual calls with such a sign: %d" % (
            missed.sum(), picked, (missed & ~signed).sum(), (~mined & signed).sum()))
        print("  ceiling if a scorer picked exactly those: recall (%d+%d)/%d=%.3f" % (mined_tp, picked, n_stuck, (mined_tp + picked) / n_stuck))
    print("residual stuck calls carrying each narrow sign:", ", ".join("%s %d" % (f, (missed & has(f)).sum()) for f in NARROW_SIGNS))

    datasets = sorted({dataset_of(g) for g in gf})
    print("residual stuck by dataset:", ", ".join("%s %d" % (d, sum(1 for g in gf[missed] if dataset_of(g) == d)) for d in datasets))
    print("all stuck by dataset:     ", ", ".join("%s %d" % (d, sum(1 for g in gf[stuck] if dataset_of(g) == d)) for d in datasets))
    sessions_with_mined = set(gf[mined])
    print("residual stuck calls in sessions where the miner found something: %d (sessions with a residual stuck call: %d)" % (
        sum(1 for g in gf[missed] if g in sessions_with_mined), len(set(gf[missed]))))
