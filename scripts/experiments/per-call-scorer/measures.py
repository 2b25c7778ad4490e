"""How the experiment scores a flagging and splits the fit half, shared by its steps."""
import hashlib

import numpy as np

FOLDS = 5


def session_folds(groups, folds=FOLDS):
    """Cross-validation fold of each row by its session (md5 of the ref): a session's calls are
    never split between training and scoring, since calls of one session resemble each other."""
    return np.array([int(hashlib.md5(g.encode()).hexdigest(), 16) % folds for g in groups])


def recall_at_precision(score, y, target):
    """Recall of the largest top-scored cut whose precision is >= target, and the score at that cut
    (flag score >= it). Ties keep row order (stable sort) so the cut is the same on every run."""
    order = np.argsort(-score, kind="stable")
    ys = y[order]
    tp = np.cumsum(ys)
    precision = tp / np.arange(1, len(ys) + 1)
    ok = np.nonzero(precision >= target)[0]
    if len(ok) == 0:
        return 0.0, np.inf
    i = ok.max()
    return tp[i] / ys.sum(), score[order][i]


def average_precision(score, y):
    order = np.argsort(-score, kind="stable")
    ys = y[order]
    precision = np.cumsum(ys) / np.arange(1, len(ys) + 1)
    return (precision * ys).sum() / ys.sum()


def wilson(k, n, z=1.96):
    """95% Wilson interval of k/n. The calls of one session are not independent, so for these
    figures it is narrower than the truth."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return ((c - h) / d, (c + h) / d)


def precision_recall(flagged, y):
    """"P=tp/flagged=.. [interval]  R=tp/stuck=.. [interval]" for a 0/1 flag per call."""
    tp = int((flagged & (y > 0)).sum())
    n_flagged = int(flagged.sum())
    n_stuck = int(y.sum())
    pl, ph = wilson(tp, n_flagged)
    rl, rh = wilson(tp, n_stuck)
    return "P=%d/%d=%.3f [%.3f,%.3f]  R=%d/%d=%.3f [%.3f,%.3f]" % (
        tp, n_flagged, tp / max(n_flagged, 1), pl, ph, tp, n_stuck, tp / max(n_stuck, 1), rl, rh)


def runs_of_at_least(flagged, session_first, length):
    """Keep only flagged calls in runs of >= length consecutive flagged calls of one session: the
    readers mark stretches, so a lone flagged call is more likely noise."""
    out = np.zeros(len(flagged), bool)
    n = len(flagged)
    i = 0
    while i < n:
        if not flagged[i]:
            i += 1
            continue
        j = i
        while j + 1 < n and flagged[j + 1] and session_first[j + 1] == session_first[i]:
            j += 1
        if j - i + 1 >= length:
            out[i:j + 1] = True
        i = j + 1
    return out
