#!/usr/bin/python3
"""Reference values of T(x, y) and (T∘T⁻¹)(x, y) from OpenFst's command-line
tools (Debian libfst-tools 1.7.x), for openfst_test.go.

Random transducers (≤ 5 states, labels 1..3, ε = 0 arcs included, weights in
(0, 2]) are written as AT&T text; OpenFst computes in the log semiring (weight
−ln w, 64-bit), where ⊕ is −ln(e^−a + e^−b): the sum over paths of the real
semiring. T(x, y) = shortest distance of A_x ∘ T ∘ A_y; T∘T⁻¹ is
fstcompose T (fstinvert T). Run: /usr/bin/python3 make_openfst.py > openfst.json
"""
import json, math, os, random, subprocess, tempfile

rng = random.Random(20261124)
tmp = tempfile.mkdtemp()

def sh(*args, inp=None):
    return subprocess.run(args, input=inp, capture_output=True, check=True, text=inp is not None).stdout

def compile_text(text, name):
    src = os.path.join(tmp, name + ".txt")
    out = os.path.join(tmp, name + ".fst")
    with open(src, "w") as f:
        f.write(text)
    sh("fstcompile", "--arc_type=log64", src, out)
    sh("fstarcsort", "--sort_type=ilabel", out, out)
    return out

def to_log(w):
    return repr(-math.log(w))

def acceptor(xs, name):
    lines = [f"{i} {i+1} {x} {x}" for i, x in enumerate(xs)] + [str(len(xs))]
    return compile_text("\n".join(lines) + "\n", name)

def distance(fst):
    out = sh("fstshortestdistance", "--reverse", fst).decode()
    for line in out.splitlines():
        q, d = line.split()
        if q == "0":
            return 0.0 if d == "Infinity" else math.exp(-float(d))
    return 0.0

def weight(t, x, y):
    ax, ay = acceptor(x, "ax"), acceptor(y, "ay")
    c1 = os.path.join(tmp, "c1.fst"); c2 = os.path.join(tmp, "c2.fst")
    sh("fstcompose", ax, t, c1)
    sh("fstarcsort", "--sort_type=olabel", c1, c1)
    sh("fstcompose", c1, ay, c2)
    return distance(c2)

def random_fst():
    n = rng.randint(2, 5)
    arcs = []
    for _ in range(rng.randint(n, 3 * n)):
        src = rng.randrange(n)
        dst = rng.randrange(src, n) if rng.random() < 0.7 else rng.randrange(n)
        i, o = rng.randint(0, 3), rng.randint(0, 3)
        if i == 0 and (dst <= src):  # no cycles reading ε (T∘T⁻¹ would be infinite)
            dst = src + 1 if src + 1 < n else None
            if dst is None:
                continue
        if i == 0 and o == 0:
            o = rng.randint(1, 3)
        arcs.append((src, dst, i, o, round(rng.uniform(0.05, 2.0), 3)))
    finals = [(q, round(rng.uniform(0.1, 2.0), 3)) for q in range(n) if rng.random() < 0.5] or [(n - 1, 1.0)]
    # AT&T text starts at the first line's state: state 0's arcs come first.
    arcs.sort(key=lambda a: a[0] != 0)
    seen, todo = {0}, [0]
    while todo:
        q = todo.pop()
        for a in arcs:
            if a[0] == q and a[1] not in seen:
                seen.add(a[1]); todo.append(a[1])
    if not arcs or arcs[0][0] != 0 or any(q not in seen for q, _ in finals):
        return random_fst()  # ksql refuses unreachable final states; OpenFst ignores them
    return arcs, finals

def walk(arcs, finals):
    """Input and output of a random path from 0 (strings of ≤ 6 symbols)."""
    q, x, y = 0, [], []
    fin = dict(finals)
    for _ in range(12):
        out = [a for a in arcs if a[0] == q]
        if (q in fin and rng.random() < 0.4) or not out:
            break
        s, d, i, o, w = rng.choice(out)
        if i and len(x) == 6 or o and len(y) == 6:
            break
        x += [i] if i else []
        y += [o] if o else []
        q = d
    return x, y

cases = []
while len(cases) < 12:
    arcs, finals = random_fst()
    real = "\n".join(f"{s} {d} {i} {o} {w}" for s, d, i, o, w in arcs) + "\n" + \
           "\n".join(f"{q} {w}" for q, w in finals) + "\n"
    logt = "\n".join(f"{s} {d} {i} {o} {to_log(w)}" for s, d, i, o, w in arcs) + "\n" + \
           "\n".join(f"{q} {to_log(w)}" for q, w in finals) + "\n"
    t = compile_text(logt, "t")
    inv = os.path.join(tmp, "inv.fst"); u = os.path.join(tmp, "u.fst")
    sh("fstinvert", t, inv)
    sh("fstarcsort", "--sort_type=ilabel", inv, inv)
    tt = os.path.join(tmp, "tt.fst")
    sh("fstarcsort", "--sort_type=olabel", t, tt)
    sh("fstcompose", tt, inv, u)
    sh("fstarcsort", "--sort_type=ilabel", u, u)
    pairs = []
    for _ in range(6):
        x, y = walk(arcs, finals)
        if rng.random() < 0.5:
            y = walk(arcs, finals)[0]  # another input: a T∘T⁻¹ pair
        pairs.append({"x": x, "y": y, "T": weight(t, x, y), "TTinv": weight(u, x, y)})
    if sum(1 for p in pairs if p["T"]) >= 2 and all(len(p["x"]) <= 6 and len(p["y"]) <= 6 for p in pairs):
        cases.append({"fst": real, "pairs": pairs})

print(json.dumps({"source": "OpenFst " + "fstcompose/fstshortestdistance, log semiring", "cases": cases}, indent=1))
