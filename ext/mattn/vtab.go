//go:build sqlite_vtable && cgo

package mattn

import (
	"github.com/ksql/ksql/ext/host"
	sqlite3 "github.com/mattn/go-sqlite3"
)

// mattnModule adapts a host.Module to mattn's sqlite3.Module.
type mattnModule struct {
	m  host.Module
	hc *host.Conn
}

type eponymous struct{ *mattnModule }

func (eponymous) EponymousOnlyModule() {}

func (a *mattnModule) Create(c *sqlite3.SQLiteConn, args []string) (sqlite3.VTab, error) {
	return a.open(c, args, true)
}
func (a *mattnModule) Connect(c *sqlite3.SQLiteConn, args []string) (sqlite3.VTab, error) {
	return a.open(c, args, false)
}
func (a *mattnModule) DestroyModule() {}

func (a *mattnModule) open(c *sqlite3.SQLiteConn, args []string, create bool) (sqlite3.VTab, error) {
	t, err := host.Open(a.m, create, a.hc, args, c.DeclareVTab)
	if err != nil {
		return nil, err
	}
	return mattnTable{t}, nil
}

// mattnTable is a host.Table under mattn's names.
type mattnTable struct{ host.Table }

func constraint(c sqlite3.InfoConstraint) host.Constraint {
	return host.Constraint{Column: c.Column, Op: host.Op(c.Op) /* SQLite's codes, as mattn's */, Usable: c.Usable}
}

func orderBy(o sqlite3.InfoOrderBy) host.OrderBy { return host.OrderBy{Column: o.Column, Desc: o.Desc} }

func (t mattnTable) BestIndex(cs []sqlite3.InfoConstraint, ob []sqlite3.InfoOrderBy) (*sqlite3.IndexResult, error) {
	hi, argv, err := host.Plan(t.Table, cs, constraint, ob, orderBy, 0, 0)
	if err != nil {
		return nil, err
	}
	res := &sqlite3.IndexResult{Used: make([]bool, len(cs)), IdxNum: hi.IdxNum, IdxStr: hi.IdxStr,
		AlreadyOrdered: hi.OrderByConsumed, EstimatedCost: hi.EstimatedCost, EstimatedRows: float64(hi.EstimatedRows)}
	for i, a := range argv {
		res.Used[i] = a > 0
	}
	return res, nil
}

func (t mattnTable) Open() (sqlite3.VTabCursor, error) {
	c, err := t.Table.Open()
	if err != nil {
		return nil, err
	}
	return mattnCursor{c}, nil
}

// mattnCursor is a host.Cursor under mattn's names.
type mattnCursor struct{ host.Cursor }

func (c mattnCursor) Filter(idxNum int, idxStr string, vals []any) error {
	return c.Cursor.Filter(idxNum, idxStr, nullArgs(vals))
}

func (c mattnCursor) Column(ctx *sqlite3.SQLiteContext, col int) error {
	v, err := host.Column(c.Cursor, col)
	switch x := v.(type) {
	case nil:
		ctx.ResultNull()
	case int64:
		ctx.ResultInt64(x)
	case float64:
		ctx.ResultDouble(x)
	case string:
		ctx.ResultText(x)
	case []byte:
		ctx.ResultBlob(x)
	}
	return err
}

// Insert, Update and Delete are xUpdate (host.Write).
func (t mattnTable) Insert(_ any, cols []any) (int64, error) {
	return 0, host.Write(t.Table, -1, nullArgs(cols), false)
}
func (t mattnTable) Update(old any, cols []any) error {
	o, _ := old.(int64)
	return host.Write(t.Table, o, nullArgs(cols), false)
}
func (t mattnTable) Delete(old any) error {
	o, _ := old.(int64)
	return host.Write(t.Table, o, nil, true)
}
