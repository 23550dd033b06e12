package functions_test

import (
	"testing"

	"github.com/ksql/ksql/ext/catalog"
	"github.com/ksql/ksql/ext/host"
)

// registered returns the catalog's function named name.
func registered(name string) *host.Func {
	for i, g := range catalog.Extension.Functions {
		if g.Name == name {
			return &catalog.Extension.Functions[i]
		}
	}
	panic(name + " is not registered")
}

// blob64 is a 64-dimensional float32 BLOB with elements v0, v0+step, ….
func blob64(v0, step float64) []byte {
	v := make([]float64, 64)
	for i := range v {
		v[i] = v0 + step*float64(i)
	}
	return host.Float32Blob(v)
}

// TestVectorKernelsNoAllocs: a call of a vector kernel on float32 BLOBs
// allocates nothing, through CallNumber (the C adapters) and through Call
// (modernc: its boxed result is the one allocation).
func TestVectorKernelsNoAllocs(t *testing.T) {
	c := host.NewConn(nil)
	x, z := blob64(0, 0.01), blob64(0.5, -0.01)
	for _, tc := range []struct {
		name string
		args []any
	}{
		{"gauss_kernel", []any{x, z, 1.5}},
		{"laplace_kernel", []any{x, z, int64(2)}},
		{"linear_kernel", []any{x, z}},
		{"poly_kernel", []any{x, z, int64(3), 1.0}},
	} {
		f := registered(tc.name)
		args := make([]host.Arg, len(tc.args))
		for i, a := range tc.args {
			args[i] = host.ArgOf(a)
		}
		v, null, err := f.CallNumber(c, args)
		if err != nil || null {
			t.Fatalf("%s: %v %v", tc.name, null, err)
		}
		boxed, err := f.Call(c, tc.args)
		if err != nil || boxed != v {
			t.Errorf("%s: Call gives %v (%v), CallNumber %v", tc.name, boxed, err, v)
		}
		if a := testing.AllocsPerRun(100, func() { f.CallNumber(c, args) }); a != 0 {
			t.Errorf("%s: CallNumber allocates %v times a call, want 0", tc.name, a)
		}
		if a := testing.AllocsPerRun(100, func() { f.Call(c, tc.args) }); a > 1 {
			t.Errorf("%s: Call allocates %v times a call, want 1 (the boxed result)", tc.name, a)
		}
	}
}

// BenchmarkGaussCallNumber is the Go side of one gauss_kernel call on
// 64-dimensional BLOBs, without a driver.
func BenchmarkGaussCallNumber(b *testing.B) {
	c := host.NewConn(nil)
	f := registered("gauss_kernel")
	args := []host.Arg{host.ArgOf(blob64(0, 0.01)), host.ArgOf(blob64(0.5, -0.01)), host.ArgOf(1.0)}
	var s float64
	for b.Loop() {
		v, _, _ := f.CallNumber(c, args)
		s += v
	}
	_ = s
}

// BenchmarkKernelSpecCall is the Go side of one kernel('gauss(sigma=1)',
// x, z) call on 64-dimensional BLOBs, without a driver.
func BenchmarkKernelSpecCall(b *testing.B) {
	c := host.NewConn(nil)
	f := registered("kernel")
	args := []any{"gauss(sigma=1)", blob64(0, 0.01), blob64(0.5, -0.01)}
	for b.Loop() {
		if _, err := f.Call(c, args); err != nil {
			b.Fatal(err)
		}
	}
}
