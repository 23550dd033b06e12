#!/usr/bin/python3
"""Writes ref_gp.json, the references of sqltests/gp_test.go: scikit-learn's
GaussianProcessRegressor with fixed hyperparameters (optimizer=None,
alpha = gp's noise) on 80 training points in R³ and 10 new ones, for each
kernel in CASES and its scikit-learn twin: the posterior mean and standard
deviation (predict(return_std=True)) of the training and the new points and
log_marginal_likelihood_value_. Made with Debian's python3 and scikit-learn
1.2, from this directory:

    /usr/bin/python3 make_gp_ref.py
"""
import json
import numpy as np
import sklearn
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import ConstantKernel, RBF, Matern, RationalQuadratic, DotProduct

rng = np.random.RandomState(0)
X = rng.uniform(-2, 2, size=(80, 3))
y = np.sin(2 * X[:, 0]) + X[:, 1] ** 2 - 0.5 * X[:, 2] + 10 + 0.1 * rng.normal(size=80)
Z = rng.uniform(-2.5, 2.5, size=(10, 3))

one = lambda k: ConstantKernel(1.0, "fixed") * k
CASES = [
    ("gauss(sigma=1.5)", one(RBF(1.5, "fixed")), 0.1, False),
    ("gauss(sigma=1.5)", one(RBF(1.5, "fixed")), 0.1, True),
    ("gauss(sigma=0.8)", one(RBF(0.8, "fixed")), 1e-3, True),
    ("gauss(sigma=0.8)", one(RBF(0.8, "fixed")), 2.0, False),
    ("matern(sigma=2, nu=1.5)", one(Matern(2.0, "fixed", nu=1.5)), 0.05, True),
    ("matern(sigma=1, nu=0.5)", one(Matern(1.0, "fixed", nu=0.5)), 0.5, False),
    ("matern(sigma=1, nu=2.5)", one(Matern(1.0, "fixed", nu=2.5)), 0.01, True),
    ("rq(sigma=1, alpha=2)", one(RationalQuadratic(1.0, 2.0, "fixed", "fixed")), 0.1, True),
    ("linear", DotProduct(0.0, "fixed"), 0.3, False),
]

out = {"sklearn": sklearn.__version__, "x": X.tolist(), "y": y.tolist(), "z": Z.tolist(), "cases": []}
for spec, kernel, noise, norm in CASES:
    g = GaussianProcessRegressor(kernel=kernel, alpha=noise, optimizer=None, normalize_y=norm).fit(X, y)
    mean, std = g.predict(X, return_std=True)
    zmean, zstd = g.predict(Z, return_std=True)
    out["cases"].append({"kernel": spec, "noise": noise, "normalize_y": norm,
                         "mean": mean.tolist(), "std": std.tolist(), "z_mean": zmean.tolist(), "z_std": zstd.tolist(),
                         "lml": float(g.log_marginal_likelihood_value_)})
with open("ref_gp.json", "w") as f:
    json.dump(out, f)
