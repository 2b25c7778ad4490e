"""Per-call scorer experiment, step 4: choose model B, trained only on the calls the miner did not
flag, to be added to the miner's flags (B union). 5-fold session-grouped cross-validation on the FIT
half only. Besides the chosen one it tries what did not help, so the README can say so:
a second stage fed the neighbours' first-stage scores, and models without session-level features.

Usage: select_residual.py SCRATCH   (reads features.npz, writes oof_residual.npz)"""
import sys
from pathlib import Path

import numpy as np

from boosting import Binner, BoostedTrees, logistic_regression
from features import load_features, session_bounds
from measures import FOLDS, average_precision, recall_at_precision, session_folds

CHOSEN = dict(depth=3, lr=0.1, n_trees=100, min_hess=2.0)
SECOND_STAGE = dict(depth=2, lr=0.1, n_trees=100, min_hess=2.0)
WITHOUT_SESSION_FEATURES = [dict(depth=3, lr=0.1, n_trees=100, min_hess=2.0),
                            dict(depth=2, lr=0.05, n_trees=150, min_hess=5.0, colsample=0.5),
                            dict(depth=1, lr=0.1, n_trees=200, min_hess=5.0)]
OUTSIDE = -10.0  # a neighbour's score where the session has no such neighbour


def neighbour_scores(s, groups):
    """Features of a per-call score s around each call, within its session: the neighbours' scores
    (+-5), the max and mean probability over +-2, 3, 5 calls, the score itself and the session's max."""
    n = len(s)
    first, last = session_bounds(groups)
    idx = np.arange(n)
    columns = []
    for d in (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5):
        j = idx + d
        inside = (j >= first) & (j <= last)
        columns.append(np.where(inside, s[np.clip(j, 0, n - 1)], OUTSIDE))
    for w in (2, 3, 5):
        most = np.full(n, OUTSIDE)
        total = np.zeros(n)
        count = np.zeros(n)
        for d in range(-w, w + 1):
            j = idx + d
            inside = (j >= first) & (j <= last)
            v = s[np.clip(j, 0, n - 1)]
            most = np.where(inside, np.maximum(most, v), most)
            total += np.where(inside, 1 / (1 + np.exp(-v)), 0)
            count += inside
        columns += [most, total / count]
    session_max = np.zeros(n)
    for a in np.unique(first):
        session_max[a:last[a] + 1] = s[a:last[a] + 1].max()
    columns += [s, session_max]
    return np.vstack(columns).T


def out_of_fold(binned, y, fold, train_on, config, bin_count):
    scores = np.zeros(len(y))
    for k in range(FOLDS):
        train = (fold != k) & train_on
        model = BoostedTrees(**config, seed=k).fit(binned[train], y[train], bin_count)
        scores[fold == k] = model.decision(binned[fold == k])
    return scores


def top_counts(s, y, tops=(20, 50, 100, 200)):
    """How many of the top-scored calls are stuck."""
    ys = y[np.argsort(-s, kind="stable")]
    return " ".join("top%d %d" % (a, ys[:a].sum()) for a in tops)


if __name__ == "__main__":
    scratch = Path(sys.argv[1])
    X, y, split, groups, names = load_features(scratch)
    fit = split == "fit"
    Xf, yf, gf = X[fit], y[fit], groups[fit]
    fold = session_folds(gf)
    mined = Xf[:, names.index("inMined")] > 0
    left = ~mined
    print("calls the miner left: %d, of them stuck %d" % (left.sum(), int(yf[left].sum())))
    binner = Binner(Xf)
    Bf = binner.transform(Xf)
    stage1 = out_of_fold(Bf, yf, fold, left, CHOSEN, binner.bin_count)
    print("stage1", CHOSEN, "residual AP=%.3f" % average_precision(stage1[left], yf[left]),
          " ".join("R@P%.1f=%.3f" % (t, recall_at_precision(stage1[left], yf[left], t)[0]) for t in (0.9, 0.7, 0.5, 0.3)), top_counts(stage1[left], yf[left]), flush=True)

    X2 = np.hstack([Xf, neighbour_scores(stage1, gf)])
    binner2 = Binner(X2)
    stage2 = out_of_fold(binner2.transform(X2), yf, fold, left, SECOND_STAGE, binner2.bin_count)
    print("stage2", SECOND_STAGE, "residual AP=%.3f" % average_precision(stage2[left], yf[left]),
          " ".join("R@P%.1f=%.3f" % (t, recall_at_precision(stage2[left], yf[left], t)[0]) for t in (0.9, 0.7, 0.5, 0.3)), top_counts(stage2[left], yf[left]), flush=True)

    # What adding the top-scored residual calls to the miner's flags gives (the union's figures).
    for name, s in (("stage1", stage1), ("stage2", stage2)):
        ys = yf[left][np.argsort(-s[left], kind="stable")]
        mined_tp, n_mined, n_stuck = yf[mined].sum(), mined.sum(), yf.sum()
        print(name, "union", " ".join("+%d:P=%.3f,R=%.3f" % (a, (mined_tp + ys[:a].sum()) / (n_mined + a), (mined_tp + ys[:a].sum()) / n_stuck) for a in (5, 10, 20, 30, 40, 60, 100)))

    # Session-level features (rates over the whole session, its length, the call's position, the
    # format) might let the model learn which sessions the readers read as stuck rather than which
    # calls; without them:
    local = [i for i, nm in enumerate(names) if not (nm.endswith("_sessRate") or nm in ("logN", "k", "pos") or nm.startswith("fmt="))]
    XL = Xf[:, local]
    binnerL = Binner(XL)
    BL = binnerL.transform(XL)
    for config in WITHOUT_SESSION_FEATURES:
        s = out_of_fold(BL, yf, fold, left, config, binnerL.bin_count)
        print("no session features", config, "residual AP=%.3f" % average_precision(s[left], yf[left]), top_counts(s[left], yf[left]), flush=True)
    s = np.zeros(len(yf))
    for k in range(FOLDS):
        train = (fold != k) & left
        s[fold == k] = logistic_regression(XL[train], yf[train], l2=30.0)(XL[fold == k])
    print("no session features logreg l2=30 residual AP=%.3f" % average_precision(s[left], yf[left]), top_counts(s[left], yf[left]))
    np.savez(scratch / "oof_residual.npz", stage1=stage1)
