//go:build cgo

package main

// cgoEnabled: Debian's chromium, which the HTML plot tests drive, runs
// where cgo builds (a Linux with a C toolchain, as CI's).
const cgoEnabled = true
