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
