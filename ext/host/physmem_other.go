//go:build !linux

package host

// PhysicalMemory returns the machine's physical memory in bytes, or 0 when
// it cannot be told (as on this platform: no cap then).
func PhysicalMemory() int64 { return 0 }
