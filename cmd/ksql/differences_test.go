package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// sqlite3Commands are the dot-commands of the sqlite3 shell 3.40.1, from
// its .help (aliases such as .header left out).
var sqlite3Commands = strings.Fields(`archive auth backup bail binary cd changes check clone connection
	databases dbconfig dbinfo dump echo eqp excel exit expert explain filectrl fullschema headers help
	import imposter indexes limit lint load log mode nonce nullvalue once open output parameter print
	progress prompt quit read recover restore save scanstats schema selftest separator session sha3sum
	shell show stats system tables testcase testctrl timeout timer trace version vfsinfo vfslist vfsname width`)

const (
	diffBegin = "<!-- The list below is made by cmd/ksql/differences.go; TestDifferences checks it (-update rewrites it). -->\n"
	diffEnd   = "<!-- End of the differences. -->\n"
)

// TestDifferences checks that the README's "Differences from the sqlite3
// shell" is the list in differences.go, that each difference that can be
// shown still shows, and that the lists of commands ksql adds and lacks
// are the true ones.
func TestDifferences(t *testing.T) {
	t.Run("shown", func(t *testing.T) {
		t.Chdir("testdata")
		for _, d := range differences {
			if d.script == "" {
				continue
			}
			out, errs, _ := runShell(t, d.script+"\n")
			if !strings.Contains(out+errs, d.want) {
				t.Errorf("%s: the script\n%s\nno longer shows %q; it gives:\n%s%s", d.topic, d.script, d.want, out, errs)
			}
		}
	})
	t.Run("commands", func(t *testing.T) {
		var added, lacking []string
		for name := range dotCommands {
			if !slices.Contains(sqlite3Commands, name) {
				added = append(added, "."+name)
			}
		}
		for _, name := range sqlite3Commands {
			if _, _, ok := lookupDot(name); !ok {
				lacking = append(lacking, "."+name)
			}
		}
		slices.Sort(added)
		for _, d := range differences {
			text := d.text
			if d.topic == "Commands ksql lacks" {
				text, _, _ = strings.Cut(text, "`;") // the first code span lists them
			}
			var listed []string
			for _, w := range regexp.MustCompile("(\\.[a-z0-9]+)").FindAllStringSubmatch(text, -1) {
				listed = append(listed, w[1])
			}
			switch d.topic {
			case "Commands ksql adds":
				for _, a := range added {
					if !slices.Contains(listed, a) {
						t.Errorf("%s is ksql's own but not listed under %q", a, d.topic)
					}
				}
			case "Commands ksql lacks":
				for _, l := range lacking {
					if !slices.Contains(listed, l) {
						t.Errorf("sqlite3 has %s, ksql does not, and %q does not list it", l, d.topic)
					}
				}
				for _, l := range listed {
					if _, _, ok := lookupDot(l[1:]); ok {
						t.Errorf("%q lists %s, which ksql has", d.topic, l)
					}
				}
			}
		}
	})
	t.Run("README", func(t *testing.T) {
		const path = "../../README.md"
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		readme := string(b)
		i, j := strings.Index(readme, diffBegin), strings.Index(readme, diffEnd)
		if i < 0 || j < i {
			t.Fatalf("README.md lacks the markers of the differences section:\n%s%s", diffBegin, diffEnd)
		}
		got, want := readme[i+len(diffBegin):j], differencesMarkdown()
		if got == want {
			return
		}
		if *update {
			if err := os.WriteFile(path, []byte(readme[:i+len(diffBegin)]+want+readme[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("README.md's differences are not those of differences.go (go test ./cmd/ksql -run Differences -update):\n%s",
			lineDiff(want, got))
	})
}
