package cost

// Holds reports whether an estimate of est bytes holds a measured
// allocation of got bytes: at least Under·got (Under is 1 natively, less
// in the wasm: under_wasm.go says why) and at most 2·got + fixed, where
// fixed covers what a run allocates whatever its size. The estimates are
// written for the native build, where they bound a run's allocation from
// above; every model's cost test holds its estimate to this.
func Holds(est, got, fixed float64) bool {
	return est >= Under*got && est <= 2*got+fixed
}
