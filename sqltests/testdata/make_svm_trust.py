"""Reference values for TestSVMManyClassesAgainstScikitLearn (svm_test.go).

Run with Debian's python3 (scikit-learn 1.x): /usr/bin/python3 make_svm_trust.py
It writes ref_svm_trust.json:

- many: 70 classes (2,415 one-vs-one pairs), 8 rows each around the points
  of a 10×7 grid (spacing 1, noise σ = 0.45, so neighbouring classes
  overlap and the vote decides), SVC(kernel='rbf', gamma=0.5, C=1,
  tol=1e-6), i.e. ksql's gauss(sigma=1): the data, the training rows' and
  200 new points' predictions, and every pair's intercept_.
- two: classes 0 and 1 of the same data alone: intercept_ and the training
  rows' decision_function, whose sign convention ksql_model's intercept
  must share.

Coordinates are rounded to 6 decimals so that their JSON text is exact.
"""
import json

import numpy as np
from sklearn.svm import SVC

rng = np.random.default_rng(20240611)
k, per = 70, 8
centres = np.array([(c % 10, c // 10) for c in range(k)], dtype=float)
X = np.round(np.repeat(centres, per, axis=0) + rng.normal(0, 0.45, (k * per, 2)), 6)
y = np.repeat(np.arange(k), per)
new = np.round(rng.uniform([-0.5, -0.5], [9.5, 6.5], (200, 2)), 6)

m = SVC(kernel="rbf", gamma=0.5, C=1, tol=1e-6, decision_function_shape="ovo").fit(X, y)
two = y < 2
m2 = SVC(kernel="rbf", gamma=0.5, C=1, tol=1e-6).fit(X[two], y[two])

# How close the pairs' decisions come to zero, for the record: the vote
# of a row hangs on those of the pairs of its leading classes.
dec = m.decision_function(np.vstack([X, new]))
print("classes", len(m.classes_), "pairs", dec.shape[1], "min |ovo decision|", np.abs(dec).min(),
      "training accuracy", (m.predict(X) == y).mean())

json.dump({
    "sigma": 1, "C": 1, "tol": 1e-6,
    "x": X.tolist(), "y": y.tolist(),
    "predict": m.predict(X).tolist(),
    "new_x": new.tolist(), "new_predict": m.predict(new).tolist(),
    "intercept": m.intercept_.tolist(),
    "n_support": m.n_support_.tolist(),
    "two_intercept": float(m2.intercept_[0]),
    "two_decision": m2.decision_function(X[two]).tolist(),
}, open("ref_svm_trust.json", "w"))
