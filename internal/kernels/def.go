package kernels

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/ksql/ksql/internal/strkernel"
	"github.com/ksql/ksql/internal/xfloat"
)

// Def defines one leaf kernel of the spec language: its name, its
// parameters with their ranges and defaults, its domain, and a builder.
// The table of definitions (table.go) is the only place the spec language
// learns a kernel's name or checks its parameters; the scalar SQL
// functions check their arguments with the same Params.
type Def struct {
	// Name is the kernel's name in a spec, an identifier.
	Name string
	// Domain is what the kernel compares. String kernels also take the
	// option unit=char|word (UnitParam), declared here once for all.
	Domain Domain
	// Params are the kernel's parameters, in the order a spec's errors
	// list them and its values are checked.
	Params []Param
	// Over reports that the kernel accepts over=K, becoming a function of
	// the distance in K's feature space: its evaluator implements Radial.
	Over bool
	// Examples are what .kernels shows, one spec and its meaning per line.
	Examples []Example
	// Build returns the evaluator for checked arguments. An error is
	// reported at the kernel's position in the spec.
	Build func(a *Args) (Evaluator, error)
}

// Example is one line of a kernel's help: a spec and what it computes.
type Example struct {
	// Spec is a spec calling the kernel; Meaning says what it computes.
	Spec, Meaning string
}

// ParamKind is the type of a parameter's value.
type ParamKind int

// Parameter kinds.
const (
	// Int is a whole number in [Lo, Hi] (both bounds included).
	Int ParamKind = iota
	// Real is a finite number in the range Lo..Hi, each bound excluded
	// when LoOpen or HiOpen; Hi may be +Inf.
	Real
	// Ident is a name written as an identifier, not a number: one of
	// Choices, or (no Choices) any name, such as a table's.
	Ident
)

// Param is one parameter of a kernel.
type Param struct {
	// Name is the argument's name in a spec (name=value), an identifier.
	Name string
	// Kind is the type of its value.
	Kind ParamKind
	// Required parameters have no default: a spec must give them.
	Required bool
	// Default is the value of an absent Int or Real parameter that is not
	// Required (it need not be in range: subseq's p=0 means "all lengths").
	Default float64
	// DefaultName is the value of an absent Ident parameter.
	DefaultName string
	// Lo, Hi, LoOpen and HiOpen bound Int and Real values.
	Lo, Hi         float64
	LoOpen, HiOpen bool
	// Choices are the names an Ident parameter allows (none: any name).
	Choices []string
	// Values, when set, are the only numbers a Real parameter allows
	// (matern's nu=0.5|1.5|2.5), each within Lo..Hi.
	Values []float64
}

// RangeError is a parameter value outside its range, with the fields
// callers need to word it their own way.
type RangeError struct {
	// Param is the parameter, whose fields describe the allowed range.
	Param *Param
	// Value is the value given.
	Value float64
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("%s must be %s, got %v", e.Param.Name, e.Param.Range(), e.Value)
}

// Check returns a *RangeError unless v is a valid value of the Int or Real
// parameter p. Every range check of a kernel parameter, in a spec or in a
// scalar function's argument, is this one.
func (p *Param) Check(v float64) error {
	ok := !math.IsNaN(v) && !math.IsInf(v, 0)
	if p.Kind == Int {
		ok = ok && v == math.Trunc(v)
	}
	ok = ok && (v > p.Lo || !p.LoOpen && v == p.Lo) && (v < p.Hi || !p.HiOpen && v == p.Hi)
	ok = ok && (len(p.Values) == 0 || slices.Contains(p.Values, v))
	if !ok {
		return &RangeError{Param: p, Value: v}
	}
	return nil
}

// Range describes p's allowed values as the spec language's errors do:
// "a whole number from 1 to 1000", "a positive finite number",
// "a finite number ≥ 0", "a finite number", "in (0, 1]", "0.5, 1.5 or 2.5".
func (p *Param) Range() string {
	switch {
	case p.Kind == Ident && len(p.Choices) > 0:
		return strings.Join(p.Choices, " or ")
	case p.Kind == Ident:
		return "a name"
	case len(p.Values) > 0:
		vals := make([]string, len(p.Values))
		for i, v := range p.Values {
			vals[i] = fmt.Sprint(v)
		}
		return strings.Join(vals[:len(vals)-1], ", ") + " or " + vals[len(vals)-1]
	case math.IsInf(p.Lo, -1) && math.IsInf(p.Hi, 1):
		return "a finite number"
	case p.Kind == Int:
		return fmt.Sprintf("a whole number from %d to %d", int64(p.Lo), int64(p.Hi))
	case math.IsInf(p.Hi, 1) && p.Lo == 0 && p.LoOpen:
		return "a positive finite number"
	case math.IsInf(p.Hi, 1):
		return fmt.Sprintf("a finite number %s %v", map[bool]string{true: ">", false: "≥"}[p.LoOpen], p.Lo)
	}
	return fmt.Sprintf("in %s%v, %v%s", map[bool]string{true: "(", false: "["}[p.LoOpen], p.Lo, p.Hi,
		map[bool]string{true: ")", false: "]"}[p.HiOpen])
}

