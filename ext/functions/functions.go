// Package functions holds ksql's SQL scalar functions, written once against
// the driver-neutral host.Conn. The driver adapters register every entry of
// All on each connection.
//
// A function receives its arguments as nil, int64, float64, string or
// []byte and returns one of those (or an error). Errors are prefixed with
// the function's name by the adapter-independent wrapper in Call, so a body
// reports only what was wrong.
package functions

import (
	"fmt"
	"sort"
	"sync"

	"github.com/ksql/ksql/ext/host"
)

// Func describes one SQL function.
type Func struct {
	// Name is the SQL name.
	Name string
	// MinArgs and MaxArgs bound the argument count; the function is
	// registered as variadic and the count is checked in Call.
	MinArgs, MaxArgs int
	// Deterministic functions give the same result for the same arguments.
	Deterministic bool
	// Usage is the signature shown in errors and in the shell's help,
	// e.g. "gauss_kernel(x, z, sigma)".
	Usage string
	// Body computes the result. Errors it returns carry no function name.
	// String and []byte arguments may be views of SQLite's memory, valid
	// only during the call (modernc's VolatileArgs, mattn's string
	// conversion): copy one before retaining it past the call.
	Body func(c *host.Conn, args []any) (any, error)
}

var (
	mu       sync.Mutex
	registry = map[string]Func{}
)

// Register adds f to the list; packages call it from init.
func Register(f Func) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[f.Name]; dup {
		panic("functions: " + f.Name + " registered twice")
	}
	registry[f.Name] = f
}

// All returns every registered function, sorted by name.
func All() []Func {
	mu.Lock()
	defer mu.Unlock()
	out := make([]Func, 0, len(registry))
	for _, f := range registry {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Call runs f with the argument-count check and the name prefix on errors.
// Adapters call it; it also recovers a panic into an error so that a bug
// never takes the host process down.
func (f Func) Call(c *host.Conn, args []any) (res any, err error) {
	if len(args) < f.MinArgs || len(args) > f.MaxArgs {
		return nil, fmt.Errorf("%s: wrong number of arguments (%d); usage: %s", f.Name, len(args), f.Usage)
	}
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("%s: internal error: %v", f.Name, r)
		}
	}()
	res, err = f.Body(c, args)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name, host.Explain(err))
	}
	return res, nil
}
