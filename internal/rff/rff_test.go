package rff

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

type goldenCase struct {
	Name      string    `json:"name"`
	Kind      string    `json:"kind"`
	Sigma     float64   `json:"sigma"`
	X         []float64 `json:"x"`
	Dim       int       `json:"dim"`
	Seed      string    `json:"seed"`
	F32Input  bool      `json:"f32_input"`
	WFirst    []string  `json:"w_first"`
	WLast     []string  `json:"w_last"`
	Theta     []string  `json:"theta_first"`
	OutFirst  []string  `json:"out_first"`
	OutSHA256 string    `json:"out_sha256"`
}

func kindOf(t *testing.T, s string) Kind {
	switch s {
	case "gauss":
		return Gauss
	case "laplace":
		return Laplace
	}
	t.Fatalf("unknown kind %q", s)
	return 0
}

func f32Blob(x []float64) []byte {
	b := make([]byte, 4*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(v)))
	}
	return b
}

func embed(t testing.TB, m *Map, x []float64) []byte {
	out := make([]byte, 4*m.Dim())
	if err := m.EmbedF64(x, out); err != nil {
		t.Fatal(err)
	}
	return out
}

func floats(b []byte) []float64 {
	out := make([]float64, len(b)/4)
	for i := range out {
		out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
	}
	return out
}

// TestGolden pins the bits: testdata/golden.json was computed by
// testdata/make_golden.py from the specification in doc.go, independently
// of this package's code.
func TestGolden(t *testing.T) {
	raw, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Cases  []goldenCase `json:"cases"`
		Sincos [][3]string  `json:"sincos"`
		Ln     [][2]string  `json:"ln"`
		ManyN  int          `json:"many_n"`
		ManySC string       `json:"many_sincos_sha256"`
		ManyLn string       `json:"many_ln_sha256"`
	}
	if err := json.Unmarshal(raw, &golden); err != nil {
		t.Fatal(err)
	}
	cases := golden.Cases
	if len(golden.Sincos) < 10 || len(golden.Ln) < 5 {
		t.Fatalf("golden.json has %d sincos and %d ln values", len(golden.Sincos), len(golden.Ln))
	}
	for _, g := range golden.Sincos {
		th, _ := strconv.ParseFloat(g[0], 64)
		s, c := detSincos(th)
		if hs, hc := strconv.FormatFloat(s, 'x', -1, 64), strconv.FormatFloat(c, 'x', -1, 64); hs != normHex(g[1]) || hc != normHex(g[2]) {
			t.Errorf("sincos(%s) = %s, %s; want %s, %s", g[0], hs, hc, g[1], g[2])
		}
	}
	for _, g := range golden.Ln {
		q, _ := strconv.ParseFloat(g[0], 64)
		if h := strconv.FormatFloat(detLog(q), 'x', -1, 64); h != normHex(g[1]) {
			t.Errorf("ln(%s) = %s, want %s", g[0], h, g[1])
		}
	}
	if len(cases) < 6 {
		t.Fatalf("golden.json has %d cases, want 6", len(cases))
	}
	// The same stream of arguments as make_golden.py, hashed.
	st := newStream(Gauss, 1, 12345)
	hsc, hln := sha256.New(), sha256.New()
	var buf [16]byte
	for range golden.ManyN {
		s, c := detSincos(math.Ldexp(st.sym(), int(st.next()%40)-8))
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(s))
		binary.LittleEndian.PutUint64(buf[8:], math.Float64bits(c))
		hsc.Write(buf[:])
		if q := (st.sym() + 1) / 2; q > 0 {
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(detLog(q)))
			hln.Write(buf[:8])
		}
	}
	if g := hex.EncodeToString(hsc.Sum(nil)); g != golden.ManySC {
		t.Errorf("sha256 of %d sincos values = %s, want %s", golden.ManyN, g, golden.ManySC)
	}
	if g := hex.EncodeToString(hln.Sum(nil)); g != golden.ManyLn {
		t.Errorf("sha256 of %d ln values = %s, want %s", golden.ManyN, g, golden.ManyLn)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			seed, err := strconv.ParseUint(c.Seed, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Get(kindOf(t, c.Kind), c.Sigma, len(c.X), c.Dim, seed)
			if err != nil {
				t.Fatal(err)
			}
			checkHex := func(what string, got []float64, want []string) {
				for i, w := range want {
					if g := strconv.FormatFloat(got[i], 'x', -1, 64); g != normHex(w) {
						t.Errorf("%s[%d] = %s, want %s", what, i, g, w)
					}
				}
			}
			checkHex("w_1", m.Frequency(0), c.WFirst)
			checkHex("w_n", m.Frequency(c.Dim/2-1), c.WLast)
			var theta [block]float64
			if c.F32Input {
				projectF32(m.w[:m.inDim*block], f32Blob(c.X), &theta)
			} else {
				projectF64(m.w[:m.inDim*block], c.X, &theta)
			}
			checkHex("θ", theta[:], c.Theta)
			out := make([]byte, 4*c.Dim)
			if c.F32Input {
				err = m.EmbedF32(f32Blob(c.X), out)
			} else {
				err = m.EmbedF64(c.X, out)
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range c.OutFirst {
				if g := fmt.Sprintf("%08x", binary.LittleEndian.Uint32(out[4*i:])); g != w {
					t.Errorf("out[%d] bits = %s, want %s", i, g, w)
				}
			}
			sum := sha256.Sum256(out)
			if g := hex.EncodeToString(sum[:]); g != c.OutSHA256 {
				t.Errorf("sha256(out) = %s, want %s", g, c.OutSHA256)
			}
		})
	}
}

