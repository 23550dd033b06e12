package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParity runs each testdata/parity/NAME.sql through ksql and expects,
// byte for byte, what the sqlite3 shell printed for it (NAME.sqlite3, made
// by testdata/parity/make.sh): the scripts use what ksql does as sqlite3
// does. Where ksql differs on purpose, the golden tests cover it and the
// README's "Differences from the sqlite3 shell" says so.
func TestParity(t *testing.T) {
	cases, err := filepath.Glob("testdata/parity/*.sql")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no parity cases: %v", err)
	}
	t.Chdir("testdata/parity")
	for _, c := range cases {
		name := strings.TrimSuffix(filepath.Base(c), ".sql")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(name + ".sql")
			if err != nil {
				t.Fatal(err)
			}
			os.Remove("once-output.txt")
			stdout, stderr, status := runShell(t, string(in))
			got := fmt.Sprintf("--- stdout\n%s--- stderr\n%s--- exit %d\n", stdout, stderr, status)
			if b, err := os.ReadFile("once-output.txt"); err == nil {
				got += "--- once-output.txt\n" + string(b)
				os.Remove("once-output.txt")
			}
			want, err := os.ReadFile(name + ".sqlite3")
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("ksql differs from sqlite3 (%s.sqlite3):\n%s", name, lineDiff(string(want), got))
			}
		})
	}
}
