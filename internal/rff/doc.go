// Package rff computes random Fourier features (Rahimi & Recht 2007) for
// the shift-invariant kernels gauss(σ) = exp(−‖x−z‖²/2σ²) and
// laplace(σ) = exp(−‖x−z‖₁/σ):
//
//	φ(x) = n^(−1/2)·(cos w_1ᵀx, …, cos w_nᵀx, sin w_1ᵀx, …, sin w_nᵀx),  n = dim/2,
//
// so that ‖φ(x)‖ = 1 and E⟨φ(x), φ(z)⟩ = K(x, z). For gauss the
// frequencies w_j are N(0, σ⁻²·I) (the spectral density of
// exp(−‖d‖²/2σ²) has variance 1/σ², not σ²); for laplace their coordinates
// are independent Cauchy variables of scale 1/σ (the Fourier transform of
// exp(−|d|/σ) is proportional to 1/(1 + σ²ω²)).
//
// # Reproducibility
//
// The output is a function of (x, kind, σ, dim, seed) alone, the same bits
// on every machine, architecture and Go release. That is why the package
// does not use math/rand (whose streams are not promised to stay), nor
// math.Log, math.Sin and math.Cos (math.Log is assembly on amd64 and pure
// Go elsewhere, with different last bits), and why every product is
// written float64(a*b): the Go specification lets a compiler fuse a*b+c
// into one FMA instruction (it does on arm64, and on amd64 with
// GOAMD64=v3), and an explicit conversion forbids that. Only IEEE-754
// operations that are correctly rounded everywhere are used: + − × ÷,
// math.Sqrt, conversions, and bit manipulation. The specification below
// is complete: testdata/make_golden.py re-implements it in Python from
// this text and produces the golden values that rff_test.go pins.
//
// Generator. SplitMix64 (Steele, Lea & Flood 2014) with
//
//	mix(z)  = z ← (z ⊕ z≫30)·0xBF58476D1CE4E5B9; z ← (z ⊕ z≫27)·0x94D049BB133111EB; z ⊕ z≫31
//	next()  = state ← state + 0x9E3779B97F4A7C15; mix(state)
//
// (all arithmetic mod 2⁶⁴). The initial state is
//
//	state = mix(seed ⊕ mix(key ⊕ 0x6B73716C2D726666)),  key = code(kind)·2⁴⁸ + inDim,
//
// with code(Gauss) = 1, code(Laplace) = 2 and inDim the input dimension.
// Neither σ nor dim enters the state: the frequencies for another σ are
// the same standard draws divided by σ, and those for a smaller dim are a
// prefix of those for a larger one, so that embeddings at different
// settings of one seed are coherent (as with one random_state in
// scikit-learn).
//
// Uniforms. V() = 2·u − 1 with u = (next() ≫ 11)·2⁻⁵³, a value in [−1, 1)
// (both steps are exact).
//
// Normal draws (Marsaglia's polar method, which needs only log and sqrt):
// repeat v1 = V(), v2 = V(), s = v1·v1 + v2·v2 until 0 < s < 1; then
// f = sqrt((−2·ln s)/s) and the draws are v1·f and then v2·f. Normals come
// in pairs; the stream of normals is consumed in order, a pair may straddle
// two frequencies, and the second of a last pair is dropped.
//
// Cauchy draws: repeat v1 = V(), v2 = V(), s = v1·v1 + v2·v2 until
// 0 < s < 1 and v2 ≠ 0; the draw is v1/v2 (the cotangent of an angle that
// is uniform on the circle, so standard Cauchy). One draw per accepted pair.
//
// Frequencies. w_j[i] = z/σ (one IEEE division) where z is the next
// standard draw, taken in the order w_1[1], …, w_1[d], w_2[1], … .
//
// ln is the fdlibm algorithm (as in Go's pure-Go math.Log) evaluated with
// every operation rounded to float64 in the order written in detmath.go;
// sincos is the Cephes algorithm of Go's math.Sincos, likewise, with
// Payne–Hanek reduction (Go's trigReduce) for |θ| ≥ 2²⁹.
//
// Embedding. θ_j = (((0 + w_j[1]·x_1) + w_j[2]·x_2) + …) + w_j[d]·x_d, each
// product and each sum rounded to float64 (a float32 input is first widened
// to float64, which is exact). With r = 1/sqrt(n) in float64,
// out[j] = float32(cos θ_j · r) and out[n+j] = float32(sin θ_j · r), where
// the product is rounded to float64 first and then to float32. A θ_j that
// is not finite (an infinite or NaN input, or an overflow) is an error.
// The implementation evaluates many θ_j at once (and uses SIMD where the
// CPU has it) but never reorders the operations of one θ_j, so the bits do
// not depend on the code path; a test checks the paths against each other.
//
// # Cost and caching
//
// A Map holds n·d float64 frequencies (padded to a multiple of 32), built
// once per (kind, σ, inDim, dim, seed) and kept in a process-wide cache
// bounded in bytes (least recently used entries go first; see
// SetCacheLimit). Get is safe for concurrent use and builds each map once
// even when many goroutines ask for it at the same time; a Map is
// immutable and its Embed methods allocate nothing.
package rff