// normHex rewrites Python's float.hex ("0x1.8p+1", "-0x1.0000000000000p-3")
// into Go's %x form ("0x1.8p+01", "-0x1p-03").
func normHex(s string) string {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return "bad:" + s
	}
	return strconv.FormatFloat(v, 'x', -1, 64)
}

// TestDetMath checks the pinned ln and sincos against the standard library
// (a different implementation for ln on amd64) to within rounding.
func TestDetMath(t *testing.T) {
	r := &splitMix{state: 1}
	for i := 0; i < 200000; i++ {
		u := (r.sym() + 1) / 2
		if u > 0 {
			if got, want := detLog(u), math.Log(u); math.Abs(got-want) > 2*ulp(want) {
				t.Fatalf("detLog(%v) = %v, math.Log = %v", u, got, want)
			}
		}
		scale := math.Pow(10, float64(i%12)-2) // up to 1e9, past the Payne–Hanek threshold
		x := r.sym() * scale
		s, c := detSincos(x)
		ws, wc := math.Sincos(x)
		if math.Abs(s-ws) > 2e-16 || math.Abs(c-wc) > 2e-16 {
			t.Fatalf("detSincos(%v) = %v, %v; math.Sincos = %v, %v", x, s, c, ws, wc)
		}
	}
	// Payne–Hanek at a value where naive reduction is far off.
	s, c := detSincos(1e22)
	if math.Abs(s-(-0.8522008497671888)) > 1e-15 || math.Abs(c-0.5232147853951389) > 1e-15 {
		t.Errorf("sincos(1e22) = %v, %v; want -0.8522008497671888, 0.5232147853951389", s, c)
	}
}

func ulp(x float64) float64 {
	return math.Abs(math.Nextafter(x, math.Inf(1)) - x)
}

// TestUnitNorm: ‖φ(x)‖ = 1 since cos² + sin² = 1 for every frequency.
func TestUnitNorm(t *testing.T) {
	cases := []struct {
		kind  Kind
		sigma float64
		dim   int
		x     []float64
	}{
		{Gauss, 1, 2, []float64{0}},
		{Gauss, 0.1, 64, []float64{1, 2, 3}},
		{Laplace, 2, 512, []float64{-4, 0.5, 7, 1e3}},
		{Gauss, 1e-3, 4096, []float64{1e4, -3e4}},
		{Laplace, 1e6, 70, []float64{1, 1, 1, 1, 1}},
	}
	for _, c := range cases {
		m, err := Get(c.kind, c.sigma, len(c.x), c.dim, 3)
		if err != nil {
			t.Fatal(err)
		}
		var s float64
		for _, v := range floats(embed(t, m, c.x)) {
			s += v * v
		}
		if math.Abs(s-1) > 1e-6 {
			t.Errorf("%v σ=%v dim=%d: ‖φ‖² = %v, want 1", c.kind, c.sigma, c.dim, s)
		}
	}
}

