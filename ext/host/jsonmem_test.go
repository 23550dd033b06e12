package host

import (
	"runtime"
	"strings"
	"testing"
)

// TestParseJSONVectorMemory: parsing holds the output and little more
// (a 400 MB JSON vector once took 8 GB). Short numbers are the
// worst case, eight bytes of output per two of text.
func TestParseJSONVectorMemory(t *testing.T) {
	for _, elem := range []string{"0", "1.25", "-0.000123456789"} {
		n := 2_000_000
		text := "[" + strings.Repeat(elem+",", n-1) + elem + "]"
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		v, err := ParseJSONVector(text)
		runtime.ReadMemStats(&after)
		if err != nil || len(v) != n {
			t.Fatalf("%s: %d elements, %v", elem, len(v), err)
		}
		out := uint64(8 * n)
		if got := after.TotalAlloc - before.TotalAlloc; got > out+out/8 {
			t.Errorf("%s: parsing %d bytes into %d bytes of output allocated %d bytes", elem, len(text), out, got)
		}
	}
}
