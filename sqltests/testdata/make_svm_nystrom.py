"""Reference values for sqltests/svm_nystrom_test.go: scikit-learn 1.2's
LinearSVC(loss='hinge', dual=True) on the Nyström features of ksql's own
landmarks.

Run with Debian's python3 (scikit-learn 1.2.1, python3-sklearn
1.2.1+dfsg-1), from this directory:

    /usr/bin/python3 make_svm_nystrom.py > ref_svm_nystrom.json

Data: digits.csv (1,797 rows, 64 pixels, id order = row order), the
kernel gauss(sigma=20), exp(−‖x − z‖² / 800) (scikit-learn's rbf with
gamma = 1/800).

The landmarks are ksql's: kpca.SampleLandmarks re-implemented below
(SplitMix64 seeded with seed, a partial Fisher–Yates shuffle drawing with
Lemire's unbiased multiply-shift, sorted). The features are built in numpy
exactly as ksql builds them, Φ = C·U_r·Σ_r^(−1/2) with C the kernel values
against the landmarks and W = U·Σ·Uᵀ the landmarks' Gram matrix,
eigenvalues ≤ m·ε·λ_max dropped (scikit-learn's Nystroem instead floors
them at 1e-12 and rotates by Uᵀ, which changes no inner product of the kept
directions but would amplify rounding in the dropped ones).

LinearSVC does not expose its dual variables, so each case records the
primal objective of every one-vs-rest problem, ½(‖w‖² + b²) + C·Σ max(0,
1 − y·(w·φ + b)) (the bias regularised: intercept_scaling=1 appends a
feature B = 1, as LIBLINEAR does), computed here from coef_ and
intercept_, and the predictions of every row (decision values too with two
classes, positive for the larger label).
"""
import csv
import json
import sys

import numpy as np
import sklearn
from sklearn.svm import LinearSVC

MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, bound):
        m = self.next() * bound
        hi, lo = m >> 64, m & MASK
        if lo < bound:
            threshold = ((1 << 64) - bound) % bound
            while lo < threshold:
                m = self.next() * bound
                hi, lo = m >> 64, m & MASK
        return hi


def sample_landmarks(n, m, seed):
    p = list(range(n))
    if m >= n:
        return p
    g = SplitMix64(seed)
    for i in range(m):
        j = i + g.below(n - i)
        p[i], p[j] = p[j], p[i]
    return sorted(p[:m])


def gauss(A, B, sigma):
    d = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2 * A @ B.T
    return np.exp(-np.maximum(d, 0) / (2 * sigma * sigma))


def features(X, marks, sigma):
    L = X[marks]
    W = gauss(L, L, sigma)
    W = (W + W.T) / 2
    vals, vecs = np.linalg.eigh(W)
    keep = vals > max(len(marks) * np.finfo(float).eps * vals.max(), 0)
    M = vecs[:, keep] / np.sqrt(vals[keep])
    return gauss(X, L, sigma) @ M


def primal(svc, F, y, classes, C):
    out = []
    coefs = svc.coef_
    icpt = svc.intercept_
    for p in range(coefs.shape[0]):
        pos = classes[1] if len(classes) == 2 else classes[p]
        s = np.where(y == pos, 1.0, -1.0)
        f = F @ coefs[p] + icpt[p]
        out.append(0.5 * (coefs[p] @ coefs[p] + icpt[p] ** 2) + C * np.maximum(0, 1 - s * f).sum())
    return out


with open("digits.csv", newline="") as f:
    rows = list(csv.reader(f))[1:]
X = np.array([[float(v) for v in r[2:66]] for r in rows])
y = np.array([int(r[1]) for r in rows])
SIGMA = 20.0

cases = {}
for name, subset, m, seed, C in [
    ("two", [3, 8], 100, 0, 1.0),
    ("two_c01", [3, 8], 60, 5, 0.1),
    ("ten", None, 200, 1, 1.0),
    ("ten_c03", None, 150, 2, 0.3),
]:
    rowsel = np.arange(len(y)) if subset is None else np.flatnonzero(np.isin(y, subset))
    Xs, ys = X[rowsel], y[rowsel]
    marks = sample_landmarks(len(ys), m, seed)
    F = features(Xs, marks, SIGMA)
    svc = LinearSVC(loss="hinge", dual=True, C=C, tol=1e-4, max_iter=1000, random_state=0).fit(F, ys)
    classes = list(svc.classes_)
    case = {
        "subset": subset, "landmarks": int(m), "seed": seed, "C": C, "sigma": SIGMA,
        "landmark_rows": [int(i) for i in marks], "rank": int(F.shape[1]),
        "n_iter": int(svc.n_iter_),
        "primal": primal(svc, F, ys, classes, C),
        "predict": [int(v) for v in svc.predict(F)],
    }
    if len(classes) == 2:
        case["decision"] = [float(v) for v in svc.decision_function(F)]
    cases[name] = case

json.dump({"sklearn": sklearn.__version__, "numpy": np.__version__, "cases": cases}, sys.stdout, indent=None)
print()
