package fst

import (
	"encoding/csv"
	"os"
	"testing"
)

// readColumn returns column col of testdata/file (a CSV with a header).
func readColumn(tb testing.TB, file string, col int) []string {
	tb.Helper()
	f, err := os.Open("testdata/" + file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, r := range rows[1:] {
		out = append(out, r[col])
	}
	return out
}
