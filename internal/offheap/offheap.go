// Package offheap allocates large numeric buffers outside Go's heap, for
// work whose buffers are few, huge, pointer-free and short-lived (a
// million rows' features for one fit): Go's collector lets its heap grow
// to about twice what is live before collecting, so a 400 MB buffer on
// the heap can cost 800 MB of memory; mapped memory costs its size and is
// returned the moment it is freed.
package offheap

// Number is what a buffer holds: values without pointers.
type Number interface {
	~int | ~int8 | ~int32 | ~int64 | ~float32 | ~float64
}

// Buffer is memory for n values of T; Free returns it. Values must not
// be used after Free, which a second call ignores.
type Buffer[T Number] struct {
	Values []T
	free   func()
}

// Free returns the buffer's memory.
func (b *Buffer[T]) Free() {
	if b.free != nil {
		b.free()
		b.free = nil
	}
	b.Values = nil
}

// Alloc returns a zeroed buffer of n values, mapped outside the heap
// where the system allows (elsewhere, or when mapping fails, on the heap).
func Alloc[T Number](n int) *Buffer[T] {
	if n > 0 {
		if v, free, ok := mapped[T](n); ok {
			return &Buffer[T]{Values: v, free: free}
		}
	}
	return &Buffer[T]{Values: make([]T, n)}
}