// TestSampler compares the frequency distribution with the exact CDFs by a
// Kolmogorov–Smirnov test; 1.95/sqrt(N) is the 0.1% critical value.
func TestSampler(t *testing.T) {
	const N = 40000
	cases := []struct {
		kind  Kind
		sigma float64
		cdf   func(x float64) float64
	}{
		{Gauss, 1, func(x float64) float64 { return 0.5 * (1 + math.Erf(x/math.Sqrt2)) }},
		{Gauss, 0.25, func(x float64) float64 { return 0.5 * (1 + math.Erf(x*0.25/math.Sqrt2)) }},
		{Laplace, 1, func(x float64) float64 { return 0.5 + math.Atan(x)/math.Pi }},
		{Laplace, 4, func(x float64) float64 { return 0.5 + math.Atan(4*x)/math.Pi }},
	}
	for _, c := range cases {
		m, err := Get(c.kind, c.sigma, 4, N/2, 11)
		if err != nil {
			t.Fatal(err)
		}
		var w []float64
		for j := 0; j < N/4; j++ {
			w = append(w, m.Frequency(j)...)
		}
		sort.Float64s(w)
		var d float64
		for i, v := range w {
			f := c.cdf(v)
			d = max(d, math.Abs(f-float64(i)/N), math.Abs(f-float64(i+1)/N))
		}
		if d > 1.95/math.Sqrt(N) {
			t.Errorf("%v σ=%v: KS distance %.4f > %.4f", c.kind, c.sigma, d, 1.95/math.Sqrt(N))
		}
	}
}

// TestPrefixAndSigma: a smaller dim's frequencies are a prefix of a larger
// one's, and another σ divides the same draws.
func TestPrefixAndSigma(t *testing.T) {
	small, _ := Get(Gauss, 1, 5, 8, 9)
	big, _ := Get(Gauss, 1, 5, 200, 9)
	other, _ := Get(Gauss, 2, 5, 8, 9)
	for j := 0; j < 4; j++ {
		a, b, c := small.Frequency(j), big.Frequency(j), other.Frequency(j)
		for i := range a {
			if a[i] != b[i] || a[i]/2 != c[i] {
				t.Fatalf("w_%d[%d]: dim 8 %v, dim 200 %v, σ=2 %v", j, i, a[i], b[i], c[i])
			}
		}
	}
	lap, _ := Get(Laplace, 1, 5, 8, 9)
	seed2, _ := Get(Gauss, 1, 5, 8, 10)
	if lap.Frequency(0)[0] == small.Frequency(0)[0] || seed2.Frequency(0)[0] == small.Frequency(0)[0] {
		t.Error("kind or seed does not change the frequencies")
	}
}

