package vtab

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/ksql/ksql/ext/host"
)

// Stored fits. Every model table keeps its fit in a shadow table named
// after it, <name>_fit(part TEXT PRIMARY KEY, data BLOB), as FTS5 and vec0
// keep theirs: one row per named part of the model's encoding (svm: its
// support vectors, dual coefficients and intercepts; kpca: eigenvalues,
// projections and centring terms; kernel_map: the map's coefficients),
// plus 'module' (the module's name, written when the table is created: it
// marks the shadow table as the table's own), 'arguments' (the module
// arguments the fit was made with), 'source_sha256' (the hash of the
// source content the fit was made on) and 'checksum' (SHA-256 over every
// other part's name and data). Outputs that grow with the source (a
// Nyström fit's projections or answers) are parts of their own, written
// in pieces as the fit computes them and checked by hashes the checksum
// covers (chunks.go). It is written when the table is created and by
// INSERT INTO t(t) VALUES ('refit'); nothing else writes it.
//
// A connection that opens the table (a reopened database, a new process)
// answers from the stored fit, without refitting, while the arguments are
// the table's own and the source's hash is the stored one. When the source
// changed, a read refits in memory and the shadow table stays as it was
// until the next 'refit': reads never write, so read-only databases, PRAGMA
// query_only and read transactions work, and every node of a replicated
// cluster holds the same bytes. A shadow table whose checksum does not
// match (edited or truncated by hand), made by another module or with
// other arguments (rows copied from another table), or whose decoded shape
// is not the table's, is never trusted: the table refits in memory and
// ksql_model says why.
//
// The shadow table belongs to its table: CREATE refuses a name whose
// <name>_fit already exists, ALTER TABLE ... RENAME moves it (xRename),
// and neither 'refit' nor DROP TABLE touches a <name>_fit that lacks the
// table's 'module' row.

// fitSuffix names a model table's shadow table.
const fitSuffix = "_fit"

// storedFit is a shadow table's content, read and verified.
type storedFit struct {
	hash  [sha256.Size]byte
	parts []fitPart
	sum   []byte      // the checksum part
	t     *modelTable // whose shadow table holds the fit's pieces (chunks.go)
}

func (t *modelTable) shadow() ident {
	return ident{schema: t.name.schema, name: t.name.name + fitSuffix}
}

// checksum is the SHA-256 of the parts, in name order.
func checksum(parts []fitPart) []byte {
	sorted := append([]fitPart(nil), parts...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].name < sorted[j].name })
	h := sha256.New()
	for _, p := range sorted {
		fmt.Fprintf(h, "%s\x00%d\x00", p.name, len(p.data))
		h.Write(p.data)
	}
	return h.Sum(nil)
}

// loadStored reads the shadow table; it returns nil, and why, when there
// is no fit there or it fails its checks, so that the table refits instead.
func (t *modelTable) loadStored() (*storedFit, string) {
	var parts []fitPart
	var module, args, hash, sum []byte
	err := t.hc.Query("SELECT part, data FROM "+t.shadow().sql()+" WHERE part < '"+chunkPrefix+"'", nil, func(v []any) error {
		name, _ := v[0].(string)
		data, _ := v[1].([]byte)
		switch name {
		case "module":
			module = data
		case "arguments":
			args = data
		case "source_sha256":
			hash = data
		case "checksum":
			sum = data
		}
		if name != "checksum" {
			parts = append(parts, fitPart{name: strings.Clone(name), data: data})
		}
		return nil
	})
	switch {
	case err != nil:
		return nil, "no stored fit (" + sqliteMessage(err) + ")"
	case sum == nil:
		return nil, "no stored fit in " + t.shadow().name
	case !bytes.Equal(sum, checksum(parts)) || len(hash) != sha256.Size:
		return nil, "the stored fit in " + t.shadow().name + " fails its checksum (changed by hand?): not used"
	case string(module) != t.kind.name:
		return nil, fmt.Sprintf("%s holds a fit of module %s, not %s: not used", t.shadow().name, quoteExcerpt(string(module)), t.kind.name)
	case string(args) != t.args:
		return nil, fmt.Sprintf("%s holds a fit made with other arguments (%s): not used", t.shadow().name, quoteExcerpt(string(args)))
	}
	s := &storedFit{parts: parts, sum: sum, t: t}
	copy(s.hash[:], hash)
	return s, ""
}

