package vtab

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kernels"
)

// Features from columns: columns= reads numeric columns into one float64
// vector per row, nulls= says what a NULL among them does, and
// scale=standard centres and scales each coordinate by the snapshot's
// mean and population standard deviation (scikit-learn's StandardScaler,
// kernlab's ksvm(scaled=TRUE)). Every module over a source gets them here.

// parseFeatures reads columns=, nulls= and scale=. It does not touch the
// database: a list is known now, a range when the source is read.
func (s *source) parseFeatures(opts options, hasCol bool) error {
	v, hasCols, err := opts.text("columns")
	if err != nil {
		return err
	}
	nulls, hasNulls, err := opts.text("nulls")
	if err != nil {
		return err
	}
	scale, hasScale, err := opts.text("scale")
	if err != nil {
		return err
	}
	switch {
	case hasCols && hasCol:
		return errors.New("give either column= (one column of vectors or text) or columns= (numeric columns read into a vector), not both")
	case hasNulls && !hasCols:
		return errors.New("nulls= goes with columns= (a row whose column= is NULL is always left out, with NULL results)")
	}
	if hasNulls {
		switch strings.ToLower(nulls) {
		case "error":
		case "skip":
			s.nullSkip = true
		default:
			return fmt.Errorf("nulls=%s: allowed error (the default: a NULL in any of columns= is an error naming the row and column) or skip (such a row is left out, with NULL results)", nulls)
		}
	}
	if hasScale {
		switch strings.ToLower(scale) {
		case "none":
		case "standard":
			s.scale = true
		default:
			return fmt.Errorf("scale=%s: allowed standard (each coordinate centred and divided by the training rows' mean and population standard deviation) or none (the default)", scale)
		}
	}
	strs := s.spec.Domain() != kernels.VectorDomain
	if s.scale && strs {
		return fmt.Errorf("scale=standard scales vectors, but kernel %s compares strings", s.spec)
	}
	if !hasCols {
		return nil
	}
	if strs {
		return fmt.Errorf("columns= reads numbers into a vector, but kernel %s compares strings; give the text column as column=", s.spec)
	}
	if s.features, err = parseColumns(v); err != nil {
		return err
	}
	if s.hasRange() {
		return nil
	}
	names := make([]ident, len(s.features))
	for i, it := range s.features {
		names[i] = ident{name: it.from}
	}
	return s.setFeatures(names)
}

func (s *source) hasRange() bool {
	return slices.ContainsFunc(s.features, func(it columnItem) bool { return it.to != "" })
}

// setFeatures sets the columns columns= reads, refusing a column read
// twice.
func (s *source) setFeatures(names []ident) error {
	for i, a := range names {
		for _, b := range names[:i] {
			if sameName(a.name, b.name) {
				return fmt.Errorf("columns= reads column %s twice; each column is one coordinate", quoteIdent(a.name))
			}
		}
	}
	s.fcols = names
	return nil
}

// resolve expands columns= ranges against the table's columns in table
// order, as the table is now: every read resolves them again, so a range
// reads the columns that lie between its ends (and the hash covers their
// names, so a different set refits). An end that is not a column is an
// error naming it, as column= names a renamed column.
func (s *source) resolve(c *host.Conn) error {
	if !s.hasRange() {
		return nil
	}
	cols, err := s.tableColumns(c)
	if err != nil {
		return err
	}
	at := func(name string) int {
		return slices.IndexFunc(cols, func(c string) bool { return sameName(c, name) })
	}
	var names []ident
	for _, it := range s.features {
		if it.to == "" {
			names = append(names, ident{name: it.from})
			continue
		}
		i, j := at(it.from), at(it.to)
		switch {
		case i < 0 || j < 0:
			missing := it.from
			if i >= 0 {
				missing = it.to
			}
			return fmt.Errorf("columns=%s: table %s has no column %s (its columns, in order: %s)", it, s.table, quoteIdent(missing), strings.Join(cols, ", "))
		case i > j:
			return fmt.Errorf("columns=%s: %s comes after %s in table %s (its columns, in order: %s); a range runs in table order, as columns=%s..%s",
				it, quoteIdent(cols[i]), quoteIdent(cols[j]), s.table, strings.Join(cols, ", "), columnName(cols[j]), columnName(cols[i]))
		}
		for k := i; k <= j; k++ {
			names = append(names, ident{name: cols[k]})
		}
	}
	if slices.Equal(names, s.fcols) {
		return nil
	}
	if err := s.setFeatures(names); err != nil {
		return err
	}
	s.buildSQL()
	return nil
}

// hashFeatures puts the names of the columns read into the source's hash,
// so that a range that now reads other columns refits.
func (s *source) hashFeatures(h hash.Hash) {
	if s.features == nil {
		return
	}
	for _, f := range s.fcols {
		fmt.Fprintf(h, "column\x00%d\x00%s", len(f.name), f.name)
	}
}

