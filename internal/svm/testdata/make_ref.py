"""Reference values for internal/svm from scikit-learn's SVC (libsvm).

Run from this directory with Debian's Python: /usr/bin/python3 make_ref.py
(scikit-learn 1.2.1, numpy 1.24.2). Writes, for each case NAME,
ref_NAME.json (the fitted model: classes, support_, n_support_, dual_coef_,
intercept_, n_iter_, predictions of every row) and dec_NAME.csv.gz (SVC's
decision_function on every training row, decision_function_shape='ovo',
one row per object, values rounded to 1e-9). The tests never run Python.

The kernel is gauss(sigma) = exp(-||x - z||^2 / (2 sigma^2)), i.e. SVC's
rbf with gamma = 1 / (2 sigma^2).

Cases:
  digits          digits.csv, all 1797 rows, 64 raw pixels, 10 classes,
                  gamma = 0.001 (sigma = sqrt(500)), C = 1, tol = 1e-5
  digits38        the rows labelled 3 or 8 (ids in order), two classes, same
  digits_balanced labels 1, 7, 9 with only the first 40 rows of 7 (ids in
                  order), class_weight='balanced', same kernel, C and tol
  spam            spam.csv.gz (kernlab's spam), 57 features standardised by
                  z-score with the population standard deviation
                  ((x - mean) / std, std with ddof = 0, as StandardScaler),
                  labels nonspam < spam, gamma = 1/57 (SVC's gamma='scale'
                  on standardised data; sigma = sqrt(28.5)), C = 5, tol = 1e-5
"""
import csv
import gzip
import json

import numpy as np
import sklearn
from sklearn.svm import SVC


def load_digits():
    d = np.loadtxt("digits.csv", delimiter=",", skiprows=1)
    return d[:, 2:], d[:, 1].astype(int)


def load_spam():
    with gzip.open("spam.csv.gz", "rt", newline="") as f:
        rows = list(csv.reader(f))
    X = np.array([[float(v) for v in r[1:-1]] for r in rows[1:]])
    y = np.array([r[-1] for r in rows[1:]])
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    return X, y


def case(name, X, y, C, gamma, tol, class_weight=None):
    m = SVC(C=C, gamma=gamma, tol=tol, class_weight=class_weight,
            decision_function_shape="ovo").fit(X, y)
    dec = m.decision_function(X)
    if dec.ndim == 1:
        dec = dec[:, None]
    pred = m.predict(X)
    classes = list(m.classes_)
    ref = {
        "sklearn": sklearn.__version__,
        "numpy": np.__version__,
        "C": C, "gamma": gamma, "sigma": float(np.sqrt(1 / (2 * gamma))), "tol": tol,
        "class_weight": class_weight,
        "classes": [str(c) for c in classes],
        "support": m.support_.tolist(),
        "n_support": m.n_support_.tolist(),
        "dual_coef": [[round(float(v), 12) for v in row] for row in m.dual_coef_],
        "intercept": m.intercept_.tolist(),
        "n_iter": np.atleast_1d(m.n_iter_).tolist(),
        "predict": [classes.index(p) for p in pred],
    }
    with open(f"ref_{name}.json", "w") as f:
        json.dump(ref, f, separators=(",", ":"))
        f.write("\n")
    with gzip.GzipFile(f"dec_{name}.csv.gz", "wb", mtime=0) as f:
        for row in dec:
            f.write((",".join("%.9f" % v for v in row) + "\n").encode())
    print(name, "rows", len(y), "SV", len(m.support_), "iter", sum(ref["n_iter"]))


def main():
    X, y = load_digits()
    case("digits", X, y, 1.0, 0.001, 1e-5)
    sel = (y == 3) | (y == 8)
    case("digits38", X[sel], y[sel], 1.0, 0.001, 1e-5)
    keep = np.isin(y, [1, 9]) | ((y == 7) & (np.cumsum(y == 7) <= 40))
    case("digits_balanced", X[keep], y[keep], 1.0, 0.001, 1e-5, "balanced")
    X, y = load_spam()
    case("spam", X, y, 5.0, 1 / 57, 1e-5)


if __name__ == "__main__":
    main()
