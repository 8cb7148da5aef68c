//go:build !amd64 || purego

package allreduce

// Elsewhere than amd64 (wasm included), the contiguous runs are the Go
// loops.

func butterflyRunContiguous(pa, pb []proc, start int, tcomm, work, mx float64, slow []int32, n int, all bool) (float64, int) {
	return butterflyRunContiguousGo(pa, pb, start, tcomm, work, mx, slow, n, all)
}

func redundantRunContiguous(pa, pb []proc, start int, flight, mx float64, slow []int32, n int, all bool) (float64, int) {
	return redundantRunContiguousGo(pa, pb, start, flight, mx, slow, n, all)
}

// There is no vector kernel for the strided runs either: the Go loop runs.

func butterflyRunStrided(ps []proc, start, npairs, m int, tcomm, work, mx float64, slow []int32, n int) (float64, int, bool) {
	return mx, n, false
}

func redundantRunStrided(ps []proc, start, npairs, m int, flight, mx float64, slow []int32, n int) (float64, int, bool) {
	return mx, n, false
}
