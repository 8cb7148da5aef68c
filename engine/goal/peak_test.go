package goal

import (
	"runtime"
)

// held is the heap that run's results keep live: what an Executor holds
// after a run (its arrays and maps, which only grow during a run, so as
// much as it held at its peak) and the Result, measured as the live heap
// after a collection with them and after one without them. It is what a
// run's memory estimate bounds, but for the copies an array leaves
// behind as it grows (garbage, counted in the estimate's margin);
// cost.Allocated totals every allocation, those copies included.
func held(run func() (keep any)) float64 {
	var m runtime.MemStats
	runtime.GC()
	keep := run()
	runtime.GC()
	runtime.ReadMemStats(&m)
	with := m.HeapAlloc
	runtime.KeepAlive(keep)
	keep = nil
	runtime.GC()
	runtime.ReadMemStats(&m)
	return float64(with) - float64(m.HeapAlloc)
}
