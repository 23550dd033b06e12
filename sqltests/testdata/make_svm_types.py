"""Reference values for sqltests/svm_types_test.go and internal/svm's
TestTypesAgainstScikitLearn: scikit-learn 1.2's NuSVC, OneClassSVM, SVR
and NuSVR (libsvm's nu_svc, one_class, eps_svr, nu_svr).

Run with Debian's python3 (scikit-learn 1.2.1, python3-sklearn
1.2.1+dfsg-1), from this directory:

    /usr/bin/python3 make_svm_types.py /tmp/sref

It writes ref_svm_types.json (copied unchanged to
internal/svm/testdata/ref_types.json). Data, rounded to 6 decimals so that
the JSON text is exact:

- blobs: 3 classes of 40 points around (0, 0), (2, 0), (1, 1.5) with
  σ = 0.8 (they overlap), and 30 new points uniform on [−2, 4] × [−2, 3.5];
- wave: 100 points uniform on [−3, 3]², target sin(x₀) + 0.3·x₁ + N(0, 0.1²),
  and 30 new points.

Every vector case uses the rbf kernel with gamma = 0.5 (ksql's
gauss(sigma=1)) and tol = 1e-3 (the default of both). The string cases use
kernel='precomputed' fed ksql's own Gram matrices, written by the ksql
shell as make_svm_strings.py describes (the same gram.sql, into the
directory given as the argument): reuters normalize(ngram(n=5)) and
promoters normalize(ssk(p=3, lambda=0.5)).

Each case records support_ (training rows, 0-based), n_support_,
dual_coef_, intercept_, n_iter_, decision_function (ovo for several
classes) and predict of the training rows and, for vector cases, of the
new points.
"""
import csv
import json
import sys

import numpy as np
import sklearn
from sklearn.svm import SVR, NuSVC, NuSVR, OneClassSVM

rng = np.random.default_rng(20261126)
centres = np.array([(0, 0), (2, 0), (1, 1.5)], dtype=float)
bx = np.round(np.repeat(centres, 40, axis=0) + rng.normal(0, 0.8, (120, 2)), 6)
by = np.repeat(np.arange(3), 40)
bnew = np.round(rng.uniform([-2, -2], [4, 3.5], (30, 2)), 6)

wx = np.round(rng.uniform(-3, 3, (100, 2)), 6)
wy = np.round(np.sin(wx[:, 0]) + 0.3 * wx[:, 1] + rng.normal(0, 0.1, 100), 6)
wnew = np.round(rng.uniform(-3, 3, (30, 2)), 6)


def record(m, X, new=None, ovo=True):
    out = {
        "support": m.support_.tolist(),
        "n_support": np.atleast_1d(m.n_support_).tolist(),
        "dual_coef": m.dual_coef_.tolist(),
        "intercept": np.atleast_1d(m.intercept_).tolist(),
        "n_iter": np.atleast_1d(m.n_iter_).tolist(),
    }
    for key, Z in (("", X), ("new_", new)):
        if Z is None:
            continue
        if hasattr(m, "decision_function"):
            out[key + "decision"] = m.decision_function(Z).tolist()
        out[key + "predict"] = m.predict(Z).tolist()
    return out


def gram(d, name):
    ys = list(csv.reader(open(f"{d}/{name}_y.csv")))
    pos = {int(r[0]): p for p, r in enumerate(ys)}
    K = np.zeros((len(ys), len(ys)))
    for r, c, v in csv.reader(open(f"{d}/{name}_gram.csv")):
        K[pos[int(r)], pos[int(c)]] = float(v)
    return K, [r[1] for r in ys]


rbf = dict(kernel="rbf", gamma=0.5, tol=1e-3)
two = by < 2
cases = {
    "nu_svc3": dict(data="blobs", type="nu_svc", nu=0.3,
                    **record(NuSVC(nu=0.3, decision_function_shape="ovo", **rbf).fit(bx, by), bx, bnew)),
    "nu_svc2": dict(data="blobs2", type="nu_svc", nu=0.5,
                    **record(NuSVC(nu=0.5, **rbf).fit(bx[two], by[two]), bx[two], bnew)),
    "one_class": dict(data="blobs", type="one_class", nu=0.2,
                      **record(OneClassSVM(nu=0.2, **rbf).fit(bx), bx, bnew)),
    "eps_svr": dict(data="wave", type="eps_svr", C=10, epsilon=0.1,
                    **record(SVR(C=10, epsilon=0.1, **rbf).fit(wx, wy), wx, wnew)),
    "nu_svr": dict(data="wave", type="nu_svr", C=10, nu=0.4,
                   **record(NuSVR(C=10, nu=0.4, **rbf).fit(wx, wy), wx, wnew)),
}
pre = dict(kernel="precomputed", tol=1e-3)
Kr, yr = gram(sys.argv[1], "reuters")
Kp, yp = gram(sys.argv[1], "promoters")
cases["reuters_nu_svc"] = dict(data="reuters", type="nu_svc", nu=0.5, classes=sorted(set(yr)),
                               **record(NuSVC(nu=0.5, **pre).fit(Kr, yr), Kr))
cases["reuters_one_class"] = dict(data="reuters", type="one_class", nu=0.3,
                                  **record(OneClassSVM(nu=0.3, **pre).fit(Kr), Kr))
cases["promoters_nu_svc"] = dict(data="promoters", type="nu_svc", nu=0.4, classes=sorted(set(yp)),
                                 **record(NuSVC(nu=0.4, **pre).fit(Kp, yp), Kp))
for name, c in cases.items():
    for k in ("predict", "new_predict"):
        if k in c and c["type"] in ("nu_svc",) and c["data"] in ("reuters", "promoters"):
            c[k] = [c["classes"].index(v) for v in c[k]]
    print(name, "n_iter", c["n_iter"], "support vectors", len(c["support"]))

json.dump({
    "sklearn": sklearn.__version__, "gamma": 0.5, "sigma": 1, "tol": 1e-3,
    "blobs": {"x": bx.tolist(), "y": by.tolist(), "new_x": bnew.tolist()},
    "wave": {"x": wx.tolist(), "y": wy.tolist(), "new_x": wnew.tolist()},
    "cases": cases,
}, open("ref_svm_types.json", "w"))
