package host

import (
	"errors"
	"fmt"
	"github.com/ksql/ksql/internal/fst"
	"strings"

	"github.com/ksql/ksql/internal/strkernel"
)

// Explain rewrites errors of the internal packages in SQL terms: a bound
// that was hit names the ksql_config setting that holds it. Adapters and
// Func.Call pass every error through it.
func Explain(err error) error {
	var le *strkernel.LimitError
	if errors.As(err, &le) {
		hint := fmt.Sprintf("the string kernel table would need %d cells, more than max_dp_cells = %d; "+
			"raise it with ksql_config('max_dp_cells', N)", le.Cells, le.Max)
		// Keep the context that wrapped the bound (which rows, ...).
		return errors.New(strings.Replace(err.Error(), le.Error(), hint, 1))
	}
	var se *fst.SizeError
	if errors.As(err, &se) {
		hint := fmt.Sprintf("the composed transducer T∘T⁻¹ would need more than max_fst_bytes = %d bytes; "+
			"raise it with ksql_config('max_fst_bytes', N)", se.Max)
		return errors.New(strings.Replace(err.Error(), se.Error(), hint, 1))
	}
	return err
}
