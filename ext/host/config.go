package host

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Setting describes one limit that users can read and change with
// ksql_config(name [, value]).
type Setting struct {
	Name     string
	Default  int64
	Min, Max int64
	Doc      string
}

var (
	settingsMu sync.RWMutex
	settings   = map[string]Setting{}
)

// DefineSetting declares a setting; packages call it from init. Defining the
// same name twice panics, since that is a programming error.
func DefineSetting(s Setting) {
	settingsMu.Lock()
	defer settingsMu.Unlock()
	if _, dup := settings[s.Name]; dup {
		panic("host: setting " + s.Name + " defined twice")
	}
	settings[s.Name] = s
}

// Settings lists every defined setting, sorted by name.
func Settings() []Setting {
	settingsMu.RLock()
	defer settingsMu.RUnlock()
	out := make([]Setting, 0, len(settings))
	for _, s := range settings {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// LookupSetting returns the setting called name.
func LookupSetting(name string) (Setting, bool) {
	settingsMu.RLock()
	defer settingsMu.RUnlock()
	s, ok := settings[name]
	return s, ok
}

// Config holds the values of the settings for one connection. Unset
// settings have their default. It is safe for concurrent use.
type Config struct {
	mu   sync.RWMutex
	vals map[string]int64
}

// NewConfig returns a Config with every setting at its default.
func NewConfig() *Config { return &Config{vals: map[string]int64{}} }

// Get returns the value of a setting. It panics on an undefined name, which
// only a programming error produces.
func (c *Config) Get(name string) int64 {
	c.mu.RLock()
	v, ok := c.vals[name]
	c.mu.RUnlock()
	if ok {
		return v
	}
	s, ok := LookupSetting(name)
	if !ok {
		panic("host: undefined setting " + name)
	}
	return s.Default
}

// Value returns a setting by a name a user gave, which may be unknown.
func (c *Config) Value(name string) (int64, error) {
	if _, ok := LookupSetting(name); !ok {
		return 0, unknownSetting(name)
	}
	return c.Get(name), nil
}

func unknownSetting(name string) error {
	return fmt.Errorf("unknown setting %q (known: %s)", name, strings.Join(settingNames(), ", "))
}

// Set changes a setting, checking its name and range.
func (c *Config) Set(name string, v int64) error {
	s, ok := LookupSetting(name)
	if !ok {
		return unknownSetting(name)
	}
	if v < s.Min || v > s.Max {
		return fmt.Errorf("%s must be between %d and %d, got %d", name, s.Min, s.Max, v)
	}
	c.mu.Lock()
	c.vals[s.Name] = v // s.Name, not name: name may be a view of SQLite memory
	c.mu.Unlock()
	return nil
}

func settingNames() []string {
	var names []string
	for _, s := range Settings() {
		names = append(names, s.Name)
	}
	return names
}
