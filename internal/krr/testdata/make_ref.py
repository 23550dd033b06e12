# Reference values for internal/krr and sqltests/krr_test.go.
# Run with Debian's /usr/bin/python3 (scikit-learn 1.2.1, numpy 1.24):
#   cd internal/krr/testdata && /usr/bin/python3 make_ref.py
# wine.csv: shared/data/wine.csv (scikit-learn's wine data, UCI; Debian
# python3-sklearn 1.2.1+dfsg-1). Features: the 12 columns after `alcohol`
# (malic_acid … proline), z-scored with the population standard deviation
# of all 178 rows. Label: `alcohol`. Train: rows 0..149; new points: 150..177.
import json, numpy as np, sklearn
from sklearn.kernel_ridge import KernelRidge
from sklearn.metrics.pairwise import rbf_kernel, polynomial_kernel

d = np.genfromtxt("wine.csv", delimiter=",", skip_header=1)
X = d[:, 3:]
X = (X - X.mean(0)) / X.std(0)
y = d[:, 2]
tr, te = slice(0, 150), slice(150, 178)
out = {"sklearn": sklearn.__version__, "numpy": np.__version__, "cases": []}
for name, kern, spec in [("rbf", lambda A, B: rbf_kernel(A, B, gamma=0.1), "gauss(sigma=2.23606797749979)"),
                         ("poly", lambda A, B: polynomial_kernel(A, B, degree=2, gamma=1, coef0=1), "poly(degree=2, r=1)")]:
    for alpha in (0.1, 1.0):
        m = KernelRidge(alpha=alpha, kernel="precomputed").fit(kern(X[tr], X[tr]), y[tr])
        out["cases"].append({"kernel": name, "spec": spec, "alpha": alpha,
                             "train": m.predict(kern(X[tr], X[tr])).tolist(),
                             "test": m.predict(kern(X[te], X[tr])).tolist()})
# KLMS batch: beta_{e+1} = beta_e + step (y - K beta_e), beta_0 = 0, iterated in numpy.
K = rbf_kernel(X[tr], X[tr], gamma=0.1)
lmax = np.linalg.eigvalsh(K)[-1]
step = 1.0 / lmax
beta = np.zeros(150)
mse = []
for e in range(50):
    beta = beta + step * (y[tr] - K @ beta)
    mse.append(float(np.mean((y[tr] - K @ beta) ** 2)))
out["klms"] = {"spec": "gauss(sigma=2.23606797749979)", "step": step, "epochs": 50, "lambda_max": float(lmax),
               "beta": beta.tolist(), "mse": mse, "test": (rbf_kernel(X[te], X[tr], gamma=0.1) @ beta).tolist()}
json.dump(out, open("ref.json", "w"), indent=0)
