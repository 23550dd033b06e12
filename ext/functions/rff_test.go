package functions_test

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/ksql/ksql/ext/catalog"
	"github.com/ksql/ksql/ext/functions"
	"github.com/ksql/ksql/ext/host"
)

// rffEmbed is the registered rff_embed, called at its Go entry point so
// that no driver's own work blurs what these tests measure.
func rffEmbed() *functions.Func {
	for i, g := range catalog.Extension.Functions {
		if g.Name == "rff_embed" {
			return &catalog.Extension.Functions[i]
		}
	}
	panic("rff_embed is not registered")
}

// TestRFFEmbedAllocs: a row costs the output BLOB and nothing else (for a
// float32 BLOB input; JSON text is parsed into a new slice): two
// allocations, its bytes and the slice header that returning it as an
// `any` boxes. Measured at
// the function's Go entry point so that the driver's own allocations do
// not blur the figure.
func TestRFFEmbedAllocs(t *testing.T) {
	f := rffEmbed()
	c := host.NewConn(nil)
	blob := make([]byte, 4*64)
	for _, args := range [][]any{{blob, int64(512), 1.0}, {blob, int64(512), "laplace(sigma=2)", int64(7)}} {
		if _, err := f.Call(c, args); err != nil {
			t.Fatal(err)
		}
		if a := testing.AllocsPerRun(50, func() { f.Call(c, args) }); a > 2 {
			t.Errorf("rff_embed(%v, ...) allocates %v times per row, want 2 (the output and its header)", args[2], a)
		}
	}
}

// FuzzRFFEmbed: any arguments give a BLOB of 4·dim bytes with unit norm,
// NULL, or an error — never a panic (Call would turn one into an
// "internal error", which the fuzzer reports).
func FuzzRFFEmbed(f *testing.F) {
	f.Add([]byte{0, 0, 128, 63}, "[1,2,3]", int64(8), 1.0, "", int64(0))
	f.Add([]byte{}, "[1e300]", int64(7), -1.0, "laplace(sigma=2)", int64(-5))
	f.Add([]byte{0, 0, 192, 127}, "", int64(2), 0.5, "poly(degree=2)", int64(1<<62))
	fn := rffEmbed()
	c := host.NewConn(nil)
	f.Fuzz(func(t *testing.T, blob []byte, text string, dim int64, sigma float64, spec string, seed int64) {
		var x any = blob
		if text != "" {
			x = text
		}
		var k any = sigma
		if spec != "" {
			k = spec
		}
		dim %= 4096 // keep each map small
		res, err := fn.Call(c, []any{x, dim, k, seed})
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatal(err)
			}
			return
		}
		out, ok := res.([]byte)
		if !ok || int64(len(out)) != 4*dim {
			t.Fatalf("result %T of %d bytes for dim %d", res, len(out), dim)
		}
		var s float64
		for i := 0; i < len(out); i += 4 {
			v := float64(math.Float32frombits(binary.LittleEndian.Uint32(out[i:])))
			s += v * v
		}
		if math.Abs(s-1) > 1e-5 {
			t.Fatalf("‖φ‖² = %v", s)
		}
	})
}
