package host

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

// TestMemorySettingCap: a Memory setting cannot pass physical memory
// (read here from /proc/meminfo, independently of Sysinfo).
func TestMemorySettingCap(t *testing.T) {
	pm := PhysicalMemory()
	if pm <= 0 {
		t.Skip("physical memory unknown on this platform")
	}
	if kb := memTotalKB(t); kb > 0 && (pm < kb*1024*9/10 || pm > kb*1024*11/10) {
		t.Errorf("PhysicalMemory = %d, /proc/meminfo says %d kB", pm, kb)
	}
	mem := &Setting{Name: "m", Default: 1 << 20, Min: 1, Max: 1 << 62, Memory: true}
	plain := &Setting{Name: "p", Default: 1 << 20, Min: 1, Max: 1 << 62}
	c := NewConfig(mem, plain)
	if err := c.Set("m", pm); err != nil {
		t.Errorf("setting physical memory: %v", err)
	}
	err := c.Set("m", pm+1)
	if err == nil || !strings.Contains(err.Error(), "physical memory") {
		t.Errorf("setting physical memory + 1: %v", err)
	}
	if v, _ := c.Value("m"); v != pm {
		t.Errorf("value after a refused set = %d, want %d", v, pm)
	}
	if err := c.Set("p", pm+1); err != nil {
		t.Errorf("a setting that is not memory is not capped: %v", err)
	}
}

func memTotalKB(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		var kb int64
		if n, _ := fmt.Sscanf(line, "MemTotal: %d kB", &kb); n == 1 {
			return kb
		}
	}
	return 0
}

func TestBoundedErrors(t *testing.T) {
	long := strings.Repeat("é", 1<<20)
	_, err := NewConfig().Value(long)
	if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), "(2097152 bytes)") {
		t.Errorf("unknown 2 MB name: %d-byte error %.100q", len(err.Error()), err)
	}
	base := errors.New(long)
	b := Bounded(base)
	if len(b.Error()) > maxErrorBytes+100 || !errors.Is(b, base) || !strings.HasPrefix(b.Error(), "éé") {
		t.Errorf("Bounded: %d bytes, Is = %v", len(b.Error()), errors.Is(b, base))
	}
	if short := io.EOF; Bounded(short) != short {
		t.Error("a short error is not returned as is")
	}
	if !strings.HasSuffix(Excerpt(strings.Repeat("x", 41)), "... (41 bytes)") || Excerpt("ab") != `"ab"` {
		t.Errorf("Excerpt: %s", Excerpt(strings.Repeat("x", 41)))
	}
}
