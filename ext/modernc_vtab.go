package ext

import (
	"github.com/ksql/ksql/ext/host"
	"modernc.org/sqlite/vtab"
)

// moderncModule adapts a host.Module to modernc.org/sqlite/vtab.
type moderncModule struct {
	m    host.Module
	slot *slot
}

func (a *moderncModule) Create(ctx vtab.Context, args []string) (vtab.Table, error) {
	return a.open(ctx, args, a.m.Create)
}

func (a *moderncModule) Connect(ctx vtab.Context, args []string) (vtab.Table, error) {
	return a.open(ctx, args, a.m.Connect)
}

func (a *moderncModule) open(ctx vtab.Context, args []string, f func(*host.Conn, []string) (host.Table, error)) (vtab.Table, error) {
	t, err := f(a.slot.hc, args)
	if err != nil {
		return nil, err
	}
	if err := ctx.Declare(t.Schema()); err != nil {
		t.Disconnect()
		return nil, err
	}
	return moderncTable{t}, nil
}

type moderncTable struct{ t host.Table }

var opFromModernc = map[vtab.ConstraintOp]host.Op{
	vtab.OpEQ: host.OpEQ, vtab.OpGT: host.OpGT, vtab.OpLE: host.OpLE, vtab.OpLT: host.OpLT,
	vtab.OpGE: host.OpGE, vtab.OpLIMIT: host.OpLIMIT, vtab.OpOFFSET: host.OpOFFSET,
}

func (t moderncTable) BestIndex(info *vtab.IndexInfo) error {
	hi := &host.IndexInfo{EstimatedCost: info.EstimatedCost, EstimatedRows: info.EstimatedRows}
	for _, c := range info.Constraints {
		hi.Constraints = append(hi.Constraints, host.Constraint{Column: c.Column, Op: opFromModernc[c.Op], Usable: c.Usable})
	}
	for _, o := range info.OrderBy {
		hi.OrderBy = append(hi.OrderBy, host.OrderBy{Column: o.Column, Desc: o.Desc})
	}
	if err := t.t.BestIndex(hi); err != nil {
		return err
	}
	next := 0
	for i, c := range hi.Constraints {
		if c.Use {
			info.Constraints[i].ArgIndex = next
			info.Constraints[i].Omit = true
			next++
		}
	}
	info.IdxNum = int64(hi.IdxNum)
	info.IdxStr = hi.IdxStr
	info.OrderByConsumed = hi.OrderByConsumed
	info.EstimatedCost = hi.EstimatedCost
	info.EstimatedRows = hi.EstimatedRows
	return nil
}

func (t moderncTable) Open() (vtab.Cursor, error) {
	c, err := t.t.Open()
	if err != nil {
		return nil, err
	}
	return moderncCursor{c}, nil
}

func (t moderncTable) Disconnect() error { return t.t.Disconnect() }
func (t moderncTable) Destroy() error    { return t.t.Destroy() }

type moderncCursor struct{ c host.Cursor }

func (c moderncCursor) Filter(idxNum int, idxStr string, vals []vtab.Value) error {
	args := make([]any, len(vals))
	for i, v := range vals {
		args[i] = v
	}
	return c.c.Filter(idxNum, idxStr, args)
}

func (c moderncCursor) Next() error                        { return c.c.Next() }
func (c moderncCursor) Eof() bool                          { return c.c.EOF() }
func (c moderncCursor) Column(col int) (vtab.Value, error) { return c.c.Column(col) }
func (c moderncCursor) Rowid() (int64, error)              { return c.c.Rowid() }
func (c moderncCursor) Close() error                       { return c.c.Close() }