// part returns the stored part called name.
func (s *storedFit) part(name string) ([]byte, error) {
	for _, p := range s.parts {
		if p.name == name {
			return p.data, nil
		}
	}
	return nil, fmt.Errorf("the stored fit has no part %s", name)
}

// fitAndStore fits the source as it is now and stores the fit in the
// shadow table, replacing what it held (CREATE, 'refit'); an empty source
// stores nothing but the table's mark when empty is true, and is an error
// otherwise. The shadow table is made ready first, since a fit may write
// its large outputs there as it computes them (chunks.go); such a fit is
// not kept in memory: the next statement restores it from what was
// stored, reading the pieces back as it needs them.
func (t *modelTable) fitAndStore(empty bool) (err error) {
	defer func() {
		if err == nil { // what the fit found (no shadow table yet, at CREATE) is stale now
			t.last.note = ""
		}
	}()
	return t.atomically(func() error {
		defer t.forgetStored()
		if err := t.prepareShadow(); err != nil {
			return err
		}
		t.fits = fitCache[fitted]{}
		t.storing = true // refit, not restore
		snap, fit, err := t.current()
		t.storing = false
		var none emptySource
		if err != nil && (!empty || !errors.As(err, &none)) {
			return err
		}
		return t.storeParts(snap, fit)
	})
}

// forgetStored ends a store, stored or not: what the shadow table holds
// is read again when next needed (the transaction may yet roll back, or
// the store failed), and a fit whose outputs went to pieces is not kept,
// since it answers only once restored from them.
func (t *modelTable) forgetStored() {
	t.storing = false
	if p, ok := t.fits.fit.(piecewise); ok && p.pieceSet().in == nil && p.pieceSet().out != nil {
		t.fits.done = false
	}
	t.saved, t.savedNote, t.loaded = nil, "", false
}

// atomically runs do so that its writes land together or not at all.
// Outside a transaction, the CREATE or INSERT that runs them is the one
// writing statement (SQLite refuses a savepoint then) and takes them back
// with itself when it fails. Inside BEGIN ... COMMIT, a savepoint makes
// them one step, whatever the statement's own rollback covers.
func (t *modelTable) atomically(do func() error) (err error) {
	if t.exec("SAVEPOINT ksql_store") != nil {
		return do()
	}
	defer func() {
		if err != nil {
			t.exec("ROLLBACK TO ksql_store")
		}
		if rerr := t.exec("RELEASE ksql_store"); err == nil {
			err = rerr
		}
	}()
	return do()
}

// prepareShadow makes the shadow table exist, empty, refusing one that
// is not the table's own.
func (t *modelTable) prepareShadow() error {
	sh := t.shadow().sql()
	owned, exists, err := t.ownsShadow()
	switch {
	case err != nil:
		return err
	case exists && !owned:
		return t.notOwned()
	case !exists:
		return t.exec("CREATE TABLE " + sh + "(part TEXT PRIMARY KEY, data BLOB) WITHOUT ROWID")
	}
	return t.exec("DELETE FROM " + sh)
}

// storeParts writes the fit of snap (nil: only the table's mark) beside
// the pieces the fit wrote.
func (t *modelTable) storeParts(snap *snapshot, fit fitted) error {
	sh := t.shadow().sql()
	parts := []fitPart{{"module", []byte(t.kind.name)}}
	if enc, ok := fit.(fitEncoder); ok && fit != nil {
		fp, err := enc.encode()
		if err != nil {
			return err
		}
		parts = append(fp, fitPart{"module", []byte(t.kind.name)}, fitPart{"arguments", []byte(t.args)},
			fitPart{"source_sha256", snap.hash[:]})
		if snap.scale != nil { // scale=: the means and stds new objects are scaled by, part of the fit
			parts = append(parts, fitPart{"scale", snap.scale.encode()})
		}
		parts = append(parts, fitPart{"checksum", checksum(parts)})
	}
	for _, p := range parts {
		if err := t.exec("INSERT INTO "+sh+"(part, data) VALUES (?, ?)", p.name, p.data); err != nil {
			return err
		}
	}
	return nil
}

