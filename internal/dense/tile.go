package dense

// Tile4x8 adds to tile[p·8+q] the sum Σ_{i<k} a[i·4+p]·b[i·8+q], for a
// and b packed as k rows of 4 and of 8 values: the 4×8 kernel of
// CrossProduct and Cholesky (AVX2 with fused multiply–adds where the
// machine has them), for the blocked products of other packages (gp's
// triangular inverse). len(a) ≥ 4k and len(b) ≥ 8k.
func Tile4x8(a, b []float64, k int, tile *[32]float64) { gramTile4x8(a, b, k, tile) }
