package vtab

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kernels"
	"github.com/ksql/ksql/internal/stats"
)

// KernelSigma is the table-valued function kernel_sigma(query [,
// quantiles, sample, seed]): quantiles of the pairwise distances of the
// query's vectors, one row per quantile, with the σ each suggests for
// gauss (Euclidean distance / √2, which puts exp(−1) there, as kernlab's
// sigest does) and for laplace (the Manhattan distance, laplace's own).
var KernelSigma host.Eponymous = sigmaModule{}

var (
	_ host.Eponymous = sigmaModule{}
	_ host.Table     = (*sigmaTable)(nil)
	_ host.Cursor    = (*sigmaCursor)(nil)
)

type sigmaModule struct{}

// EponymousOnly marks kernel_sigma as usable only by its own name.
func (sigmaModule) EponymousOnly() {}

type sigmaTable struct{ hc *host.Conn }

const (
	sigmaArgCol   = 7 // query, quantiles, sample, seed follow
	sigmaAllRows  = 2000
	sigmaDefPairs = sigmaAllRows * (sigmaAllRows - 1) / 2
	sigmaFunc     = "kernel_sigma"
	sigmaUsage    = "SELECT * FROM kernel_sigma('SELECT v FROM points' [, '0.1,0.5,0.9', sample, seed])"
)

func (sigmaModule) Create(c *host.Conn, args []string) (host.Table, error) { return openSigma(c, args) }
func (sigmaModule) Connect(c *host.Conn, args []string) (host.Table, error) {
	return openSigma(c, args)
}

func openSigma(c *host.Conn, args []string) (host.Table, error) {
	if len(args) > 3 {
		return nil, fmt.Errorf("kernel_sigma: takes no module arguments; use it as %s", sigmaUsage)
	}
	return &sigmaTable{hc: c}, nil
}

func (t *sigmaTable) Schema() string {
	return "CREATE TABLE x(quantile REAL, distance REAL, l1_distance REAL, gauss_sigma REAL, laplace_sigma REAL, pairs INTEGER, n INTEGER, " +
		"query HIDDEN, quantiles HIDDEN, sample HIDDEN, seed HIDDEN)"
}

func (t *sigmaTable) BestIndex(info *host.IndexInfo) error {
	has := firstEQ(info, sigmaArgCol)
	for i := 1; i < 4; i++ {
		firstEQ(info, sigmaArgCol+i)
	}
	if has {
		info.EstimatedCost, info.EstimatedRows = 1e3, 3
	} else {
		info.EstimatedCost, info.EstimatedRows = 1e15, 3
	}
	recordPlan(info)
	return nil
}

func (t *sigmaTable) Open() (host.Cursor, error) { return &sigmaCursor{t: t}, nil }
func (t *sigmaTable) Disconnect() error          { return nil }
func (t *sigmaTable) Destroy() error             { return nil }

type sigmaCursor struct {
	t      *sigmaTable
	qs     []float64
	l2, l1 []float64 // the quantiles of the Euclidean and Manhattan distances, one per qs
	pairs  int
	n, pos int
	args   [4]any
}

func (c *sigmaCursor) Filter(_ int, idxStr string, vals []any) (err error) {
	defer guard(sigmaFunc, &err)
	c.qs, c.pos = nil, 0
	return prefix(sigmaFunc, c.filter(idxStr, vals))
}

func (c *sigmaCursor) filter(idxStr string, vals []any) error {
	cons, err := planValues(idxStr, vals)
	if err != nil {
		return err
	}
	for i := range c.args {
		c.args[i] = cloneText(cons[sigmaArgCol+i])
	}
	if c.args[0] == nil {
		return fmt.Errorf("needs a query, as in %s", sigmaUsage)
	}
	qs, err := parseQuantiles(c.args[1])
	if err != nil {
		return err
	}
	maxPairs := maxGramBytes(c.t.hc) / 16 // two distances a pair
	sample, err := intArg("sample", c.args[2], min(sigmaDefPairs, maxPairs), 1, maxPairs)
	if err != nil {
		return fmt.Errorf("%v (the number of pairs, bounded by max_gram_bytes / 16)", err)
	}
	seed, err := intArg("seed", c.args[3], 0, -1<<63, 1<<63-1)
	if err != nil {
		return err
	}
	xs, err := c.vectors()
	if err != nil {
		return err
	}
	// The default sample is all pairs of 2,000 rows, so up to 2,000 rows
	// every pair is measured.
	d, err := stats.PairDistances(xs, int(sample), uint64(seed), c.t.hc.Err)
	if errors.Is(err, stats.ErrFewVectors) {
		return fmt.Errorf("query gives %d vectors; distances need at least 2", len(xs))
	}
	if err != nil {
		return err
	}
	c.l2, c.l1 = make([]float64, len(qs)), make([]float64, len(qs))
	for i, q := range qs {
		c.l2[i], c.l1[i] = stats.Quantile(d.L2, q), stats.Quantile(d.L1, q)
	}
	c.n, c.qs, c.pairs = len(xs), qs, len(d.L2)
	return nil
}