// hasObject says whether a row as read (id, object columns, extra...)
// has an object: a non-NULL object, or feature columns without a NULL
// when nulls=skip (with nulls=error a NULL feature is an error, met later).
func (s *source) hasObject(v []any) bool {
	if s.features == nil {
		return v[1] != nil
	}
	return !s.nullSkip || !slices.Contains(v[1:1+len(s.fcols)], nil)
}

// featureRow stands in a snapshot's rows for a row's columns= values,
// decoded as they are read: an offset into the vectors (feats), or the
// error that the row's id will name.
type featureRow struct {
	at  int
	err error
}

// keepFeatures appends a row as read (id, the columns= values, extra...)
// to flat as (id, featureRow or NULL for a row nulls=skip leaves out,
// extra...), its values appended to feats: eight bytes a value, where the
// driver's boxed values would take three times that.
func (s *source) keepFeatures(flat, v []any, feats *[]float64) []any {
	var obj any
	if s.hasObject(v) {
		obj = s.appendFeatures(feats, func(k int) (float64, error) { return featureValue(v[1+k]) })
	}
	flat = append(flat, v[0], obj)
	return append(flat, v[1+len(s.fcols):]...)
}

// rowHasObject is hasObject for a borrowed row.
func (s *source) rowHasObject(row host.Row) bool {
	if s.features == nil {
		return row.Kind(1) != host.Null
	}
	if s.nullSkip {
		for k := range s.fcols {
			if row.Kind(1+k) == host.Null {
				return false
			}
		}
	}
	return true
}

// rowFeatures is keepFeatures's featureRow for a borrowed row with an
// object, read from SQLite's values without boxing the numbers.
func (s *source) rowFeatures(row host.Row, feats *[]float64) featureRow {
	return s.appendFeatures(feats, func(k int) (float64, error) {
		switch row.Kind(1 + k) {
		case host.Integer:
			return float64(row.Int(1 + k)), nil
		case host.Float:
			return finiteFeature(row.Float(1 + k))
		}
		return featureValue(row.Value(1 + k))
	})
}

// appendFeatures appends the columns= values value(k) gives to feats; the
// first error (worded after "column p2 ") leaves feats as it was.
func (s *source) appendFeatures(feats *[]float64, value func(k int) (float64, error)) featureRow {
	r := featureRow{at: len(*feats)}
	for k := range s.fcols {
		f, err := value(k)
		if err != nil {
			*feats = (*feats)[:r.at]
			r.err = fmt.Errorf("column %s %v", quoteIdent(s.fcols[k].name), err)
			return r
		}
		*feats = append(*feats, f)
	}
	return r
}

// rowObject decodes the object of a row kept by read: the value of its
// object column, or its featureRow.
func (s *source) rowObject(v any, feats []float64) (kernels.Object, error) {
	if r, ok := v.(featureRow); ok {
		return s.featureObject(r, feats)
	}
	return s.object(v)
}

// featureObject is the vector a featureRow stands for.
func (s *source) featureObject(r featureRow, feats []float64) (kernels.Object, error) {
	if r.err != nil {
		return kernels.Object{}, r.err
	}
	d := len(s.fcols)
	return s.spec.PrepareVec(kernels.Vec{F64: feats[r.at : r.at+d : r.at+d]}), nil
}

// featureValue reads one feature: an INTEGER, a finite REAL, or TEXT that
// is a decimal number. The error completes "column p2 ...".
func featureValue(v any) (float64, error) {
	switch x := v.(type) {
	case int64:
		return float64(x), nil
	case float64:
		return finiteFeature(x)
	case string:
		t := strings.TrimSpace(x)
		if isDecimal(t) {
			f, err := strconv.ParseFloat(t, 64)
			if err == nil {
				return f, nil
			}
			return 0, fmt.Errorf("holds TEXT %s, outside the float64 range", quoteExcerpt(x))
		}
		return 0, fmt.Errorf("holds TEXT %s, which is not a number; columns= reads numbers", quoteExcerpt(x))
	case nil:
		return 0, errors.New("is NULL; columns= needs a number in every column (nulls=skip leaves such rows out, with NULL results)")
	}
	return 0, fmt.Errorf("holds a %s, which is not a number; columns= reads numbers", host.TypeName(v))
}

// finiteFeature is featureValue for a REAL.
func finiteFeature(x float64) (float64, error) {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, fmt.Errorf("is %v; columns= needs finite numbers", x)
	}
	return x, nil
}

