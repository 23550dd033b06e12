package sqltests

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestWineAgainstScikitLearn checks the SQL functions, on both drivers,
// against scikit-learn's Gram matrices on 12 rows of the wine data
// (internal/kernels/testdata/wine_ref.json; provenance in its README).
func TestWineAgainstScikitLearn(t *testing.T) {
	b, err := os.ReadFile("../internal/kernels/testdata/wine_ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Rows  [][]string `json:"rows"`
		Cases []struct {
			Spec string     `json:"spec"`
			Gram [][]string `json:"gram"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	vecs := make([]string, len(ref.Rows))
	for i, r := range ref.Rows {
		vecs[i] = "[" + strings.Join(r, ",") + "]"
	}
	// Each spec is also computed by its dedicated function.
	dedicated := map[string]string{
		"linear":                "linear_kernel(?, ?)",
		"poly(degree=2, r=1)":   "poly_kernel(?, ?, 2, 1)",
		"poly(degree=3, r=0.5)": "poly_kernel(?, ?, 3, 0.5)",
		"gauss(sigma=30)":       "gauss_kernel(?, ?, 30)",
		"gauss(sigma=100)":      "gauss_kernel(?, ?, 100)",
		"laplace(sigma=100)":    "laplace_kernel(?, ?, 100)",
		"laplace(sigma=400)":    "laplace_kernel(?, ?, 400)",
	}
	for _, drv := range drivers {
		t.Run(driverLabel(drv), func(t *testing.T) {
			db := OpenDB(t, drv)
			for _, c := range ref.Cases {
				fn, ok := dedicated[c.Spec]
				if !ok {
					t.Fatalf("no function for %s", c.Spec)
				}
				for i := range vecs {
					for j := range vecs {
						want, _ := strconv.ParseFloat(c.Gram[i][j], 64)
						var viaSpec, viaFn float64
						err := db.QueryRow("SELECT kernel(?, ?, ?), "+fn, c.Spec, vecs[i], vecs[j], vecs[i], vecs[j]).Scan(&viaSpec, &viaFn)
						if err != nil {
							t.Fatal(err)
						}
						for _, got := range []float64{viaSpec, viaFn} {
							if math.Abs(got-want) > 1e-12*math.Abs(want) {
								t.Errorf("%s rows %d,%d: got %.17g, scikit-learn %.17g", c.Spec, i, j, got, want)
							}
						}
					}
				}
			}
		})
	}
}
