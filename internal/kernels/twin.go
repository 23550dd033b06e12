package kernels

// TwinConsts are what a twin of the float32 BLOB kernels written in
// another language needs to reproduce their bits: fastExp's table and
// constants, the thresholds of the scaled fallbacks, and which loops sum
// the vectors (internal/kernels/f32c is the C twin).
type TwinConsts struct {
	ExpHi, ExpLo                                               [128]float64
	ExpInvLn2N, ExpLn2HiN, ExpLn2LoN, ExpShift, ExpMin, ExpMax float64
	Tiny, SigmaLo, SigmaHi                                     float64
	PolyR                                                      float64 // poly's default r
	MaxDegree                                                  int
	AVX2                                                       bool
}

// Twin returns the constants of the running process.
func Twin() TwinConsts {
	return TwinConsts{
		ExpHi: expHi, ExpLo: expLo,
		ExpInvLn2N: expInvLn2N, ExpLn2HiN: expLn2HiN, ExpLn2LoN: expLn2LoN,
		ExpShift: expShift, ExpMin: expMin, ExpMax: expMax,
		Tiny: tiny, SigmaLo: sigmaLo, SigmaHi: sigmaHi,
		PolyR: polyDef.Params[1].Default, MaxDegree: MaxDegree,
		AVX2: useAVX2,
	}
}

// SetAVX2 switches the assembly loops on or off (on only where the CPU
// has them) and returns the previous setting, for tests in other packages
// that compare the two paths.
func SetAVX2(on bool) (was bool) {
	was = useAVX2
	useAVX2 = on && hasAVX2
	return was
}
