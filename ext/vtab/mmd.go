package vtab

import (
	"errors"
	"fmt"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kernels"
	"github.com/ksql/ksql/internal/stats"
)

// KernelMMD is the table-valued function kernel_mmd(kernel, query_a,
// query_b [, permutations, seed]): the kernel two-sample test. Its one row
// holds both MMD² estimates, the seeded permutation p-value and the
// sample sizes.
var KernelMMD host.Eponymous = mmdModule{}

var (
	_ host.Eponymous = mmdModule{}
	_ host.Table     = (*mmdTable)(nil)
	_ host.Cursor    = (*mmdCursor)(nil)
)

type mmdModule struct{}

// EponymousOnly marks kernel_mmd as usable only by its own name.
func (mmdModule) EponymousOnly() {}

type mmdTable struct{ hc *host.Conn }

const (
	mmdArgCol    = 6 // kernel, query_a, query_b, permutations, seed follow
	mmdMaxPerms  = 1_000_000
	mmdDefPerms  = 1000
	mmdUsage     = "SELECT * FROM kernel_mmd('gauss(sigma=1)', 'SELECT v FROM a', 'SELECT v FROM b' [, permutations, seed])"
	mmdFunc      = "kernel_mmd"
	mmdArgsCount = 5
)

var mmdArgNames = [mmdArgsCount]string{"kernel", "query_a", "query_b", "permutations", "seed"}

func (mmdModule) Create(c *host.Conn, args []string) (host.Table, error) { return openMMD(c, args) }
func (mmdModule) Connect(c *host.Conn, args []string) (host.Table, error) {
	return openMMD(c, args)
}

func openMMD(c *host.Conn, args []string) (host.Table, error) {
	if len(args) > 3 {
		return nil, fmt.Errorf("kernel_mmd: takes no module arguments; use it as %s", mmdUsage)
	}
	return &mmdTable{hc: c}, nil
}

// Schema: the hidden argument columns are named apart from the result's
// permutations column, which reports the count actually used.
func (t *mmdTable) Schema() string {
	return "CREATE TABLE x(mmd2_unbiased REAL, mmd2_biased REAL, p_value REAL, permutations INTEGER, n_a INTEGER, n_b INTEGER, " +
		"kernel HIDDEN, query_a HIDDEN, query_b HIDDEN, permutations_arg HIDDEN, seed HIDDEN)"
}

func (t *mmdTable) BestIndex(info *host.IndexInfo) error {
	all := true
	for i := range 3 {
		all = firstEQ(info, mmdArgCol+i) && all
	}
	firstEQ(info, mmdArgCol+3)
	firstEQ(info, mmdArgCol+4)
	if all {
		info.EstimatedCost, info.EstimatedRows = 1e3, 1
	} else {
		info.EstimatedCost, info.EstimatedRows = 1e15, 1
	}
	recordPlan(info)
	return nil
}

func (t *mmdTable) Open() (host.Cursor, error) { return &mmdCursor{t: t}, nil }
func (t *mmdTable) Disconnect() error          { return nil }
func (t *mmdTable) Destroy() error             { return nil }

type mmdCursor struct {
	t    *mmdTable
	r    stats.MMD
	args [mmdArgsCount]any
	done bool
}

func (c *mmdCursor) Filter(_ int, idxStr string, vals []any) (err error) {
	defer guard(mmdFunc, &err)
	c.done = true
	if err := prefix(mmdFunc, c.filter(idxStr, vals)); err != nil {
		return err
	}
	c.done = false
	return nil
}

func (c *mmdCursor) filter(idxStr string, vals []any) error {
	cons, err := planValues(idxStr, vals)
	if err != nil {
		return err
	}
	for i := range c.args {
		c.args[i] = cloneText(cons[mmdArgCol+i])
	}
	for i := range 3 {
		if _, ok := cons[mmdArgCol+i]; !ok || c.args[i] == nil {
			return fmt.Errorf("needs %s, as in %s", mmdArgNames[i], mmdUsage)
		}
	}
	spec, err := kernelArg(c.args[0])
	if err != nil {
		return err
	}
	perms, err := intArg("permutations", c.args[3], mmdDefPerms, 1, mmdMaxPerms)
	if err != nil {
		return err
	}
	seed, err := intArg("seed", c.args[4], 0, -1<<63, 1<<63-1)
	if err != nil {
		return err
	}
	var samples [2][]kernels.Object
	for s := range 2 {
		if samples[s], err = c.sample(spec, mmdArgNames[1+s], c.args[1+s]); err != nil {
			return err
		}
	}
	objs := append(samples[0], samples[1]...)
	K, err := gramOf(c.t.hc, spec, objs)
	if err != nil {
		return err
	}
	c.r, err = stats.MMDTest(K, len(objs), len(samples[0]), int(perms), uint64(seed), c.t.hc.Err)
	if errors.Is(err, stats.ErrOverflow) {
		return fmt.Errorf("%v (the squared distance between the samples' means in feature space); "+
			"scale the kernel down (a factor such as 1e-200*linear) or bring the vectors to a smaller scale", err)
	}
	if errors.Is(err, stats.ErrSmallSample) {
		return fmt.Errorf("query_a gives %d objects and query_b %d; a two-sample test needs at least 2 in each", len(samples[0]), len(samples[1]))
	}
	return err
}

func (c *mmdCursor) sample(spec *kernels.Spec, arg string, q any) ([]kernels.Object, error) {
	limit := gramRowLimit(c.t.hc)
	rows, err := queryRows(c.t.hc, arg, q, []int{1, 2}, limit, func(n int) error {
		return fmt.Errorf("%s: %v", arg, objectsTooMany(n, maxGramBytes(c.t.hc)))
	})
	if err != nil {
		return nil, err
	}
	objs, _, err := objectsOf(spec, arg, rows, lastColumn)
	return objs, err
}

func (c *mmdCursor) Next() error { c.done = true; return nil }
func (c *mmdCursor) EOF() bool   { return c.done }

func (c *mmdCursor) Column(col int) (any, error) {
	switch col {
	case 0:
		return c.r.Unbiased, nil
	case 1:
		return c.r.Biased, nil
	case 2:
		return c.r.PValue, nil
	case 3:
		return int64(c.r.Permutations), nil
	case 4:
		return int64(c.r.NA), nil
	case 5:
		return int64(c.r.NB), nil
	}
	return c.args[col-mmdArgCol], nil
}

func (c *mmdCursor) Rowid() (int64, error) { return 0, nil }
func (c *mmdCursor) Close() error          { return nil }
