package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ksql/ksql/ext/catalog"
	"github.com/ksql/ksql/internal/kernels"
)

func cmdHelp(s *Shell, _ *source, args []string, _ string) error {
	if err := wantArgs(args, 0, 1); err != nil {
		return err
	}
	if len(args) == 2 {
		name := strings.TrimPrefix(strings.ToLower(args[1]), ".")
		if topic, ok := helpTopics[name]; ok {
			fmt.Fprint(s.out, topic)
			return nil
		}
		_, c, ok := lookupDot(name)
		if !ok {
			return s.helpCatalog(args[1])
		}
		fmt.Fprintf(s.out, "%s\n    %s\n", c.usage, c.help)
		return nil
	}
	var names []string
	for n := range dotCommands {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		c := dotCommands[n]
		fmt.Fprintf(s.out, "%-34s %s\n", c.usage, c.help)
	}
	fmt.Fprint(s.out, "\nEnd SQL statements with \";\". Ctrl-C interrupts a running statement.\n"+
		"More on a topic: .help mode, .help import, .help parameter, .help plot, .help vectors,\n"+
		".help differences (from the sqlite3 shell).\n"+
		"Any module, function or setting of ksql: .help svm, .help gauss_kernel, .help max_gram_bytes\n"+
		"(.kernels lists them).\n")
	return nil
}

// helpCatalog prints .help NAME for a module, function or setting.
func (s *Shell) helpCatalog(name string) error {
	ctx, end := s.begin()
	defer end()
	text, ok, err := catalogHelp(ctx, strings.ToLower(name))
	switch {
	case err != nil:
		return fmt.Errorf(".help %s: %v", name, err)
	case !ok:
		return fmt.Errorf(".help: no command, topic, module, function or setting %q; .help lists the commands, .kernels the rest", name)
	}
	fmt.Fprint(s.out, text)
	return nil
}

// helpTopics are the longer explanations behind .help TOPIC.
var helpTopics = map[string]string{
	"vectors": `Vectors
  A BLOB of little-endian float32 values (what rff_embed, kernel_map,
  vec_f32 and vec0 tables give) prints as [0.12, -0.5, …] in the display
  modes, showing N elements (.vectors auto 8 shows 8); csv writes it in
  full, json as an array, quote and insert as the BLOB literal X'…'.
  Which BLOBs are vectors:
    .vectors auto  (default) those of a column declared as a vector
                   (float[N], f32…, vector), of a vec0 table's float[N]
                   column, of kernel_map's vector column, and those that a
                   vector function returns (rff_embed, vec_f32, vec_slice,
                   vec_normalize, vec_add, vec_sub); other BLOBs print as
                   sqlite3 prints them, as their bytes
    .vectors on    every BLOB whose length is a multiple of 4
    .vectors off   none
`,
	"import": `.import ?OPTIONS? FILE TABLE
  FILE is CSV (RFC 4180, UTF-8, an optional byte-order mark). Options, as
  sqlite3's: --csv (commas), --ascii (ASCII unit and record separators),
  --skip N (skip N records first), --schema S (make TABLE in S), -v.
  Without --csv the separator is the one of .mode csv, .mode tabs,
  .mode ascii or .separator, and a comma where sqlite3 would use |.
  When TABLE does not exist, the first record names its columns, and each
  column is typed by its values: INTEGER when all are integers, REAL when
  all are numbers, else TEXT; an empty field of a numeric column is NULL.
  When TABLE exists, every record is data (use --skip 1 for a header) and
  goes in as text, for the columns' affinity to convert, as in sqlite3.
  A record with too few fields is filled with NULL, one with too many
  loses the extra ones; each such record is reported, in sqlite3's words.
  The whole file is checked first and loaded in one transaction: CSV
  that does not parse, or text that is not UTF-8, stops the import with
  the line number, and nothing of the file is kept.
.import DIR TABLE
  Every regular file under DIR (recursively, in name order, hidden files and
  directories skipped) becomes a row (id, name, body): name is the path
  relative to DIR, body the text. TABLE is created as
  (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, body TEXT NOT NULL)
  when missing. Files that are not UTF-8 text (invalid UTF-8 or a NUL
  byte), larger than 256 MiB, or whose names are not UTF-8, are skipped
  with a warning.
`,
	"plot": `.plot ?OPTIONS? QUERY
  Runs QUERY and draws a scatter of its first two numeric columns (x, y).
  The first other column, if any, colours the points:
    up to 12 distinct values   a colour and a marker shape each, and a
                               legend (colours safe for colour blindness)
    more numbers               a colour scale (viridis) with a colour bar
    more texts, ≤ 60 points    each point labelled with its text
    more texts                 the 11 most frequent values get colours,
                               the others are grey "other"
  Rows whose x or y is NULL, NaN or infinite are left out, with a warning.
  Options:
    --out FILE     FILE ends in .png, .svg, .pdf or .html; without it the
                   picture goes to the temporary directory (ksql-plot-N.png)
    --html FILE    one self-contained page (it loads nothing): the scatter
                   as SVG with the legend and axes, a tooltip on each point,
                   zoom (wheel) and pan (drag)
    --label COL    the column whose text is the tooltip (default: the
                   point's values); only with --html
    --title TEXT   a title (none by default)
    --size WxH     in pixels (default 900x640)
    --xlabel TEXT, --ylabel TEXT   axis labels (default: the column names)
  The path of the picture is printed; nothing is opened.
`,
	"mode": `.mode ?MODE? ?TABLE?
  ascii     values separated by ASCII unit (0x1F) and record (0x1E) separators
  box       a table drawn with box characters (numbers right-aligned)
  column    aligned columns under a dashed rule (headers on unless set)
  csv       comma-separated values, quoted as sqlite3 quotes them, CRLF rows
  html      rows of an HTML table
  insert    INSERT INTO TABLE VALUES(…) statements (TABLE defaults to "table")
  json      an array of objects; vectors as arrays
  line      one "name = value" line per column, a blank line between rows
  list      values separated by .separator (default |), the default mode
  markdown  a Markdown table
  quote     SQL literals separated by commas
  table     a table drawn with ASCII characters
  tabs      values separated by tabs
  .mode alone shows the current mode. Long values in box, column, markdown
  and table are cut at .maxwidth (default 60); .width sets column widths.
`,
	"differences": differencesHelp(),
	"parameter":   parameterUsage,
}

// kernelsHelp is printed by .kernels: the spec language of DESIGN.md,
// its kernels listed from the kernel definition table.
var kernelsHelp = `Kernel specs:

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
	ctx, end := s.begin()
	defer end()
	spec := specModules(ctx)
	fmt.Fprintf(s.out, "\nModules that take a spec (kernel=): %s\n", strings.Join(spec, ", "))
	var rest []string
	for _, m := range catalog.Extension.Modules {
		if !slices.Contains(spec, m.Name) {
			rest = append(rest, m.Name)
		}
	}
	fmt.Fprintf(s.out, "Other modules and table-valued functions: %s\nFunctions:\n", strings.Join(rest, ", "))
	for _, f := range catalog.Extension.Functions {
		fmt.Fprintf(s.out, "  %s\n", f.Usage)
	}
	fmt.Fprint(s.out, "More on any of them: .help NAME (.help svm, .help gauss_kernel, .help max_gram_bytes).\n")
	return nil
}