// overflowed refuses a quantile past float64's range (vectors such as
// [1e308] and [-1e308], whose distance 2e308 is +Inf): a number it is
// not. Only the columns that read it fail, so gauss_sigma stays available
// when only the Manhattan distances overflow.
func (c *sigmaCursor) overflowed(v float64, what string) error {
	if !math.IsInf(v, 0) && !math.IsNaN(v) {
		return nil
	}
	return prefix(sigmaFunc, fmt.Errorf("the %v-quantile of the %s overflows float64 (the vectors are too far apart to measure); "+
		"divide the vectors by a power of ten, and multiply the sigma it suggests by the same factor", c.qs[c.pos], what))
}

// sigmaRowBytes is the memory a row of kernel_sigma's query takes while
// it is read and decoded, at the least: the row, its vector and the
// vector's float64 copy (measured: about 130 bytes for a 1-d vector, and
// twice that while the slice of rows grows).
const sigmaRowBytes = 256

// vectors reads the query's vectors as a linear kernel would decode them.
func (c *sigmaCursor) vectors() ([][]float64, error) {
	spec, err := kernels.ParseCached("linear")
	if err != nil {
		return nil, err
	}
	// Every vector is kept (the pairs are drawn from all of them), so the
	// rows are bounded: without it an endless query ran out of memory.
	maxBytes := maxGramBytes(c.t.hc)
	limit := int(maxBytes / sigmaRowBytes)
	rows, err := queryRows(c.t.hc, "query", c.args[0], []int{1, 2}, limit, func(n int) error {
		return sigmaTooManyRows(limit, maxBytes)
	})
	if err != nil {
		return nil, err
	}
	objs, _, err := objectsOf(spec, "query", rows, lastColumn)
	if err != nil {
		return nil, err
	}
	xs := make([][]float64, len(objs))
	for i, o := range objs {
		xs[i] = o.Vec.Float64s()
	}
	return xs, nil
}

// sigmaTooManyRows is the error of a query with more than limit rows
// under max_gram_bytes = maxBytes; it suggests raising the setting only
// where ksql_config can.
func sigmaTooManyRows(limit int, maxBytes int64) error {
	raise := ", or raise the setting with SELECT ksql_config('max_gram_bytes', N)"
	if maxBytes >= MaxGramBytes.Ceiling() {
		raise = fmt.Sprintf(" (the setting is at its largest value, %s)", MaxGramBytes.CeilingText())
	}
	return fmt.Errorf("query gives more than %d rows, and kernel_sigma keeps every vector (about %d bytes a row) within max_gram_bytes = %d; "+
		"sample them in the query (ORDER BY random() LIMIT 10000)%s", limit, sigmaRowBytes, maxBytes, raise)
}

// parseQuantiles reads a comma-separated list of probabilities in [0, 1].
func parseQuantiles(v any) ([]float64, error) {
	if v == nil {
		return []float64{0.1, 0.5, 0.9}, nil
	}
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("quantiles must be TEXT such as '0.1,0.5,0.9', got %s", host.TypeName(v))
	}
	var qs []float64
	for _, f := range strings.Split(s, ",") {
		q, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(q >= 0 && q <= 1) {
			return nil, fmt.Errorf("quantiles must be numbers between 0 and 1 separated by commas, got %s", quoteExcerpt(s))
		}
		qs = append(qs, q)
	}
	return qs, nil
}

func (c *sigmaCursor) Next() error { c.pos++; return nil }
func (c *sigmaCursor) EOF() bool   { return c.pos >= len(c.qs) }

func (c *sigmaCursor) Column(col int) (any, error) {
	q := c.qs[c.pos]
	switch col {
	case 0:
		return q, nil
	case 1, 3:
		l2 := c.l2[c.pos]
		if err := c.overflowed(l2, "Euclidean distances (distance, gauss_sigma)"); err != nil {
			return nil, err
		}
		if col == 3 {
			return l2 / math.Sqrt2, nil
		}
		return l2, nil
	case 2, 4:
		l1 := c.l1[c.pos]
		if err := c.overflowed(l1, "Manhattan distances (l1_distance, laplace_sigma)"); err != nil {
			return nil, err
		}
		return l1, nil
	case 5:
		return int64(c.pairs), nil
	case 6:
		return int64(c.n), nil
	}
	return c.args[col-sigmaArgCol], nil
}

func (c *sigmaCursor) Rowid() (int64, error) { return int64(c.pos), nil }
func (c *sigmaCursor) Close() error          { return nil }
