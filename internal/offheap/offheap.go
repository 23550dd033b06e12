// Package offheap allocates large numeric buffers outside Go's heap, for
// work whose buffers are few, huge, pointer-free and short-lived (a
// million rows' features for one fit): Go's collector lets its heap grow
// to about twice what is live before collecting, so a 400 MB buffer on
// the heap can cost 800 MB of memory; mapped memory costs its size and is
// returned the moment it is freed.
package offheap

import (
	"runtime/debug"
	"unsafe"
)

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

// releaseAbove is the size of the buffers before whose mapping Reserve
// gives the heap's free pages back to the system.
const releaseAbove = 32 << 20

// Reserve says that buffers of about bytes in all are to be mapped: past
// releaseAbove it first returns the heap's free pages to the system (a
// collection). They are the garbage of the reads before a large fit,
// which the collector would keep mapped beside the buffers for minutes:
// 40 MiB of a 1 M-row fit's 540 MiB peak.
func Reserve(bytes int) {
	if bytes > releaseAbove {
		debug.FreeOSMemory()
	}
}

// Alloc returns a zeroed buffer of n values, mapped outside the heap
// where the system allows (elsewhere, or when mapping fails, on the heap),
// after Reserve of its size.
func Alloc[T Number](n int) *Buffer[T] {
	var zero T
	if n > 0 {
		Reserve(n * int(unsafe.Sizeof(zero)))
		if v, free, ok := mapped[T](n); ok {
			return &Buffer[T]{Values: v, free: free}
		}
	}
	return &Buffer[T]{Values: make([]T, n)}
}
