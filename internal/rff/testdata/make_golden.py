#!/usr/bin/env python3
"""Golden values for internal/rff, computed from the specification in the
package documentation (doc.go) alone -- not from the Go code -- so that the
Go test checks that the code does what the documentation says, bit for bit.

Python floats are IEEE-754 doubles and CPython never fuses a*b+c, so each
operation below is rounded exactly as the specification requires.
Run:  python3 internal/rff/testdata/make_golden.py > internal/rff/testdata/golden.json
"""
import hashlib, json, math, struct

M64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
TAG = 0x6B73716C2D726666
CODE = {"gauss": 1, "laplace": 2}


def mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


class Stream:
    def __init__(self, kind, in_dim, seed):
        key = (CODE[kind] << 48) + in_dim
        self.state = mix(seed ^ mix(key ^ TAG))

    def next(self):
        self.state = (self.state + GAMMA) & M64
        return mix(self.state)

    def sym(self):
        u = float(self.next() >> 11) * 2.0 ** -53
        return 2 * u - 1


def ln(x):  # fdlibm log, operations in the order of detmath.go
    ln2hi, ln2lo = 6.93147180369123816490e-01, 1.90821492927058770002e-10
    L = [None, 6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01,
         2.222219843214978396e-01, 1.818357216161805012e-01, 1.531383769920937332e-01,
         1.479819860511658591e-01]
    f1, ki = math.frexp(x)
    if f1 < math.sqrt(2) / 2:
        f1 *= 2
        ki -= 1
    f = f1 - 1
    k = float(ki)
    s = f / (2 + f)
    s2 = s * s
    s4 = s2 * s2
    t1 = s2 * (L[1] + s4 * (L[3] + s4 * (L[5] + s4 * L[7])))
    t2 = s4 * (L[2] + s4 * (L[4] + s4 * L[6]))
    r = t1 + t2
    hfsq = 0.5 * f * f
    return k * ln2hi - ((hfsq - (s * (hfsq + r) + k * ln2lo)) - f)


def draws(kind, in_dim, seed):
    st = Stream(kind, in_dim, seed)
    while True:
        v1, v2 = st.sym(), st.sym()
        q = v1 * v1 + v2 * v2
        if q <= 0 or q >= 1:
            continue
        if kind == "laplace":
            if v2 == 0:
                continue
            yield v1 / v2
        else:
            f = math.sqrt(-2 * ln(q) / q)
            yield v1 * f
            yield v2 * f


