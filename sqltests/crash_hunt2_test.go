package sqltests

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ksql/ksql/ext/vtab"
)

// TestTSNEPastGramCeiling: a t-SNE fit whose kernel matrix fits
// max_gram_bytes at its largest value but whose n² affinities do not
// (24·n² bytes with method=exact) is told that this is beyond what ksql
// allows and to fit a sample; it was told to raise the setting, which
// ksql_config then refuses. The largest value is 2^40 or this machine's
// memory, so n is derived from it: 8·n² within it, 24·n² three times it.
func TestTSNEPastGramCeiling(t *testing.T) {
	top := vtab.MaxGramBytes.Ceiling()
	n := int64(math.Sqrt(float64(top)/8)) - 10
	if testing.Short() && n > 100_000 {
		t.Skipf("%d rows with -short", n)
	}
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			mustExec(t, db, fmt.Sprintf("SELECT ksql_config('max_gram_bytes', %d); CREATE TABLE many(id INTEGER PRIMARY KEY, v TEXT); "+
				"WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i WHERE n < %d) INSERT INTO many SELECT n, '[' || (n %% 97) || ']' FROM i", top, n))
			_, err := db.Exec("CREATE VIRTUAL TABLE many_tsne USING tsne(table=many, id=id, column=v, kernel='linear', method=exact)")
			want := fmt.Sprintf("tsne: t-SNE of %d objects needs ", n)
			if err == nil || !strings.Contains(err.Error(), want) ||
				!strings.Contains(err.Error(), fmt.Sprintf("more than max_gram_bytes = %d; that is beyond what ksql allows (the setting's largest value is %s); "+
					"fit a sample of the objects", top, vtab.MaxGramBytes.CeilingText())) {
				t.Fatalf("error %v, want one saying the need is beyond what ksql allows", err)
			}
			if strings.Contains(err.Error(), "ksql_config") {
				t.Errorf("the error still suggests raising the setting: %v", err)
			}
		})
	}
}

// TestExactPastGramCeiling: exact fits whose n×n Gram matrix is past
// max_gram_bytes' largest value (2^40 or this machine's memory) are told
// that this is beyond what ksql allows, with the module's other way, not
// to raise the setting (ksql_config would refuse the value); below it,
// the same fits are told to raise it. n is derived from the ceiling.
func TestExactPastGramCeiling(t *testing.T) {
	top := vtab.MaxGramBytes.Ceiling()
	n := int64(math.Sqrt(float64(top)/8)) + 10
	if testing.Short() && n > 100_000 {
		t.Skipf("%d rows with -short", n)
	}
	cases := []struct{ module, create, alt string }{
		{"kpca", "kpca(table=many, id=id, column=v, kernel='linear', components=2)", "; use method=nystrom"},
		{"krr", "krr(table=many, id=id, column=v, label=y, kernel='linear', alpha=1)", "; use method=nystrom"},
		{"kernel_map", "kernel_map(table=many, id=id, column=v, kernel='linear')", "; approximate: kpca(..., method=nystrom)"},
	}
	for _, drv := range withLoadable(t) {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			mustExec(t, db, fmt.Sprintf("SELECT ksql_config('max_gram_bytes', %d); CREATE TABLE many(id INTEGER PRIMARY KEY, v TEXT, y REAL); "+
				"WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i WHERE n < %d) INSERT INTO many SELECT n, '[' || (n %% 97) || ']', n %% 3 FROM i", top, n))
			for _, c := range cases {
				_, err := db.Exec("CREATE VIRTUAL TABLE m_" + c.module + " USING " + c.create)
				want := fmt.Sprintf("more than max_gram_bytes = %d; that is beyond what ksql allows (the setting's largest value is %s)%s",
					top, vtab.MaxGramBytes.CeilingText(), c.alt)
				if err == nil || !strings.Contains(err.Error(), c.module+": ") || !strings.Contains(err.Error(), want) {
					t.Errorf("%s: error %v, want one containing %q", c.module, err, want)
				} else if strings.Contains(err.Error(), "ksql_config") {
					t.Errorf("%s: the error still suggests raising the setting: %v", c.module, err)
				}
			}
			// Below the ceiling the same fits are told to raise it.
			mustExec(t, db, "SELECT ksql_config('max_gram_bytes', 1024)")
			_, err := db.Exec("CREATE VIRTUAL TABLE m_small USING kpca(query='SELECT id, v FROM many WHERE id <= 20', kernel='linear', components=2)")
			if err == nil || !strings.Contains(err.Error(), "more than max_gram_bytes = 1024; raise it with SELECT ksql_config('max_gram_bytes', N), or use method=nystrom") {
				t.Errorf("below the ceiling: error %v, want the hint to raise it", err)
			}
		})
	}
}
