"""Per-call scorer experiment, step 5: the one evaluation on calls never used before.

Fits the chosen model A (every call) and model B (the calls the miner left, added to the miner's
flags) on the whole FIT half; takes every threshold from the fit half's out-of-fold scores (steps 3
and 4), never from the evaluated calls; then scores the test half and batch 13 once. Two test
evaluations in all: A's frontier and B union's frontier. Only aggregates are printed: no session or
reason of the test half or batch 13 is looked at. The "fit" block is in-sample (the models were
fitted on those calls): fit_out_of_fold.py gives the fit half's honest figures.

Usage: final_evaluation.py SCRATCH   (reads features.npz and both oof_*.npz, writes final_scores.npz)"""
import sys
from pathlib import Path

import numpy as np

import select_all_calls
import select_residual
from boosting import Binner, BoostedTrees
from features import load_features, session_bounds
from measures import average_precision, precision_recall, recall_at_precision, runs_of_at_least

# Model A's operating points: the precision its out-of-fold scores reach on the fit half.
PRECISION_TARGETS = (0.95, 0.90, 0.85, 0.80, 0.70, 0.60, 0.50)
# Model B's: quantiles of its out-of-fold scores over the fit-half calls the miner left (q0.99:
# the top 1% of them are added to the miner's flags).
QUANTILES = (0.998, 0.995, 0.99, 0.98, 0.95, 0.90)
# Model B's added calls count either alone or only in runs (with the miner's flags) of 3 or more.
RUN_LENGTHS = (1, 3)
TOP_FEATURES = 15


def thresholds(scratch, y_fit, left_fit):
    oof_all = np.load(scratch / "oof_all_calls.npz")[select_all_calls.oof_key(select_all_calls.CHOSEN, select_all_calls.CHOSEN["n_trees"])]
    oof_left = np.load(scratch / "oof_residual.npz")["stage1"]
    for_a = {f"oofP>={t:.2f}": recall_at_precision(oof_all, y_fit, t)[1] for t in PRECISION_TARGETS}
    for_b = {f"q{q}": np.quantile(oof_left[left_fit], q) for q in QUANTILES}
    return for_a, for_b


if __name__ == "__main__":
    scratch = Path(sys.argv[1])
    X, y, split, groups, names = load_features(scratch)
    mined = X[:, names.index("inMined")] > 0
    fit = split == "fit"
    binner = Binner(X[fit])
    B = binner.transform(X)
    first, _ = session_bounds(groups)
    thr_a, thr_b = thresholds(scratch, y[fit], ~mined[fit])

    model_a = BoostedTrees(**select_all_calls.CHOSEN, seed=0).fit(B[fit], y[fit], binner.bin_count)
    score_a = model_a.decision(B)
    fit_left = fit & ~mined
    model_b = BoostedTrees(**select_residual.CHOSEN, seed=0).fit(B[fit_left], y[fit_left], binner.bin_count)
    score_b = model_b.decision(B)

    for part in ("fit", "test", "heldout"):
        m = split == part
        yy = y[m]
        print(f"== {part}: calls {m.sum()} stuck {int(yy.sum())} sessions {len(set(groups[m]))}")
        print("  miner alone               ", precision_recall(mined[m], yy))
        print("  model A AP=%.3f" % average_precision(score_a[m], yy))
        for name, t in thr_a.items():
            print("  A alone  thr %-11s (%.2f)" % (name, t), precision_recall(score_a[m] >= t, yy))
        for name, t in thr_a.items():
            print("  A union  thr %-11s      " % name, precision_recall((score_a[m] >= t) | mined[m], yy))
        left = ~mined[m]
        print("  model B residual AP=%.3f (residual stuck %d of %d calls)" % (average_precision(score_b[m][left], yy[left]), int(yy[left].sum()), left.sum()))
        for name, t in thr_b.items():
            for length in RUN_LENGTHS:
                union = ((score_b[m] >= t) & left) | mined[m]
                kept = runs_of_at_least(union, first[m], length) if length > 1 else union
                added = kept & left
                print("  B union  %-6s runs>=%d added %4d addedTP %3d  " % (name, length, added.sum(), int(yy[added].sum())), precision_recall(kept, yy))

    # What carries each final model: its share of the total split gain, top features.
    for name, model in (("A", model_a), ("B", model_b)):
        share = model.gain / model.gain.sum()
        top = np.argsort(-share, kind="stable")[:TOP_FEATURES]
        print(f"importance {name}:", ", ".join("%s %.3f" % (names[i], share[i]) for i in top))
    np.savez(scratch / "final_scores.npz", score_a=score_a, score_b=score_b,
             thr_a_names=np.array(list(thr_a)), thr_a=np.array(list(thr_a.values())),
             thr_b_names=np.array(list(thr_b)), thr_b=np.array(list(thr_b.values())))
