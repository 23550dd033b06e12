#!/usr/bin/python3
"""Writes highprec.json for internal/gp's TestSmallNoiseHighPrecision: 80
points in R³ (numpy RandomState(0), uniform in [-2, 2]), a Gaussian kernel
of width 1.5, and for noise 1e-8 and 1e-6 the posterior standard deviations
at the points computed with 60 significant digits (mpmath: the kernel
matrix from the float64 points, then sqrt(noise − noise²·(K + noise·I)⁻¹_ii),
which equals K_ii − k_iᵀ(K + noise·I)⁻¹k_i exactly), beside scikit-learn 1.2's
GaussianProcessRegressor(ConstantKernel(1, fixed)·RBF(1.5, fixed), alpha=noise,
optimizer=None).predict(return_std=True) for comparison. Made with Debian's
python3 (mpmath 1.2.1), from this directory:

    /usr/bin/python3 make_highprec.py
"""
import json
import numpy as np
import mpmath as mp
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import ConstantKernel, RBF

mp.mp.dps = 60
rng = np.random.RandomState(0)
X = rng.uniform(-2, 2, size=(80, 3))
y = np.sin(2 * X[:, 0]) + X[:, 1] ** 2
n = len(X)
K = mp.matrix(n, n)
for i in range(n):
    for j in range(n):
        K[i, j] = mp.exp(-sum((mp.mpf(a) - mp.mpf(b)) ** 2 for a, b in zip(X[i], X[j])) / (2 * mp.mpf(1.5) ** 2))
out = {"x": X.tolist(), "y": y.tolist(), "cases": []}
for noise in [1e-8, 1e-6]:
    s2 = mp.mpf(noise)
    Ai = (K + s2 * mp.eye(n)) ** -1
    exact = [float(mp.sqrt(s2 - s2 ** 2 * Ai[i, i])) for i in range(n)]
    g = GaussianProcessRegressor(kernel=ConstantKernel(1.0, "fixed") * RBF(1.5, "fixed"), alpha=noise, optimizer=None).fit(X, y)
    _, std = g.predict(X, return_std=True)
    out["cases"].append({"noise": noise, "std": exact, "sklearn_std": std.tolist()})
with open("highprec.json", "w") as f:
    json.dump(out, f)
