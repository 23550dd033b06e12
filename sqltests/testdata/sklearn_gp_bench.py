#!/usr/bin/python3
"""Times scikit-learn on the problem of BenchmarkGPFit2000 (sqltests/gp_test.go):
GaussianProcessRegressor(kernel=ConstantKernel(1, fixed)·RBF(2, fixed),
alpha=0.1, optimizer=None).fit(X, y) and predict(X, return_std=True), 2,000
rows of 8 values from the benchmark's generator; best of 5, data in memory.
Run from this directory, with the OpenBLAS variables of this machine unset
for a fair anchor:

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 sklearn_gp_bench.py
"""
import math, time
import numpy as np, sklearn
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import ConstantKernel, RBF

def data(n):
    # gpBenchData's 64-bit linear congruential generator.
    state, X = 12345, np.empty((n, 8))
    for i in range(n):
        for j in range(8):
            state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
            X[i, j] = 4 * ((state >> 11) / (1 << 53)) - 2
    return X, X[:, 0] + np.sin(X[:, 1])

def best(f, reps=5):
    ts = []
    for _ in range(reps):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return min(ts)

X, y = data(2000)
def run():
    g = GaussianProcessRegressor(kernel=ConstantKernel(1.0, "fixed") * RBF(2.0, "fixed"), alpha=0.1, optimizer=None).fit(X, y)
    return g.predict(X, return_std=True)
print("scikit-learn", sklearn.__version__)
print("GaussianProcessRegressor fit + predict(return_std=True), 2000 rows: %.1f ms" % (1e3 * best(run)))
