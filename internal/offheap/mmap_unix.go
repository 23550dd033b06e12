//go:build unix

package offheap

import (
	"syscall"
	"unsafe"
)

// mapped maps n values of anonymous private memory (zeroed by the
// system).
func mapped[T Number](n int) ([]T, func(), bool) {
	var zero T
	size := n * int(unsafe.Sizeof(zero))
	if size/int(unsafe.Sizeof(zero)) != n {
		return nil, nil, false
	}
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil, false
	}
	v := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(mem))), n)
	return v, func() { syscall.Munmap(mem) }, true
}
