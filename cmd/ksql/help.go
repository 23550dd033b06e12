package main

import (
	"fmt"
	"strings"

	"github.com/ksql/ksql/internal/kernels"
)

// helpTopics are the longer explanations behind .help TOPIC.
var helpTopics = map[string]string{
	"vectors": `Vectors
  A BLOB of little-endian float32 values (what ksql's functions, vec_f32 and
  vec0 tables give) prints as [0.12, -0.5, …] in box, table, line and list
  modes, showing N elements (.vectors auto 8 shows 8), and in full in csv
  (as "[...]") and json (as an array).
  Which BLOBs are vectors: the length must be a multiple of 4, and then
    .vectors auto  (default) when the column is declared float[N], f32… or
                   vector, or when every element is a finite number that is
                   0 or between 1e-30 and 1e30 in magnitude; other BLOBs
                   print as hex X'…'
    .vectors on    always
    .vectors off   never: every BLOB prints as hex X'…'
  REALs print with 15 significant digits in human modes and with every digit
  (the shortest text that reads back exactly) in csv and json.
`,
	"import": `.import FILE TABLE
  FILE is CSV (RFC 4180, UTF-8, an optional byte-order mark). Its first line
  is the header. When TABLE does not exist it is created with the header's
  names; a column whose values are all integers becomes INTEGER, all numbers
  REAL, anything else TEXT, and an empty field in a numeric column is NULL.
  When TABLE exists, the header must name its columns (in any order).
  All rows go in one transaction: a malformed row, a row with too many or
  too few fields, or text that is not UTF-8 stops the import with the line
  number, and nothing of the file is kept.
.import DIR TABLE
  Every regular file under DIR (recursively, in name order, hidden files and
  directories skipped) becomes a row (id, name, body): name is the path
  relative to DIR, body the text. TABLE is created as
  (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, body TEXT NOT NULL)
  when missing.
  Files that are not UTF-8 text (invalid UTF-8 or a NUL byte) are skipped
  with a warning.
`,
	"plot": `.plot [--out FILE] QUERY
  Runs QUERY and draws a scatter of its first two numeric columns (x, y).
  The first other column, if any, colours the points: up to 10 distinct
  values get a colour and a legend entry each; more numeric values get a
  colour scale; more text values label the points (up to 200 points).
  FILE ends in .png, .svg or .pdf; without --out the plot goes to the first
  free ksql-plot-N.png in the current directory. Nothing is opened: the
  path is printed.
`,
}

// kernelsHelp is printed by .kernels: the spec language of DESIGN.md,
// its kernels listed from the kernel definition table.
var kernelsHelp = `Kernel specs (used by kernel(), kernel_distance() and the gram, kpca and
kernel_map modules):

` + kernels.Help() + `
  A vector is JSON text '[1, 2.5]' or a float32 BLOB (vec_f32(json_array(a, b))).
  Examples:
    SELECT kernel('normalize(ngram(n=3))', 'kernel methods', 'kernel trick');
    SELECT gauss_kernel('[1,2]', '[2,3]', 0.5);
`

func cmdKernels(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 0, 0); err != nil {
		return err
	}
	fmt.Fprint(s.out, kernelsHelp)
	var ours []string
	for _, n := range s.functionNames() {
		if strings.Contains(n, "kernel") || strings.HasPrefix(n, "rff_") || strings.HasPrefix(n, "ksql_") {
			ours = append(ours, n)
		}
	}
	if len(ours) > 0 {
		fmt.Fprintf(s.out, "\nFunctions on this connection: %s\n", strings.Join(ours, ", "))
	}
	return nil
}
