package host

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Setting describes one limit that users can read and change with
// ksql_config(name [, value]). The package whose code the limit bounds
// declares it as a package-level *Setting and reads it with Get; the
// extension's declared list (Extension.Settings) names it, which is what
// makes it known to ksql_config.
type Setting struct {
	Name     string
	Default  int64
	Min, Max int64
	Doc      string
	// Memory marks a size in bytes that work allocates up to: it cannot
	// be set above the machine's physical memory (PhysicalMemory), so
	// that a raised bound fails as an error rather than a crash.
	Memory bool
}

// Get returns the setting's value on connection c: what the user set with
// ksql_config, or the default.
func (s *Setting) Get(c *Conn) int64 { return c.Config.get(s) }

// Ceiling is the largest value Set accepts on this machine: Max, or the
// physical memory for a Memory setting where that is less. An error that
// suggests raising the setting to what work needs checks against it, so
// that it never suggests a value ksql_config refuses.
func (s *Setting) Ceiling() int64 {
	if pm := PhysicalMemory(); s.Memory && pm > 0 && pm < s.Max {
		return pm
	}
	return s.Max
}

// CeilingText is Ceiling for an error message, saying when it is this
// machine's memory rather than the setting's own bound.
func (s *Setting) CeilingText() string {
	if c := s.Ceiling(); c < s.Max {
		return strconv.FormatInt(c, 10) + ", this machine's physical memory"
	}
	return strconv.FormatInt(s.Max, 10)
}

// MaxDPCells bounds a string kernel's dynamic programme per call. It is
// declared here because the SQL functions, the virtual tables and Explain's
// wording all use it.
var MaxDPCells = &Setting{Name: "max_dp_cells", Default: 500_000_000, Min: 1, Max: 1 << 62,
	Doc: "largest string-kernel table per call: |s|·|t| cells for subseq, p·|s|·|t| for subseq(p) and ssk, |s|+|t| for ngram, n·|s|·|t| for gappy, (|s|+1)·(|t|+1)·states of T∘T⁻¹ for rational (max_fst_bytes bounds composing T∘T⁻¹)"}

// Config holds the values of the settings for one connection. Unset
// settings have their default. It is safe for concurrent use.
type Config struct {
	settings []*Setting // the names a user may give, sorted by name
	mu       sync.RWMutex
	vals     map[*Setting]int64
}

// NewConfig returns a Config that knows the given settings, every one at
// its default. Declaring the same name twice panics: it is a programming
// error in the declared list.
func NewConfig(settings ...*Setting) *Config {
	c := &Config{settings: slices.Clone(settings), vals: map[*Setting]int64{}}
	slices.SortFunc(c.settings, func(a, b *Setting) int { return strings.Compare(a.Name, b.Name) })
	for i := 1; i < len(c.settings); i++ {
		if c.settings[i].Name == c.settings[i-1].Name {
			panic("host: setting " + c.settings[i].Name + " declared twice")
		}
	}
	return c
}

// Settings lists the settings this Config knows, sorted by name.
func (c *Config) Settings() []*Setting { return c.settings }

func (c *Config) get(s *Setting) int64 {
	c.mu.RLock()
	v, ok := c.vals[s]
	c.mu.RUnlock()
	if ok {
		return v
	}
	return s.Default
}

func (c *Config) lookup(name string) (*Setting, error) {
	for _, s := range c.settings {
		if s.Name == name {
			return s, nil
		}
	}
	names := make([]string, len(c.settings))
	for i, s := range c.settings {
		names[i] = s.Name
	}
	return nil, fmt.Errorf("unknown setting %s (known: %s)", Excerpt(name), strings.Join(names, ", "))
}

// Value returns a setting by a name a user gave, which may be unknown.
func (c *Config) Value(name string) (int64, error) {
	s, err := c.lookup(name)
	if err != nil {
		return 0, err
	}
	return c.get(s), nil
}

// Set changes a setting, checking its name and range.
func (c *Config) Set(name string, v int64) error {
	s, err := c.lookup(name)
	if err != nil {
		return err
	}
	if v < s.Min || v > s.Max {
		return fmt.Errorf("%s must be between %d and %d, got %d", name, s.Min, s.Max, v)
	}
	if pm := PhysicalMemory(); s.Memory && pm > 0 && v > pm {
		return fmt.Errorf("%s must be between %d and %d (this machine's physical memory), got %d", name, s.Min, pm, v)
	}
	c.mu.Lock()
	c.vals[s] = v
	c.mu.Unlock()
	return nil
}

// Excerpt renders text a user gave for an error message: quoted, and cut
// after 40 characters, so that a megabyte of input never becomes a
// megabyte of error.
func Excerpt(s string) string {
	const max = 40
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut]) + fmt.Sprintf("... (%d bytes)", len(s))
	}
	return strconv.Quote(s)
}

// maxErrorBytes bounds every error message ksql returns.
const maxErrorBytes = 2000

// Bounded returns err, or when its message is longer than maxErrorBytes,
// an error with the message cut (that still wraps err for errors.Is).
func Bounded(err error) error {
	if err == nil || len(err.Error()) <= maxErrorBytes {
		return err
	}
	return boundedError{err}
}

type boundedError struct{ err error }

func (b boundedError) Error() string {
	msg := b.err.Error()
	cut := maxErrorBytes
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + fmt.Sprintf("... (message cut; %d bytes in all)", len(msg))
}

func (b boundedError) Unwrap() error { return b.err }
