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
// plus 'module' (the module's name), 'source_sha256' (the hash of the
// source content the fit was made on) and 'checksum' (SHA-256 over every
// other part's name and data). It is written when the table is created
// and by INSERT INTO t(t) VALUES ('refit'); nothing else writes it.
//
// A connection that opens the table (a reopened database, a new process)
// answers from the stored fit, without refitting, while the source's hash
// is the stored one. When the source changed, a read refits in memory and
// the shadow table stays as it was until the next 'refit': reads never
// write, so read-only databases, PRAGMA query_only and read transactions
// work, and every node of a replicated cluster holds the same bytes. A
// shadow table whose checksum does not match (edited or truncated by hand)
// is never trusted: the table refits in memory. DROP TABLE drops it.

// fitSuffix names a model table's shadow table.
const fitSuffix = "_fit"

// storedFit is a shadow table's content, read and verified.
type storedFit struct {
	hash  [sha256.Size]byte
	parts []fitPart
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

// loadStored reads the shadow table; it returns nil when there is none or
// when it fails its checks, so that the table refits instead.
func (t *modelTable) loadStored() *storedFit {
	var parts []fitPart
	var module, hash, sum []byte
	err := t.hc.Query("SELECT part, data FROM "+t.shadow().sql(), nil, func(v []any) error {
		name, _ := v[0].(string)
		data, _ := v[1].([]byte)
		switch name {
		case "module":
			module = data
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
	if err != nil || string(module) != t.kind.name || len(hash) != sha256.Size || !bytes.Equal(sum, checksum(parts)) {
		return nil
	}
	s := &storedFit{parts: parts}
	copy(s.hash[:], hash)
	return s
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

// store writes the fit of snap to the shadow table, replacing what it
// held. A fit that cannot be encoded leaves the table empty.
func (t *modelTable) store(snap *snapshot, fit fitted) error {
	sh := t.shadow().sql()
	if err := t.exec("CREATE TABLE IF NOT EXISTS " + sh + "(part TEXT PRIMARY KEY, data BLOB) WITHOUT ROWID"); err != nil {
		return err
	}
	if err := t.exec("DELETE FROM " + sh); err != nil {
		return err
	}
	enc, ok := fit.(fitEncoder)
	if !ok || fit == nil {
		return nil
	}
	parts, err := enc.encode()
	if err != nil {
		return err
	}
	parts = append(parts, fitPart{"module", []byte(t.kind.name)}, fitPart{"source_sha256", snap.hash[:]})
	parts = append(parts, fitPart{"checksum", checksum(parts)})
	for _, p := range parts {
		if err := t.exec("INSERT INTO "+sh+"(part, data) VALUES (?, ?)", p.name, p.data); err != nil {
			return err
		}
	}
	return nil
}

// exec runs a statement that returns no rows on the table's connection.
func (t *modelTable) exec(q string, args ...any) error {
	return t.hc.Query(q, args, func([]any) error { return nil })
}

// dropStored removes the shadow table (DROP TABLE of the model table).
func (t *modelTable) dropStored() error {
	return t.exec("DROP TABLE IF EXISTS " + t.shadow().sql())
}

// restore returns the stored fit for snap when there is one for its
// content and the model can decode it; nil otherwise.
func (t *modelTable) restore(f *fitting) fitted {
	if !t.loaded {
		t.saved, t.loaded = t.loadStored(), true
	}
	if t.saved == nil || t.saved.hash != f.snap.hash || t.kind.decode == nil {
		return nil
	}
	fit, err := t.kind.decode(t.model, f, t.saved)
	if err != nil {
		t.saved = nil // damaged beyond the checksum's reach: never trust it again
		return nil
	}
	return fit
}

// command runs INSERT INTO t(t) VALUES (cmd): 'refit' fits the source as
// it is now and stores the fit.
func (t *modelTable) command(cmd any) error {
	if s, ok := cmd.(string); !ok || !strings.EqualFold(s, "refit") {
		return fmt.Errorf("unknown command %s; allowed: INSERT INTO %s(%s) VALUES ('refit')",
			quoteExcerpt(fmt.Sprint(cmd)), t.name.name, t.name.name)
	}
	t.fits = fitCache[fitted]{}
	t.saved, t.loaded = nil, true
	snap, fit, err := t.current()
	if err != nil {
		return err
	}
	return t.store(snap, fit)
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
