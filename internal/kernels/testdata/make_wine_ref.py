#!/usr/bin/python3
"""Reference Gram matrices from scikit-learn for the vector kernels.

Run from the repository root with Debian's python3 (apt-get install python3-sklearn):
    /usr/bin/python3 internal/kernels/testdata/make_wine_ref.py
Writes internal/kernels/testdata/wine_ref.json.
"""
import csv, json, sklearn
import numpy as np
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel, laplacian_kernel

here = "internal/kernels/testdata/"
with open(here + "wine12.csv") as f:
    rows = list(csv.reader(f))[1:]
X = np.array([[float(v) for v in r[2:]] for r in rows])

cases = []
def add(spec, K):
    cases.append({"spec": spec, "gram": [[repr(float(v)) for v in row] for row in K]})

add("linear", linear_kernel(X))
# poly(degree=m, r=R) = (<x,z> + R)^m  <->  polynomial_kernel(gamma=1, coef0=R, degree=m)
add("poly(degree=2, r=1)", polynomial_kernel(X, degree=2, gamma=1.0, coef0=1.0))
add("poly(degree=3, r=0.5)", polynomial_kernel(X, degree=3, gamma=1.0, coef0=0.5))
# gauss(sigma=s) = exp(-|x-z|^2/(2 s^2))  <->  rbf_kernel(gamma=1/(2 s^2))
for s in (30.0, 100.0):
    add("gauss(sigma=%g)" % s, rbf_kernel(X, gamma=1.0 / (2 * s * s)))
# laplace(sigma=s) = exp(-|x-z|_1/s)  <->  laplacian_kernel(gamma=1/s)
for s in (100.0, 400.0):
    add("laplace(sigma=%g)" % s, laplacian_kernel(X, gamma=1.0 / s))

with open(here + "wine_ref.json", "w") as f:
    json.dump({"made_by": "make_wine_ref.py, scikit-learn " + sklearn.__version__,
               "rows": [[repr(v) for v in x] for x in X.tolist()], "cases": cases}, f, indent=1)
