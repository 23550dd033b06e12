package main

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchRows are typical result rows: an id, a REAL, a short text and a
// 16-element float32 vector.
func benchRows(n int) [][]any {
	vec := f32blob(0.12, -0.5, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)
	rows := make([][]any, n)
	for i := range rows {
		rows[i] = []any{int64(i), float64(i) / 7, "text number " + strings.Repeat("x", i%20), vec}
	}
	return rows
}

// BenchmarkPrinter measures the output modes alone, per row of four cells.
func BenchmarkPrinter(b *testing.B) {
	rows := benchRows(1000)
	cols := []column{{name: "id"}, {name: "x"}, {name: "s"}, {name: "v", vector: true}}
	for _, mode := range modeNames {
		b.Run(mode, func(b *testing.B) {
			o := defaultOptions()
			o.setMode(mode, nil)
			w := bufio.NewWriter(io.Discard)
			b.ReportAllocs()
			for b.Loop() {
				p := newPrinter(w, &o)
				p.header(cols)
				for _, r := range rows {
					p.row(r)
				}
				p.end()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(rows)), "ns/row")
		})
	}
}

// BenchmarkQuery runs a 100,000-row statement through the shell to a
// discarded output: SQLite, database/sql and the printer together.
func BenchmarkQuery(b *testing.B) {
	for _, mode := range []string{"list", "box"} {
		b.Run(mode, func(b *testing.B) {
			o, _ := parseOptions(nil)
			o.opts.mode = mode
			s, err := openShell(o, stdio{out: io.Discard, err: io.Discard})
			if err != nil {
				b.Fatal(err)
			}
			defer s.close()
			q := "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) SELECT x, x / 7.0, 'row ' || x FROM c"
			b.ReportAllocs()
			for b.Loop() {
				if err := s.runSQL(&source{}, q); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*100000), "ns/row")
		})
	}
}

// BenchmarkImportCSV imports a 15,000-row CSV (iris repeated) in one
// transaction.
func BenchmarkImportCSV(b *testing.B) {
	iris, err := os.ReadFile("testdata/iris.csv")
	if err != nil {
		b.Fatal(err)
	}
	header, body, _ := strings.Cut(string(iris), "\n")
	path := filepath.Join(b.TempDir(), "big.csv")
	if err := os.WriteFile(path, []byte(header+"\n"+strings.Repeat(body, 100)), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		o, _ := parseOptions(nil)
		s, err := openShell(o, stdio{out: io.Discard, err: io.Discard})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.processText(".import "+path+" iris", false); err != nil || s.errors > 0 {
			b.Fatalf("import failed: %v", err)
		}
		s.close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*15000), "ns/row")
}
