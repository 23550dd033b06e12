package main

import "strings"

// The shell decides where a statement ends the way sqlite3_complete does,
// so that a semicolon inside a string, a comment, a quoted identifier or the
// body of CREATE TRIGGER never cuts a statement short. This is a port of
// SQLite's state machine (src/complete.c).

type tokKind int

const (
	tkSemi tokKind = iota
	tkWS
	tkOther
	tkExplain
	tkCreate
	tkTemp
	tkTrigger
	tkEnd
	tkIncomplete // an unterminated string, identifier or block comment
)

// completeTrans[state][token] is the next state. States: 0 invalid, 1 start,
// 2 normal, 3 explain, 4 create, 5 trigger, 6 semi, 7 end.
var completeTrans = [8][8]uint8{
	/* invalid */ {1, 0, 2, 3, 4, 2, 2, 2},
	/* start   */ {1, 1, 2, 3, 4, 2, 2, 2},
	/* normal  */ {1, 2, 2, 2, 2, 2, 2, 2},
	/* explain */ {1, 3, 3, 2, 4, 2, 2, 2},
	/* create  */ {1, 4, 2, 2, 2, 4, 5, 2},
	/* trigger */ {6, 5, 5, 5, 5, 5, 5, 5},
	/* semi    */ {6, 6, 5, 5, 5, 5, 5, 7},
	/* end     */ {1, 7, 5, 5, 5, 5, 5, 5},
}

// nextToken returns the kind of the token at the start of s and its length.
func nextToken(s string) (tokKind, int) {
	c := s[0]
	switch {
	case c == ';':
		return tkSemi, 1
	case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
		return tkWS, 1
	case c == '-' && len(s) > 1 && s[1] == '-':
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			return tkWS, i + 1
		}
		return tkWS, len(s)
	case c == '/' && len(s) > 1 && s[1] == '*':
		if i := strings.Index(s[2:], "*/"); i >= 0 {
			return tkWS, i + 4
		}
		return tkIncomplete, len(s)
	case c == '\'' || c == '"' || c == '`':
		return quoted(s, c)
	case c == '[':
		if i := strings.IndexByte(s, ']'); i >= 0 {
			return tkOther, i + 1
		}
		return tkIncomplete, len(s)
	case isIdentByte(c):
		n := 1
		for n < len(s) && isIdentByte(s[n]) {
			n++
		}
		return keywordKind(s[:n]), n
	}
	return tkOther, 1
}