// ownsShadow says whether <name>_fit exists and whether it is this
// table's: it has this module's 'module' row, which CREATE wrote.
func (t *modelTable) ownsShadow() (owned, exists bool, err error) {
	kind, err := t.nameTaken(t.shadow())
	if err != nil || kind == "" || kind == "index" { // an index is no table: CREATE TABLE says so
		return false, false, err
	}
	if kind != "table" { // ksql writes a plain table: a view or virtual table is a user's own, not read (it may fail to)
		return false, true, nil
	}
	// The shape is asked first, so that an error of the read itself (an
	// interrupt, a lock) is an error, not "a user's own table": DROP TABLE
	// would then keep the shadow table, and RENAME leave it behind.
	cols := 0
	err = t.hc.Query("PRAGMA "+sqlIdent(t.shadow().schema)+".table_info("+sqlIdent(t.shadow().name)+")", nil, func(v []any) error {
		if name, _ := v[1].(string); strings.EqualFold(name, "part") || strings.EqualFold(name, "data") {
			cols++
		}
		return nil
	})
	if err != nil || cols != 2 { // another shape: a user's own table
		return false, true, err
	}
	var module []byte
	err = t.hc.Query("SELECT data FROM "+t.shadow().sql()+" WHERE part = 'module'", nil, func(v []any) error {
		module, _ = v[0].([]byte)
		return nil
	})
	if err != nil {
		return false, true, err
	}
	return string(module) == t.kind.name, true, nil
}

func (t *modelTable) notOwned() error {
	return fmt.Errorf("%s is not the fit table of %s (it lacks the row part = 'module' that %s writes): ksql neither writes nor drops it; rename it, or choose another name for the %s table",
		t.shadow().name, t.name.name, t.kind.name, t.kind.name)
}

// nameTaken says what holds the name id in id's schema: "table",
// "virtual" (a virtual table), "view", "index" (tables and indexes share
// one namespace), or "" when nothing does.
func (t *modelTable) nameTaken(id ident) (string, error) {
	kind := ""
	err := t.hc.Query("SELECT type, sql FROM "+sqlIdent(id.schema)+".sqlite_master WHERE type IN ('table', 'view', 'index') AND name = ? COLLATE NOCASE",
		[]any{id.name}, func(v []any) error {
			kind, _ = v[0].(string)
			if sql, _ := v[1].(string); kind == "table" && len(sql) >= 14 && strings.EqualFold(sql[:14], "CREATE VIRTUAL") {
				kind = "virtual"
			}
			return nil
		})
	return kind, err
}

// exec runs a statement that returns no rows on the table's connection.
func (t *modelTable) exec(q string, args ...any) error {
	return t.hc.Query(q, args, func([]any) error { return nil })
}

// dropStored removes the shadow table (DROP TABLE of the model table),
// unless it is not the table's own.
func (t *modelTable) dropStored() error {
	owned, _, err := t.ownsShadow()
	if err != nil || !owned {
		return err
	}
	return t.exec("DROP TABLE " + t.shadow().sql())
}

// Rename follows ALTER TABLE ... RENAME (xRename): the shadow table moves
// with its table, as FTS5's do, and a name whose shadow table is taken is
// refused.
func (t *modelTable) Rename(newName string) (err error) {
	defer guard(t.kind.name, &err)
	to := ident{schema: t.name.schema, name: newName + fitSuffix}
	owned, _, err := t.ownsShadow()
	if err == nil && owned && !sameName(to.name, t.shadow().name) {
		var kind string
		if kind, err = t.nameTaken(to); err == nil && kind != "" {
			what := "one"
			if kind == "index" {
				what = "an index of that name"
			}
			err = fmt.Errorf("cannot rename %s to %s: %s keeps its fit in a table named %s, and %s already exists",
				t.name.name, newName, t.name.name, to.name, what)
		}
		if err == nil {
			err = t.exec("ALTER TABLE " + t.shadow().sql() + " RENAME TO " + sqlIdent(to.name))
		}
	}
	if err != nil {
		return prefix(t.kind.name, err)
	}
	reg := registryOf(t.hc)
	reg.remove(t)
	t.name.name = newName
	reg.add(t)
	return nil
}

var _ host.Renamer = (*modelTable)(nil)

