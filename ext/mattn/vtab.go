//go:build sqlite_vtable && cgo

package mattn

import (
	"fmt"

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
	return a.open(c, args, a.m.Create)
}

func (a *mattnModule) Connect(c *sqlite3.SQLiteConn, args []string) (sqlite3.VTab, error) {
	return a.open(c, args, a.m.Connect)
}

func (a *mattnModule) DestroyModule() {}

func (a *mattnModule) open(c *sqlite3.SQLiteConn, args []string, f func(*host.Conn, []string) (host.Table, error)) (sqlite3.VTab, error) {
	t, err := f(a.hc, args)
	if err != nil {
		return nil, err
	}
	if err := c.DeclareVTab(t.Schema()); err != nil {
		t.Disconnect()
		return nil, err
	}
	return mattnTable{t}, nil
}

type mattnTable struct{ t host.Table }

var opFromMattn = map[sqlite3.Op]host.Op{
	sqlite3.OpEQ: host.OpEQ, sqlite3.OpGT: host.OpGT, sqlite3.OpLE: host.OpLE, sqlite3.OpLT: host.OpLT,
	sqlite3.OpGE: host.OpGE, sqlite3.OpLIMIT: host.OpLIMIT, sqlite3.OpOFFSET: host.OpOFFSET,
}

func (t mattnTable) BestIndex(cs []sqlite3.InfoConstraint, ob []sqlite3.InfoOrderBy) (*sqlite3.IndexResult, error) {
	hi := &host.IndexInfo{}
	for _, c := range cs {
		hi.Constraints = append(hi.Constraints, host.Constraint{Column: c.Column, Op: opFromMattn[c.Op], Usable: c.Usable})
	}
	for _, o := range ob {
		hi.OrderBy = append(hi.OrderBy, host.OrderBy{Column: o.Column, Desc: o.Desc})
	}
	if err := t.t.BestIndex(hi); err != nil {
		return nil, err
	}
	res := &sqlite3.IndexResult{
		Used:           make([]bool, len(cs)),
		IdxNum:         hi.IdxNum,
		IdxStr:         hi.IdxStr,
		AlreadyOrdered: hi.OrderByConsumed,
		EstimatedCost:  hi.EstimatedCost,
		EstimatedRows:  float64(hi.EstimatedRows),
	}
	for i, c := range hi.Constraints {
		res.Used[i] = c.Use
	}
	return res, nil
}

func (t mattnTable) Open() (sqlite3.VTabCursor, error) {
	c, err := t.t.Open()
	if err != nil {
		return nil, err
	}
	return mattnCursor{c}, nil
}

func (t mattnTable) Disconnect() error { return t.t.Disconnect() }
func (t mattnTable) Destroy() error    { return t.t.Destroy() }

type mattnCursor struct{ c host.Cursor }

func (c mattnCursor) Filter(idxNum int, idxStr string, vals []any) error {
	for i, v := range vals {
		if b, ok := v.([]byte); ok && b == nil {
			vals[i] = nil
		}
	}
	return c.c.Filter(idxNum, idxStr, vals)
}

func (c mattnCursor) Next() error           { return c.c.Next() }
func (c mattnCursor) EOF() bool             { return c.c.EOF() }
func (c mattnCursor) Rowid() (int64, error) { return c.c.Rowid() }
func (c mattnCursor) Close() error          { return c.c.Close() }

func (c mattnCursor) Column(ctx *sqlite3.SQLiteContext, col int) error {
	v, err := c.c.Column(col)
	if err != nil {
		return err
	}
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
	case bool:
		ctx.ResultBool(x)
	default:
		ctx.ResultText(toString(x))
	}
	return nil
}

func toString(v any) string { return fmt.Sprint(v) }
