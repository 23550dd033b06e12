#!/usr/bin/env python3
"""The reference figure for BenchmarkRFFEmbedSQL: scikit-learn's
RBFSampler(n_components=512).transform over 20000 rows of 64 standard
normal values (float64, as scikit-learn computes), best of 7 runs.
Run with Debian's /usr/bin/python3 (python3-sklearn):
    /usr/bin/python3 sqltests/testdata/rff_numpy_bench.py
and again with OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 for one core
(SQLite evaluates a query on one core)."""
import time

import numpy as np
import sklearn
from sklearn.kernel_approximation import RBFSampler

rows, d, n_components = 20000, 64, 512
X = np.random.RandomState(1).standard_normal((rows, d))
sampler = RBFSampler(n_components=n_components, gamma=0.5, random_state=0).fit(X)
sampler.transform(X[:100])  # warm up
best = float("inf")
for _ in range(7):
    t = time.perf_counter()
    sampler.transform(X)
    best = min(best, time.perf_counter() - t)
print("numpy %s sklearn %s: %.0f rows/s, %.0f ns/row" % (np.__version__, sklearn.__version__, rows / best, best / rows * 1e9))
