package fst

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ksql/ksql/internal/strkernel"
)

// This file checks the engine against explicit enumeration of paths on
// random small transducers, written independently of the package: the
// transducer is kept as the list of rows given to the Builder (the
// caller's state ids, untrimmed), and sums are taken over every path.

type rawArc struct {
	src, dst int64
	in, out  Label
	w        float64
}

type rawFST struct {
	arcs   []rawArc
	finals map[int64]float64
}

// randomFST returns a transducer of at most 5 states over labels 1…k, with
// ε arcs, weights in (0, 2], and state ids spread out (not dense).
func randomFST(r *rand.Rand, k int) rawFST {
	n := 1 + r.IntN(5)
	ids := make([]int64, n)
	for i := 1; i < n; i++ {
		ids[i] = int64(i*7 + r.IntN(5))
	}
	label := func() Label {
		if r.IntN(10) < 3 {
			return Epsilon
		}
		return Label(1 + r.IntN(k))
	}
	weight := func() float64 { return 2 * (1 - r.Float64()) }
	f := rawFST{finals: map[int64]float64{}}
	for range 1 + r.IntN(3*n) {
		f.arcs = append(f.arcs, rawArc{ids[r.IntN(n)], ids[r.IntN(n)], label(), label(), weight()})
	}
	for _, q := range ids {
		if r.IntN(3) == 0 {
			f.finals[q] = weight()
		}
	}
	return f
}

func (f rawFST) build() (*FST, error) {
	var b Builder
	for _, a := range f.arcs {
		if err := b.AddArc(a.src, a.dst, a.in, a.out, a.w); err != nil {
			return nil, err
		}
	}
	for q, w := range f.finals {
		if err := b.AddFinal(q, w); err != nil {
			return nil, err
		}
	}
	return b.Build()
}

// useful returns the states reachable from 0 that reach a final state.
func (f rawFST) useful() map[int64]bool {
	fwd := map[int64]bool{0: true}
	bwd := map[int64]bool{}
	for q := range f.finals {
		bwd[q] = true
	}
	for changed := true; changed; {
		changed = false
		for _, a := range f.arcs {
			if fwd[a.src] && !fwd[a.dst] {
				fwd[a.dst], changed = true, true
			}
			if bwd[a.dst] && !bwd[a.src] {
				bwd[a.src], changed = true, true
			}
		}
	}
	u := map[int64]bool{}
	for q := range fwd {
		if bwd[q] {
			u[q] = true
		}
	}
	return u
}

// hasCycle reports whether the useful arcs satisfying keep have a cycle
// (depth-first search with colours).
func (f rawFST) hasCycle(keep func(rawArc) bool) bool {
	u := f.useful()
	color := map[int64]int{}
	var visit func(q int64) bool
	visit = func(q int64) bool {
		color[q] = 1
		for _, a := range f.arcs {
			if a.src != q || !keep(a) || !u[a.dst] {
				continue
			}
			if color[a.dst] == 1 || color[a.dst] == 0 && visit(a.dst) {
				return true
			}
		}
		color[q] = 2
		return false
	}
	for q := range u {
		if color[q] == 0 && visit(q) {
			return true
		}
	}
	return false
}

// weight is T(x, y) by enumerating every path from state 0 (no ε:ε cycle
// among the useful states; paths leaving them never reach a final state).
func (f rawFST) weight(x, y []Label) float64 {
	u := f.useful()
	var sum float64
	var walk func(q int64, i, j int, w float64)
	walk = func(q int64, i, j int, w float64) {
		if i == len(x) && j == len(y) {
			sum += w * f.finals[q]
		}
		for _, a := range f.arcs {
			if a.src != q || !u[a.dst] {
				continue
			}
			ni, nj := i, j
			if a.in != Epsilon {
				if i == len(x) || x[i] != a.in {
					continue
				}
				ni++
			}
			if a.out != Epsilon {
				if j == len(y) || y[j] != a.out {
					continue
				}
				nj++
			}
			walk(a.dst, ni, nj, w*a.w)
		}
	}
	walk(0, 0, 0, 1)
	return sum
}

// outputs maps every z to T(x, z), enumerating the paths reading x (no
// cycle reading ε, so the outputs are finitely many).
func (f rawFST) outputs(x []Label) map[string]float64 {
	u := f.useful()
	out := map[string]float64{}
	var walk func(q int64, i int, z []byte, w float64)
	walk = func(q int64, i int, z []byte, w float64) {
		if i == len(x) && f.finals[q] != 0 {
			out[string(z)] += w * f.finals[q]
		}
		for _, a := range f.arcs {
			if a.src != q || !u[a.dst] {
				continue
			}
			ni := i
			if a.in != Epsilon {
				if i == len(x) || x[i] != a.in {
					continue
				}
				ni++
			}
			nz := z
			if a.out != Epsilon {
				nz = append(z[:len(z):len(z)], byte(a.out))
			}
			walk(a.dst, ni, nz, w*a.w)
		}
	}
	walk(0, 0, nil, 1)
	return out
}

