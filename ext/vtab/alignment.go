package vtab

import (
	"errors"
	"fmt"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/stats"
)

// KernelAlignment is the scalar kernel_alignment(kernel, query): the
// centred kernel–target alignment between the Gram matrix of a query's
// objects and its labels, (object, label) rows. It lives beside the
// table-valued functions because it reads its query as they do.
var KernelAlignment = host.Func{Name: "kernel_alignment", MinArgs: 2, MaxArgs: 2, ReadsTables: true,
	Usage: "kernel_alignment(kernel, 'SELECT object, label FROM ...')", Body: kernelAlignment}

func kernelAlignment(hc *host.Conn, args []any) (v any, err error) {
	defer guard("kernel_alignment", &err)
	spec, err := kernelArg(args[0])
	if err != nil {
		return nil, err
	}
	rows, err := queryRows(hc, "query", cloneText(args[1]), []int{2}, gramRowLimit(hc), func(n int) error {
		return fmt.Errorf("query: %v", objectsTooMany(n, maxGramBytes(hc)))
	})
	if err != nil {
		return nil, err
	}
	objs, kept, err := objectsOf(spec, "query", rows, func([]any) int { return 0 })
	if err != nil {
		return nil, err
	}
	Y, c, err := targets(rows, kept)
	if err != nil {
		return nil, err
	}
	K, err := gramOf(hc, spec, objs)
	if err != nil {
		return nil, err
	}
	a, err := stats.Alignment(K, len(objs), Y, c, hc.Err)
	switch {
	case errors.Is(err, stats.ErrConstantTarget):
		return nil, fmt.Errorf("the labels of the %d objects are all the same; alignment needs at least two", len(objs))
	case errors.Is(err, stats.ErrConstantKernel):
		return nil, fmt.Errorf("kernel %s is constant on these objects once centred; alignment is undefined", spec)
	}
	return a, err
}

// targets encodes the labels of the kept rows: numbers as themselves
// (one column), TEXT as one-hot classes in order of first appearance.
func targets(rows [][]any, kept []int) ([]float64, int, error) {
	var nums, texts int
	for _, r := range kept {
		switch rows[r][1].(type) {
		case int64, float64:
			nums++
		case string:
			texts++
		default:
			return nil, 0, fmt.Errorf("query row %d: the label must be a number or TEXT, got %s", r+1, describe(rows[r][1]))
		}
	}
	if nums > 0 && texts > 0 {
		return nil, 0, fmt.Errorf("the labels mix numbers and TEXT; give numbers (targets) or TEXT (classes)")
	}
	if len(kept) < 2 {
		return nil, 0, fmt.Errorf("query gives %d objects; alignment needs at least 2", len(kept))
	}
	if nums > 0 {
		Y := make([]float64, len(kept))
		for i, r := range kept {
			switch x := rows[r][1].(type) {
			case int64:
				Y[i] = float64(x)
			case float64:
				if x-x != 0 {
					return nil, 0, fmt.Errorf("query row %d: the label is %v; it must be finite", r+1, x)
				}
				Y[i] = x
			}
		}
		return Y, 1, nil
	}
	class := map[string]int{}
	for _, r := range kept {
		if l := rows[r][1].(string); class[l] == 0 {
			class[l] = len(class) + 1
		}
	}
	c := len(class)
	if int64(len(kept))*int64(c)*8 > 1<<31 {
		return nil, 0, fmt.Errorf("%d classes for %d objects are too many to encode", c, len(kept))
	}
	Y := make([]float64, len(kept)*c)
	for i, r := range kept {
		Y[i*c+class[rows[r][1].(string)]-1] = 1
	}
	return Y, c, nil
}
