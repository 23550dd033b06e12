"""Reference values for columns_test.go: svm over columns= with scale=standard.

Run from this directory with Debian's Python: /usr/bin/python3 make_columns_ref.py
(scikit-learn 1.2.1, numpy 1.24.2). Writes ref_columns.json. The tests never
run Python.

Data: iris.csv, the 100 rows that are not setosa (versicolor < virginica),
the four measurements, plus a constant column k = 0.1 in the "poly" case.
Features go through StandardScaler (mean and population standard deviation
of the training rows; a constant column is centred, its scale left 1), then
SVC(C=1, tol=1e-12), which is what svm(..., scale=standard) must reproduce:
  rbf   gamma = 0.5, i.e. gauss(sigma=1)
  poly  degree 2, gamma 1, coef0 1, i.e. poly(degree=2, r=1), with k, which
        a kernel that is not translation-invariant sees: centred it is 0
        everywhere; divided by its (rounding-error) deviation it would not be.
decision holds decision_function on every training row in id order;
new_x (raw, unscaled measurements) and new_decision hold new objects.
"""
import csv
import json

import numpy as np
import sklearn
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

with open("iris.csv", newline="") as f:
    rows = [r for r in list(csv.reader(f))[1:] if r[5] != "setosa"]
ids = [int(r[0]) for r in rows]
X = np.array([[float(v) for v in r[1:5]] for r in rows])
y = np.array([r[5] for r in rows])
new_x = np.array([[6.0, 2.9, 4.5, 1.5], [6.9, 3.1, 5.4, 2.1], [5.0, 2.0, 3.5, 1.0], [7.5, 3.5, 6.5, 2.5]])


def case(X, new_x, **svc):
    sc = StandardScaler().fit(X)
    m = SVC(C=1, tol=1e-12, **svc).fit(sc.transform(X), y)
    return {
        "mean": sc.mean_.tolist(), "scale": sc.scale_.tolist(),
        "classes": m.classes_.tolist(), "n_iter": int(m.n_iter_[0]),
        "decision": m.decision_function(sc.transform(X)).tolist(),
        "new_x": new_x.tolist(),
        "new_decision": m.decision_function(sc.transform(new_x)).tolist(),
    }


k = np.full((len(X), 1), 0.1)
ref = {
    "sklearn": sklearn.__version__, "numpy": np.__version__, "ids": ids,
    "rbf": case(X, new_x, kernel="rbf", gamma=0.5),
    "poly": case(np.hstack([X, k]), np.hstack([new_x, np.full((len(new_x), 1), 0.1)]),
                 kernel="poly", degree=2, gamma=1.0, coef0=1.0),
}
with open("ref_columns.json", "w") as f:
    json.dump(ref, f, indent=1)
    f.write("\n")
