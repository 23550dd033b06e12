"""Reference values for internal/svm/prob_test.go (probability estimates).

Run with Debian's interpreter from internal/svm/testdata:

    /usr/bin/python3 platt_ref.py > platt_ref.json

sigmoid_train is Platt's method as improved by Lin, Lin & Weng (2007),
"A note on Platt's probabilistic outputs for support vector machines",
Machine Learning 68, transcribed from the pseudo-code of its appendix:
Newton's method with backtracking line search on the regularised targets
(N+ + 1)/(N+ + 2) and 1/(N- + 2), sigma = 1e-12, min_step = 1e-10,
eps = 1e-5, at most 100 iterations. multiclass_probability is the second
method of Wu, Lin & Weng (2004), "Probability estimates for multi-class
classification by pairwise coupling", JMLR 5, as libsvm iterates it.
The inputs are fixed formulas below (no random generator), so the file is
reproducible on any machine.

As a check of the transcription against libsvm itself, the script fits
scikit-learn's SVC(probability=True) on a small problem and recomputes its
predict_proba from its decision_function (ovo), probA_ and probB_ with the
functions below (two classes coupled, as that fork does); it stops with an
error unless they agree to 1e-12, for three classes and for two.
"""
import json
import math
import sys


def sigmoid_train(dec, labels):
    prior1 = sum(1 for y in labels if y > 0)
    prior0 = len(labels) - prior1
    max_iter, min_step, sigma, eps = 100, 1e-10, 1e-12, 1e-5
    hi = (prior1 + 1.0) / (prior1 + 2.0)
    lo = 1.0 / (prior0 + 2.0)
    t = [hi if y > 0 else lo for y in labels]
    A, B = 0.0, math.log((prior0 + 1.0) / (prior1 + 1.0))

    def objective(A, B):
        f = 0.0
        for d, ti in zip(dec, t):
            fApB = d * A + B
            if fApB >= 0:
                f += ti * fApB + math.log(1 + math.exp(-fApB))
            else:
                f += (ti - 1) * fApB + math.log(1 + math.exp(fApB))
        return f

    fval = objective(A, B)
    iters = 0
    for it in range(max_iter):
        iters = it
        h11, h22, h21, g1, g2 = sigma, sigma, 0.0, 0.0, 0.0
        for d, ti in zip(dec, t):
            fApB = d * A + B
            if fApB >= 0:
                p = math.exp(-fApB) / (1.0 + math.exp(-fApB))
                q = 1.0 / (1.0 + math.exp(-fApB))
            else:
                p = 1.0 / (1.0 + math.exp(fApB))
                q = math.exp(fApB) / (1.0 + math.exp(fApB))
            d2 = p * q
            h11 += d * d * d2
            h22 += d2
            h21 += d * d2
            d1 = ti - p
            g1 += d * d1
            g2 += d1
        if abs(g1) < eps and abs(g2) < eps:
            break
        det = h11 * h22 - h21 * h21
        dA = -(h22 * g1 - h21 * g2) / det
        dB = -(-h21 * g1 + h11 * g2) / det
        gd = g1 * dA + g2 * dB
        step = 1.0
        while step >= min_step:
            newA, newB = A + step * dA, B + step * dB
            newf = objective(newA, newB)
            if newf < fval + 0.0001 * step * gd:
                A, B, fval = newA, newB, newf
                break
            step /= 2.0
        if step < min_step:
            break
    return A, B, iters


def sigmoid_predict(dec, A, B):
    fApB = dec * A + B
    if fApB >= 0:
        return math.exp(-fApB) / (1.0 + math.exp(-fApB))
    return 1.0 / (1 + math.exp(fApB))


def multiclass_probability(k, r):
    max_iter = max(100, k)
    p = [1.0 / k] * k
    Q = [[0.0] * k for _ in range(k)]
    for t in range(k):
        for j in range(t):
            Q[t][t] += r[j][t] * r[j][t]
            Q[t][j] = Q[j][t]
        for j in range(t + 1, k):
            Q[t][t] += r[j][t] * r[j][t]
            Q[t][j] = -r[j][t] * r[t][j]
    eps = 0.005 / k
    Qp = [0.0] * k
    for _ in range(max_iter):
        pQp = 0.0
        for t in range(k):
            Qp[t] = sum(Q[t][j] * p[j] for j in range(k))
            pQp += p[t] * Qp[t]
        max_error = max(abs(Qp[t] - pQp) for t in range(k))
        if max_error < eps:
            break
        for t in range(k):
            diff = (-Qp[t] + pQp) / Q[t][t]
            p[t] += diff
            pQp = (pQp + diff * (diff * Q[t][t] + 2 * Qp[t])) / (1 + diff) / (1 + diff)
            for j in range(k):
                Qp[j] = (Qp[j] + diff * Q[t][j]) / (1 + diff)
                p[j] /= 1 + diff
    return p


