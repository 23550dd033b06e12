package svm

import "sync"

// Restrict returns k seen through rows: object i of the result is object
// rows[i] of k. A fit on a subset of the rows (a cross-validation fold)
// passes it with the subset's labels; the fit's Support then holds
// positions in rows (row rows[s] of k). It is as safe for concurrent use
// as k.
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
