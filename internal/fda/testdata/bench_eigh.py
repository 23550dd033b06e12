#!/usr/bin/python3
"""Anchor of BenchmarkFitCores: scipy.linalg.eigh(M, N + reg*I), the
generalized symmetric-definite problem kfda solves, for n = 1,000 and
4,000 objects of 3 classes drawn like classData (class centre
(cos c, sin c) plus N(0, 0.6^2) noise; numpy's generator, not Go's),
gauss Gram exp(-|x - z|^2), reg = 1e-3. M and N are built outside the
timer (their build is timed apart); best of 3. Run with
OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset (OPENBLAS_NUM_THREADS=1
for one core):
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 bench_eigh.py
"""
import time
import numpy as np
import scipy, scipy.linalg

rng = np.random.default_rng(1)
for n in (1000, 4000):
    y = np.arange(n) % 3
    P = np.c_[np.cos(y), np.sin(y)] + 0.6 * rng.standard_normal((n, 2))
    sq = ((P[:, None, :] - P[None, :, :]) ** 2).sum(-1)
    K = np.exp(-sq)
    t = time.perf_counter()
    m = K.mean(1)
    M = np.zeros((n, n))
    N = K @ K.T
    for c in range(3):
        idx = y == c
        mc = K[:, idx].mean(1)
        M += idx.sum() * np.outer(mc - m, mc - m)
        N -= idx.sum() * np.outer(mc, mc)
    B = N + 1e-3 * np.eye(n)
    build = time.perf_counter() - t
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        scipy.linalg.eigh(M, B)
        best = min(best, time.perf_counter() - t)
    print(f"n={n} scipy {scipy.__version__} numpy {np.__version__}: eigh(M, N + reg I) best of 3 {best:.3f} s (building M and N {build:.3f} s)")