// UnitParam is the option every string kernel takes after its own
// parameters: whether its symbols are code points or words.
var UnitParam = Param{Name: "unit", Kind: Ident, DefaultName: "char", Choices: []string{"char", "word"}}

// Evaluator computes one leaf kernel. It is built once per spec and must
// be safe for concurrent use; per-goroutine state lives in the Workspace.
type Evaluator interface {
	// Eval returns K(a, b). a and b are of the kernel's domain (vectors
	// of equal length, or strings decoded for its unit).
	Eval(a, b *Object, ws *Workspace) (xfloat.F, error)
}

// Radial is an evaluator that is a function of a squared distance, so
// that over=K can give it the distance in K's feature space.
type Radial interface {
	Evaluator
	// OfSqDist returns the kernel's value at squared distance d2.
	OfSqDist(d2 xfloat.F) xfloat.F
	// SqDistOf returns the squared distance in the kernel's own feature
	// space between two objects at squared distance d2,
	// 2·(OfSqDist(0) − OfSqDist(d2)), computed without cancellation.
	SqDistOf(d2 xfloat.F) xfloat.F
}

// Env is what a kernel may need from outside its spec text, such as the
// weighted transducer stored in the table a rational kernel names. The
// SQL layer implements it per connection and hands it to Parse (ParseEnv,
// as Args.Env) and to evaluation (Workspace.Env, GramOptions.Env).
type Env interface {
	// Resolve returns the thing of the given kind (for example "fst")
	// called name, as the connection sees it now.
	Resolve(kind, name string) (any, error)
}

// Args are a leaf's checked parameter values, as its builder sees them.
type Args struct {
	def   *Def
	nums  []float64 // by parameter index: Int and Real values
	names []string  // by parameter index: Ident values
	given []bool
	unit  strkernel.Unit
	// Env is the environment the spec was parsed with (nil for Parse and
	// ParseCached). A builder that needs one should rather resolve at
	// evaluation time through Workspace.Env, so that its spec stays
	// cacheable and sees changes.
	Env Env
}

func (a *Args) index(name string) int {
	for i := range a.def.Params {
		if a.def.Params[i].Name == name {
			return i
		}
	}
	panic("kernels: " + a.def.Name + " has no parameter " + name)
}

// Float returns a Real (or Int) parameter's value.
func (a *Args) Float(name string) float64 { return a.nums[a.index(name)] }

// Int returns an Int parameter's value.
func (a *Args) Int(name string) int { return int(a.nums[a.index(name)]) }

// Name returns an Ident parameter's value.
func (a *Args) Name(name string) string { return a.names[a.index(name)] }

// Given reports whether the spec gave the parameter (rather than its
// default).
func (a *Args) Given(name string) bool { return a.given[a.index(name)] }

// Unit returns a string kernel's unit= option.
func (a *Args) Unit() strkernel.Unit { return a.unit }

// registry holds the definitions by name.
var registry = struct {
	sync.RWMutex
	byName map[string]*Def
}{byName: map[string]*Def{}}

// operatorNames are names of the language that are not leaf kernels.
var operatorNames = []string{"normalize"}

// Register adds a kernel definition to the spec language. It is how the
// built-in table is installed, and how a test adds a throwaway kernel.
// It panics on a malformed definition or a name already in use, which are
// programming errors.
func Register(d *Def) {
	if err := d.validate(); err != nil {
		panic("kernels.Register: " + err.Error())
	}
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.byName[d.Name]; dup || slices.Contains(operatorNames, d.Name) {
		panic("kernels.Register: kernel " + d.Name + " is already defined")
	}
	registry.byName[d.Name] = d
	clearCache() // a cached "unknown kernel" error may now be wrong
}

// Unregister removes a kernel added by Register; for tests.
func Unregister(name string) {
	registry.Lock()
	delete(registry.byName, name)
	registry.Unlock()
	clearCache()
}

