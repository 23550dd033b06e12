// Package functions holds ksql's SQL scalar functions, written once against
// the driver-neutral host.Conn. Each is an exported host.Func value; the
// declared list in ext/catalog names the ones ksql registers, and the
// settings they read (MaxRFFDim, ...) beside them.
//
// A function receives its arguments as nil, int64, float64, string or
// []byte and returns one of those (or an error). Errors are prefixed with
// the function's name by the adapter-independent wrapper host.Func.Call,
// so a body reports only what was wrong.
package functions

import "github.com/ksql/ksql/ext/host"

// Func describes one SQL function; see host.Func.
type Func = host.Func
