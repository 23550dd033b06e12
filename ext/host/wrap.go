package host

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"unsafe"
)

// WrapConn wraps a driver connection so that every statement records its
// context in hc before it runs: long ksql computations poll hc.Err() and
// stop when the statement is cancelled. The wrapper forwards the optional
// database/sql interfaces the raw connection implements.
func WrapConn(raw driver.Conn, hc *Conn, onClose func()) driver.Conn {
	return &wrappedConn{raw: raw, hc: hc, onClose: onClose}
}

type wrappedConn struct {
	raw     driver.Conn
	hc      *Conn
	onClose func()
}

var (
	_ driver.ExecerContext      = (*wrappedConn)(nil)
	_ driver.QueryerContext     = (*wrappedConn)(nil)
	_ driver.ConnPrepareContext = (*wrappedConn)(nil)
	_ driver.ConnBeginTx        = (*wrappedConn)(nil)
	_ driver.Pinger             = (*wrappedConn)(nil)
	_ driver.SessionResetter    = (*wrappedConn)(nil)
	_ driver.Validator          = (*wrappedConn)(nil)
)

// Raw returns the driver's own connection, for callers that need
// driver-specific methods through sql.Conn.Raw.
func (c *wrappedConn) Raw() driver.Conn { return c.raw }

func (c *wrappedConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *wrappedConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	var s driver.Stmt
	var err error
	if p, ok := c.raw.(driver.ConnPrepareContext); ok {
		s, err = p.PrepareContext(ctx, query)
	} else {
		s, err = c.raw.Prepare(query)
	}
	if err != nil {
		return nil, err
	}
	return &wrappedStmt{raw: s, hc: c.hc}, nil
}

func (c *wrappedConn) Close() error {
	err := c.raw.Close()
	if c.onClose != nil {
		c.onClose()
	}
	return err
}

func (c *wrappedConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *wrappedConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if b, ok := c.raw.(driver.ConnBeginTx); ok {
		return b.BeginTx(ctx, opts)
	}
	return c.raw.Begin() //nolint:staticcheck // fallback for drivers without BeginTx
}

func (c *wrappedConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	e, ok := c.raw.(driver.ExecerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	c.hc.SetContext(ctx)
	return e.ExecContext(ctx, query, args)
}

func (c *wrappedConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	q, ok := c.raw.(driver.QueryerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	c.hc.SetContext(ctx)
	return q.QueryContext(ctx, query, args)
}

func (c *wrappedConn) Ping(ctx context.Context) error {
	if p, ok := c.raw.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

func (c *wrappedConn) ResetSession(ctx context.Context) error {
	if r, ok := c.raw.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *wrappedConn) IsValid() bool {
	if v, ok := c.raw.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

type wrappedStmt struct {
	raw driver.Stmt
	hc  *Conn
}

func (s *wrappedStmt) Close() error  { return s.raw.Close() }
func (s *wrappedStmt) NumInput() int { return s.raw.NumInput() }

func (s *wrappedStmt) Exec(args []driver.Value) (driver.Result, error) {
	s.hc.SetContext(nil)
	return s.raw.Exec(args) //nolint:staticcheck // database/sql calls it for drivers without ExecContext
}

func (s *wrappedStmt) Query(args []driver.Value) (driver.Rows, error) {
	s.hc.SetContext(nil)
	return s.raw.Query(args) //nolint:staticcheck // as Exec
}

func (s *wrappedStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	e, ok := s.raw.(driver.StmtExecContext)
	if !ok {
		return nil, errors.New("ksql: driver statement lacks ExecContext")
	}
	s.hc.SetContext(ctx)
	return e.ExecContext(ctx, args)
}

func (s *wrappedStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	q, ok := s.raw.(driver.StmtQueryContext)
	if !ok {
		return nil, errors.New("ksql: driver statement lacks QueryContext")
	}
	s.hc.SetContext(ctx)
	return q.QueryContext(ctx, args)
}

// QueryVia returns a QueryFunc that runs statements on raw, the driver's own
// connection, bypassing database/sql (whose connection is busy with the
// statement that called into ksql).
func QueryVia(raw driver.QueryerContext) QueryFunc { return queryVia(raw, false) }

// QueryViaOwned is QueryVia for a driver whose rows hand out []byte values
// that the caller owns (modernc.org/sqlite and mattn/go-sqlite3 allocate
// each one), so that they are not copied again: a source of a million
// vectors would copy a quarter of a gigabyte for nothing.
func QueryViaOwned(raw driver.QueryerContext) QueryFunc { return queryVia(raw, true) }

func queryVia(raw driver.QueryerContext, owned bool) QueryFunc {
	return func(query string, args []any, row func([]any) error) error {
		named := make([]driver.NamedValue, len(args))
		for i, a := range args {
			named[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
		}
		rows, err := raw.QueryContext(context.Background(), query, named)
		if err != nil {
			return err
		}
		defer rows.Close()
		dest := make([]driver.Value, len(rows.Columns()))
		for {
			if err := rows.Next(dest); err != nil {
				if errors.Is(err, io.EOF) {
					return nil
				}
				return err
			}
			vals := make([]any, len(dest))
			for i, v := range dest {
				if b, ok := v.([]byte); ok && !owned {
					v = append([]byte(nil), b...)
				}
				vals[i] = v
			}
			if err := row(vals); err != nil {
				return err
			}
		}
	}
}

// CreateEponymous makes table-valued functions such as kpca_eigen usable
// by name on a driver whose modules always have an xCreate (modernc), so
// that SQLite does not treat them as eponymous: a temp virtual table of
// the same name stands in. Under PRAGMA query_only (a read-only session)
// the stand-in is still made: it only touches the connection's private
// temp schema.
func CreateEponymous(conn driver.Conn, names []string) error {
	e, q := conn.(driver.ExecerContext), conn.(driver.QueryerContext)
	ctx := context.Background()
	queryOnly := false
	if err := QueryVia(q)("PRAGMA query_only", nil, func(v []any) error {
		queryOnly = v[0] == int64(1)
		return nil
	}); err != nil {
		return err
	}
	if queryOnly {
		if _, err := e.ExecContext(ctx, "PRAGMA query_only = 0", nil); err != nil {
			return err
		}
		defer e.ExecContext(ctx, "PRAGMA query_only = 1", nil)
	}
	for _, name := range names {
		stmt := fmt.Sprintf(`CREATE VIRTUAL TABLE temp."%s" USING "%s"`, name, name)
		if _, err := e.ExecContext(ctx, stmt, nil); err != nil {
			return fmt.Errorf("ksql: creating %s: %w", name, err)
		}
	}
	return nil
}

// Args views a driver's argument values as []any without copying:
// driver.Value is defined as any, so the two slice types share their
// memory layout, and the per-call copy would be the largest cost of a
// cheap kernel.
func Args(args []driver.Value) []any {
	if len(args) == 0 {
		return nil
	}
	return unsafe.Slice((*any)(unsafe.Pointer(unsafe.SliceData(args))), len(args))
}