// isDecimal accepts a decimal number as SQLite writes one: an optional
// sign, digits with an optional point, an optional exponent (no hex, no
// inf or nan, which strconv would also take).
func isDecimal(t string) bool {
	i := 0
	if i < len(t) && (t[i] == '+' || t[i] == '-') {
		i++
	}
	digits := 0
	for ; i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.'); i++ {
		if t[i] != '.' {
			digits++
		}
	}
	if digits == 0 || strings.Count(t[:i], ".") > 1 {
		return false
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		exp := i
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i == exp {
			return false
		}
	}
	return i == len(t)
}

// newObject decodes a new object for the input column, scaled by sc (the
// fitted snapshot's scaling, nil for none). For columns= it is a JSON
// array in column order, a float32 BLOB, or a JSON object by column name.
func (s *source) newObject(v any, sc *featureScale) (kernels.Object, error) {
	if s.features == nil && sc == nil {
		return s.object(v)
	}
	var vec kernels.Vec
	if t, ok := v.(string); ok && s.features != nil && strings.HasPrefix(strings.TrimSpace(t), "{") {
		x, err := s.objectFields(t)
		if err != nil {
			return kernels.Object{}, err
		}
		vec = kernels.Vec{F64: x}
	} else {
		o, err := s.object(v)
		if err != nil {
			if s.features != nil {
				err = fmt.Errorf("%v; a new object for columns= is a JSON array of %d numbers in column order (%s) or json_object('%s', ...)",
					err, len(s.fcols), s.featureNames(), s.fcols[0].name)
			}
			return kernels.Object{}, err
		}
		vec = o.Vec
	}
	switch {
	case s.features != nil && vec.Len() != len(s.fcols):
		return kernels.Object{}, fmt.Errorf("the new object has %d numbers, but columns= reads %d (%s); give them in column order", vec.Len(), len(s.fcols), s.featureNames())
	case sc != nil && vec.Len() != len(sc.mean):
		return kernels.Object{}, fmt.Errorf("the new vector has %d elements, but the model's vectors have %d", vec.Len(), len(sc.mean))
	}
	if sc != nil {
		vec = kernels.Vec{F64: sc.apply(vec, nil)}
	}
	return s.spec.PrepareVec(vec), nil
}

func (s *source) featureNames() string {
	names := make([]string, len(s.fcols))
	for i, f := range s.fcols {
		names[i] = f.name
	}
	return strings.Join(names, ", ")
}

// objectFields reads a new object given as a JSON object by column name
// (json_object('p0', 1.5, 'p1', ...)): every column once, nothing else.
func (s *source) objectFields(t string) ([]float64, error) {
	dec := json.NewDecoder(strings.NewReader(t))
	dec.UseNumber()
	bad := func(err error) error {
		if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
			return errors.New("the new object ends before its closing }")
		}
		return fmt.Errorf("the new object is not a JSON object of numbers: %v", err)
	}
	if _, err := dec.Token(); err != nil {
		return nil, bad(err)
	}
	x := make([]float64, len(s.fcols))
	seen := make([]bool, len(s.fcols))
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, bad(err)
		}
		key, _ := tok.(string)
		k := slices.IndexFunc(s.fcols, func(f ident) bool { return sameName(f.name, key) })
		if k < 0 {
			return nil, fmt.Errorf("the new object has key %s, which is not one of columns= (%s)", quoteExcerpt(key), s.featureNames())
		}
		if seen[k] {
			return nil, fmt.Errorf("the new object gives column %s twice", quoteIdent(s.fcols[k].name))
		}
		seen[k] = true
		if tok, err = dec.Token(); err != nil {
			return nil, bad(err)
		}
		num, ok := tok.(json.Number)
		if !ok {
			return nil, fmt.Errorf("the new object's column %s is %v, not a number", quoteIdent(s.fcols[k].name), jsonText(tok))
		}
		f, err := strconv.ParseFloat(string(num), 64)
		if err != nil {
			return nil, fmt.Errorf("the new object's column %s (%s) is outside the float64 range", quoteIdent(s.fcols[k].name), num)
		}
		x[k] = f
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, bad(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("the new object has text after its closing }")
	}
	if k := slices.Index(seen, false); k >= 0 {
		return nil, fmt.Errorf("the new object lacks column %s (columns= reads %s)", quoteIdent(s.fcols[k].name), s.featureNames())
	}
	return x, nil
}

func jsonText(tok json.Token) string {
	switch x := tok.(type) {
	case nil:
		return "null"
	case json.Delim:
		return "an " + map[json.Delim]string{'[': "array", '{': "object"}[x]
	case string:
		return quoteExcerpt(x)
	}
	return fmt.Sprint(tok)
}

// featureScale is scale=standard fitted on a snapshot's vectors: a vector
// x is replaced by (x_k − mean_k) / std_k in each coordinate k.
type featureScale struct {
	mean, std []float64
}

