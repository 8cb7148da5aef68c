package cost

import "runtime"

// Allocated is the bytes run allocates on the Go heap (runtime.MemStats's
// TotalAlloc before and after): every allocation counts, freed or not, so
// it bounds the peak from above. Models' tests hold their estimates to it.
func Allocated(run func()) float64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	run()
	runtime.ReadMemStats(&b)
	return float64(b.TotalAlloc - a.TotalAlloc)
}
