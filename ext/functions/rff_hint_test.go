package functions_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ksql/ksql/ext/functions"
	"github.com/ksql/ksql/ext/host"
)

var configHint = regexp.MustCompile(`ksql_config\('(\w+)', (\d+)\)`)

// TestRFFHintsAreAccepted: every value an rff_embed error suggests for a
// setting is one ksql_config accepts; past a setting's largest value the
// error says the request is beyond what ksql allows and suggests none.
// (dim 2^24+2 was told to set max_rff_dim to itself, which is refused.)
func TestRFFHintsAreAccepted(t *testing.T) {
	f := rffEmbed()
	vec := func(n int) []byte { return make([]byte, 4*n) }
	for _, c := range []struct {
		name    string
		x       any
		dim     int64
		setDim  bool // max_rff_dim set to dim first
		limited bool // whether the need passes the setting's largest value
		machine bool // whether that depends on this machine's memory
	}{
		{"dim past the default", "[1,2,3]", 20000, false, false, false},
		{"dim 2^24", "[1,2,3]", 1 << 24, false, false, false},
		{"dim 2^24+2", "[1,2,3]", 1<<24 + 2, false, true, false},
		{"dim 2^62", "[1,2,3]", 1 << 62, false, true, false},
		{"map of 327 MB", vec(5000), 16384, false, false, true},
		{"map past 2^40", vec(20000), 1 << 24, true, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn := host.NewConn(nil, functions.MaxRFFDim, functions.MaxRFFMapBytes)
			if c.setDim {
				if err := conn.Config.Set("max_rff_dim", c.dim); err != nil {
					t.Fatal(err)
				}
			}
			_, err := f.Call(conn, []any{c.x, c.dim, 1.0})
			if err == nil {
				t.Fatal("no error")
			}
			m := configHint.FindStringSubmatch(err.Error())
			beyond := strings.Contains(err.Error(), "beyond what ksql allows")
			if m == nil == !beyond {
				t.Fatalf("the error neither suggests a value nor says it is beyond the setting (or does both): %v", err)
			}
			if m != nil {
				v, _ := strconv.ParseInt(m[2], 10, 64)
				if serr := conn.Config.Set(m[1], v); serr != nil {
					t.Fatalf("the error suggests %s = %d, which ksql_config refuses (%v): %v", m[1], v, serr, err)
				}
			}
			if beyond != c.limited && !c.machine {
				t.Errorf("beyond = %v, want %v: %v", beyond, c.limited, err)
			}
		})
	}
}
