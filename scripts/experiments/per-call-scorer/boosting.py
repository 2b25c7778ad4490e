"""The two learners of the per-call scorer experiment, in numpy alone so the experiment needs no
machine-learning package: gradient-boosted trees on binned features (logistic loss, Newton leaves,
row and column subsampling from a seeded generator) and an L2 logistic regression by Newton steps.
Both return raw log-odds scores; nothing here knows which calls are fit, test or held out."""
import numpy as np


class Binner:
    """Cuts every feature into at most `bins` ordered bins, learned from the rows it is given (the
    fit half only), so a tree split is a bin threshold and a node's histogram is one bincount."""

    def __init__(self, X, bins=32):
        self.edges = []
        for j in range(X.shape[1]):
            values = np.unique(X[:, j])
            if len(values) <= bins:
                # Few distinct values: one bin each, cut half-way between neighbours.
                edges = (values[:-1] + values[1:]) / 2
            else:
                edges = np.unique(np.quantile(X[:, j], np.linspace(0, 1, bins + 1)[1:-1]))
            self.edges.append(edges)
        self.bin_count = max(len(e) for e in self.edges) + 1

    def transform(self, X):
        binned = np.empty(X.shape, np.int32)
        for j, edges in enumerate(self.edges):
            binned[:, j] = np.searchsorted(edges, X[:, j], side="right")
        return binned


class BoostedTrees:
    """Gradient-boosted regression trees for a 0/1 target. Each tree is grown on a random subsample
    of rows and columns drawn from default_rng(seed), so a fit is the same on every run; its first
    m trees are also exactly what a fit with n_trees=m would grow (the draws come in tree order)."""

    def __init__(self, n_trees=300, depth=3, lr=0.05, lam=1.0, min_hess=2.0, colsample=0.8, subsample=0.8, seed=0, pos_weight=1.0):
        self.n_trees, self.depth, self.lr, self.lam, self.min_hess = n_trees, depth, lr, lam, min_hess
        self.colsample, self.subsample, self.seed, self.pos_weight = colsample, subsample, seed, pos_weight

    def fit(self, binned, y, bin_count):
        rng = np.random.default_rng(self.seed)
        n, n_features = binned.shape
        prior = np.clip(y.mean(), 1e-4, 1 - 1e-4)
        self.base = np.log(prior / (1 - prior))
        score = np.full(n, self.base)
        weight = np.where(y > 0, self.pos_weight, 1.0)
        self.trees = []
        # Total split gain per feature: the importance the README reports.
        self.gain = np.zeros(n_features)
        # Offsets that put each column's bins in its own stretch of one flat bincount.
        offsets = (np.arange(n_features) * bin_count)[None, :]
        for _ in range(self.n_trees):
            p = 1 / (1 + np.exp(-score))
            grad = (p - y) * weight
            hess = np.maximum(p * (1 - p), 1e-6) * weight
            rows = np.nonzero(rng.random(n) < self.subsample)[0]
            cols = np.nonzero(rng.random(n_features) < self.colsample)[0]
            nodes = []  # ("leaf", value) or ("split", feature, bin threshold, left node, right node)

            def leaf(G, H):
                nodes.append(("leaf", -G / (H + self.lam) * self.lr))
                return len(nodes) - 1

            def grow(idx, depth):
                G, H = grad[idx].sum(), hess[idx].sum()
                if depth == self.depth or len(idx) < 4:
                    return leaf(G, H)
                flat = (binned[idx][:, cols] + offsets[:, : len(cols)]).ravel()
                size = len(cols) * bin_count
                Gb = np.bincount(flat, weights=np.repeat(grad[idx], len(cols)), minlength=size).reshape(len(cols), bin_count)
                Hb = np.bincount(flat, weights=np.repeat(hess[idx], len(cols)), minlength=size).reshape(len(cols), bin_count)
                GL, HL = np.cumsum(Gb, 1)[:, :-1], np.cumsum(Hb, 1)[:, :-1]
                GR, HR = G - GL, H - HL
                gain = GL ** 2 / (HL + self.lam) + GR ** 2 / (HR + self.lam) - G ** 2 / (H + self.lam)
                gain[(HL < self.min_hess) | (HR < self.min_hess)] = -np.inf
                best = np.unravel_index(np.argmax(gain), gain.shape)
                if not np.isfinite(gain[best]) or gain[best] <= 1e-9:
                    return leaf(G, H)
                feature, threshold = cols[best[0]], best[1]
                self.gain[feature] += gain[best]
                me = len(nodes)
                nodes.append(None)
                goes_left = binned[idx, feature] <= threshold
                left = grow(idx[goes_left], depth + 1)
                right = grow(idx[~goes_left], depth + 1)
                nodes[me] = ("split", feature, threshold, left, right)
                return me

            grow(rows, 0)
            self.trees.append(nodes)
            score += self._tree_score(nodes, binned)
        return self

    @staticmethod
    def _tree_score(nodes, binned):
        out = np.zeros(binned.shape[0])
        stack = [(0, np.arange(binned.shape[0]))]
        while stack:
            i, idx = stack.pop()
            node = nodes[i]
            if node[0] == "leaf":
                out[idx] = node[1]
            else:
                goes_left = binned[idx, node[1]] <= node[2]
                stack.append((node[3], idx[goes_left]))
                stack.append((node[4], idx[~goes_left]))
        return out

    def decision(self, binned):
        score = np.full(binned.shape[0], self.base)
        for nodes in self.trees:
            score += self._tree_score(nodes, binned)
        return score

    def staged(self, binned):
        """The score after 1, 2, ... trees: one fit gives every tree count model selection tries."""
        score = np.full(binned.shape[0], self.base)
        for nodes in self.trees:
            score = score + self._tree_score(nodes, binned)
            yield score


def logistic_regression(X, y, l2=1.0, iters=300):
    """L2 logistic regression on standardised features by Newton steps (the linear baseline).
    Returns a scorer for new rows."""
    mu, sd = X.mean(0), X.std(0) + 1e-9
    Z = np.hstack([np.ones((len(X), 1)), (X - mu) / sd])
    w = np.zeros(Z.shape[1])
    penalised = np.r_[0, np.ones(len(w) - 1)]  # the intercept is not penalised
    for _ in range(iters):
        p = 1 / (1 + np.exp(-Z @ w))
        g = Z.T @ (p - y) + l2 * np.r_[0, w[1:]]
        H = (Z * (p * (1 - p))[:, None]).T @ Z + l2 * np.diag(penalised)
        step = np.linalg.solve(H, g)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return lambda Xn: np.hstack([np.ones((len(Xn), 1)), (Xn - mu) / sd]) @ w
