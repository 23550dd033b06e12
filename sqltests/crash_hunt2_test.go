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
