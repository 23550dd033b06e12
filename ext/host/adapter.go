package host

import "fmt"

// # Writing a driver adapter
//
// ksql's functions, modules and settings are declared once, in an
// Extension (ext/catalog.Extension is ksql's). A driver adapter — modernc
// in package ext, mattn in ext/mattn, SQLite's C API in a loadable
// extension — makes them reachable from SQL on one connection:
//
//  1. Create the connection's Conn with Extension.NewConn, giving it a
//     QueryFunc that runs read-only SQL on the same connection (QueryVia
//     for a database/sql driver connection). Call Conn.SetContext before
//     each statement (WrapConn does it for a database/sql driver), or wire
//     the host's interrupt into Conn some other way, so long work stops.
//  2. Implement Registrar, whose two methods bind one function or one
//     module to the connection, and call Extension.Install with it. Install
//     walks the declared list; an adapter has no loop of its own.
//  3. In the driver callbacks, call the shared pieces here rather than
//     translating by hand: Func.Call for a function call (argument count,
//     error prefix, panic recovery), or Func.CallNumber where the adapter
//     can hand a Number function its arguments as Args without boxing; Open for xCreate/xConnect; Plan for
//     xBestIndex; Column for xColumn. Filter's values go to Cursor.Filter
//     as nil, int64, float64, string or []byte (a SQL NULL as nil).
//
// A C-API adapter maps these one to one: sqlite3_create_function_v2 with
// nArg = −1 (Func.Call checks the count) and SQLITE_DETERMINISTIC when
// Func.Deterministic; sqlite3_create_module_v2 with xCreate = NULL for an
// Eponymous module (and xCreate = xConnect otherwise); its
// sqlite3_index_constraint.op is an Op already (Op(op)), and Plan's argv
// is aConstraintUsage[i].argvIndex, with omit set where it is not 0.

// Func describes one SQL scalar function. It is registered as variadic;
// Call checks the argument count.
type Func struct {
	// Name is the SQL name.
	Name string
	// MinArgs and MaxArgs bound the argument count.
	MinArgs, MaxArgs int
	// Deterministic functions give the same result for the same arguments.
	Deterministic bool
	// ReadsTables marks a function that reads a table its arguments name
	// (a rational kernel's transducer): it may be deterministic within a
	// statement, but an adapter that can say so (SQLITE_INNOCUOUS) must not
	// declare it harmless in a schema that someone else wrote.
	ReadsTables bool
	// Usage is the signature shown in errors and in the shell's help,
	// e.g. "gauss_kernel(x, z, sigma)".
	Usage string
	// Body computes the result. Errors it returns carry no function name.
	// String and []byte arguments may be views of SQLite's memory, valid
	// only during the call (modernc's VolatileArgs, mattn's string
	// conversion): copy one before retaining it past the call.
	Body func(c *Conn, args []any) (any, error)
	// Number, given instead of Body, computes a function whose result is
	// always a REAL or NULL (null set) from unboxed arguments, under the
	// same rules. Adapters that read SQLite's values themselves call
	// CallNumber, with no allocation per call; Call converts for the rest.
	Number func(c *Conn, args []Arg) (v float64, null bool, err error)
}

// Call runs f with the argument-count check and the name prefix on errors.
// Adapters call it for every SQL call of f; it also recovers a panic into
// an error so that a bug never takes the host process down.
func (f *Func) Call(c *Conn, args []any) (res any, err error) {
	if f.Body == nil {
		return f.callNumberBoxed(c, args)
	}
	if err := f.checkCount(len(args)); err != nil {
		return nil, err
	}
	defer f.recovered(&err)
	res, err = f.Body(c, args)
	if err != nil {
		return nil, f.wrap(err)
	}
	return res, nil
}

// CallNumber is Call for a function with a Number body.
func (f *Func) CallNumber(c *Conn, args []Arg) (v float64, null bool, err error) {
	if err := f.checkCount(len(args)); err != nil {
		return 0, false, err
	}
	defer f.recovered(&err)
	v, null, err = f.Number(c, args)
	if err != nil {
		return 0, false, f.wrap(err)
	}
	return v, null, nil
}

// callNumberBoxed runs a Number body on driver values, viewed as Args in
// the connection's scratch space.
func (f *Func) callNumberBoxed(c *Conn, args []any) (any, error) {
	buf := c.borrowArgs(len(args))
	for i, a := range args {
		buf[i] = ArgOf(a)
	}
	v, null, err := f.CallNumber(c, buf)
	c.returnArgs(buf)
	if err != nil || null {
		return nil, err
	}
	return v, nil
}

func (f *Func) checkCount(n int) error {
	if n < f.MinArgs || n > f.MaxArgs {
		return fmt.Errorf("%s: wrong number of arguments (%d); usage: %s", f.Name, n, f.Usage)
	}
	return nil
}

