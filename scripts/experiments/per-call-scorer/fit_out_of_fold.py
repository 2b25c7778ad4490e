"""Per-call scorer experiment, step 6: the fit half's honest figures. Each fit-half call scored by
the model of the cross-validation fold that did not train on its session (steps 3 and 4), at the
thresholds final_evaluation.py used. This is what the in-sample "fit" block of the final evaluation
overstates, and the fairest guess from the fit half alone of what the test half would show.

Usage: fit_out_of_fold.py SCRATCH"""
import sys
from pathlib import Path

import numpy as np

import select_all_calls
from features import load_features, session_bounds
from final_evaluation import RUN_LENGTHS
from measures import precision_recall, runs_of_at_least

if __name__ == "__main__":
    scratch = Path(sys.argv[1])
    X, y, split, groups, names = load_features(scratch)
    fit = split == "fit"
    yf = y[fit]
    mined = X[fit][:, names.index("inMined")] > 0
    left = ~mined
    first, _ = session_bounds(groups[fit])
    final = np.load(scratch / "final_scores.npz")
    oof_all = np.load(scratch / "oof_all_calls.npz")[select_all_calls.oof_key(select_all_calls.CHOSEN, select_all_calls.CHOSEN["n_trees"])]
    oof_left = np.load(scratch / "oof_residual.npz")["stage1"]
    print("miner           ", precision_recall(mined, yf))
    for name, t in zip(final["thr_a_names"], final["thr_a"]):
        print("A alone %-11s" % name, precision_recall(oof_all >= t, yf))
    for name, t in zip(final["thr_b_names"], final["thr_b"]):
        for length in RUN_LENGTHS:
            union = ((oof_left >= t) & left) | mined
            kept = runs_of_at_least(union, first, length) if length > 1 else union
            print("B union %-6s runs>=%d added %4d addedTP %3d " % (name, length, (kept & left).sum(), yf[kept & left].sum()), precision_recall(kept, yf))
