package vtab

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kernels"
)

// queryRows reads the rows of a query given as the argument arg of a
// discovery function (kernel_mmd, kernel_sigma, kernel_alignment). Every
// row must have one of widths columns; past limit rows the read stops
// with tooMany(n).
func queryRows(hc *host.Conn, arg string, q any, widths []int, limit int, tooMany func(n int) error) ([][]any, error) {
	text, ok := q.(string)
	if !ok {
		return nil, fmt.Errorf("%s must be TEXT (one SELECT), got %s", arg, host.TypeName(q))
	}
	sel, err := checkSelect(text)
	if err != nil {
		return nil, fmt.Errorf("%s %s", arg, strings.TrimPrefix(err.Error(), "query= "))
	}
	var rows [][]any
	sql := "WITH ksql_q AS (\n" + sel + "\n) SELECT * FROM ksql_q"
	err = hc.Query(sql, nil, func(v []any) error {
		if len(rows)%1024 == 1023 {
			if err := hc.Err(); err != nil {
				return err
			}
		}
		if !contains(widths, len(v)) {
			return fmt.Errorf("%s returns %d columns; it must return %s", arg, len(v), widthText(widths))
		}
		if len(rows) >= limit {
			return tooMany(len(rows) + 1)
		}
		rows = append(rows, append([]any(nil), v...))
		return nil
	})
	if err != nil {
		if errors.Is(err, host.ErrInterrupted) || hc.Err() != nil {
			return nil, host.ErrInterrupted
		}
		var re *host.RecursionError
		if errors.As(err, &re) {
			return nil, err
		}
		if strings.HasPrefix(err.Error(), arg) || strings.Contains(err.Error(), "max_gram_bytes") {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %v", arg, sqliteMessage(err))
	}
	return rows, nil
}

// kernelArg parses the kernel argument of a discovery function.
func kernelArg(v any) (*kernels.Spec, error) {
	ktext, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("kernel must be TEXT (a kernel spec), got %s", host.TypeName(v))
	}
	spec, err := kernels.ParseCached(ktext)
	if err != nil {
		return nil, fmt.Errorf("kernel: %v", err)
	}
	return spec, nil
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

func widthText(widths []int) string {
	if len(widths) == 2 {
		return "one column (the objects) or two (id, object)"
	}
	return "two columns (object, label)"
}

// rowID is a row's name in errors: its id when the query gives one, else
// its position.
func rowID(row []any, r int) string {
	if len(row) == 2 && row[0] != nil {
		return "id " + idText(row[0])
	}
	return fmt.Sprintf("%d", r+1)
}

// objectsOf decodes the objects of rows (in column col) for spec; rows
// whose object is NULL are left out, as every module leaves them out.
func objectsOf(spec *kernels.Spec, arg string, rows [][]any, col func(row []any) int) ([]kernels.Object, []int, error) {
	src := &source{spec: spec}
	objs := make([]kernels.Object, 0, len(rows))
	kept := make([]int, 0, len(rows))
	dim := -1
	for r, row := range rows {
		v := row[col(row)]
		if v == nil {
			continue
		}
		o, err := src.object(v)
		if err != nil {
			return nil, nil, fmt.Errorf("%s row %s: %v", arg, rowID(row, r), err)
		}
		if spec.Domain() == kernels.VectorDomain {
			if d := o.Vec.Len(); dim < 0 {
				dim = d
			} else if d != dim {
				return nil, nil, fmt.Errorf("%s row %s has a vector of %d elements, the first one %d; all vectors must have the same length", arg, rowID(row, r), d, dim)
			}
		}
		objs = append(objs, o)
		kept = append(kept, r)
	}
	return objs, kept, nil
}

// lastColumn is where a one- or two-column query keeps its objects.
func lastColumn(row []any) int { return len(row) - 1 }

// gramOf is the full Gram matrix of objs under spec (both triangles, as
// kernel_spectrum computes it), checked finite.
func gramOf(hc *host.Conn, spec *kernels.Spec, objs []kernels.Object) ([]float64, error) {
	n := len(objs)
	if need, max := int64(n)*int64(n)*8, maxGramBytes(hc); need > max {
		return nil, objectsTooMany(n, max)
	}
	opt, err := gramOptions(hc, spec)
	if err != nil {
		return nil, err
	}
	K := make([]float64, n*n)
	if err := spec.Cross(objs, objs, K, opt); err != nil {
		if hc.Err() != nil {
			return nil, host.ErrInterrupted
		}
		return nil, err
	}
	for p, v := range K {
		if v-v != 0 {
			return nil, fmt.Errorf("objects %d and %d: the kernel is %v; use normalize(...) for long texts", p/n+1, p%n+1, v)
		}
	}
	return K, nil
}

func objectsTooMany(n int, max int64) error {
	need := int64(n) * int64(n) * 8
	return fmt.Errorf("%d objects need a %s Gram matrix, more than max_gram_bytes = %s; %s",
		n, sizeText(need), sizeText(max), gramFix(need, ""))
}

// gramRowLimit is the most objects whose Gram matrix fits max_gram_bytes.
func gramRowLimit(hc *host.Conn) int {
	n := int(math.Sqrt(float64(maxGramBytes(hc) / 8)))
	for int64(n)*int64(n)*8 > maxGramBytes(hc) {
		n--
	}
	return n
}

// intArg reads an optional INTEGER argument within [lo, hi].
func intArg(name string, v any, def, lo, hi int64) (int64, error) {
	switch x := v.(type) {
	case nil:
		return def, nil
	case int64:
		if x < lo || x > hi {
			return 0, fmt.Errorf("%s must be between %d and %d, got %d", name, lo, hi, x)
		}
		return x, nil
	}
	return 0, fmt.Errorf("%s must be an INTEGER between %d and %d, got %s", name, lo, hi, describe(v))
}