// recovered, deferred, turns a panic of f's body into an error.
func (f *Func) recovered(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: internal error: %v", f.Name, r)
	}
}

// wrap prefixes a body's error with f's name.
func (f *Func) wrap(err error) error { return Bounded(fmt.Errorf("%s: %w", f.Name, Explain(err))) }

// ModuleEntry names a virtual table module in a declared list.
type ModuleEntry struct {
	Name   string
	Module Module
}

// Extension is a declared list of what an extension registers on every
// connection, in the manner of sqlite-vec's aFunc[] and aMod[] tables.
type Extension struct {
	Functions []Func
	Modules   []ModuleEntry
	// Settings are the limits ksql_config reads and changes. They need no
	// registration with the driver: NewConn gives them to the Conn.
	Settings []*Setting
}

// Registrar is the part of a driver adapter that binds one function or
// module to a connection (or, for a driver that registers per driver
// rather than per connection, to every connection it will open).
type Registrar interface {
	// RegisterFunction makes f callable from SQL as f.Name with any number
	// of arguments; each call goes to f.Call with the Conn of the
	// connection it runs on. f stays valid and unchanged for the process's
	// lifetime.
	RegisterFunction(f *Func) error
	// RegisterModule makes m available as USING name(...). An Eponymous
	// module is a table-valued function usable only under its own name:
	// register it so that SQLite will not let CREATE VIRTUAL TABLE use it
	// (xCreate = NULL) and the adapter's Connect gets args[0..2] only.
	RegisterModule(name string, m Module) error
}

// Install registers every function and module of e through r, stopping
// at the first error, which names what failed.
func (e *Extension) Install(r Registrar) error {
	for i := range e.Functions {
		if err := r.RegisterFunction(&e.Functions[i]); err != nil {
			return fmt.Errorf("ksql: registering %s: %w", e.Functions[i].Name, err)
		}
	}
	for _, m := range e.Modules {
		if err := r.RegisterModule(m.Name, m.Module); err != nil {
			return fmt.Errorf("ksql: registering module %s: %w", m.Name, err)
		}
	}
	return nil
}

// NewConn returns the Conn of one new connection, running SQL through
// query and knowing e's settings.
func (e *Extension) NewConn(query QueryFunc) *Conn { return NewConn(query, e.Settings...) }

// Open runs a module's Create (create set) or Connect and declares the
// table's schema through declare, disconnecting the table if SQLite
// refuses it. Adapters call it from xCreate and xConnect.
func Open(m Module, create bool, c *Conn, args []string, declare func(schema string) error) (Table, error) {
	open := m.Connect
	if create {
		open = m.Create
	}
	t, err := open(c, args)
	if err != nil {
		return nil, err
	}
	if err := declare(t.Schema()); err != nil {
		t.Disconnect()
		return nil, err
	}
	_, writes := t.(Updater)
	_, renames := t.(Renamer)
	if !writes && !renames && len(args) > 2 {
		t = readOnly{Table: t, module: args[0], name: args[2]}
	}
	return t, nil
}

// Plan is xBestIndex for any adapter: it builds an IndexInfo from the
// driver's constraints and ORDER BY terms through the adapter's two
// conversions, runs t.BestIndex, and numbers the constraints the table
// used: argv[i] is constraint i's 1-based position among Filter's values,
// 0 when it is unused (sqlite3_index_constraint_usage.argvIndex). SQLite
// need not check a used constraint again. cost and rows are the driver's
// initial estimates, which BestIndex may keep.
func Plan[C, O any](t Table, cons []C, con func(C) Constraint, order []O, ord func(O) OrderBy, cost float64, rows int64) (*IndexInfo, []int, error) {
	info := &IndexInfo{Constraints: make([]Constraint, len(cons)), OrderBy: make([]OrderBy, len(order)),
		EstimatedCost: cost, EstimatedRows: rows}
	for i, c := range cons {
		info.Constraints[i] = con(c)
	}
	for i, o := range order {
		info.OrderBy[i] = ord(o)
	}
	if err := t.BestIndex(info); err != nil {
		return nil, nil, err
	}
	argv := make([]int, len(cons))
	next := 0
	for i, c := range info.Constraints {
		if c.Use {
			next++
			argv[i] = next
		}
	}
	return info, argv, nil
}

// Column is xColumn for any adapter: the value of column col at c's row,
// always nil, int64, float64, string or []byte, the five types every
// adapter hands to SQLite. A module that returns another Go type (a bool,
// a plain int) is converted here, once for all drivers.
func Column(c Cursor, col int) (any, error) {
	v, err := c.Column(col)
	if err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case nil, int64, float64, string, []byte:
		return v, nil
	case bool:
		if x {
			return int64(1), nil
		}
		return int64(0), nil
	case int:
		return int64(x), nil
	case float32:
		return float64(x), nil
	}
	return nil, fmt.Errorf("internal error: column %d holds a %T", col, v)
}