// rational is Σ_z T(x, z)·T(y, z) over every z.
func (f rawFST) rational(x, y []Label) float64 {
	ox, oy := f.outputs(x), f.outputs(y)
	var sum float64
	for z, w := range ox {
		sum += w * oy[z]
	}
	return sum
}

// pathWeight enumerates the paths of a built FST reading x and writing y.
func pathWeight(f *FST, x, y []Label) float64 {
	var sum float64
	var walk func(q int32, i, j int, w float64)
	walk = func(q int32, i, j int, w float64) {
		if i == len(x) && j == len(y) {
			sum += w * f.Final(int(q))
		}
		for _, a := range f.Arcs(int(q)) {
			ni, nj := i, j
			if a.In != Epsilon {
				if i == len(x) || x[i] != a.In {
					continue
				}
				ni++
			}
			if a.Out != Epsilon {
				if j == len(y) || y[j] != a.Out {
					continue
				}
				nj++
			}
			walk(a.Dst, ni, nj, w*a.W)
		}
	}
	if f.NumStates() > 0 {
		walk(0, 0, 0, 1)
	}
	return sum
}

func randomString(r *rand.Rand, k, maxLen int) []Label {
	s := make([]Label, r.IntN(maxLen+1))
	for i := range s {
		s[i] = Label(1 + r.IntN(k))
	}
	return s
}

func closeRel(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(math.Abs(want), 1e-300) || got == want
}

// TestBruteForce: T(x, y) by the dynamic programme, by PathSum of
// A_x∘T∘A_y (Compose with the ε-filter) and by enumeration; T∘T⁻¹ by the
// programme, by enumerating the paths of the composed T∘T⁻¹, and by
// Σ_z T(x,z)·T(y,z) over every z; all to 1e-12 relative.
func TestBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 1))
	var checked, kernels, cycles, inputCycles int
	ws := new(Workspace)
	for it := 0; it < 1500; it++ {
		k := 2 + r.IntN(2)
		raw := randomFST(r, k)
		f, err := raw.build()
		if err != nil {
			var nf *NoFinalError
			var uf *UnreachableFinalError
			if !errors.As(err, &nf) && !errors.As(err, &uf) {
				t.Fatalf("build: %v", err)
			}
			continue
		}
		epsEps := raw.hasCycle(func(a rawArc) bool { return a.in == Epsilon && a.out == Epsilon })
		epsIn := raw.hasCycle(func(a rawArc) bool { return a.in == Epsilon })
		m, err := Compile(f)
		if epsEps != (err != nil) {
			t.Fatalf("it %d: ε:ε cycle %v, Compile error %v", it, epsEps, err)
		}
		kern, kerr := NewKernelFST(f, Bound{})
		if epsIn != (kerr != nil) {
			t.Fatalf("it %d: ε-input cycle %v, NewKernelFST error %v", it, epsIn, kerr)
		}
		if epsEps {
			cycles++
		}
		if epsIn {
			inputCycles++
			var ec *EpsilonCycleError
			if !errors.As(kerr, &ec) || !ec.InputOnly {
				t.Fatalf("it %d: %v is not an input-only EpsilonCycleError", it, kerr)
			}
		}
		for range 6 {
			x, y := randomString(r, k, 6), randomString(r, k, 6)
			if m != nil {
				want := raw.weight(x, y)
				got, err := m.Weight(x, y, ws, strkernel.Limits{})
				if err != nil || !closeRel(got.Float64(), want, 1e-12) {
					t.Fatalf("it %d: T(%v, %v) = %v, %v; enumeration %v", it, x, y, got.Float64(), err, want)
				}
				c1, err1 := Compose(Acceptor(x), f, Bound{})
				c2, err2 := Compose(c1, Acceptor(y), Bound{})
				ps, err3 := PathSum(c2)
				if err := errors.Join(err1, err2, err3); err != nil || !closeRel(ps.Float64(), want, 1e-12) {
					t.Fatalf("it %d: PathSum(A_x∘T∘A_y) = %v, %v; enumeration %v", it, ps.Float64(), err, want)
				}
				checked++
			}
			if kern != nil {
				want := raw.rational(x, y)
				got, err := kern.EvalLabels(x, y, ws, strkernel.Limits{})
				if err != nil || !closeRel(got.Float64(), want, 1e-12) {
					t.Fatalf("it %d: (T∘T⁻¹)(%v, %v) = %v, %v; Σ_z %v", it, x, y, got.Float64(), err, want)
				}
				if pw := pathWeight(kern.U(), x, y); !closeRel(pw, want, 1e-12) {
					t.Fatalf("it %d: paths of T∘T⁻¹ sum to %v; Σ_z %v", it, pw, want)
				}
				kernels++
			}
		}
	}
	t.Logf("%d T(x,y) and %d (T∘T⁻¹)(x,y) checked; %d machines with ε:ε cycles, %d with ε-input cycles",
		checked, kernels, cycles, inputCycles)
	if checked < 2000 || kernels < 1000 || cycles < 20 || inputCycles < 50 {
		t.Errorf("too few cases of some kind")
	}
}
