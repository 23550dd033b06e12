package par

import "sync"

// Ordered is a pipeline for input that arrives on one goroutine (rows a
// database statement steps through): the caller fills items one after the
// other, workers process them in parallel, and merge sees them on the
// caller's goroutine in the order they were filled. A merge that adds each
// item's partial result into a total therefore adds in the same order
// whatever the number of workers, which keeps such totals bit-identical.
//
// Items are recycled: at most Workers+2 exist, so memory stays bounded
// however long the input is. Use it as
//
//	o := par.NewOrdered(name, workers, alloc, work, merge)
//	for more input {
//		it, err := o.Next() // a free item, merging finished ones meanwhile
//		... fill it ...
//		o.Submit(it)
//	}
//	err := o.Close() // merges what is left; the first error of any step
type Ordered[T any] struct {
	name    string
	work    func(w int, it T) error
	merge   func(it T) error
	free    []T
	queue   []*slot[T] // submitted, in order
	jobs    chan *slot[T]
	wg      sync.WaitGroup
	err     error
	workers int
	made    int
	alloc   func() T
}

type slot[T any] struct {
	it   T
	done chan error
}

// NewOrdered starts Workers(workers, ∞) workers running work (w is the
// worker's number, for per-worker scratch); alloc makes an item when none is
// free. With one worker, work runs inside Submit, on the caller's goroutine.
// A panic in work is returned as a *PanicError naming name.
func NewOrdered[T any](name string, workers int, alloc func() T, work func(w int, it T) error, merge func(it T) error) *Ordered[T] {
	o := &Ordered[T]{name: name, work: work, merge: merge, alloc: alloc, workers: Workers(workers, 1<<30)}
	if o.workers > 1 {
		o.jobs = make(chan *slot[T], o.workers+2)
		for w := range o.workers {
			o.wg.Add(1)
			go o.run(w)
		}
	}
	return o
}

func (o *Ordered[T]) run(w int) {
	defer o.wg.Done()
	for s := range o.jobs {
		s.done <- o.safeWork(w, s.it)
	}
}

func (o *Ordered[T]) safeWork(w int, it T) (err error) {
	defer func() {
		if p := recovered(o.name, recover()); p != nil {
			err = p
		}
	}()
	return o.work(w, it)
}

func (o *Ordered[T]) safeMerge(it T) (err error) {
	defer func() {
		if p := recovered(o.name, recover()); p != nil {
			err = p
		}
	}()
	return o.merge(it)
}

// Next returns an item to fill: a recycled one, once the oldest submitted
// item has been merged, or a new one while fewer than Workers+2 exist. It
// returns the first error of any work or merge so far, which should stop
// the input.
func (o *Ordered[T]) Next() (T, error) {
	for o.err == nil && len(o.free) == 0 {
		if o.made < o.workers+2 {
			o.made++
			return o.alloc(), nil
		}
		o.mergeOldest()
	}
	var zero T
	if o.err != nil {
		return zero, o.err
	}
	it := o.free[len(o.free)-1]
	o.free = o.free[:len(o.free)-1]
	return it, nil
}

// Submit hands a filled item to the workers.
func (o *Ordered[T]) Submit(it T) {
	s := &slot[T]{it: it, done: make(chan error, 1)}
	o.queue = append(o.queue, s)
	if o.jobs == nil {
		s.done <- o.safeWork(0, it)
		return
	}
	o.jobs <- s
}

// mergeOldest waits for the oldest submitted item and merges it, keeping
// the first error.
func (o *Ordered[T]) mergeOldest() {
	s := o.queue[0]
	o.queue = o.queue[1:]
	err := <-s.done
	if err == nil && o.err == nil {
		err = o.safeMerge(s.it)
	}
	if o.err == nil {
		o.err = err
	}
	o.free = append(o.free, s.it)
}

// Close merges the items still in flight, in order, stops the workers and
// returns the first error of any work or merge. Calling it again returns
// that error again.
func (o *Ordered[T]) Close() error {
	for len(o.queue) > 0 {
		o.mergeOldest()
	}
	if o.jobs != nil {
		close(o.jobs)
		o.wg.Wait()
		o.jobs = nil
	}
	return o.err
}
