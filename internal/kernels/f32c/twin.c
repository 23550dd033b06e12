/* No contraction of a*b + c into a fused multiply-add where Go rounds
 * twice (cgo refuses -ffp-contract=off as a flag). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <stdint.h>
#include <string.h>
#include <float.h>
#include "twin.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define KSQL_X86 1
#endif

ksql_twin_consts ksql_twin;

enum { DOT_OP, SQDIST_OP, L1_OP };

static inline double f32(const unsigned char *b, int i) {
	float f;
	memcpy(&f, b + 4 * i, 4); /* little-endian hosts only: see f32c.go */
	return (double)f;
}

static inline uint64_t bitsOf(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline double fromBits(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

/* The Go loops of kernels/f32.go: four partial sums over blocks of four
 * values, the rest into the first. */
static double dotGo(const unsigned char *x, const unsigned char *y, int n) {
	double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	int i = 0;
	for (; i + 16 <= n; i += 16) {
		s0 += f32(x + i, 0) * f32(y + i, 0);
		s1 += f32(x + i, 1) * f32(y + i, 1);
		s2 += f32(x + i, 2) * f32(y + i, 2);
		s3 += f32(x + i, 3) * f32(y + i, 3);
	}
	for (; i + 4 <= n; i += 4) s0 += f32(x, i / 4) * f32(y, i / 4);
	return (s0 + s1) + (s2 + s3);
}

static double sqDistGo(const unsigned char *x, const unsigned char *y, int n) {
	double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	int i = 0;
	for (; i + 16 <= n; i += 16) {
		double d0 = f32(x + i, 0) - f32(y + i, 0);
		double d1 = f32(x + i, 1) - f32(y + i, 1);
		double d2 = f32(x + i, 2) - f32(y + i, 2);
		double d3 = f32(x + i, 3) - f32(y + i, 3);
		s0 += d0 * d0;
		s1 += d1 * d1;
		s2 += d2 * d2;
		s3 += d3 * d3;
	}
	for (; i + 4 <= n; i += 4) {
		double d = f32(x, i / 4) - f32(y, i / 4);
		s0 += d * d;
	}
	return (s0 + s1) + (s2 + s3);
}

static double l1DistGo(const unsigned char *x, const unsigned char *y, int n) {
	double s = 0;
	for (int i = 0; i + 4 <= n; i += 4) {
		double d = f32(x, i / 4) - f32(y, i / 4);
		s += d < 0 ? -d : d;
	}
	return s;
}

#ifdef KSQL_X86
/* The assembly of kernels/f32_amd64.s, instruction for instruction. */


__attribute__((target("avx2,fma")))
static double loopAVX2(int op, const unsigned char *x, const unsigned char *y, int n) {
	__m256d a0 = _mm256_setzero_pd(), a1 = a0, a10 = a0, a11 = a0;
	const __m256d abs = _mm256_castsi256_pd(_mm256_srli_epi64(_mm256_set1_epi64x(-1), 1));
	int k = n;
#define LD(p, off) _mm256_cvtps_pd(_mm_loadu_ps((const float *)((p) + (off))))
#define STEP(acc, u, v) \
	switch (op) { \
	case DOT_OP: acc = _mm256_fmadd_pd(v, u, acc); break; \
	case SQDIST_OP: { __m256d d = _mm256_sub_pd(u, v); acc = _mm256_fmadd_pd(d, d, acc); break; } \
	default: acc = _mm256_add_pd(acc, _mm256_and_pd(_mm256_sub_pd(u, v), abs)); \
	}
	for (; k >= 16; k -= 16, x += 64, y += 64) {
		STEP(a0, LD(x, 0), LD(y, 0));
		STEP(a1, LD(x, 16), LD(y, 16));
		STEP(a10, LD(x, 32), LD(y, 32));
		STEP(a11, LD(x, 48), LD(y, 48));
	}
	for (; k >= 8; k -= 8, x += 32, y += 32) {
		STEP(a0, LD(x, 0), LD(y, 0));
		STEP(a1, LD(x, 16), LD(y, 16));
	}
#undef STEP
#undef LD
	a0 = _mm256_add_pd(a0, a10);
	a1 = _mm256_add_pd(a1, a11);
	a0 = _mm256_add_pd(a0, a1);
	__m128d h = _mm_add_pd(_mm256_castpd256_pd128(a0), _mm256_extractf128_pd(a0, 1));
	return _mm_cvtsd_f64(_mm_hadd_pd(h, h));
}
#endif

/* reduce is kernels' dispatch: whole blocks of eight in assembly, the
 * rest in the Go loop, added only when there is a rest. */
static double reduce(int op, const unsigned char *x, const unsigned char *y, int n) {
	double (*slow)(const unsigned char *, const unsigned char *, int) =
		op == DOT_OP ? dotGo : op == SQDIST_OP ? sqDistGo : l1DistGo;
#ifdef KSQL_X86
	int m = n & ~31;
	if (ksql_twin.avx2 && m > 0) {
		double s = loopAVX2(op, x, y, m / 4);
		if (m < n) s += slow(x + m, y + m, n - m);
		return s;
	}
#endif
	return slow(x, y, n);
}

/* fastExp of kernels/gram_exp.go for x in [expMin, expMax]. */
static double fastExp(double x) {
	const ksql_twin_consts *c = &ksql_twin;
	double kd = x * c->expInvLn2N + c->expShift;
	int64_t m = (int64_t)bitsOf(kd) - (int64_t)bitsOf(c->expShift);
	kd -= c->expShift;
	double r = (x - kd * c->expLn2HiN) - kd * c->expLn2LoN;
	double r2 = r * r;
	double p = r + r2 * ((0.5 + r * (1.0 / 6)) + r2 * (1.0 / 24 + r * (1.0 / 120)));
	double hi = c->expHi[m & 127];
	return (hi + (hi * p + c->expLo[m & 127])) * fromBits((uint64_t)(1023 + (m >> 7)) << 52);
}

static int expOf(double x, double *out) {
	if (!(x >= ksql_twin.expMin && x <= ksql_twin.expMax)) return 0; /* Go's math.Exp */
	*out = fastExp(x);
	return 1;
}

int ksql_twin_gauss(const void *x, const void *z, int nbytes, double sigma, double *out) {
	if (!ksql_twin.enabled) return 0;
	double d2 = reduce(SQDIST_OP, x, z, nbytes);
	double s2 = 2 * sigma * sigma;
	if (!(d2 <= DBL_MAX) || !(s2 >= ksql_twin.sigmaLo && s2 <= ksql_twin.sigmaHi)) return 0;
	return expOf(-d2 / s2, out);
}

int ksql_twin_laplace(const void *x, const void *z, int nbytes, double sigma, double *out) {
	if (!ksql_twin.enabled) return 0;
	double d1 = reduce(L1_OP, x, z, nbytes);
	if (!(d1 <= DBL_MAX) || !(sigma >= ksql_twin.sigmaLo && sigma <= ksql_twin.sigmaHi)) return 0;
	return expOf(-d1 / sigma, out);
}

static int trusted(double v) {
	v = v < 0 ? -v : v;
	return v >= ksql_twin.tiny && v <= DBL_MAX;
}

int ksql_twin_linear(const void *x, const void *z, int nbytes, double *out) {
	if (!ksql_twin.enabled) return 0;
	double dot = reduce(DOT_OP, x, z, nbytes);
	if (!trusted(dot)) return 0;
	*out = dot;
	return 1;
}

int ksql_twin_poly(const void *x, const void *z, int nbytes, int degree, double r, double *out) {
	if (!ksql_twin.enabled) return 0;
	double dot = reduce(DOT_OP, x, z, nbytes);
	if (!trusted(dot)) return 0;
	double b = dot + r, p = 1; /* powInt */
	for (int n = degree; n > 0; n >>= 1) {
		if (n & 1) p *= b;
		b *= b;
	}
	*out = p;
	return 1;
}
