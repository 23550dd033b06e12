//go:build cgo && (!amd64 || amd64.v3)

package f32c

// enabled: elsewhere Go may fuse a multiply and an add into one rounding,
// which C would not reproduce; the twins decline every call.
const enabled = false
