#!/usr/bin/python3
"""Anchor of BenchmarkFitPredict5391: scikit-learn's KernelRidge(alpha=1,
kernel='rbf', gamma=1/64) fit and predict on its own rows, the digits
three times over (raw pixels, copy c shifted by 0.01*c; label the digit),
best of 3. Run with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset
(OPENBLAS_NUM_THREADS=1 for one core):
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 bench_krr5391.py
"""
import csv, os, time
import numpy as np
import sklearn
from sklearn.kernel_ridge import KernelRidge

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "..", "kpca", "testdata", "digits.csv")) as f:
    rows = list(csv.reader(f))[1:]
d = np.array([[float(v) for v in r[2:66]] for r in rows])
X = np.vstack([d + 0.01 * c for c in range(3)])
y = np.tile(np.array([float(r[1]) for r in rows]), 3)
best = float("inf")
for _ in range(3):
    t = time.perf_counter()
    p = KernelRidge(alpha=1, kernel="rbf", gamma=1 / 64).fit(X, y).predict(X)
    best = min(best, time.perf_counter() - t)
print(f"n={len(X)} scikit-learn {sklearn.__version__}: KernelRidge fit+predict best of 3 {best:.3f} s (train MAE {np.abs(p - y).mean():.4f})")
