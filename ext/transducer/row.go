package transducer

import (
	"fmt"
	"math"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/fst"
)

// row reads one row of a transducer table: src INTEGER ≥ 0; dst INTEGER,
// or NULL for a final state; input and output TEXT, ” or NULL for ε
// (NULL on a final row); weight REAL, NULL meaning 1.
func row(v []any) (fst.Row, error) {
	var r fst.Row
	var err error
	if r.Src, err = state(v[0], "src"); err != nil {
		return r, err
	}
	if v[1] == nil {
		r.Final = true
	} else if r.Dst, err = state(v[1], "dst"); err != nil {
		return r, err
	}
	if r.In, err = symbol(v[2], "input"); err != nil {
		return r, err
	}
	if r.Out, err = symbol(v[3], "output"); err != nil {
		return r, err
	}
	if r.Final && (r.In != "" || r.Out != "") {
		return r, fmt.Errorf("a final-state row (dst NULL) has no input or output symbol, got %q:%q", r.In, r.Out)
	}
	switch w := v[4].(type) {
	case nil:
		r.Weight = 1
	case int64:
		r.Weight = float64(w)
	case float64:
		r.Weight = w
	default:
		return r, fmt.Errorf("weight must be a number or NULL (1), got %s", host.TypeName(v[4]))
	}
	if math.IsNaN(r.Weight) || math.IsInf(r.Weight, 0) {
		return r, fmt.Errorf("weight %v is not a finite number", r.Weight)
	}
	return r, nil
}

func state(v any, col string) (int64, error) {
	q, ok := v.(int64)
	if f, isF := v.(float64); isF && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		q, ok = int64(f), true
	}
	if !ok || q < 0 {
		return 0, fmt.Errorf("%s must be an integer state id ≥ 0 (0 is the start), got %s", col, describe(v))
	}
	return q, nil
}

func symbol(v any, col string) (string, error) {
	switch s := v.(type) {
	case nil:
		return "", nil
	case string:
		return s, nil
	}
	return "", fmt.Errorf("%s must be TEXT (one symbol, or '' or NULL for ε), got %s", col, describe(v))
}

func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return fmt.Sprintf("%q", x)
	case int64, float64:
		return fmt.Sprint(x)
	}
	return host.TypeName(v)
}
