package kernels

import (
	"errors"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		spec string
		pos  int
		msg  string
	}{
		{"gauss(", 7, "expected a kernel name"},
		{"gauss(sigma=-1)", 7, "sigma must be a positive finite number"},
		{"foo", 1, `unknown kernel "foo"`},
		{"gauss(sigma=1, sigma=2)", 16, "argument sigma given twice"},
		{"0*linear", 1, "scale factor must be a positive"},
		{"-1*linear", 1, "scale factor must be a positive"},
		{"gauss(sigma=1) + ngram(n=2)", 16, "cannot combine a vector kernel with a string kernel"},
		{"ngram(n=2) * linear", 12, "cannot combine a string kernel with a vector kernel"},
		{"normalize(ngram(n=3)) + gauss(sigma=1, over=linear)", 23, "cannot combine"},
		{"  поли", 3, `unknown kernel "поли"`},
		{"ssk(p=2)", 1, "ssk needs lambda="},
		{"ssk(p=0, lambda=0.5)", 5, "p must be a whole number from 1"},
		{"subseq(p=1.5)", 8, "p must be a whole number"},
		{"ngram(n=3, unit=byte)", 12, "unit must be char or word"},
		{"gauss(sigma=1", 14, "expected ',' or ')'"},
		{"gauss(sigma=1e)", 13, "malformed number"},
		{"(linear", 8, "expected ')' to close '('"},
		{"2*3", 2, "is a number, not a kernel"},
		{"normalize(sigma=1)", 1, "normalize takes exactly one kernel"},
		{"gauss(sigma=1, over=3)", 21, "the number 3 is not a kernel"},
		{"poly(degree=1001)", 6, "degree must be a whole number from 1 to 1000"},
		{"poly(degree=2, r=x)", 16, "r must be a number"},
	}
	for _, tc := range tests {
		_, err := Parse(tc.spec)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q): error %v, want a ParseError", tc.spec, err)
			continue
		}
		if pe.Pos != tc.pos || !strings.Contains(pe.Msg, tc.msg) {
			t.Errorf("Parse(%q) = position %d %q, want position %d %q", tc.spec, pe.Pos, pe.Msg, tc.pos, tc.msg)
		}
	}
}

func TestParseValid(t *testing.T) {
	tests := []struct {
		spec   string
		domain Domain
	}{
		{"linear", VectorDomain},
		{"linear()", VectorDomain},
		{"poly(degree=3, r=1)", VectorDomain},
		{"0.5*gauss(sigma=1) + linear", VectorDomain},
		{"gauss(sigma=1, over=normalize(poly(degree=2)))", VectorDomain},
		{"subseq", StringDomain},
		{"subseq(p=3, unit=word)", StringDomain},
		{"ssk(p=3, lambda=0.5)", StringDomain},
		{"normalize(ngram(n=3))", StringDomain},
		{"0.5*K", -1},
		{"gauss(sigma=2, over=ngram(n=2)) * subseq(p=2)", StringDomain},
		{"( ( linear ) )", VectorDomain},
		{"1e-1 * laplace(sigma=2E1)", VectorDomain},
	}
	for _, tc := range tests {
		s, err := Parse(tc.spec)
		if tc.domain < 0 {
			if err == nil {
				t.Errorf("Parse(%q) succeeded, want error", tc.spec)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.spec, err)
			continue
		}
		if s.Domain() != tc.domain {
			t.Errorf("Parse(%q).Domain() = %v, want %v", tc.spec, s.Domain(), tc.domain)
		}
	}
}

// TestDeepNesting: a spec nested 100,000 levels deep is refused quickly
// with an error, not a stack overflow.
func TestDeepNesting(t *testing.T) {
	for _, open := range []string{"(", "normalize(", "gauss(sigma=1, over="} {
		spec := strings.Repeat(open, 100000) + "linear" + strings.Repeat(")", 100000)
		_, err := Parse(spec)
		if err == nil || !strings.Contains(err.Error(), "nested more than") {
			t.Errorf("%s...: error %v", open, err)
		}
	}
	// Sums and products are n-ary, so a long flat sum is wide, not deep:
	// 1,002 terms are fine, and MaxTerms bounds a spec's size.
	for _, op := range []string{" + ", " * "} {
		long := strings.Repeat("linear"+op, 100000) + "linear"
		if _, err := Parse(long); err == nil || !strings.Contains(err.Error(), "more than 10000 terms") {
			t.Errorf("%q of 100,001 kernels: error %v", op, err)
		}
		for _, n := range []int{501, 1002, MaxTerms} {
			if _, err := Parse(strings.Repeat("linear"+op, n-1) + "linear"); err != nil {
				t.Errorf("%q of %d kernels: %v", op, n, err)
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"linear", "gauss(sigma=1)", "0.5*K1 + K2", "normalize(ngram(n=3, unit=word))",
		"gauss(sigma=1, over=subseq(p=2))", "ssk(p=3, lambda=0.5)", "((", "-1*linear", "1e309*linear"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := Parse(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Pos < 1 {
				t.Fatalf("Parse(%q): error without position: %v", s, err)
			}
			return
		}
		if spec.Domain() == VectorDomain {
			a := spec.PrepareVec(Vec{F64: []float64{1, 2}})
			b := spec.PrepareVec(Vec{F64: []float64{0.5, -1}})
			if _, err := spec.Eval(&a, &b, &Workspace{}); err != nil {
				t.Fatalf("Eval(%q): %v", s, err)
			}
		}
	})
}
