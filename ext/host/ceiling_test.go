package host

import "testing"

// TestCeilingIsWhatSetAccepts: Ceiling is the largest value Set accepts,
// for a plain setting and a Memory one (bounded by this machine's memory
// where that is less than Max).
func TestCeilingIsWhatSetAccepts(t *testing.T) {
	for _, s := range []*Setting{
		{Name: "plain", Default: 2, Min: 2, Max: 1 << 24},
		{Name: "memory", Default: 1 << 20, Min: 1 << 10, Max: 1 << 62, Memory: true},
		{Name: "small_memory", Default: 1 << 20, Min: 1 << 10, Max: 1 << 30, Memory: true},
	} {
		c := NewConfig(s)
		top := s.Ceiling()
		if top > s.Max {
			t.Errorf("%s: Ceiling %d is more than Max %d", s.Name, top, s.Max)
		}
		if err := c.Set(s.Name, top); err != nil {
			t.Errorf("%s: Set(Ceiling = %d) refused: %v", s.Name, top, err)
		}
		if err := c.Set(s.Name, top+1); err == nil {
			t.Errorf("%s: Set(Ceiling + 1 = %d) accepted", s.Name, top+1)
		}
	}
	if pm := PhysicalMemory(); pm > 0 && pm < 1<<62 {
		if got := (&Setting{Max: 1 << 62, Memory: true}).Ceiling(); got != pm {
			t.Errorf("Ceiling of a Memory setting past the machine's memory = %d, want %d", got, pm)
		}
	}
}
