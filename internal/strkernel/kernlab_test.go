package strkernel

import (
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestKernlab compares ssk and ngram with kernlab's stringdot on ASCII
// strings (DNA promoters and the first 300 characters of Reuters texts);
// testdata/make_ref.R made testdata/kernlab_ref.csv.
func TestKernlab(t *testing.T) {
	f, err := os.Open("testdata/kernlab_ref.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := csv.NewReader(f)
	rd.Comment = '#'
	rows, err := rd.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	sources := map[string][]string{
		"promoters":  readColumn(t, "promoters.csv", 2),
		"reuters300": readColumn(t, "reuters.csv", 2),
	}
	for i, s := range sources["reuters300"] {
		sources["reuters300"][i] = s[:min(300, len(s))]
	}
	ws := new(Workspace)
	checked := map[string]int{}
	for _, r := range rows[1:] {
		kind, src := r[0], sources[r[3]]
		p, _ := strconv.Atoi(r[1])
		lambda, _ := strconv.ParseFloat(r[2], 64)
		i, _ := strconv.Atoi(r[4])
		j, _ := strconv.Atoi(r[5])
		want, err := strconv.ParseFloat(r[6], 64)
		if err != nil || src == nil {
			t.Fatalf("bad row %q", r)
		}
		s, u := src[i], src[j]
		var par Params
		switch kind {
		case "sequence":
			par = Params{Kind: SSK, P: p, Lambda: lambda}
		case "spectrum":
			par = Params{Kind: NGram, N: p}
			// kernlab appends "\n" to both strings: the n-gram ending in it
			// is shared when the last n−1 characters agree.
			if len(s) >= p-1 && len(u) >= p-1 && s[len(s)-p+1:] == u[len(u)-p+1:] {
				want--
			}
		default:
			t.Fatalf("unknown kernel %q", kind)
		}
		got, err := Eval(par, Decode(s, Char), Decode(u, Char), ws, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if g := got.Float64(); math.Abs(g-want) > 1e-12*math.Abs(want) || kind == "spectrum" && g != want {
			t.Errorf("%s p=%d lambda=%g %s[%d,%d]: %.17g, kernlab %.17g", kind, p, lambda, r[3], i, j, g, want)
		}
		checked[strings.Join(r[:4], " ")]++
	}
	if len(checked) != 11 {
		t.Errorf("checked %d settings, want 11", len(checked))
	}
	for k, n := range checked {
		t.Logf("%s: %d pairs", k, n)
	}
}