// TestF32MatchesF64: the two input forms are the same computation.
func TestF32MatchesF64(t *testing.T) {
	for _, dim := range []int{2, 64, 70, 512} {
		for _, d := range []int{1, 3, 64, 100} {
			m, _ := Get(Laplace, 0.7, d, dim, 5)
			x := make([]float64, d)
			for i := range x {
				x[i] = float64(float32(math.Sin(float64(i)) * 3))
			}
			a := embed(t, m, x)
			b := make([]byte, len(a))
			if err := m.EmbedF32(f32Blob(x), b); err != nil {
				t.Fatal(err)
			}
			if string(a) != string(b) {
				t.Errorf("dim %d, d %d: EmbedF32 and EmbedF64 differ", dim, d)
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	cases := []struct {
		kind  Kind
		sigma float64
		inDim int
		dim   int
		want  string
	}{
		{Gauss, 1, 3, 7, "dim must be a positive even number"},
		{Gauss, 1, 3, 0, "dim must be a positive even number"},
		{Gauss, 1, 3, -4, "dim must be a positive even number"},
		{Gauss, 1, 3, MaxDim + 2, "dim must be at most"},
		{Gauss, 0, 3, 8, "sigma must be a positive finite number"},
		{Laplace, -1, 3, 8, "sigma must be a positive finite number"},
		{Gauss, math.NaN(), 3, 8, "sigma must be a positive finite number"},
		{Gauss, math.Inf(1), 3, 8, "sigma must be a positive finite number"},
		{Gauss, 1, 0, 8, "at least one value"},
		{Kind(9), 1, 3, 8, "only gauss and laplace"},
	}
	for _, c := range cases {
		_, err := Get(c.kind, c.sigma, c.inDim, c.dim, 0)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Get(%v, %v, %d, %d): error %v, want one containing %q", c.kind, c.sigma, c.inDim, c.dim, err, c.want)
		}
	}
	m, _ := Get(Gauss, 1, 3, 8, 0)
	out := make([]byte, 32)
	for _, x := range [][]float64{{1, math.NaN(), 0}, {math.Inf(-1), 0, 0}, {1e308, 1e308, 1e308}} {
		if err := m.EmbedF64(x, out); !errors.Is(err, ErrNonFinite) {
			t.Errorf("EmbedF64(%v): %v, want ErrNonFinite", x, err)
		}
	}
	if err := m.EmbedF64([]float64{1, 2}, out); err == nil || !strings.Contains(err.Error(), "2 values but the map was made for 3") {
		t.Errorf("wrong length: %v", err)
	}
	if err := m.EmbedF32(make([]byte, 11), out); err == nil || !strings.Contains(err.Error(), "11 bytes") {
		t.Errorf("wrong blob length: %v", err)
	}
	if err := m.EmbedF64([]float64{1, 2, 3}, out[:8]); err == nil || !strings.Contains(err.Error(), "want 32") {
		t.Errorf("short output: %v", err)
	}
}

func TestNoAllocation(t *testing.T) {
	m, _ := Get(Gauss, 1, 64, 512, 0)
	x := make([]float64, 64)
	blob := f32Blob(x)
	out := make([]byte, 4*512)
	if a := testing.AllocsPerRun(100, func() { _ = m.EmbedF64(x, out) }); a != 0 {
		t.Errorf("EmbedF64 allocates %v times per call", a)
	}
	if a := testing.AllocsPerRun(100, func() { _ = m.EmbedF32(blob, out) }); a != 0 {
		t.Errorf("EmbedF32 allocates %v times per call", a)
	}
}

// TestCache: one build per key under concurrency, LRU eviction by bytes,
// maps over the limit returned but not kept.
func TestCache(t *testing.T) {
	defer SetCacheLimit(DefaultCacheLimit)
	SetCacheLimit(DefaultCacheLimit)
	before := Stats()
	var wg sync.WaitGroup
	maps := make([]*Map, 16)
	for g := range maps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := Get(Gauss, 0.123, 300, 4000, 77)
			if err != nil {
				t.Error(err)
			}
			maps[g] = m
		}()
	}
	wg.Wait()
	after := Stats()
	if after.Builds-before.Builds != 1 || after.Hits-before.Hits != 15 {
		t.Errorf("16 concurrent Gets: %d builds, %d hits; want 1 and 15", after.Builds-before.Builds, after.Hits-before.Hits)
	}
	for _, m := range maps {
		if m != maps[0] {
			t.Fatal("concurrent Gets returned different maps")
		}
	}

	one := MapBytes(10, 64) // 32 frequencies × 10 × 8 bytes
	if one != 32*10*8 {
		t.Fatalf("MapBytes(10, 64) = %d", one)
	}
	SetCacheLimit(3 * one)
	if s := Stats(); s.Bytes > 3*one && s.Entries > 1 {
		t.Fatalf("after SetCacheLimit: %d maps, %d bytes cached, limit %d", s.Entries, s.Bytes, 3*one)
	}
	for seed := uint64(1000); seed < 1004; seed++ { // four maps, room for three
		if _, err := Get(Gauss, 1, 10, 64, seed); err != nil {
			t.Fatal(err)
		}
	}
	s := Stats()
	if s.Entries != 3 || s.Bytes != 3*one {
		t.Errorf("cache holds %d maps, %d bytes; want 3, %d", s.Entries, s.Bytes, 3*one)
	}
	b := Stats().Builds
	Get(Gauss, 1, 10, 64, 1003) // most recent: still there
	Get(Gauss, 1, 10, 64, 1000) // least recent: evicted, rebuilt
	if got := Stats().Builds - b; got != 1 {
		t.Errorf("re-getting the newest and the evicted map made %d builds, want 1", got)
	}
	b = Stats().Builds
	big, err := Get(Gauss, 1, 10, 640, 1) // over the limit: kept alone
	if err != nil || big.Dim() != 640 {
		t.Fatal(err)
	}
	Get(Gauss, 1, 10, 640, 1)
	if s := Stats(); s.Entries != 1 || s.Bytes != big.Bytes() || s.Builds-b != 1 {
		t.Errorf("after an oversized map: %d maps, %d bytes, %d builds; want 1, %d, 1", s.Entries, s.Bytes, s.Builds-b, big.Bytes())
	}
	Get(Gauss, 1, 10, 64, 1)
	if s := Stats(); s.Entries != 1 || s.Bytes != one {
		t.Errorf("a small map after the oversized one: %d maps, %d bytes; want 1, %d", s.Entries, s.Bytes, one)
	}
}
