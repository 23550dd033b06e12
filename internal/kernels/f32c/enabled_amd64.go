//go:build cgo && amd64 && !amd64.v3

package f32c

// enabled: Go's amd64 compiler below GOAMD64=v3 rounds every product and
// sum, as the C twins (contraction is off in twin.c) do.
const enabled = true
