// Package host is the driver-neutral interface between ksql's SQL functions
// and virtual table modules on one side and the SQLite driver adapters
// (modernc.org/sqlite in package ext, mattn/go-sqlite3 in package ext/mattn,
// SQLite's C API in a loadable extension) on the other. adapter.go says
// what an adapter implements: Registrar, and the shared callbacks Open,
// Plan and Column.
//
// A Conn is one SQLite connection as a function or module sees it: its
// settings, a way to run read-only SQL on it, and a way to notice that the
// running statement was interrupted. Adapters build one Conn per connection.
package host

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// ErrInterrupted is returned by work that stopped because the statement
// running on its connection was interrupted or its context cancelled.
var ErrInterrupted = errors.New("interrupted")

// QueryFunc runs one SQL statement on the adapter's connection and calls row
// once per result row. The values in a row are nil, int64, float64, string
// or []byte, and are owned by the callee (they stay valid after row returns).
type QueryFunc func(query string, args []any, row func(vals []any) error) error

// Conn is one connection as functions and modules see it. Adapters create it
// with NewConn and keep it for the connection's lifetime.
type Conn struct {
	// Config holds this connection's limits (see ksql_config).
	Config *Config

	query  QueryFunc
	borrow BorrowFunc // nil: QueryBorrowed goes through query
	ctx    atomic.Pointer[context.Context]
	// Stats counts events that tests and users can observe through
	// ksql_config statistics.
	Stats *Stats

	valuesMu sync.Mutex
	values   map[any]any

	// running lists the statements running through Query, outermost
	// first, each with its arguments, so that one that would run again
	// inside itself is refused (see Query); while it is not empty, SQL
	// that ksql runs (a module's source) is executing, and settings may
	// not change (see Reading).
	runningMu sync.Mutex
	running   []string
	refused   *RecursionError // the refusal below the running statements, if any

	// args is Call's space for the Args of a Number function, so that a
	// call allocates nothing; argsBusy lends it to one call at a time (a
	// function may run SQL that calls another).
	args     [8]Arg
	argsBusy atomic.Bool

	errFunc func() error // Err as a func value, made once

	// settled is the driver's probe for Settled; nil when it gave none.
	settled func() bool

	// stmt counts the statements that have called a function that reads
	// tables (Func.ReadsTables), as the adapters see them start; see
	// NewStatement.
	stmt atomic.Uint64
}

// SetSettled gives the connection its driver's probe for Settled: SQLite's
// sqlite3_get_autocommit and sqlite3_txn_state, or what they read.
func (c *Conn) SetSettled(f func() bool) { c.settled = f }

// Settled reports whether the connection is in autocommit mode (outside
// BEGIN ... COMMIT) with no write transaction open (no statement of it is
// writing): then what its tables hold changes only when a statement ends
// or another connection commits. It is false when the driver gave no probe.
func (c *Conn) Settled() bool { return c != nil && c.settled != nil && c.settled() }

// NewStatement tells the connection that a statement calling a function
// that reads tables has started: what such a function read in an earlier
// statement may have changed since (a ROLLBACK moves no counter), what it
// read in this one has not. Adapters call it on a function's first call at
// its call site in a statement (SQLite's auxiliary data on a constant
// argument lives exactly that long), and on every call where they cannot
// tell.
func (c *Conn) NewStatement() { c.stmt.Add(1) }

// Statement identifies the current statement for NewStatement's purpose;
// 0 until the first.
func (c *Conn) Statement() uint64 { return c.stmt.Load() }

// borrowArgs returns n Args, the connection's own when they are free.
func (c *Conn) borrowArgs(n int) []Arg {
	if n == 0 {
		return nil
	}
	if c != nil && n <= len(c.args) && c.argsBusy.CompareAndSwap(false, true) {
		return c.args[:n]
	}
	return make([]Arg, n)
}

// returnArgs gives back what borrowArgs returned.
func (c *Conn) returnArgs(a []Arg) {
	if c != nil && len(a) > 0 && &a[0] == &c.args[0] {
		clear(a) // views of SQLite's memory: not kept
		c.argsBusy.Store(false)
	}
}

// Value returns the value this connection keeps under key, creating it
// with mk on first use. Modules keep connection-wide state here that must
// outlive one table or cursor, such as the registry of kpca tables that
// kpca_eigen looks up by name. Use an unexported key type, as with
// context values, so that packages cannot collide.
func (c *Conn) Value(key any, mk func() any) any {
	c.valuesMu.Lock()
	defer c.valuesMu.Unlock()
	if v, ok := c.values[key]; ok {
		return v
	}
	if c.values == nil {
		c.values = map[any]any{}
	}
	v := mk()
	c.values[key] = v
	return v
}

// NewConn returns a Conn that runs SQL through query and whose Config
// knows the given settings. Adapters use Extension.NewConn.
func NewConn(query QueryFunc, settings ...*Setting) *Conn {
	c := &Conn{Config: NewConfig(settings...), query: query, Stats: &Stats{}}
	c.errFunc = c.Err
	return c
}

// ErrFunc returns c.Err as a func value for a computation's interrupt
// check; writing c.Err in place makes a new one, an allocation per call
// of a cheap function.
func (c *Conn) ErrFunc() func() error {
	if c == nil || c.errFunc == nil {
		return c.Err // Err answers on a nil Conn too
	}
	return c.errFunc
}

