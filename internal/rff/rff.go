package rff

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Kind is the kernel whose features a Map computes.
type Kind uint8

// The shift-invariant kernels with a known spectral density.
const (
	// Gauss is exp(−‖x−z‖²/2σ²); frequencies N(0, σ⁻²·I).
	Gauss Kind = iota + 1
	// Laplace is exp(−‖x−z‖₁/σ); frequencies independent Cauchy of scale 1/σ.
	Laplace
)

// String returns the kernel's name in the spec language.
func (k Kind) String() string {
	switch k {
	case Gauss:
		return "gauss"
	case Laplace:
		return "laplace"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// code is the kind's number in the generator's key; it is part of the
// bit-exact specification, so it must never change.
func (k Kind) code() uint8 { return uint8(k) }

// Bounds on the arguments of Get. They only keep index arithmetic far from
// overflow; the SQL layer applies the user-visible limits (max_rff_dim).
const (
	MaxDim   = 1 << 24
	MaxInDim = 1 << 24
)

// block is the number of frequencies evaluated together; the frequency
// matrix is padded to a multiple of it and stored block by block.
const block = 32

// ErrNonFinite is returned by the Embed methods when some w_jᵀx is not a
// finite number: the input holds an infinity or a NaN, or is so large that
// the projection overflows.
var ErrNonFinite = errors.New("the vector has a non-finite value (NaN or ±Inf) or is too large to embed")

// Map is the feature map for one (kind, σ, input dimension, dim, seed).
// It is immutable and safe for concurrent use.
type Map struct {
	kind  Kind
	sigma float64
	inDim int
	dim   int
	n     int
	seed  uint64
	scale float64 // 1/sqrt(n)
	// w holds the frequencies in blocks of 32: frequency b·32+k, coordinate
	// i is w[(b·inDim + i)·32 + k]. Padding frequencies are zero.
	w []float64
}

// Kind returns the map's kernel.
func (m *Map) Kind() Kind { return m.kind }

// Sigma returns the kernel's σ.
func (m *Map) Sigma() float64 { return m.sigma }

// InDim returns the dimension of the inputs the map accepts.
func (m *Map) InDim() int { return m.inDim }

// Dim returns the number of output values, 2n.
func (m *Map) Dim() int { return m.dim }

// Seed returns the generator seed.
func (m *Map) Seed() uint64 { return m.seed }

// Bytes returns the memory the map's frequencies take.
func (m *Map) Bytes() int64 { return int64(len(m.w)) * 8 }

// Frequency returns w_j (0-based j < Dim()/2) as a new slice.
func (m *Map) Frequency(j int) []float64 {
	out := make([]float64, m.inDim)
	b, k := j/block, j%block
	for i := range out {
		out[i] = m.w[(b*m.inDim+i)*block+k]
	}
	return out
}

// MapBytes is the memory a map for inputs of dimension inDim and dim
// outputs takes, so that callers can bound it before calling Get.
func MapBytes(inDim, dim int) int64 {
	n := int64(dim / 2)
	padded := (n + block - 1) / block * block
	return padded * int64(inDim) * 8
}

func checkArgs(kind Kind, sigma float64, inDim, dim int) error {
	switch {
	case kind != Gauss && kind != Laplace:
		return fmt.Errorf("unknown kernel kind %d: only gauss and laplace are shift-invariant kernels with random Fourier features", kind)
	case !(sigma > 0) || math.IsInf(sigma, 1):
		return fmt.Errorf("sigma must be a positive finite number, got %v", sigma)
	case dim <= 0 || dim%2 != 0:
		return fmt.Errorf("dim must be a positive even number (cos and sin of dim/2 frequencies), got %d", dim)
	case dim > MaxDim:
		return fmt.Errorf("dim must be at most %d, got %d", MaxDim, dim)
	case inDim <= 0:
		return fmt.Errorf("the input vector must have at least one value, got %d", inDim)
	case inDim > MaxInDim:
		return fmt.Errorf("the input vector must have at most %d values, got %d", MaxInDim, inDim)
	}
	return nil
}

// build draws the frequencies.
func build(kind Kind, sigma float64, inDim, dim int, seed uint64) *Map {
	n := dim / 2
	nb := (n + block - 1) / block
	m := &Map{kind: kind, sigma: sigma, inDim: inDim, dim: dim, n: n, seed: seed,
		scale: 1 / math.Sqrt(float64(n)), w: make([]float64, nb*block*inDim)}
	s := sampler{rng: newStream(kind, inDim, seed), kind: kind}
	for j := range n {
		b, k := j/block, j%block
		for i := range inDim {
			m.w[(b*inDim+i)*block+k] = s.draw() / sigma
		}
	}
	return m
}

// EmbedF64 writes φ(x) into out as Dim() little-endian float32 values.
// len(x) must be InDim() and len(out) 4·Dim(). It allocates nothing.
func (m *Map) EmbedF64(x []float64, out []byte) error {
	if len(x) != m.inDim {
		return fmt.Errorf("the vector has %d values but the map was made for %d", len(x), m.inDim)
	}
	if len(out) != 4*m.dim {
		return fmt.Errorf("output buffer has %d bytes, want %d", len(out), 4*m.dim)
	}
	return m.embed(x, nil, out)
}

// EmbedF32 is EmbedF64 for a vector of little-endian float32 values
// (sqlite-vec's BLOB format); len(xLE) must be 4·InDim().
func (m *Map) EmbedF32(xLE []byte, out []byte) error {
	if len(xLE) != 4*m.inDim {
		return fmt.Errorf("the vector has %d bytes but the map was made for %d float32 values (%d bytes)", len(xLE), m.inDim, 4*m.inDim)
	}
	if len(out) != 4*m.dim {
		return fmt.Errorf("output buffer has %d bytes, want %d", len(out), 4*m.dim)
	}
	return m.embed(nil, xLE, out)
}

// embed does one block of 32 frequencies at a time: project, then sincos.
func (m *Map) embed(x []float64, xLE []byte, out []byte) error {
	var theta [block]float64
	d := m.inDim
	for b := 0; b*block < m.n; b++ {
		w := m.w[b*d*block : (b+1)*d*block]
		switch {
		case useAVX2 && x != nil:
			theta = [block]float64{}
			projectAVX2(&w[0], &x[0], d, &theta)
		case useAVX2:
			theta = [block]float64{}
			projectF32AVX2(&w[0], &xLE[0], d, &theta)
		case x != nil:
			projectF64(w, x, &theta)
		default:
			projectF32(w, xLE, &theta)
		}
		j0 := b * block
		cnt := min(block, m.n-j0)
		if err := m.finish(theta[:cnt], out[4*j0:], out[4*(m.n+j0):]); err != nil {
			return err
		}
	}
	return nil
}

// finish turns projections into scaled cos and sin values.
func (m *Map) finish(theta []float64, cosOut, sinOut []byte) error {
	if n4 := len(theta) &^ 3; useAVX2 && n4 > 0 {
		if sincosAVX2(&theta[0], n4, m.scale, &cosOut[0], &sinOut[0]) {
			theta, cosOut, sinOut = theta[n4:], cosOut[4*n4:], sinOut[4*n4:]
		}
		// else: a huge or non-finite θ; the Go code below redoes the block.
	}
	for k, t := range theta {
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return ErrNonFinite
		}
		s, c := detSincos(t)
		binary.LittleEndian.PutUint32(cosOut[4*k:], math.Float32bits(float32(float64(c*m.scale))))
		binary.LittleEndian.PutUint32(sinOut[4*k:], math.Float32bits(float32(float64(s*m.scale))))
	}
	return nil
}
