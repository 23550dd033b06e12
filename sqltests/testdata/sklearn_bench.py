#!/usr/bin/python3
"""Times scikit-learn KernelPCA(n_components=5, kernel='rbf') with its default
solver on the 2,000 digits rows that BenchmarkKPCAExactDigits2000 fits
through SQL: the 1,797 rows of digits.csv, then rows 0..202 again with 0.01
added to every pixel. The default gamma is 1/n_features = 1/64, which is
ksql's gauss(sigma=sqrt(32)). Run from this directory:

    /usr/bin/python3 sklearn_bench.py
"""
import csv
import time

import numpy as np
import sklearn
from sklearn.decomposition import KernelPCA

with open("digits.csv", newline="") as f:
    rows = list(csv.reader(f))[1:]
X = np.array([[float(v) for v in r[2:66]] for r in rows])
X = np.vstack([X, X[:203] + 0.01])[:2000]
print("scikit-learn", sklearn.__version__, "X", X.shape)
times = []
for rep in range(5):
    t = time.perf_counter()
    kp = KernelPCA(n_components=5, kernel="rbf")
    Y = kp.fit_transform(X)
    times.append(time.perf_counter() - t)
print("fit_transform seconds: min %.3f median %.3f" % (min(times), sorted(times)[2]))
print("eigenvalues", kp.eigenvalues_)
