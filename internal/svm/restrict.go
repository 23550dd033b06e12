package svm

import "sync"

// Restrict returns the kernel of the rows rows of k: its object i is k's
// object rows[i]. A fit on a subset (a cross-validation fold) uses it
// with the subset's labels; the fit's Support then indexes rows. Like k,
// it may be called concurrently.
func Restrict(k Kernel, rows []int) Kernel {
	return &restricted{k: k, rows: rows}
}

type restricted struct {
	k    Kernel
	rows []int
	pool sync.Pool // *[]int scratch for the mapped indices
}

func (r *restricted) Column(i int, idx []int, dst []float64) error {
	p, _ := r.pool.Get().(*[]int)
	if p == nil {
		p = new([]int)
	}
	m := (*p)[:0]
	for _, j := range idx {
		m = append(m, r.rows[j])
	}
	err := r.k.Column(r.rows[i], m, dst)
	*p = m
	r.pool.Put(p)
	return err
}

var _ Kernel = (*restricted)(nil)
