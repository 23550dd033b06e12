package vtab

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// options are a module's key=value arguments, keys lower-cased (a
// lookup by key folds its case too), values unquoted. SQLite hands the
// text between the parentheses of USING module(...) over split at
// top-level commas, quotes and brackets respected, so each argument is
// one key=value pair.
type options map[string]string

// parseOptions reads args (SQLite's args[3:]) and refuses keys outside
// known, repeated keys and arguments that are not key=value.
func parseOptions(args []string, known []string) (options, error) {
	opts := options{}
	for _, a := range args {
		a = strings.TrimSpace(a)
		if a == "" {
			return nil, fmt.Errorf("empty argument; arguments are key=value, with keys %s", strings.Join(known, ", "))
		}
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			return nil, fmt.Errorf("argument %s is not key=value (keys: %s)", quoteExcerpt(a), strings.Join(known, ", "))
		}
		name, ok := knownKey(known, k)
		if !ok {
			lower := strings.ToLower(strings.TrimSpace(k))
			return nil, fmt.Errorf("unknown argument %s (known: %s%s)", quoteExcerpt(lower), strings.Join(known, ", "), habitKey(known, lower))
		}
		if _, dup := opts[strings.ToLower(name)]; dup {
			return nil, fmt.Errorf("argument %s is given twice", name)
		}
		opts[strings.ToLower(name)] = strings.TrimSpace(v)
	}
	return opts, nil
}

// habitKeys are scikit-learn's argument names, with the key a module
// takes instead and the line that says so: the first hour of a
// scikit-learn user is spent writing gamma= and n_components=.
var habitKeys = map[string][2]string{
	"gamma":        {"kernel", "scikit-learn's gamma γ is kernel='gauss(sigma=1/√(2γ))'"},
	"length_scale": {"kernel", "scikit-learn's length_scale l is kernel='gauss(sigma=l)'"},
	"coef0":        {"kernel", "scikit-learn's gamma γ and coef0 c are kernel='γ^d*poly(degree=d, r=c/γ)'"},
	"n_components": {"components", "scikit-learn's n_components is components="},
	"n_clusters":   {"k", "scikit-learn's n_clusters is k="},
	"alpha":        {"noise", "scikit-learn's alpha is noise="},
	"cv":           {"folds", "scikit-learn's cv is folds="},
	"random_state": {"seed", "scikit-learn's random_state is seed="},
}

// habitKey is "; " and the line for a scikit-learn name k where known
// has the key it stands for, else "".
func habitKey(known []string, k string) string {
	if h, ok := habitKeys[k]; ok {
		if _, ok := knownKey(known, h[0]); ok {
			return "; " + h[1]
		}
	}
	return ""
}

// knownKey is the spelling known declares for key k, whatever its case:
// keys match as SQL names do, and errors and help name them as declared
// (C=, as scikit-learn and kernlab write it).
func knownKey(known []string, k string) (string, bool) {
	k = strings.TrimSpace(k)
	i := slices.IndexFunc(known, func(x string) bool { return strings.EqualFold(x, k) })
	if i < 0 {
		return "", false
	}
	return known[i], true
}

// text returns a value that may be written bare or as a SQL string
// literal ('...', a quote inside doubled), as kernel= and query= are.
func (o options) text(key string) (string, bool, error) {
	v, ok := o[strings.ToLower(key)]
	if !ok {
		return "", false, nil
	}
	if strings.HasPrefix(v, "'") {
		s, rest, err := unquote(v, '\'')
		if err != nil {
			return "", true, fmt.Errorf("%s=: %v", key, err)
		}
		if strings.TrimSpace(rest) != "" {
			return "", true, fmt.Errorf("%s=: unexpected text %s after the quoted string", key, quoteExcerpt(rest))
		}
		v = s
	}
	if strings.TrimSpace(v) == "" {
		return "", true, fmt.Errorf("%s= is empty", key)
	}
	return v, true, nil
}

// integer returns an integer option within [lo, hi], or def when absent.
func (o options) integer(key string, def, lo, hi int64) (int64, error) {
	v, ok, err := o.text(key)
	if err != nil || !ok {
		return def, err
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s=%s is not an integer", key, v)
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("%s=%d is out of range (allowed: %d to %d)", key, n, lo, hi)
	}
	return n, nil
}