// restore returns the stored fit for f's snapshot when there is one for
// its content and arguments and the model can decode it; nil otherwise,
// with the reason kept for ksql_model.
func (t *modelTable) restore(f *fitting) fitted {
	if t.storing {
		t.last.note = ""
		return nil
	}
	// read again unless nothing may have changed since it was read (a
	// transaction that rolled back takes a stored fit with it)
	if !t.loaded || f.snap.token == "" || f.snap.token != t.savedTok {
		t.saved, t.savedNote = t.loadStored()
		t.loaded, t.savedTok = t.hc.Err() == nil, f.snap.token // an interrupted read proves nothing
	}
	switch {
	case t.saved == nil:
		t.last.note = t.savedNote
		return nil
	case t.kind.decode == nil:
		t.last.note = "this module does not store fits"
		return nil
	case t.saved.hash != f.snap.hash:
		t.last.note = "the source changed since the stored fit was made (INSERT INTO " + t.name.name + "(" + t.name.name + ") VALUES ('refit') stores a new one)"
		return nil
	}
	fit, err := t.kind.decode(t.model, f, t.saved)
	if err == nil { // scale=: the snapshot's objects were scaled as read; the stored scaling must be that one
		err = f.snap.scale.check(t.saved)
	}
	if _, sized := fit.(shapeChecked); err == nil && !sized {
		err = checkShape(fit, len(t.cols), f.snap.nobj())
	}
	if err != nil && t.hc.Err() != nil { // interrupted (a check of every piece is long): read again next time
		t.loaded = false
		return nil
	}
	if err != nil {
		t.saved, t.savedNote = nil, "the stored fit in "+t.shadow().name+" does not match the table: "+err.Error()+": not used"
		t.last.note = t.savedNote // damaged beyond the checksum's reach: never trust it again
		return nil
	}
	return fit
}

// shapeChecked is a fit whose decode checked every size stored reads
// against the snapshot and the table's columns, so that checkShape, which
// boxes every value of every row (80 ms for a million rows of kpca), is
// not needed.
type shapeChecked interface{ shapeChecked() }

// checkShape fills every stored row and answers once, recovering, so
// that a stored fit whose decoded shape is not the table's is refused
// here rather than failing a read later.
func checkShape(fit fitted, cols, n int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("its shape is not the table's (%v)", r)
		}
	}()
	row := make([]any, cols)
	for o := 0; o < n; o++ {
		fit.stored(o, row)
	}
	return nil
}

// command runs INSERT INTO t(t) VALUES (cmd): 'refit' fits the source as
// it is now and stores the fit.
func (t *modelTable) command(cmd any) error {
	if cmd == nil { // an INSERT of rows, not of a command
		return fmt.Errorf("%s is read-only (its rows follow its source); the only write is INSERT INTO %s(%s) VALUES ('refit')",
			t.name.name, t.name.name, t.name.name)
	}
	if s, ok := cmd.(string); !ok || !strings.EqualFold(s, "refit") {
		what := host.TypeName(cmd)
		if ok {
			what = quoteExcerpt(s)
		}
		return fmt.Errorf("unknown command %s; allowed: INSERT INTO %s(%s) VALUES ('refit')", what, t.name.name, t.name.name)
	}
	return t.fitAndStore(false)
}

// Insert takes the one write a model table knows, the refit command in
// the hidden column named after the table.
func (t *modelTable) Insert(cols []any) (err error) {
	defer guard(t.kind.name, &err)
	if len(cols) != t.commandCol()+1 {
		return prefix(t.kind.name, errors.New("unexpected column count in INSERT"))
	}
	return prefix(t.kind.name, t.command(cols[t.commandCol()]))
}

// Update and Delete are refused: the table's rows are the source's.
func (t *modelTable) Update(int64, []any) error { return t.readOnly() }

// Delete is refused, as Update.
func (t *modelTable) Delete(int64) error { return t.readOnly() }

func (t *modelTable) readOnly() error {
	return fmt.Errorf("%s: %s is read-only (its rows follow its source); the only write is INSERT INTO %s(%s) VALUES ('refit')",
		t.kind.name, t.name.name, t.name.name, t.name.name)
}

var _ host.Updater = (*modelTable)(nil)
