package strkernel

import (
	"encoding/binary"
	"github.com/ksql/ksql/internal/cputime"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ksql/ksql/internal/xfloat"
)

// windowPairs returns count distinct pairs of distinct windows of width code
// points of the Reuters texts (joined by spaces), each pair ordered as Eval
// orders it (rows over s, the first).
func windowPairs(tb testing.TB, count, width int) [][2][]int32 {
	text := []rune(strings.Join(readColumn(tb, "reuters.csv", 2), " "))
	r := rand.New(rand.NewPCG(7, 500))
	seen := map[[2]int]bool{}
	var out [][2][]int32
	for len(out) < count {
		a, b := r.IntN(len(text)-width), r.IntN(len(text)-width)
		s, t := text[a:a+width], text[b:b+width]
		if slices.Equal(s, t) || seen[[2]int{a, b}] || seen[[2]int{b, a}] {
			continue
		}
		seen[[2]int{a, b}] = true
		x, y := Decode(string(s), Char).Chars(), Decode(string(t), Char).Chars()
		if slices.Compare(x, y) < 0 {
			x, y = y, x
		}
		out = append(out, [2][]int32{x, y})
	}
	return out
}

// subseqFunc is subseqAll or the reference loops.
type subseqFunc func(s, t []int32, ws *Workspace, lim Limits) (xfloat.F, error)

// timePairs evaluates f on all pairs once per iteration, keeping the values
// in vals, and reports the best wall and CPU nanoseconds per pair: the
// machine is shared, so the fastest run is the one least disturbed, and
// CPU time is steadier still.
func timePairs(b *testing.B, pairs [][2][]int32, vals []xfloat.F, f subseqFunc) {
	ws := new(Workspace)
	best, bestCPU := math.Inf(1), math.Inf(1)
	for b.Loop() {
		start, cpu := time.Now(), cputime.Process().Nanoseconds()
		for i, p := range pairs {
			v, err := f(p[0], p[1], ws, Limits{})
			if err != nil {
				b.Fatal(err)
			}
			vals[i] = v
		}
		best = min(best, float64(time.Since(start).Nanoseconds()))
		bestCPU = min(bestCPU, float64(cputime.Process().Nanoseconds()-cpu))
	}
	b.ReportMetric(best/float64(len(pairs)), "ns/pair")
	b.ReportMetric(bestCPU/float64(len(pairs)), "cpu-ns/pair")
}

// subseqVariants runs timePairs on the kernel as it is (go), without its
// assembly loops (go-noasm, as with -tags purego) and on the loops it
// replaced (old, kept in subseq_ref_test.go).
func subseqVariants(b *testing.B, pairs [][2][]int32, vals []xfloat.F) {
	b.Run("go", func(b *testing.B) { timePairs(b, pairs, vals, subseqAll) })
	b.Run("go-noasm", func(b *testing.B) {
		defer func(u bool) { useRowAVX2 = u }(useRowAVX2)
		useRowAVX2 = false
		timePairs(b, pairs, vals, subseqAll)
	})
	b.Run("old", func(b *testing.B) { timePairs(b, pairs, vals, refSubseqAll) })
}

// BenchmarkSubseqPairs times subseq on 2,000 pairs of 500-character Reuters
// windows (see subseqVariants), and the textbook loop in C (c,
// testdata/subseq_ref.c, built with gcc -O2 when gcc is installed, else
// skipped). Run it with -benchtime=5x or so: ns/pair is the best of the
// iterations. The C values must be the Go values, bit for bit, wherever
// every cell stayed below 2^511.
func BenchmarkSubseqPairs(b *testing.B) {
	pairs := windowPairs(b, 2000, 500)
	subseqVariants(b, pairs, make([]xfloat.F, len(pairs)))
	b.Run("c", func(b *testing.B) {
		cVals, wall, cpu := runC(b, pairs)
		b.ReportMetric(wall, "ns/pair")
		b.ReportMetric(cpu, "cpu-ns/pair")
		ws := new(Workspace)
		for i, v := range cVals {
			g, err := subseqAll(pairs[i][0], pairs[i][1], ws, Limits{})
			if err != nil {
				b.Fatal(err)
			}
			if v < 0x1p511 && g != xfloat.New(v) {
				b.Errorf("pair %d: C %v, Go %v", i, v, g)
			}
		}
	})
}

// runC builds testdata/subseq_ref.c and runs it on pairs once per iteration,
// returning its values and its best wall and CPU nanoseconds per pair.
func runC(b *testing.B, pairs [][2][]int32) (vals []float64, wall, cpu float64) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		b.Skip("gcc not installed")
	}
	dir := b.TempDir()
	bin, in, out := filepath.Join(dir, "subseq_ref"), filepath.Join(dir, "pairs"), filepath.Join(dir, "out")
	if msg, err := exec.Command(gcc, "-O2", "-o", bin, "testdata/subseq_ref.c").CombinedOutput(); err != nil {
		b.Fatalf("gcc: %v\n%s", err, msg)
	}
	buf := binary.LittleEndian.AppendUint32(nil, uint32(len(pairs)))
	for _, p := range pairs {
		for _, s := range p {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(len(s)))
			for _, c := range s {
				buf = binary.LittleEndian.AppendUint32(buf, uint32(c))
			}
		}
	}
	if err := os.WriteFile(in, buf, 0o600); err != nil {
		b.Fatal(err)
	}
	wall, cpu = math.Inf(1), math.Inf(1)
	for b.Loop() {
		msg, err := exec.Command(bin, in, out, "1").Output()
		if err != nil {
			b.Fatalf("subseq_ref: %v", err)
		}
		f := strings.Fields(string(msg))
		w, _ := strconv.ParseFloat(f[0], 64)
		c, _ := strconv.ParseFloat(f[1], 64)
		wall, cpu = min(wall, w), min(cpu, c)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i+8 <= len(raw); i += 8 {
		vals = append(vals, math.Float64frombits(binary.LittleEndian.Uint64(raw[i:])))
	}
	return vals, wall, cpu
}

// BenchmarkSubseqLong times subseq on two 2,000-character texts, whose
// cells pass 2^511 and take exponents (see subseqVariants).
func BenchmarkSubseqLong(b *testing.B) {
	for _, kind := range []string{"news", "dna"} {
		s, t := benchTexts(b, kind, 2000)
		x, y := Decode(s, Char).Chars(), Decode(t, Char).Chars()
		b.Run(kind+"2000", func(b *testing.B) {
			subseqVariants(b, [][2][]int32{{x, y}}, make([]xfloat.F, 1))
		})
	}
}