// fitScale fits the scaling of objs (vectors of one length, at least one)
// in two passes, the mean and then the population variance. Each
// coordinate is summed in units of a power of two near its largest
// |value|: the scaling is exact, so ordinary data gives StandardScaler's
// figures to the bit, and values near ±MaxFloat64 (or near 0) neither
// overflow the sums of squares nor underflow them.
func fitScale(objs []kernels.Object) *featureScale {
	d := objs[0].Vec.Len()
	n := float64(len(objs))
	sc := &featureScale{mean: make([]float64, d), std: make([]float64, d)}
	unit := make([]float64, d)
	same := make([]bool, d) // every row holds objs[0]'s value
	for k := range same {
		same[k] = true
	}
	for _, o := range objs {
		for k := range d {
			x := o.Vec.At(k)
			unit[k] = max(unit[k], math.Abs(x))
			same[k] = same[k] && x == objs[0].Vec.At(k)
		}
	}
	for k, m := range unit {
		_, e := math.Frexp(m)        // m = f·2^e, f in [0.5, 1)
		unit[k] = math.Ldexp(1, e-1) // ≤ m, so no 2^1024
	}
	for _, o := range objs {
		for k := range d {
			sc.mean[k] += o.Vec.At(k) / unit[k]
		}
	}
	for k := range sc.mean {
		sc.mean[k] /= n
	}
	for _, o := range objs {
		for k := range d {
			dk := o.Vec.At(k)/unit[k] - sc.mean[k]
			sc.std[k] += dk * dk
		}
	}
	const eps = 0x1p-52
	for k, ss := range sc.std {
		v := ss / n
		// A coordinate indistinguishable from a constant (below the
		// rounding error of a two-pass variance, scikit-learn's bound) is
		// centred but not divided, as StandardScaler leaves it: dividing
		// by a rounding error would blow it up.
		if bound := n*eps*v + (n*sc.mean[k]*eps)*(n*sc.mean[k]*eps); v <= bound {
			sc.std[k] = 1
		} else {
			sc.std[k] = math.Sqrt(v) * unit[k]
		}
		sc.mean[k] *= unit[k]
		if same[k] {
			// The computed mean of a constant can miss it by an ulp, and
			// undivided, an ulp of 1e308 is a coordinate of 1e292 whose
			// square is +Inf: the constant itself centres it to 0.
			sc.mean[k] = objs[0].Vec.At(k)
		}
	}
	return sc
}

// apply writes the scaled v into dst (allocated when nil; it may be v.F64
// itself) and returns it.
func (sc *featureScale) apply(v kernels.Vec, dst []float64) []float64 {
	if dst == nil {
		dst = make([]float64, v.Len())
	}
	for k := range dst {
		x := v.At(k)
		d := x - sc.mean[k]
		if math.IsInf(d, 0) { // a value and a mean of opposite signs near ±MaxFloat64; halves are exact there
			dst[k] = (x/2 - sc.mean[k]/2) / sc.std[k] * 2
			continue
		}
		dst[k] = d / sc.std[k]
	}
	return dst
}

// applyAll scales a snapshot's objects: float64 vectors in place (they
// were decoded for the snapshot alone), float32 BLOBs into one new array.
func (sc *featureScale) applyAll(spec *kernels.Spec, objs []kernels.Object) {
	d := len(sc.mean)
	var f32 []float64
	for i, o := range objs {
		dst := o.Vec.F64
		if dst == nil {
			if f32 == nil {
				f32 = make([]float64, 0, (len(objs)-i)*d)
			}
			dst = f32[len(f32) : len(f32)+d : len(f32)+d]
			f32 = f32[:len(f32)+d]
		}
		objs[i] = spec.PrepareVec(kernels.Vec{F64: sc.apply(o.Vec, dst)})
	}
}

// encode is the scaling as a stored fit's 'scale' part: the dimension,
// the means and the standard deviations, little-endian.
func (sc *featureScale) encode() []byte {
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(sc.mean)))
	return appendFloats(appendFloats(b, sc.mean), sc.std)
}

// check compares a stored fit's 'scale' part with sc, the scaling of the
// snapshot it is restored on (nil: the table does not scale). The
// snapshot's objects are scaled as they are read, so a restored fit
// answers with its stored scaling only when that is the very same.
func (sc *featureScale) check(saved *storedFit) error {
	data, err := saved.part("scale")
	switch {
	case sc == nil && err == nil:
		return errors.New("it has a scale part, but the table does not scale its vectors")
	case sc == nil:
		return nil
	case err != nil:
		return err
	case !bytes.Equal(data, sc.encode()):
		return errors.New("its scale part is not the source's scaling (scale=standard's means and standard deviations)")
	}
	return nil
}
