package vtab

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ksql/ksql/ext/host"
)

// The modules, for the declared list in ext/catalog.
var (
	// Gram is gram(row_id, col_id, value).
	Gram host.Module = gramModule{}
	// KPCA is kpca(id, pc1, …, pck, input HIDDEN).
	KPCA = newModelModule(&kpcaKind)
	// KernelMap is kernel_map(id, vector, input HIDDEN).
	KernelMap = newModelModule(&mapKind)
	// KPCAEigen is the table-valued function kpca_eigen(name).
	KPCAEigen host.Eponymous = eigenModule{}
)

var (
	_ host.Module    = gramModule{}
	_ host.Module    = modelModule{}
	_ host.Eponymous = eigenModule{}
	_ host.Table     = (*gramTable)(nil)
	_ host.Table     = (*modelTable)(nil)
	_ host.Table     = (*eigenTable)(nil)
	_ host.Cursor    = (*gramCursor)(nil)
	_ host.Cursor    = (*modelCursor)(nil)
	_ host.Cursor    = (*eigenCursor)(nil)
)

// MaxGramBytes bounds every n×n matrix a module builds.
var MaxGramBytes = &host.Setting{Name: "max_gram_bytes", Default: 1 << 30, Min: 1 << 10, Max: 1 << 40, Memory: true,
	Doc: "largest kernel matrix a fit may build: the n·n·8-byte Gram matrix of an exact gram scan or exact fit; a Nyström fit's m×m products and streamed blocks, its n·m kernel values when held, svm method=nystrom's features; svm's stored decision values"}

// prefix names the module in an error, as every ksql error does.
func prefix(module string, err error) error {
	if err == nil {
		return nil
	}
	return host.Bounded(fmt.Errorf("%s: %w", module, host.Explain(err)))
}

// guard turns a panic in a module callback into an error, so that a bug
// never takes the host process down. Use as defer guard(name, &err).
func guard(module string, err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: internal error: %v", module, r)
	}
}

// maxGramBytes is the connection's bound on an n×n matrix of float64.
func maxGramBytes(c *host.Conn) int64 { return MaxGramBytes.Get(c) }

// sizeText renders a byte count for errors: 3.2 GB, 512.0 MB.
func sizeText(b int64) string {
	switch {
	case b >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(b)/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(b)/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(b)/1e3)
	}
	return fmt.Sprintf("%d bytes", b)
}

// firstEQ marks the first usable equality constraint on column col as used
// and reports whether there was one. Further constraints on the same
// column are left for SQLite to check.
func firstEQ(info *host.IndexInfo, col int) bool {
	for i, c := range info.Constraints {
		if c.Column == col && c.Op == host.OpEQ && c.Usable {
			info.Constraints[i].Use = true
			return true
		}
	}
	return false
}

// hasEQ reports whether there is an equality constraint on col, usable
// or not.
func hasEQ(info *host.IndexInfo, col int) bool {
	for _, c := range info.Constraints {
		if c.Column == col && c.Op == host.OpEQ {
			return true
		}
	}
	return false
}

// recordPlan writes into IdxStr which column each value that reaches
// Filter constrains, in the order SQLite passes them (the order of the
// constraints, not of the calls to firstEQ).
func recordPlan(info *host.IndexInfo) {
	var b strings.Builder
	for _, c := range info.Constraints {
		if c.Use {
			fmt.Fprintf(&b, "%d,", c.Column)
		}
	}
	info.IdxStr = b.String()
}

// planValues maps the columns that recordPlan listed to Filter's values.
func planValues(idxStr string, vals []any) (map[int]any, error) {
	out := map[int]any{}
	for i, f := range strings.Split(strings.TrimSuffix(idxStr, ","), ",") {
		if f == "" {
			continue
		}
		col, err := strconv.Atoi(f)
		if err != nil || i >= len(vals) {
			return nil, fmt.Errorf("internal error: bad plan %q for %d values", idxStr, len(vals))
		}
		out[col] = vals[i]
	}
	return out, nil
}
