package host

import "unsafe"

// Reading a source of a million rows, the statement's goroutine is the one
// part of a fit that no other core can share: SQLite steps the rows there.
// Handing each row to ksql as []any adds an allocation a value (the
// driver's copy of a BLOB, its box, the row's slice) and the collector's
// work that follows. A Row lends the values instead, for a reader that
// copies what it keeps.

// Kind is a value's storage class.
type Kind uint8

const (
	Null Kind = iota
	Integer
	Float
	Text
	Blob
)

// Row is one result row whose values are borrowed from the driver: the
// slices Bytes returns are valid only until the callback it was given to
// returns.
type Row interface {
	Kind(i int) Kind
	Int(i int) int64
	Float(i int) float64
	// Bytes is a TEXT or BLOB value's bytes (nil for an empty one).
	Bytes(i int) []byte
	// Value is value i as Query would give it, owned by the caller.
	Value(i int) any
}

// BorrowFunc runs one statement without arguments on the adapter's
// connection and calls row once per result row, its values borrowed.
type BorrowFunc func(query string, row func(Row) error) error

// SetBorrow gives the connection its driver's BorrowFunc; without one,
// QueryBorrowed lends Query's rows.
func (c *Conn) SetBorrow(f BorrowFunc) { c.borrow = f }

// QueryBorrowed is Query for a reader of many rows that copies what it
// keeps: each row's values are lent, not given.
func (c *Conn) QueryBorrowed(query string, row func(Row) error) error {
	if c.borrow == nil {
		return c.Query(query, nil, Lend(row))
	}
	if err := c.enter(query, nil); err != nil {
		return err
	}
	defer c.leave()
	return c.outcome(c.borrow(query, row))
}

// Lend adapts row to Query's rows: each is lent as a *Values, the same
// one every row.
func Lend(row func(Row) error) func([]any) error {
	r := &Values{}
	return func(v []any) error {
		r.V = v
		return row(r)
	}
}

// Values is a row of values as Query gives them, seen as a Row.
type Values struct{ V []any }

var _ Row = (*Values)(nil)

func (r *Values) Kind(i int) Kind {
	switch r.V[i].(type) {
	case int64:
		return Integer
	case float64:
		return Float
	case string:
		return Text
	case []byte:
		return Blob
	}
	return Null
}

func (r *Values) Int(i int) int64     { x, _ := r.V[i].(int64); return x }
func (r *Values) Float(i int) float64 { x, _ := r.V[i].(float64); return x }
func (r *Values) Value(i int) any     { return r.V[i] }

func (r *Values) Bytes(i int) []byte {
	switch x := r.V[i].(type) {
	case string:
		return unsafe.Slice(unsafe.StringData(x), len(x))
	case []byte:
		return x
	}
	return nil
}
