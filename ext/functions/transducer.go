package functions

import (
	"fmt"
	"sync"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/ext/transducer"
	"github.com/ksql/ksql/internal/fst"
	"github.com/ksql/ksql/internal/strkernel"
)

// TransducerWeight is transducer_weight(name, x, y [, unit]): T(x, y) of
// the weighted transducer stored in table name. Unlike rational(fst=name),
// T itself need not be a kernel (and with negative weights may be
// negative).
var TransducerWeight = host.Func{Name: "transducer_weight", MinArgs: 3, MaxArgs: 4, Deterministic: true, ReadsTables: true,
	Usage: "transducer_weight(name, x, y [, unit])", Body: transducerWeight}

var fstWorkspaces = sync.Pool{New: func() any { return new(fst.Workspace) }}

func transducerWeight(c *host.Conn, args []any) (any, error) {
	name, null, err := Text(args, 0, "name")
	if err != nil || null {
		return nil, err
	}
	unit := strkernel.Char
	if len(args) == 4 && args[3] != nil {
		switch args[3] {
		case "char":
		case "word":
			unit = strkernel.Word
		default:
			return nil, argError(3, "unit", fmt.Errorf("must be 'char' or 'word', got %s", describeArg(args[3])))
		}
	}
	x, nx, err := Text(args, 1, "x")
	if err != nil {
		return nil, err
	}
	y, ny, err := Text(args, 2, "y")
	if err != nil || nx || ny {
		return nil, err
	}
	tab, err := transducer.For(c).TableCall(name)
	if err != nil {
		return nil, err
	}
	t, err := tab.Transducer(unit)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", name, err)
	}
	ws := fstWorkspaces.Get().(*fst.Workspace)
	defer fstWorkspaces.Put(ws)
	v, err := t.Weight(x, y, ws, strkernel.Limits{MaxCells: host.MaxDPCells.Get(c), Check: c.ErrFunc()})
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", name, err)
	}
	return v.Float64(), nil
}

func describeArg(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("'%s'", s)
	}
	return host.TypeName(v)
}