// quoted scans a string or identifier opened by q, where a doubled q stands
// for itself.
func quoted(s string, q byte) (tokKind, int) {
	for i := 1; i < len(s); i++ {
		if s[i] != q {
			continue
		}
		if i+1 < len(s) && s[i+1] == q {
			i++
			continue
		}
		return tkOther, i + 1
	}
	return tkIncomplete, len(s)
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 ||
		(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

func keywordKind(w string) tokKind {
	switch strings.ToLower(w) {
	case "explain":
		return tkExplain
	case "create":
		return tkCreate
	case "temp", "temporary":
		return tkTemp
	case "trigger":
		return tkTrigger
	case "end":
		return tkEnd
	}
	return tkOther
}

// statement is one complete SQL statement cut out of the input, with the
// line (1-based, relative to the text it came from) where it starts.
type statement struct {
	text string
	line int
}

// splitSQL cuts text into statements. rest is the trailing text after the
// last complete statement when it holds more than whitespace and comments
// (or opens a string or comment it does not close); complete reports whether
// text ends at a statement boundary.
func splitSQL(text string) (stmts []statement, rest statement, complete bool) {
	state := uint8(0)
	start, line, startLine := 0, 1, 1
	sawSQL := false
	for i := 0; i < len(text); {
		kind, n := nextToken(text[i:])
		if kind == tkIncomplete {
			if !sawSQL {
				start, startLine = i, line
			}
			return stmts, statement{text: strings.TrimSpace(text[start:]), line: startLine}, false
		}
		if kind != tkWS && kind != tkSemi && !sawSQL {
			sawSQL, start, startLine = true, i, line
		}
		state = completeTrans[state][kind]
		line += strings.Count(text[i:i+n], "\n")
		i += n
		if kind == tkSemi && state == 1 {
			if sawSQL {
				stmts = append(stmts, statement{text: text[start:i], line: startLine})
			}
			sawSQL, start = false, i
		}
	}
	if sawSQL {
		return stmts, statement{text: strings.TrimSpace(text[start:]), line: startLine}, false
	}
	return stmts, statement{}, true
}

// isBlankSQL reports whether text holds only whitespace and comments (an
// unterminated block comment is not blank: more input may close it).
func isBlankSQL(text string) bool {
	for i := 0; i < len(text); {
		kind, n := nextToken(text[i:])
		if kind != tkWS {
			return false
		}
		i += n
	}
	return true
}

// completeScanner decides, as lines arrive, whether the text so far ends at
// a statement boundary (what sqlite3_complete answers) without scanning
// the text again from its start: it keeps the state machine's state, the
// offset reached and, inside a string, quoted identifier or block comment
// that spans lines, what will close it. A statement of many megabytes over
// many lines is so scanned once.
type completeScanner struct {
	state  uint8
	pos    int
	inside byte // 0, the quote character, '[' or '*' (a block comment)
}

// feed scans text, which extends the text of the previous call, and reports
// whether it ends at a statement boundary.
func (c *completeScanner) feed(text string) bool {
	i := c.pos
	for i < len(text) {
		if c.inside != 0 {
			n, closed := closeToken(text[i:], c.inside)
			i += n
			if !closed {
				break
			}
			kind := tkOther
			if c.inside == '*' {
				kind = tkWS
			}
			c.inside = 0
			c.state = completeTrans[c.state][kind]
			continue
		}
		kind, n := nextToken(text[i:])
		if kind == tkIncomplete {
			switch text[i] {
			case '/':
				c.inside, i = '*', i+2
			default:
				c.inside, i = text[i], i+1
			}
			continue
		}
		c.state = completeTrans[c.state][kind]
		i += n
	}
	c.pos = i
	return c.inside == 0 && c.state == 1
}

// closeToken finds the end of a token opened by what (a quote, '[' or '*'
// for a block comment) in s, which starts after the opening: it returns
// the length up to and including the closing, or len(s) and false.
func closeToken(s string, what byte) (int, bool) {
	switch what {
	case '[':
		if i := strings.IndexByte(s, ']'); i >= 0 {
			return i + 1, true
		}
	case '*':
		if i := strings.Index(s, "*/"); i >= 0 {
			return i + 2, true
		}
	default:
		for i := 0; i < len(s); i++ {
			if s[i] != what {
				continue
			}
			if i+1 < len(s) && s[i+1] == what {
				i++
				continue
			}
			return i + 1, true
		}
	}
	return len(s), false
}

// token is one token of SQL text that is not white space or a comment,
// with its byte offset.
type token struct {
	text string
	pos  int
}

// sqlTokens cuts text into tokens: words, quoted strings and identifiers
// whole, and every other character on its own.
func sqlTokens(text string) []token {
	var toks []token
	for i := 0; i < len(text); {
		kind, n := nextToken(text[i:])
		if kind != tkWS {
			toks = append(toks, token{text: text[i : i+n], pos: i})
		}
		i += n
	}
	return toks
}

// unquoteIdent removes the quotes of a quoted identifier.
func unquoteIdent(s string) string {
	if len(s) >= 2 {
		switch q := s[0]; {
		case (q == '"' || q == '`' || q == '\'') && s[len(s)-1] == q:
			return strings.ReplaceAll(s[1:len(s)-1], string(q)+string(q), string(q))
		case q == '[' && s[len(s)-1] == ']':
			return s[1 : len(s)-1]
		}
	}
	return s
}

// resultExprs returns the text of the n result expressions of a SELECT
// (aliases removed), "" where it cannot tell: the result list of the first
// SELECT at the top level of the statement, with * counted from both ends.
func resultExprs(text string, n int) []string {
	out := make([]string, n)
	toks := sqlTokens(text)
	start := -1
	depth := 0
	for i, t := range toks {
		switch {
		case t.text == "(":
			depth++
		case t.text == ")":
			depth--
		case depth == 0 && strings.EqualFold(t.text, "SELECT"):
			start = i + 1
		}
		if start >= 0 {
			break
		}
	}
	if start < 0 {
		return out
	}
	if start < len(toks) && (strings.EqualFold(toks[start].text, "DISTINCT") || strings.EqualFold(toks[start].text, "ALL")) {
		start++
	}
	exprs := splitResultList(toks[start:])
	star := -1
	for j, e := range exprs {
		if len(e) > 0 && e[len(e)-1].text == "*" {
			star = j
			break
		}
	}
	for j, e := range exprs {
		k := j
		switch {
		case j == star:
			continue
		case star >= 0 && j > star:
			k = n - (len(exprs) - j)
		case star < 0 && len(exprs) != n:
			return out
		}
		if k >= 0 && k < n {
			out[k] = exprText(text, stripAlias(e))
		}
	}
	return out
}

// splitResultList cuts a SELECT's result list at its top-level commas,
// up to the clause that ends it.
func splitResultList(toks []token) [][]token {
	var exprs [][]token
	cur, depth, i := 0, 0, 0
	for ; i < len(toks); i++ {
		t := toks[i].text
		if t == "(" {
			depth++
		} else if t == ")" {
			depth--
		}
		if depth < 0 || depth == 0 && (t == ";" || endsResultList(t)) {
			break
		}
		if depth == 0 && t == "," {
			exprs = append(exprs, toks[cur:i])
			cur = i + 1
		}
	}
	return append(exprs, toks[cur:i])
}

func endsResultList(t string) bool {
	switch strings.ToUpper(t) {
	case "FROM", "WHERE", "GROUP", "HAVING", "WINDOW", "ORDER", "LIMIT", "UNION", "EXCEPT", "INTERSECT":
		return true
	}
	return false
}

// stripAlias drops "AS name", or a bare name after a closing parenthesis.
func stripAlias(e []token) []token {
	switch n := len(e); {
	case n >= 3 && strings.EqualFold(e[n-2].text, "AS"):
		return e[:n-2]
	case n >= 2 && e[n-2].text == ")" && e[n-1].text != ")":
		return e[:n-1]
	}
	return e
}

func exprText(text string, e []token) string {
	if len(e) == 0 {
		return ""
	}
	last := e[len(e)-1]
	return text[e[0].pos : last.pos+len(last.text)]
}
