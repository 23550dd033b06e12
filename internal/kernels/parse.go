package kernels

import (
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// MaxDepth bounds how deeply a spec may nest: every '(' opens a level, that
// of a call (normalize(K), gauss(sigma=1, over=K)) as much as a bracket,
// so that a hostile spec cannot exhaust the stack. Nothing else bounds a
// spec's depth or length: a sum or product is wide, not deep (MaxTerms).
const MaxDepth = 1000

// maxTreeDepth bounds the checked tree: each level of parentheses holds at
// most a sum, a product and a call, so a spec the parser accepts is never
// deeper than this, and the checker's own bound only guards against a
// parser that would let one through.
const maxTreeDepth = 3 * (MaxDepth + 1)

// MaxTerms bounds the operands of one sum or product: each costs an
// evaluation per pair of objects.
const MaxTerms = 10000

// ParseError is a syntax or type error in a kernel spec.
type ParseError struct {
	Spec string
	Pos  int // 1-based character (code point) position
	Msg  string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("kernel spec %s: at position %d: %s", quoteSpec(e.Spec), e.Pos, e.Msg)
}

func quoteSpec(s string) string {
	if utf8.RuneCountInString(s) > 60 {
		r := []rune(s)
		s = string(r[:57]) + "..."
	}
	return strconv.Quote(s)
}

// ast nodes produced by the parser, before type checking.
type ast struct {
	kind  byte // 'n' number, 'c' call or bare name, '+', '*'
	pos   int
	num   float64
	name  string
	args  []astArg
	paren bool   // a call written with parentheses
	kids  []*ast // '+' and '*': the operands, two or more
	ops   []int  // '+' and '*': ops[i] is the position of the operator before kids[i] (i ≥ 1)
}

type astArg struct {
	name string // "" for a positional argument
	pos  int
	val  *ast
}

type token struct {
	kind byte // 'n' number, 'i' identifier, one of "()=,+*", 0 for end
	pos  int
	text string
	num  float64
}

type parser struct {
	spec  string
	toks  []token
	i     int
	depth int
}

func lex(spec string) ([]token, error) {
	var toks []token
	pos := 1 // code point position of spec[i]
	for i := 0; i < len(spec); {
		r, w := utf8.DecodeRuneInString(spec[i:])
		start, startPos := i, pos
		switch {
		case unicode.IsSpace(r):
			i += w
			pos++
			continue
		case r == '(' || r == ')' || r == '=' || r == ',' || r == '+' || r == '*':
			toks = append(toks, token{kind: byte(r), pos: pos, text: string(r)})
			i += w
			pos++
			continue
		case r == '-' || r == '.' || (r >= '0' && r <= '9'):
			i++
			for i < len(spec) && (isNumByte(spec[i]) || ((spec[i] == '+' || spec[i] == '-') && (spec[i-1] == 'e' || spec[i-1] == 'E'))) {
				i++
			}
			pos += i - start
			text := spec[start:i]
			v, err := strconv.ParseFloat(text, 64)
			if err != nil {
				return nil, &ParseError{spec, startPos, fmt.Sprintf("malformed number %q", text)}
			}
			toks = append(toks, token{kind: 'n', pos: startPos, text: text, num: v})
		case r == '_' || unicode.IsLetter(r):
			for i < len(spec) {
				r2, w2 := utf8.DecodeRuneInString(spec[i:])
				if r2 != '_' && !unicode.IsLetter(r2) && !unicode.IsDigit(r2) {
					break
				}
				i += w2
				pos++
			}
			toks = append(toks, token{kind: 'i', pos: startPos, text: spec[start:i]})
		default:
			return nil, &ParseError{spec, pos, fmt.Sprintf("unexpected character %q", r)}
		}
	}
	toks = append(toks, token{kind: 0, pos: pos})
	return toks, nil
}

func isNumByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E'
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token { t := p.toks[p.i]; p.i++; return t }

func (p *parser) errorf(pos int, format string, args ...any) error {
	return &ParseError{p.spec, pos, fmt.Sprintf(format, args...)}
}

func describe(t token) string {
	switch t.kind {
	case 0:
		return "end of spec"
	case 'n':
		return "number " + t.text
	case 'i':
		return "name " + strconv.Quote(t.text)
	}
	return strconv.Quote(t.text)
}

// parseExpr parses term ('+' term)*, as one n-ary sum: a long sum is
// wide, not deep.
func (p *parser) parseExpr() (*ast, error) {
	return p.chain('+', p.parseTerm)
}

// open enters the level of parentheses that the '(' at pos opens; every
// recursion of the parser passes through one, so this bounds its depth.
// The caller leaves it with p.depth--.
func (p *parser) open(pos int) error {
	if p.depth++; p.depth > MaxDepth {
		return p.errorf(pos, "spec nested more than %d levels deep (every '(' opens a level)", MaxDepth)
	}
	return nil
}

// parseTerm parses atom ('*' atom)*, as one n-ary product.
func (p *parser) parseTerm() (*ast, error) { return p.chain('*', p.parseAtom) }

// chain parses operand (op operand)*; a single operand is returned as is.
func (p *parser) chain(op byte, operand func() (*ast, error)) (*ast, error) {
	first, err := operand()
	if err != nil || p.peek().kind != op {
		return first, err
	}
	n := &ast{kind: op, pos: p.peek().pos, kids: []*ast{first}, ops: []int{0}}
	for p.peek().kind == op {
		t := p.next()
		if len(n.kids) == MaxTerms {
			return nil, p.errorf(t.pos, "a %s of more than %d terms", map[byte]string{'+': "sum", '*': "product"}[op], MaxTerms)
		}
		k, err := operand()
		if err != nil {
			return nil, err
		}
		n.kids = append(n.kids, k)
		n.ops = append(n.ops, t.pos)
	}
	return n, nil
}

func (p *parser) parseAtom() (*ast, error) {
	t := p.next()
	switch t.kind {
	case 'n':
		return &ast{kind: 'n', pos: t.pos, num: t.num, name: t.text}, nil
	case '(':
		err := p.open(t.pos)
		defer func() { p.depth-- }()
		if err != nil {
			return nil, err
		}
		e, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		if c := p.next(); c.kind != ')' {
			return nil, p.errorf(c.pos, "expected ')' to close '(' at position %d, found %s", t.pos, describe(c))
		}
		return e, nil
	case 'i':
		n := &ast{kind: 'c', pos: t.pos, name: t.text}
		if p.peek().kind == '(' {
			n.paren = true
			if err := p.parseArgs(n, p.next().pos); err != nil {
				return nil, err
			}
		}
		return n, nil
	}
	return nil, p.errorf(t.pos, "expected a kernel name, a number or '(', found %s", describe(t))
}

// parseArgs parses a call's arguments after the '(' at open.
func (p *parser) parseArgs(n *ast, open int) error {
	err := p.open(open)
	defer func() { p.depth-- }()
	if err != nil {
		return err
	}
	if p.peek().kind == ')' {
		p.next()
		return nil
	}
	for {
		a := astArg{pos: p.peek().pos}
		if p.peek().kind == 'i' && p.toks[p.i+1].kind == '=' {
			a.name = p.next().text
			p.next()
		}
		v, err := p.parseExpr()
		if err != nil {
			return err
		}
		a.val = v
		n.args = append(n.args, a)
		switch t := p.next(); t.kind {
		case ')':
			return nil
		case ',':
		default:
			return p.errorf(t.pos, "expected ',' or ')' in the arguments of %s, found %s", n.name, describe(t))
		}
	}
}

func parseAST(spec string) (*ast, error) {
	toks, err := lex(spec)
	if err != nil {
		return nil, err
	}
	p := &parser{spec: spec, toks: toks}
	if p.peek().kind == 0 {
		return nil, p.errorf(1, "empty spec; expected a kernel such as linear, gauss(sigma=1) or ngram(n=3)")
	}
	e, err := p.parseExpr()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != 0 {
		return nil, p.errorf(t.pos, "expected '+', '*' or end of spec, found %s", describe(t))
	}
	return e, nil
}
