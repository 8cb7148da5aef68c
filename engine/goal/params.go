package goal

import (
	"fmt"
	"math"

	"commlab/engine/param"
)

// Params are the LogGOPS parameters, in integer nanoseconds (G and O per
// byte) as LogGOPSim takes them. The JSON names are LogGOPSim's flags.
type Params struct {
	L        int64 `json:"L" help:"latency L, ns, an integer in [0, 2147483647]"`
	Overhead int64 `json:"o" help:"CPU overhead o of a send or receive, ns, in [0, 2147483647]"`
	Gap      int64 `json:"g" help:"NIC gap g between messages, ns, in [0, 2147483647]"`
	// GapPerByte is G: NIC (and, at the receiver, CPU) time per byte after the first.
	GapPerByte int64 `json:"G" help:"gap per byte G, ns, in [0, 2147483647]"`
	// OverheadPerByte is O: CPU time per byte after the first.
	OverheadPerByte int64 `json:"O" help:"overhead per byte O, ns, in [0, 2147483647]"`
	// S is the largest eager message: a message of more than S bytes goes
	// by rendezvous.
	S int64 `json:"S" help:"largest eager message S, bytes, in [0, 4294967295]; larger ones go by rendezvous"`
}

// Default returns LogGOPSim's defaults: L=2500, o=1500, g=1000, G=6, O=0,
// S=65535.
func Default() Params {
	return Params{L: 2500, Overhead: 1500, Gap: 1000, GapPerByte: 6, OverheadPerByte: 0, S: 65535}
}

// Validate names the first parameter outside its range. The ranges are
// LogGOPSim's types: int for L, o, g, G, O and uint32 for S.
func (p Params) Validate() error {
	for _, c := range []struct {
		f string
		v int64
	}{{"L", p.L}, {"o", p.Overhead}, {"g", p.Gap}, {"G", p.GapPerByte}, {"O", p.OverheadPerByte}} {
		if c.v < 0 || c.v > math.MaxInt32 {
			return &param.Error{Field: c.f, Value: fmt.Sprint(c.v), Want: fmt.Sprintf("an integer number of ns in [0, %d]", math.MaxInt32)}
		}
	}
	if p.S < 0 || p.S > math.MaxUint32 {
		return &param.Error{Field: "S", Value: fmt.Sprint(p.S), Want: fmt.Sprintf("an integer number of bytes in [0, %d]", uint64(math.MaxUint32))}
	}
	return nil
}
