"""Per-call scorer experiment, step 3: choose model A (scores every call, the miner's flag being one
feature) by 5-fold session-grouped cross-validation on the FIT half only. No test or batch-13 row is
read for anything but its split.

Usage: select_all_calls.py SCRATCH   (reads features.npz, writes oof_all_calls.npz: out-of-fold
scores of every configuration and tree count, which final_evaluation.py takes thresholds from)"""
import sys
from pathlib import Path

import numpy as np

from boosting import Binner, BoostedTrees, logistic_regression
from features import load_features
from measures import FOLDS, average_precision, recall_at_precision, session_folds

TREE_COUNTS = [50, 100, 150, 200, 250]
CONFIGS = [dict(depth=d, lr=0.1, n_trees=250, pos_weight=1.0, min_hess=2.0) for d in (2, 3, 4)]
CONFIGS += [dict(depth=3, lr=0.1, n_trees=250, pos_weight=3.0, min_hess=2.0), dict(depth=3, lr=0.1, n_trees=250, pos_weight=1.0, min_hess=8.0)]
# The one carried to the final evaluation: depth 2 after 50 trees had the best recall at 88%
# precision (0.541, tied with depth 3 at pos_weight 3 after 50 trees), and is the simpler of the two.
CHOSEN = dict(depth=2, lr=0.1, n_trees=50, min_hess=2.0, pos_weight=1.0)


def oof_key(config, trees):
    """The name of a configuration's out-of-fold scores after `trees` trees."""
    return "depth%d_lr%g_pw%g_mh%g@%d" % (config["depth"], config["lr"], config["pos_weight"], config["min_hess"], trees)


if __name__ == "__main__":
    scratch = Path(sys.argv[1])
    X, y, split, groups, names = load_features(scratch)
    fit = split == "fit"
    Xf, yf = X[fit], y[fit]
    fold = session_folds(groups[fit])
    print("fit rows", len(yf), "pos", int(yf.sum()), "features", X.shape[1], flush=True)
    binner = Binner(Xf)
    Bf = binner.transform(Xf)
    mined = Xf[:, names.index("inMined")]
    print("miner alone (fit): P=%.3f R=%.3f" % (yf[mined > 0].mean(), (yf * mined).sum() / yf.sum()))
    scores = {}
    oof = np.zeros(len(yf))
    for k in range(FOLDS):
        train, held = fold != k, fold == k
        oof[held] = logistic_regression(Xf[train], yf[train], l2=10.0)(Xf[held])
    print("logreg l2=10: AP=%.3f R@P90=%.3f" % (average_precision(oof, yf), recall_at_precision(oof, yf, 0.9)[0]), flush=True)
    scores["logreg"] = oof
    for config in CONFIGS:
        oofs = {t: np.zeros(len(yf)) for t in TREE_COUNTS}
        for k in range(FOLDS):
            train, held = fold != k, fold == k
            model = BoostedTrees(**config, seed=k).fit(Bf[train], yf[train], binner.bin_count)
            for i, s in enumerate(model.staged(Bf[held])):
                if i + 1 in oofs:
                    oofs[i + 1][held] = s
        for t in TREE_COUNTS:
            s = oofs[t]
            print(config, "trees", t, "AP=%.3f R@P90=%.3f R@P88=%.3f" % (
                average_precision(s, yf), recall_at_precision(s, yf, 0.9)[0], recall_at_precision(s, yf, 0.88)[0]), flush=True)
            scores[oof_key(config, t)] = s
    np.savez(scratch / "oof_all_calls.npz", **scores)
