#!/usr/bin/python3
"""Anchor of BenchmarkKPCANystrom20000: scikit-learn Nystroem(500 components,
rbf, gamma = 1/64 = ksql's gauss(sigma=sqrt(32))) then PCA(5), fit_transform on
20,000 rows of digits tiled with small noise (the shape of the benchmark's
table; the times do not depend on the values). Best of 5. Run from this
directory with OpenBLAS's tuning variables unset:

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 sklearn_nystroem_bench.py
"""
import csv
import time

import numpy as np
import sklearn
from sklearn.decomposition import PCA
from sklearn.kernel_approximation import Nystroem

with open("digits.csv", newline="") as f:
    rows = list(csv.reader(f))[1:]
X = np.array([[float(v) for v in r[2:66]] for r in rows])
rng = np.random.default_rng(0)
X = np.vstack([X] * 12)[:20000] + rng.normal(0, 0.1, (20000, 64))
times = []
for rep in range(5):
    t = time.perf_counter()
    F = Nystroem(kernel="rbf", gamma=1 / 64, n_components=500, random_state=0).fit_transform(X)
    Y = PCA(n_components=5).fit_transform(F)
    times.append(time.perf_counter() - t)
print("scikit-learn", sklearn.__version__, "numpy", np.__version__, "X", X.shape)
print("Nystroem(500)+PCA(5) fit_transform seconds: min %.3f median %.3f" % (min(times), sorted(times)[2]))