def predict_probability(k, dec, probA, probB, couple_two=False):
    """libsvm's svm_predict_probability on libsvm's decision values.

    libsvm since 3.24 takes two classes' sigmoid as it is; older versions,
    and scikit-learn's fork of them, run the coupling for two classes too
    (couple_two), which moves the result within its stopping tolerance."""
    min_prob = 1e-7
    r = [[0.0] * k for _ in range(k)]
    q = 0
    for i in range(k):
        for j in range(i + 1, k):
            r[i][j] = min(max(sigmoid_predict(dec[q], probA[q], probB[q]), min_prob), 1 - min_prob)
            r[j][i] = 1 - r[i][j]
            q += 1
    if k == 2 and not couple_two:
        return [r[0][1], r[1][0]]
    return multiclass_probability(k, r)


def check_against_sklearn():
    import numpy as np
    from sklearn.datasets import load_iris
    from sklearn.svm import SVC
    X, y = load_iris(return_X_y=True)
    for classes in ([0, 1, 2], [1, 2]):
        keep = np.isin(y, classes)
        m = SVC(kernel="rbf", gamma=0.5, probability=True, random_state=0).fit(X[keep], y[keep])
        k = len(classes)
        dec = m.decision_function(X[keep]) if k == 2 else None
        if k > 2:
            m.decision_function_shape = "ovo"
            dec = m.decision_function(X[keep])
        want = m.predict_proba(X[keep])
        for row in range(len(want)):
            d = [-dec[row]] if k == 2 else list(dec[row])  # libsvm's sign for two classes
            got = predict_probability(k, d, list(m.probA_), list(m.probB_), couple_two=True)
            if max(abs(a - b) for a, b in zip(got, want[row])) > 1e-12:
                sys.exit("transcription disagrees with scikit-learn's libsvm on row %d: %r vs %r" % (row, got, list(want[row])))


def sigmoid_cases():
    cases = []
    # overlapping classes
    dec = [math.sin(1.7 * i) * 2 + (0.8 if i % 3 else -0.8) for i in range(40)]
    lab = [1 if i % 3 else -1 for i in range(40)]
    cases.append(("overlapping", dec, lab))
    # separable: the sigmoid steepens until the line search stops
    dec = [(i % 7) + 0.5 if i % 2 else -(i % 5) - 0.5 for i in range(30)]
    lab = [1 if i % 2 else -1 for i in range(30)]
    cases.append(("separable", dec, lab))
    # large decision values (exp would overflow without the split)
    dec = [300.0 * math.cos(0.9 * i) for i in range(25)]
    lab = [1 if math.cos(0.9 * i) + 0.3 * math.sin(2.3 * i) > 0 else -1 for i in range(25)]
    cases.append(("large", dec, lab))
    # one class only
    cases.append(("one_class", [0.3 * i - 1 for i in range(10)], [1] * 10))
    # unbalanced, reversed sign (A > 0)
    dec = [math.sin(0.37 * i) - (1.1 if i % 5 == 0 else 0) for i in range(50)]
    lab = [1 if i % 5 == 0 else -1 for i in range(50)]
    cases.append(("reversed", dec, lab))
    out = []
    for name, dec, lab in cases:
        A, B, iters = sigmoid_train(dec, lab)
        out.append({"name": name, "dec": dec, "labels": lab, "A": A, "B": B, "iterations": iters})
    return out


def coupling_cases():
    out = []
    for k in (2, 3, 4, 5, 7):
        pairs = k * (k - 1) // 2
        probA = [-1.0 - 0.3 * math.sin(q) for q in range(pairs)]
        probB = [0.2 * math.cos(2.1 * q) for q in range(pairs)]
        for obj in range(4):
            dec = [2.5 * math.sin(1.3 * q + 0.7 * obj + k) for q in range(pairs)]
            if obj == 3:
                dec = [40.0 * (1 if q % 2 else -1) for q in range(pairs)]  # pairs clipped to 1e-7
            p = predict_probability(k, dec, probA, probB)
            out.append({"k": k, "dec": dec, "probA": probA, "probB": probB, "p": p})
    return out


check_against_sklearn()
json.dump({"sigmoid": sigmoid_cases(), "coupling": coupling_cases()}, sys.stdout, indent=1)
sys.stdout.write("\n")
