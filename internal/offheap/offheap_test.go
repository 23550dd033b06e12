package offheap

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestAllocZeroedWritableFreed: a buffer is zeroed, holds what is
// written, and a second Free is harmless; sizes 0 and 1 work.
func TestAllocZeroedWritableFreed(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 1 << 20} {
		b := Alloc[float32](n)
		if len(b.Values) != n {
			t.Fatalf("n=%d: %d values", n, len(b.Values))
		}
		for i, v := range b.Values {
			if v != 0 {
				t.Fatalf("n=%d: value %d is %v, not zero", n, i, v)
			}
			b.Values[i] = float32(i)
		}
		for i := 0; i < n; i += 997 {
			if b.Values[i] != float32(i) {
				t.Fatalf("n=%d: value %d reads %v", n, i, b.Values[i])
			}
		}
		b.Free()
		b.Free()
		if b.Values != nil {
			t.Fatal("Values kept after Free")
		}
	}
	d := Alloc[float64](3)
	d.Values[2] = 2.5
	if d.Values[2] != 2.5 {
		t.Fatal("float64 buffer")
	}
	d.Free()
}

// TestMappedOutsideHeap: on unix a 256 MB buffer does not grow Go's
// heap, and its memory goes back to the system when freed.
func TestMappedOutsideHeap(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/status (Linux)")
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b := Alloc[float64](32 << 20)
	for i := range b.Values { // touch every page
		b.Values[i] = 1
	}
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapSys) - int64(before.HeapSys); grew > 64<<20 {
		t.Errorf("the heap grew by %d bytes for a mapped buffer", grew)
	}
	held := rssKB(t)
	b.Free()
	if freed := held - rssKB(t); freed < 200<<10 {
		t.Errorf("Free returned %d kB of the 262,144 kB buffer", freed)
	}
}

func rssKB(t *testing.T) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb
		}
	}
	t.Skip("no VmRSS")
	return 0
}

// sink keeps the garbage of TestReserveReleases reachable until dropped.
var sink [][]byte

// TestReserveReleases: a heap holding 64 MiB of garbage keeps its pages
// (Go returns them slowly); Reserve past releaseAbove gives them back
// before a large buffer is mapped, and Reserve below it does not collect.
func TestReserveReleases(t *testing.T) {
	retained := func() int64 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapIdle) - int64(ms.HeapReleased)
	}
	for range 64 {
		sink = append(sink, make([]byte, 1<<20))
	}
	sink = nil
	runtime.GC() // the garbage is free now, but still the process's
	if r := retained(); r < 32<<20 {
		t.Skipf("the runtime already returned the free heap (%d bytes kept)", r)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	gcs := ms.NumGC
	Reserve(releaseAbove)
	runtime.ReadMemStats(&ms)
	if ms.NumGC != gcs {
		t.Errorf("Reserve(%d) collected", releaseAbove)
	}
	Reserve(releaseAbove + 1)
	if r := retained(); r > 16<<20 {
		t.Errorf("after Reserve past releaseAbove the heap keeps %d free bytes", r)
	}
}