// real returns a finite number option that satisfies ok, or def when
// absent; allowed says what ok admits, for the error ("tol=2: allowed a
// number between 0 and 1 (exclusive)").
func (o options) real(key string, def float64, ok func(float64) bool, allowed string) (float64, error) {
	v, given, err := o.text(key)
	if err != nil || !given {
		return def, err
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || !ok(f) {
		return 0, fmt.Errorf("%s=%s: allowed %s", key, v, allowed)
	}
	return f, nil
}

// ident is a possibly schema-qualified SQL name.
type ident struct {
	schema, name string
}

// sql renders the name quoted, never pasted: `a“b` for a`b. Backticks,
// not double quotes: SQLite reads a double-quoted name that matches no
// column as a string literal, so after ALTER TABLE ... RENAME COLUMN a
// source would silently read the string 'body' in every row (and 'rowid'
// from a table without one); a backticked name is always a name.
func (id ident) sql() string {
	if id.schema != "" {
		return sqlIdent(id.schema) + "." + sqlIdent(id.name)
	}
	return sqlIdent(id.name)
}

func sqlIdent(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

func (id ident) String() string {
	if id.schema != "" {
		return id.schema + "." + id.name
	}
	return id.name
}

// quoteIdent renders a name for messages.
func quoteIdent(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// parseIdent reads a name written bare (letters, digits, _, $ and any
// non-ASCII character), or quoted with "...", [...], `...` or '...'; with
// qualified set it also accepts schema.name.
func parseIdent(key, v string, qualified bool) (ident, error) {
	var parts []string
	rest := strings.TrimSpace(v)
	for {
		part, r, err := readName(key, v, rest)
		if err != nil {
			return ident{}, err
		}
		parts = append(parts, part)
		rest = strings.TrimSpace(r)
		if rest == "" {
			break
		}
		if rest[0] != '.' || !qualified || len(parts) == 2 {
			return ident{}, fmt.Errorf("%s=%s is not a name (quote it with \"...\" if it holds spaces or punctuation)", key, v)
		}
		rest = strings.TrimSpace(rest[1:])
	}
	if len(parts) == 2 {
		return ident{schema: parts[0], name: parts[1]}, nil
	}
	return ident{name: parts[0]}, nil
}

// readName reads one name, bare or quoted, at the start of rest (a part
// of argument key's value v, which errors quote) and returns the text
// after it.
func readName(key, v, rest string) (string, string, error) {
	if rest == "" {
		return "", "", fmt.Errorf("%s= needs a name, got %s", key, quoteExcerpt(v))
	}
	var part string
	var err error
	switch rest[0] {
	case '"', '`', '\'':
		part, rest, err = unquote(rest, rest[0])
	case '[':
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			err = fmt.Errorf("unterminated [ in %s", quoteExcerpt(v))
		} else {
			part, rest = rest[1:end], rest[end+1:]
		}
	default:
		end := 0
		for end < len(rest) && isIdentByte(rest[end]) {
			end++
		}
		part, rest = rest[:end], rest[end:]
	}
	if err != nil {
		return "", "", fmt.Errorf("%s=: %v", key, err)
	}
	if part == "" {
		return "", "", fmt.Errorf("%s= needs a name, got %s", key, quoteExcerpt(v))
	}
	return part, rest, nil
}

// columnItem is one item of a columns= argument: a column (to == ""), or
// the columns from..to in the table's order.
type columnItem struct {
	from, to string
}

func (c columnItem) String() string {
	if c.to == "" {
		return columnName(c.from)
	}
	return columnName(c.from) + ".." + columnName(c.to)
}

// columnName writes a name as columns= reads it back: bare when it can be,
// else in double quotes ("a b", "x..y"), so that a message's columns=
// can be pasted.
func columnName(s string) string {
	for i, r := range s {
		bare := r == '_' || r == '$' || r >= 0x80 || 'a' <= r|0x20 && r|0x20 <= 'z' || i > 0 && '0' <= r && r <= '9'
		if !bare {
			return quoteIdent(s)
		}
	}
	if s == "" {
		return quoteIdent(s)
	}
	return s
}

// parseColumns reads a columns= value (already unquoted): names and
// ranges separated by commas, 'p0,p1,p2', p0..p63 or 'a, p0..p9', each
// name bare or quoted.
func parseColumns(v string) ([]columnItem, error) {
	var items []columnItem
	rest := strings.TrimSpace(v)
	for {
		var it columnItem
		var err error
		if it.from, rest, err = readName("columns", v, rest); err != nil {
			return nil, err
		}
		rest = strings.TrimSpace(rest)
		if strings.HasPrefix(rest, "..") {
			if it.to, rest, err = readName("columns", v, strings.TrimSpace(rest[2:])); err != nil {
				return nil, err
			}
			rest = strings.TrimSpace(rest)
		}
		items = append(items, it)
		if rest == "" {
			return items, nil
		}
		if rest[0] != ',' {
			return nil, fmt.Errorf("columns=%s: unexpected %s; allowed: names separated by commas ('p0,p1,p2') or a range in table order (p0..p63)",
				v, quoteExcerpt(rest))
		}
		rest = strings.TrimSpace(rest[1:])
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// unquote reads a quoted token at the start of s (a doubled quote stands
// for one) and returns its content and the text after it.
func unquote(s string, q byte) (string, string, error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] != q {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == q {
			b.WriteByte(q)
			i++
			continue
		}
		return b.String(), s[i+1:], nil
	}
	return "", "", fmt.Errorf("unterminated %c in %s", q, quoteExcerpt(s))
}

func quoteExcerpt(s string) string {
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "..."
	}
	return strconv.Quote(s)
}

// checkSelect makes sure a query= text can only be one read-only SELECT once
// it is placed in the body of a common table expression: it must hold no
// ';' (a second statement) and its parentheses must balance, so that it
// cannot close the CTE early and continue as INSERT or DELETE. Quotes and
// comments are skipped as SQLite's tokenizer skips them. SQLite itself then
// accepts only a select-stmt (SELECT, VALUES, WITH ... SELECT) there.
func checkSelect(q string) (string, error) {
	q = strings.TrimSpace(q)
	q = strings.TrimSpace(strings.TrimSuffix(q, ";"))
	depth := 0
	for i := 0; i < len(q); i++ {
		switch c := q[i]; c {
		case '\'', '"', '`':
			j := i + 1
			for {
				k := strings.IndexByte(q[j:], c)
				if k < 0 {
					return "", fmt.Errorf("query= has an unterminated %c quote", c)
				}
				j += k + 1
				if j < len(q) && q[j] == c { // a doubled quote stands for one
					j++
					continue
				}
				break
			}
			i = j - 1
		case '[':
			j := strings.IndexByte(q[i:], ']')
			if j < 0 {
				return "", fmt.Errorf("query= has an unterminated [")
			}
			i += j
		case '-':
			if i+1 < len(q) && q[i+1] == '-' {
				j := strings.IndexByte(q[i:], '\n')
				if j < 0 {
					j = len(q) - i
				}
				i += j
			}
		case '/':
			if i+1 < len(q) && q[i+1] == '*' {
				j := strings.Index(q[i+2:], "*/")
				if j < 0 {
					return "", fmt.Errorf("query= has an unterminated /* comment")
				}
				i += j + 3
			}
		case ';':
			return "", fmt.Errorf("query= must be a single SELECT statement (found ';' at offset %d)", i)
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return "", fmt.Errorf("query= has an unbalanced ')' at offset %d", i)
			}
		}
	}
	if depth != 0 {
		return "", fmt.Errorf("query= has %d unclosed '('", depth)
	}
	if q == "" {
		return "", fmt.Errorf("query= is empty")
	}
	return q, nil
}

// sameName compares names as SQLite compares identifiers: ASCII letters
// without case, every other byte exactly. Unicode folding (strings.EqualFold)
// would take "É" for "é" or "ſ" for "s", which are other columns or
// tables to SQLite.
func sameName(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range len(a) {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