def frequencies(kind, sigma, in_dim, dim, seed):
    g = draws(kind, in_dim, seed)
    return [[next(g) / sigma for _ in range(in_dim)] for _ in range(dim // 2)]


SIN = [1.58962301576546568060e-10, -2.50507477628578072866e-8, 2.75573136213857245213e-6,
       -1.98412698295895385996e-4, 8.33333333332211858878e-3, -1.66666666666666307295e-1]
COS = [-1.13585365213876817300e-11, 2.08757008419747316778e-9, -2.75573141792967388112e-7,
       2.48015872888517045348e-5, -1.38888888888730564116e-3, 4.16666666666665929218e-2]
PI4A, PI4B, PI4C = 7.85398125648498535156e-1, 3.77489470793079817668e-8, 2.69515142907905952645e-15
FOUR_OVER_PI = float.fromhex("0x1.45f306dc9c883p+00")  # 4/pi rounded once to double
PI4 = math.pi / 4
MPI4 = [0x0000000000000001, 0x45f306dc9c882a53, 0xf84eafa3ea69bb81, 0xb6c52b3278872083,
        0xfca2c757bd778ac3, 0x6e48dc74849ba5c0, 0x0c925dd413a32439, 0xfc3bd63962534e7d,
        0xd1046bea5d768909, 0xd338e04d68befc82, 0x7323ac7306a673e9, 0x3908bf177bf25076,
        0x3ff12fffbc0b301f, 0xde5e2316b414da3e, 0xda6cfd9e4f96136e, 0x9e8c7ecd3cbfd45a,
        0xea4f758fd7cbe2f6, 0x7a0e73ef14a525d4, 0xd7f6bf623f1aba10, 0xac06608df8f6d757]


def trig_reduce(x):  # Payne-Hanek with Python's big integers
    ix = struct.unpack("<Q", struct.pack("<d", x))[0]
    exp = ((ix >> 52) & 0x7FF) - 1023 - 52
    mant = (ix & ((1 << 52) - 1)) | (1 << 52)
    digit, bitshift = (exp + 61) // 64, (exp + 61) % 64
    b = 0
    for i in range(4):
        b = (b << 64) | MPI4[digit + i]
    b = (b << bitshift) >> 64  # the three digits z0 z1 z2 as one 192-bit number
    b &= (1 << 192) - 1
    z0, z1, z2 = b >> 128, (b >> 64) & M64, b & M64
    z2hi = (z2 * mant) >> 64
    p1 = z1 * mant
    z1hi, z1lo = p1 >> 64, p1 & M64
    z0lo = (z0 * mant) & M64
    lo = z1lo + z2hi
    c = lo >> 64
    lo &= M64
    hi = (z0lo + z1hi + c) & M64
    j = hi >> 61
    hi = ((hi << 3) | (lo >> 61)) & M64
    lz = 64 - hi.bit_length()
    e = 1023 - (lz + 1)
    hi = (((hi << (lz + 1)) & M64) | (lo >> (64 - (lz + 1)))) & M64
    hi >>= 12
    hi |= e << 52
    z = struct.unpack("<d", struct.pack("<Q", hi))[0]
    if j & 1:
        j = (j + 1) & 7
        z -= 1
    return j, z * PI4


def sincos(x):
    sin_sign = cos_sign = False
    if x < 0:
        x, sin_sign = -x, True
    if x >= 2 ** 29:
        j, z = trig_reduce(x)
    else:
        j = int(x * FOUR_OVER_PI)
        j += j & 1
        y = float(j)
        j &= 7
        z = ((x - y * PI4A) - y * PI4B) - y * PI4C
    if j > 3:
        j -= 4
        sin_sign, cos_sign = not sin_sign, not cos_sign
    if j > 1:
        cos_sign = not cos_sign
    zz = z * z
    pc = COS[0] * zz + COS[1]
    ps = SIN[0] * zz + SIN[1]
    for i in range(2, 6):
        pc = pc * zz + COS[i]
        ps = ps * zz + SIN[i]
    c = (1.0 - 0.5 * zz) + (zz * zz) * pc
    s = z + (z * zz) * ps
    if j in (1, 2):
        s, c = c, s
    return (-s if sin_sign else s), (-c if cos_sign else c)


def f32bits(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


def embed(W, x):
    n = len(W)
    r = 1 / math.sqrt(n)
    cos_part, sin_part = [], []
    for w in W:
        t = 0.0
        for wi, xi in zip(w, x):
            t = t + wi * xi
        s, c = sincos(t)
        cos_part.append(f32bits(c * r))
        sin_part.append(f32bits(s * r))
    return cos_part + sin_part


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


CASES = [
    # name, kind, sigma, x, dim, seed, as_f32
    ("iris0_gauss", "gauss", 1.0, [5.1, 3.5, 1.4, 0.2], 8, 0, False),
    ("laplace_small", "laplace", 2.0, [1.0, -2.0, 0.5], 6, 42, False),
    ("gauss_64_512", "gauss", 0.5, [float(i % 17) / 16 for i in range(64)], 512, 7, True),
    ("laplace_64_512", "laplace", 3.0, [float((i * 7) % 11) - 5 for i in range(64)], 512, 2**64 - 1, False),
    ("huge_theta", "gauss", 1e-5, [12345.678, -9876.5], 64, 1, False),
    ("odd_n", "gauss", 1.5, [0.25, -0.75, 2.0, 1.0, 3.5], 70, 123456789, True),
]

out = []
for name, kind, sigma, x, dim, seed, as_f32 in CASES:
    if as_f32:
        x = [f32(v) for v in x]
    W = frequencies(kind, sigma, len(x), dim, seed)
    bits = embed(W, x)
    blob = b"".join(struct.pack("<I", b) for b in bits)
    thetas = []
    for w in W[:8]:
        t = 0.0
        for wi, xi in zip(w, x):
            t = t + wi * xi
        thetas.append(t.hex())
    out.append({
        "name": name, "kind": kind, "sigma": sigma, "x": x, "dim": dim, "seed": str(seed),
        "f32_input": as_f32,
        "w_first": [v.hex() for v in W[0]][:8],
        "w_last": [v.hex() for v in W[-1]][:8],
        "theta_first": thetas,
        "out_first": ["%08x" % b for b in bits[:4]],
        "out_sha256": hashlib.sha256(blob).hexdigest(),
    })
# sincos at double precision (the float32 outputs hide most last-bit slips)
thetas = [0.0, 1e-300, 0.5, -0.5, 1.0, math.pi / 4, 3 * math.pi / 4, -2.0, 10.0, 100.25, -12345.678,
          2.0 ** 29 - 1, 2.0 ** 29, 1e9, -3.5e15, 1e22, 1.7e308]
sc = [[t.hex(), sincos(t)[0].hex(), sincos(t)[1].hex()] for t in thetas]
# ln at double precision
lns = [[q.hex(), ln(q).hex()] for q in [2.0 ** -100, 1e-17, 0.1, 0.3, 0.5, 0.70710678118654746, 0.7071067811865476, 0.9, 0.999999999]]
# Many values hashed: a slip in the last bit of a rarely-rounded-up term
# shows only in a few values out of thousands.
N = 200000
st = Stream("gauss", 1, 12345)
h_sc, h_ln = hashlib.sha256(), hashlib.sha256()
for _ in range(N):
    t = math.ldexp(st.sym(), st.next() % 40 - 8)
    sn, cs = sincos(t)
    h_sc.update(struct.pack("<dd", sn, cs))
    q = (st.sym() + 1) / 2
    if q > 0:
        h_ln.update(struct.pack("<d", ln(q)))
print(json.dumps({"cases": out, "sincos": sc, "ln": lns, "many_n": N,
                  "many_sincos_sha256": h_sc.hexdigest(), "many_ln_sha256": h_ln.hexdigest()}, indent=1))
