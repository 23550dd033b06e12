package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMattnNeedsTag builds a program that imports ext/mattn without
// -tags sqlite_vtable: the build must fail, and the message must name the
// tag, rather than the program failing at run time with "unknown driver".
func TestMattnNeedsTag(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go tool")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	cmd := exec.Command(goTool, "build", "-o", os.DevNull, "./testdata/mattnuser")
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatal("a program importing ext/mattn without -tags sqlite_vtable built")
	}
	if !strings.Contains(string(out), "requires_build_tag_sqlite_vtable_and_cgo") {
		t.Errorf("the build failed without naming the tag:\n%s", out)
	}
}
