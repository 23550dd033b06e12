package functions

import (
	"sync"

	"github.com/ksql/ksql/ext/host"
	"github.com/ksql/ksql/internal/kernels"
	"github.com/ksql/ksql/internal/strkernel"
)

// The parameters of the string kernels, as the kernel table defines them.
var (
	subseqP   = kernels.MustLookup("subseq").Param("p")
	sskP      = kernels.MustLookup("ssk").Param("p")
	sskLambda = kernels.MustLookup("ssk").Param("lambda")
	ngramN    = kernels.MustLookup("ngram").Param("n")
)

// SubseqKernel is subseq_kernel(s, t [, p]): the all-subsequences kernel.
var SubseqKernel = host.Func{Name: "subseq_kernel", MinArgs: 2, MaxArgs: 3, Deterministic: true,
	Usage: "subseq_kernel(s, t [, p])", Body: subseqKernel}

// SSKKernel is ssk_kernel(s, t, p, lambda): the gap-weighted subsequence kernel.
var SSKKernel = host.Func{Name: "ssk_kernel", MinArgs: 4, MaxArgs: 4, Deterministic: true,
	Usage: "ssk_kernel(s, t, p, lambda)", Body: sskKernel}

// NGramKernel is ngram_kernel(s, t, n): the spectrum kernel.
var NGramKernel = host.Func{Name: "ngram_kernel", MinArgs: 3, MaxArgs: 3, Deterministic: true,
	Usage: "ngram_kernel(s, t, n)", Body: ngramKernel}

func subseqKernel(c *host.Conn, args []any) (any, error) {
	p := strkernel.Params{Kind: strkernel.Subseq}
	if len(args) == 3 && args[2] != nil {
		n, err := KernelParam(args, 2, subseqP)
		if err != nil {
			return nil, err
		}
		p.P = int(n)
	}
	return stringKernel(c, p, args)
}

func sskKernel(c *host.Conn, args []any) (any, error) {
	p := strkernel.Params{Kind: strkernel.SSK}
	if args[2] != nil {
		n, err := KernelParam(args, 2, sskP)
		if err != nil {
			return nil, err
		}
		p.P = int(n)
	}
	if args[3] != nil {
		var err error
		if p.Lambda, err = KernelParam(args, 3, sskLambda); err != nil {
			return nil, err
		}
	}
	return stringKernel(c, p, args)
}

func ngramKernel(c *host.Conn, args []any) (any, error) {
	p := strkernel.Params{Kind: strkernel.NGram}
	if args[2] != nil {
		n, err := KernelParam(args, 2, ngramN)
		if err != nil {
			return nil, err
		}
		p.N = int(n)
	}
	return stringKernel(c, p, args)
}

// strState is what one call needs besides its arguments, pooled so that
// calls allocate nothing once warm: the kernel's workspace and buffers for
// the decoded strings.
type strState struct {
	ws     strkernel.Workspace
	bs, bt []int32
}

var strStates = sync.Pool{New: func() any { return new(strState) }}

// stringKernel checks the two TEXT arguments and evaluates p on them under
// the connection's max_dp_cells and interrupt. Parameters are checked by the
// caller before the strings, so that a NULL text does not hide a bad
// parameter in one row and not in the next; a NULL anywhere gives NULL.
func stringKernel(c *host.Conn, p strkernel.Params, args []any) (any, error) {
	s, nullS, err := Text(args, 0, "s")
	if err != nil {
		return nil, err
	}
	t, nullT, err := Text(args, 1, "t")
	if err != nil || nullS || nullT || AnyNull(args) {
		return nil, err
	}
	st := strStates.Get().(*strState)
	defer strStates.Put(st)
	a, b := strkernel.DecodeTo(st.bs, s, strkernel.Char), strkernel.DecodeTo(st.bt, t, strkernel.Char)
	st.bs, st.bt = a.Buffer(), b.Buffer()
	k, err := strkernel.Eval(p, a, b, &st.ws,
		strkernel.Limits{MaxCells: host.MaxDPCells.Get(c), Check: c.ErrFunc()})
	if err != nil {
		return nil, err
	}
	return k.Float64(), nil
}
