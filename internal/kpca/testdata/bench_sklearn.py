#!/usr/bin/python3
"""scikit-learn side of internal/kpca's BenchmarkFitExact (not used by tests).

    /usr/bin/python3 bench_sklearn.py

Builds the same 2,000 rows as the Go benchmark's tiledDigits only in
distribution (digits.csv / 16, the 1,797 rows then copies with uniform noise
in +-0.01; numpy's generator, not SplitMix64), and times
KernelPCA(n_components=5, kernel='rbf') end to end (kernel matrix, centring,
default solver: arpack for n > 200 and k < 10), best of 3, for gamma = 0.5
(ksql gauss(sigma=1)) and gamma = 1/64 (sklearn's default 1/n_features,
gauss(sigma=sqrt(32))). Also times the dense solver for reference.
"""
import csv
import time

import numpy as np
import sklearn
from sklearn.decomposition import KernelPCA

with open("digits.csv", newline="") as f:
    rows = list(csv.reader(f))
d = np.array([[float(v) for v in r[2:66]] for r in rows[1:]]) / 16.0
rng = np.random.default_rng(2024)
X = np.vstack([d, d[:2000 - len(d)] + rng.uniform(-0.01, 0.01, (2000 - len(d), 64))])

print("scikit-learn", sklearn.__version__, "numpy", np.__version__, "X", X.shape)
for gamma, solver in [(0.5, "auto"), (1 / 64, "auto"), (0.5, "dense")]:
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        KernelPCA(n_components=5, kernel="rbf", gamma=gamma, eigen_solver=solver).fit_transform(X)
        best = min(best, time.perf_counter() - t)
    print("KernelPCA(n_components=5, kernel='rbf', gamma=%.6g, eigen_solver=%r): %.3f s" % (gamma, solver, best))

# The solver alone, from a precomputed kernel matrix (what Go's "fit/" measures).
from sklearn.metrics.pairwise import rbf_kernel
for gamma in (0.5, 1 / 64):
    K = rbf_kernel(X, gamma=gamma)
    best = float("inf")
    for _ in range(3):
        Kc = K.copy()
        t = time.perf_counter()
        KernelPCA(n_components=5, kernel="precomputed").fit_transform(Kc)
        best = min(best, time.perf_counter() - t)
    print("KernelPCA(n_components=5, kernel='precomputed') on the rbf gamma=%.6g matrix: %.3f s" % (gamma, best))
    t = time.perf_counter()
    rbf_kernel(X, gamma=gamma)
    print("rbf_kernel alone: %.3f s" % (time.perf_counter() - t))
