#!/usr/bin/python3
"""Anchor of BenchmarkFitMapDigits: scipy.linalg.eigh of the Gram matrix of
the 1,797 digits (pixels/16, gauss(sigma=1)), best of 5. Run with
OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset:
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 bench_eigh.py
"""
import csv, os, time
import numpy as np
import scipy, scipy.linalg

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "digits.csv")) as f:
    rows = list(csv.reader(f))[1:]
X = np.array([[float(v) for v in r[2:66]] for r in rows]) / 16
sq = (X * X).sum(1)
K = np.exp(-np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0) / 2)
best = min((lambda t0: (scipy.linalg.eigh(K), time.perf_counter() - t0)[1])(time.perf_counter()) for _ in range(5))
print(f"n={len(X)} scipy {scipy.__version__} numpy {np.__version__}: eigh best of 5 {best:.3f} s")
