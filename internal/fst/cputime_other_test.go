//go:build !unix

package fst

func cpuNanos() int64 { return 0 }
