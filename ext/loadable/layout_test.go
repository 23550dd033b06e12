//go:build cgo

package loadable

import "testing"

// TestArgLayout: host.Arg reads the C side's ksql_arg in place; were the
// layouts to drift apart, Number functions would quietly fall back to the
// converting path, so the test makes it loud.
func TestArgLayout(t *testing.T) {
	if argLayoutErr != nil {
		t.Fatal(argLayoutErr)
	}
}
