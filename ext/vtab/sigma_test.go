package vtab

import (
	"strings"
	"testing"
)

// TestSigmaRowsHint: kernel_sigma's too-many-rows error suggests raising
// max_gram_bytes only below the setting's largest value; at it, the
// suggestion would be refused, and the error says the setting is there.
func TestSigmaRowsHint(t *testing.T) {
	top := MaxGramBytes.Ceiling()
	for _, c := range []struct {
		maxBytes int64
		raise    bool
	}{
		{MaxGramBytes.Default, MaxGramBytes.Default < top},
		{top - 1, true},
		{top, false},
	} {
		msg := sigmaTooManyRows(int(c.maxBytes/sigmaRowBytes), c.maxBytes).Error()
		if !strings.Contains(msg, "sample them in the query") {
			t.Errorf("max_gram_bytes = %d: %s", c.maxBytes, msg)
		}
		if got := strings.Contains(msg, "ksql_config('max_gram_bytes'"); got != c.raise {
			t.Errorf("max_gram_bytes = %d: suggests raising = %v, want %v: %s", c.maxBytes, got, c.raise, msg)
		}
		if !c.raise && !strings.Contains(msg, "the setting is at its largest value, "+MaxGramBytes.CeilingText()) {
			t.Errorf("max_gram_bytes = %d: %s", c.maxBytes, msg)
		}
	}
}
