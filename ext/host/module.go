package host

import (
	"errors"
	"fmt"
)

// Module is a virtual table module written once for both drivers. The
// adapters translate SQLite's xCreate/xConnect/xBestIndex/... calls into it.
type Module interface {
	// Create is called by CREATE VIRTUAL TABLE, and Connect when a database
	// that holds such a table is opened. args are as SQLite passes them:
	// args[0] is the module name, args[1] the database name, args[2] the
	// table name, and the rest are the module arguments, unparsed.
	Create(c *Conn, args []string) (Table, error)
	Connect(c *Conn, args []string) (Table, error)
}

// Eponymous is implemented by modules that exist only as table-valued
// functions under their own name (like kpca_eigen), never created with
// CREATE VIRTUAL TABLE. Their Connect gets args[0..2] only.
type Eponymous interface {
	Module
	EponymousOnly()
}

// Table is one virtual table instance.
type Table interface {
	// Schema is the CREATE TABLE statement the adapter declares to SQLite.
	Schema() string
	// BestIndex chooses a plan; see IndexInfo.
	BestIndex(info *IndexInfo) error
	Open() (Cursor, error)
	Disconnect() error
	Destroy() error
}

// Op is a constraint operator, numbered as SQLite's
// SQLITE_INDEX_CONSTRAINT_* codes, so that an adapter over SQLite's own
// constants (mattn, the C API) converts with Op(code) and needs no table.
type Op int

// Operators, as SQLite numbers them. OpOther is what an adapter passes
// for an operator it cannot name; modules treat any Op they do not test
// for as unusable.
const (
	OpOther     Op = 0
	OpEQ        Op = 2
	OpGT        Op = 4
	OpLE        Op = 8
	OpLT        Op = 16
	OpGE        Op = 32
	OpMATCH     Op = 64
	OpLIKE      Op = 65
	OpGLOB      Op = 66
	OpREGEXP    Op = 67
	OpNE        Op = 68
	OpISNOT     Op = 69
	OpISNOTNULL Op = 70
	OpISNULL    Op = 71
	OpIS        Op = 72
	OpLIMIT     Op = 73
	OpOFFSET    Op = 74
	OpFUNCTION  Op = 150
)

// Constraint is one WHERE term SQLite offers to the module.
type Constraint struct {
	Column int // -1 for the rowid
	Op     Op
	Usable bool
	// Use is set by BestIndex to receive the right-hand value in Filter.
	// Used constraints reach Filter's vals in the order of Constraints, and
	// SQLite does not check them again.
	Use bool
}

// OrderBy is one ORDER BY term.
type OrderBy struct {
	Column int
	Desc   bool
}

// IndexInfo is the Go form of sqlite3_index_info, reduced to what both
// drivers support.
type IndexInfo struct {
	Constraints     []Constraint
	OrderBy         []OrderBy
	IdxNum          int
	IdxStr          string
	OrderByConsumed bool
	EstimatedCost   float64
	EstimatedRows   int64
}

// Cursor scans a virtual table.
type Cursor interface {
	// Filter starts a scan; vals holds the values of the constraints that
	// BestIndex marked Use, in order. They must be copied to be retained.
	Filter(idxNum int, idxStr string, vals []any) error
	Next() error
	EOF() bool
	// Column returns nil, int64, float64, string or []byte.
	Column(col int) (any, error)
	Rowid() (int64, error)
	Close() error
}

// Updater is implemented by tables that take writes (SQLite's xUpdate),
// as the model tables take INSERT INTO t(t) VALUES ('refit'). cols are
// the values of every declared column, hidden ones included, in order;
// like Filter's values they must be copied to be retained. Adapters call
// it through Write, which refuses writes to tables without it.
type Updater interface {
	Insert(cols []any) error
	Update(oldRowid int64, cols []any) error
	Delete(oldRowid int64) error
}

// Write runs one xUpdate call on t: an INSERT (old < 0 and cols given),
// an UPDATE (both) or a DELETE (no cols). A table that is not an Updater
// is read-only, and the error says so.
func Write(t Table, old int64, cols []any, del bool) error {
	u, ok := t.(Updater)
	switch {
	case !ok:
		return errors.New("this virtual table is read-only")
	case del:
		return u.Delete(old)
	case old < 0:
		return u.Insert(cols)
	}
	return u.Update(old, cols)
}

// readOnly is a table that takes no writes, under the names its error
// gives: SQLite's own words ("this virtual table is read-only") name
// neither the module nor the table.
type readOnly struct {
	Table
	module, name string
}

func (r readOnly) refuse() error {
	return fmt.Errorf("%s: %s is read-only (its rows are computed from its arguments, not stored)", r.module, r.name)
}

func (r readOnly) Insert([]any) error        { return r.refuse() }
func (r readOnly) Update(int64, []any) error { return r.refuse() }
func (r readOnly) Delete(int64) error        { return r.refuse() }

// Renamer is implemented by tables that must follow ALTER TABLE … RENAME
// (SQLite's xRename), as a model table renames the shadow table that
// holds its fit. An error refuses the rename.
type Renamer interface {
	Rename(newName string) error
}

// Rename runs one xRename call on t; a table that is not a Renamer keeps
// nothing under its name and is renamed as it is.
func Rename(t Table, newName string) error {
	if r, ok := t.(Renamer); ok {
		return r.Rename(newName)
	}
	return nil
}
