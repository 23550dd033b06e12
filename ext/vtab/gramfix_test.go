package vtab

import (
	"strings"
	"testing"
)

// Below max_gram_bytes' largest value the fixes suggest raising it (what
// ksql_config accepts); past it, never.
func TestGramFix(t *testing.T) {
	top := MaxGramBytes.Ceiling()
	cases := []struct {
		got, want string
	}{
		{gramFix(top, ""), "raise it with SELECT ksql_config('max_gram_bytes', N)"},
		{gramFix(1<<20, "merge classes"), "raise it with SELECT ksql_config('max_gram_bytes', N), or merge classes"},
		{gramFix(top+1, ""), "that is beyond what ksql allows (the setting's largest value is " + MaxGramBytes.CeilingText() + ")"},
		{gramFix(top+1, "merge classes"), "that is beyond what ksql allows (the setting's largest value is " + MaxGramBytes.CeilingText() + "); merge classes"},
		{landmarksFix(top), "lower landmarks= or raise the setting with SELECT ksql_config('max_gram_bytes', N)"},
		{landmarksFix(top + 1), "lower landmarks= (that is beyond what ksql allows (the setting's largest value is " + MaxGramBytes.CeilingText() + "))"},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: %q, want %q", i, c.got, c.want)
		}
	}
	if strings.Contains(gramFix(top+1, ""), "ksql_config") {
		t.Error("past the ceiling the fix names ksql_config")
	}
}