// Query runs a statement on this connection. It is meant for modules that
// read their source while SQLite is inside one of their callbacks. A
// statement that would run inside itself, or nest past MaxNesting, is
// refused with a *RecursionError, which is also what every Query it was
// nested in returns.
func (c *Conn) Query(query string, args []any, row func(vals []any) error) error {
	if c.query == nil {
		return errors.New("no SQL access on this connection")
	}
	if err := c.enter(query, args); err != nil {
		return err
	}
	defer c.leave()
	return c.outcome(c.query(query, args, row))
}

// MaxNesting bounds how deeply the statements ksql runs through Query may
// nest (a model whose source reads another model, and so on), so that a
// cycle that changes its SQL on every turn still ends in an error, well
// before it exhausts a stack (Go's, or the C stack under cgo).
const MaxNesting = 32

// RecursionError is Query's refusal of a statement that would never end:
// one that is already running below itself on the connection (Again: a
// source that reads, through a view, a trigger or a function, the table
// being read), or one nested more than MaxNesting deep.
type RecursionError struct {
	Query string
	Again bool
	// Words, once set (by the module that met the refusal, which can name
	// itself), is the error's text for every statement it fails.
	Words string
}

func (e *RecursionError) Error() string {
	if e.Words != "" {
		return e.Words
	}
	if e.Again {
		return fmt.Sprintf("the statement %s runs again inside itself (a view, trigger or function it reads runs it), which would never end", sqlExcerpt(e.Query))
	}
	return fmt.Sprintf("ksql's reads of sources nest more than %d deep (at %s); a source that reads itself through other tables would never end", MaxNesting, sqlExcerpt(e.Query))
}

func sqlExcerpt(q string) string {
	q = strings.Join(strings.Fields(q), " ")
	if r := []rune(q); len(r) > 80 {
		q = string(r[:77]) + "..."
	}
	return strconv.Quote(q)
}

// enter records a statement about to run through Query, refusing it with a
// *RecursionError when the same statement with the same arguments is
// already running on the connection: reading the same data it would take
// the same path back to itself forever. (Nested calls come on one
// goroutine; the lock is for a Conn shared by several.)
func (c *Conn) enter(query string, args []any) error {
	key := query
	if len(args) > 0 {
		key += "\x00" + argsKey(args)
	}
	c.runningMu.Lock()
	defer c.runningMu.Unlock()
	if len(c.running) == 0 {
		c.refused = nil
	}
	switch {
	case slices.Contains(c.running, key):
		c.refused = &RecursionError{Query: query, Again: true}
	case len(c.running) >= MaxNesting:
		c.refused = &RecursionError{Query: query}
	default:
		c.running = append(c.running, key)
		return nil
	}
	return c.refused
}

// argsKey identifies a statement's arguments for enter: a BLOB by its
// length and a hash, since printing one (a stored fit's part of hundreds
// of megabytes) would cost more than the statement.
func argsKey(args []any) string {
	var b strings.Builder
	for _, a := range args {
		if p, ok := a.([]byte); ok {
			fmt.Fprintf(&b, "blob(%d, %x)\x00", len(p), maphash.Bytes(argsSeed, p))
			continue
		}
		fmt.Fprint(&b, a, "\x00")
	}
	return b.String()
}

var argsSeed = maphash.MakeSeed()

// outcome is the error of a statement that ran through Query: when a
// refusal below it made it fail, the refusal itself, so that every module
// on the way up sees (and reports) the cycle rather than SQLite's text of
// an inner module's error.
func (c *Conn) outcome(err error) error {
	c.runningMu.Lock()
	defer c.runningMu.Unlock()
	switch {
	case err == nil:
		c.refused = nil // whatever was refused below was handled there
	case c.refused != nil:
		return c.refused
	}
	return err
}

func (c *Conn) leave() {
	c.runningMu.Lock()
	c.running = c.running[:len(c.running)-1]
	c.runningMu.Unlock()
}

// Reading reports whether a statement that ksql itself runs through Query
// (a module reading its source, or looking a table up) is executing on
// this connection. Whatever that SQL calls runs inside it: setters refuse
// to change anything then, so that a source cannot raise a bound or
// otherwise change the connection it is read on.
func (c *Conn) Reading() bool {
	c.runningMu.Lock()
	defer c.runningMu.Unlock()
	return len(c.running) > 0
}

// SetContext records the context of the statement that is about to run on
// the connection; adapters call it before every statement. A nil ctx clears it.
func (c *Conn) SetContext(ctx context.Context) {
	if ctx == nil {
		c.ctx.Store(nil)
		return
	}
	c.ctx.Store(&ctx)
}

// Err returns ErrInterrupted once the running statement's context is done,
// and nil before. Long loops poll it every few milliseconds of work.
func (c *Conn) Err() error {
	if c == nil {
		return nil
	}
	p := c.ctx.Load()
	if p == nil {
		return nil
	}
	if (*p).Err() != nil {
		return ErrInterrupted
	}
	return nil
}

// Stats are counters kept per connection.
type Stats struct {
	// Fits counts model fits (kpca, kernel_map) done on this connection.
	Fits atomic.Int64
	// Reads counts the times a module read its whole source.
	Reads atomic.Int64
	// TransducerLoads counts the transducer table contents loaded for
	// rational kernels: each composes its T∘T⁻¹ at most once per unit,
	// however many rows and statements use it.
	TransducerLoads atomic.Int64
	// TransducerReads counts the reads of transducer tables' rows: once per
	// statement that uses a table, not once per call.
	TransducerReads atomic.Int64
}
