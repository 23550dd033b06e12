#!/usr/bin/python3
"""Reference values for internal/kpca's tests, from scikit-learn.

Run from this directory with Debian's /usr/bin/python3 (python3-sklearn 1.2.1):

    /usr/bin/python3 make_ref.py

It writes ref_iris.json and ref_digits.json: scikit-learn KernelPCA with
eigen_solver='dense' fitted on
  (a) iris.csv features, rbf gamma = 1/(2 sigma^2) = 0.5 (ksql gauss(sigma=1)), 3 components;
  (b) the first 500 rows of digits.csv, features / 16, polynomial gamma = 1,
      coef0 = 1, degree 3 (ksql poly(degree=3, r=1)), 5 components;
with the projections of the training rows (fit_transform), of new points
(transform), the eigenvalues (eigenvalues_) and the explained ratio
eigenvalue / trace of the centred Gram matrix (KernelCenterer). Floats are
written with repr, so they parse back to the same doubles.
"""
import csv
import json

import numpy as np
import sklearn
from sklearn.decomposition import KernelPCA
from sklearn.metrics.pairwise import pairwise_kernels
from sklearn.preprocessing import KernelCenterer


def load(path, first, last):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return np.array([[float(v) for v in r[first:last]] for r in rows[1:]])


def reference(name, X, Xnew, kernel, params, k, spec):
    kp = KernelPCA(n_components=k, kernel=kernel, eigen_solver="dense", **params)
    train = kp.fit_transform(X)
    new = kp.transform(Xnew)
    K = pairwise_kernels(X, metric=kernel, filter_params=True, **params)
    trace = float(np.trace(KernelCenterer().fit_transform(K)))
    out = {
        "generator": "make_ref.py, scikit-learn %s, numpy %s" % (sklearn.__version__, np.__version__),
        "kernel": spec,
        "sklearn": "KernelPCA(n_components=%d, kernel=%r, eigen_solver='dense', %s)" % (
            k, kernel, ", ".join("%s=%r" % kv for kv in sorted(params.items()))),
        "components": k,
        "eigenvalues": kp.eigenvalues_.tolist(),
        "explained_ratio": (kp.eigenvalues_ / trace).tolist(),
        "trace": trace,
        "train": train.tolist(),
        "new_x": Xnew.tolist(),
        "new": new.tolist(),
    }
    with open("ref_%s.json" % name, "w") as f:
        json.dump(out, f, indent=0)
        f.write("\n")


iris = load("iris.csv", 1, 5)
iris_new = np.vstack([
    iris[0:50].mean(axis=0), iris[50:100].mean(axis=0), iris[100:150].mean(axis=0),
    [7.0, 3.5, 2.0, 1.0], [0.0, 0.0, 0.0, 0.0], iris[0], iris[77],
])
reference("iris", iris, iris_new, "rbf", {"gamma": 0.5}, 3, "gauss(sigma=1)")

digits = load("digits.csv", 2, 66) / 16.0
reference("digits", digits[:500], np.vstack([digits[500:510], digits[0]]), "poly",
          {"gamma": 1.0, "coef0": 1.0, "degree": 3}, 5, "poly(degree=3, r=1)")