func (d *Def) validate() error {
	if !isIdent(d.Name) {
		return fmt.Errorf("kernel name %q is not an identifier", d.Name)
	}
	if d.Build == nil {
		return fmt.Errorf("kernel %s has no builder", d.Name)
	}
	seen := map[string]bool{"over": d.Over, "unit": d.Domain == StringDomain}
	for _, p := range d.Params {
		if !isIdent(p.Name) || seen[p.Name] {
			return fmt.Errorf("kernel %s: parameter %q is not a new identifier", d.Name, p.Name)
		}
		seen[p.Name] = true
		if p.Kind != Ident && !(p.Lo <= p.Hi) {
			return fmt.Errorf("kernel %s: parameter %s has an empty range", d.Name, p.Name)
		}
		for _, v := range p.Values {
			if p.Kind != Real || !(v >= p.Lo && v <= p.Hi) {
				return fmt.Errorf("kernel %s: parameter %s allows a value outside its range", d.Name, p.Name)
			}
		}
		if p.Kind == Ident && p.Required == (p.DefaultName != "") {
			return fmt.Errorf("kernel %s: name parameter %s needs a default exactly when optional", d.Name, p.Name)
		}
	}
	return nil
}

func isIdent(s string) bool {
	toks, err := lex(s)
	return err == nil && len(toks) == 2 && toks[0].kind == 'i' && toks[0].text == s
}

// Lookup returns the definition of the leaf kernel called name.
func Lookup(name string) (*Def, bool) {
	registry.RLock()
	d, ok := registry.byName[name]
	registry.RUnlock()
	return d, ok
}

// MustLookup is Lookup for built-in kernels, which always exist.
func MustLookup(name string) *Def {
	d, ok := Lookup(name)
	if !ok {
		panic("kernels: no kernel " + name)
	}
	return d
}

// Param returns the parameter called name; it panics if there is none.
func (d *Def) Param(name string) *Param {
	for i := range d.Params {
		if d.Params[i].Name == name {
			return &d.Params[i]
		}
	}
	panic("kernels: " + d.Name + " has no parameter " + name)
}

// allowed lists the argument names a call of d accepts, in order.
func (d *Def) allowed() []string {
	var names []string
	for _, p := range d.Params {
		names = append(names, p.Name)
	}
	if d.Domain == StringDomain {
		names = append(names, UnitParam.Name)
	}
	if d.Over {
		names = append(names, "over")
	}
	return names
}

// Defs returns the registered definitions, vector kernels first, each
// domain in table order (then by name for kernels added later).
func Defs() []*Def {
	registry.RLock()
	defs := make([]*Def, 0, len(registry.byName))
	for _, d := range registry.byName {
		defs = append(defs, d)
	}
	registry.RUnlock()
	slices.SortFunc(defs, func(a, b *Def) int {
		if a.Domain != b.Domain {
			return int(a.Domain) - int(b.Domain)
		}
		ia, ib := tableIndex(a.Name), tableIndex(b.Name)
		if ia != ib {
			return ia - ib
		}
		return strings.Compare(a.Name, b.Name)
	})
	return defs
}

func tableIndex(name string) int {
	for i, d := range table {
		if d.Name == name {
			return i
		}
	}
	return len(table)
}

// Names returns every name a spec can call, leaf kernels and operators,
// sorted.
func Names() []string {
	names := slices.Clone(operatorNames)
	for _, d := range Defs() {
		names = append(names, d.Name)
	}
	slices.Sort(names)
	return names
}

// Words returns the words of the spec language, for completion: kernel
// and operator names, parameter names and the names parameters allow.
func Words() []string {
	words := append(Names(), "over", UnitParam.Name)
	words = append(words, UnitParam.Choices...)
	for _, d := range Defs() {
		for _, p := range d.Params {
			words = append(words, p.Name)
			words = append(words, p.Choices...)
		}
	}
	slices.Sort(words)
	return slices.Compact(words)
}

// Help returns the spec language's description for the shell's .kernels:
// every registered kernel's examples, then the operators.
func Help() string {
	var b strings.Builder
	section := map[Domain]string{VectorDomain: "vectors", StringDomain: "strings"}
	last := Domain(-1)
	for _, d := range Defs() {
		for _, ex := range d.Examples {
			head := ""
			if d.Domain != last {
				head, last = section[d.Domain], d.Domain
			}
			fmt.Fprintf(&b, "  %-9s %-27s %s\n", head, ex.Spec, ex.Meaning)
		}
	}
	fmt.Fprintf(&b, "  %-9s option unit=%s (default) or unit=%s\n", "", UnitParam.Choices[0], UnitParam.Choices[1])
	b.WriteString(operatorHelp)
	return b.String()
}

const operatorHelp = `  combine   normalize(K)                K(a,b) / sqrt(K(a,a) K(b,b))
            gauss(sigma=1, over=K)      a Gaussian in K's feature space (also rq, matern)
            0.5*K1 + K2,  K1 * K2       sums, positive scalings and products
`
