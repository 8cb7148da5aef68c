package scene

import (
	"math"
	"math/rand/v2"
	"strconv"

	"commlab/engine/sweep"
)

// RNG is the random source of trial number trial of a scene run with seed:
// trial 0 is the run a scene draws, further trials feed its histograms. It
// is sweep.RNG at point 0, so a native program reproduces a page's numbers
// from its seed alone.
//
//go:noinline
func RNG(seed uint64, trial int) *rand.Rand { return sweep.RNG(seed, 0, trial) }

// Seconds formats a time in seconds for a label with an SI prefix and three
// significant digits: "12.3 µs", "1.05 ms", "0 s".
func Seconds(t float64) string {
	if t == 0 || math.IsNaN(t) || math.IsInf(t, 0) {
		return strconv.FormatFloat(t, 'g', -1, 64) + " s"
	}
	units := []struct {
		scale float64
		name  string
	}{{1, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}}
	a := math.Abs(t)
	u := units[len(units)-1]
	for _, c := range units {
		if a >= c.scale*0.9995 {
			u = c
			break
		}
	}
	return strconv.FormatFloat(t/u.scale, 'g', 3, 64) + " " + u.name
}

// Time formats a time of a run of the scene described by info: Seconds,
// or a plain number of info.TimeUnit ("47.36 additions").
func Time(info Info, t float64) string {
	if info.TimeUnit == "" {
		return Seconds(t)
	}
	// A whole number of the unit is written whole: the schedule scene's
	// times are LogGOPSim's integer ns ("55684 ns", as LogGOPSim prints
	// them, not "5.568e+04 ns").
	if t == math.Trunc(t) && math.Abs(t) < 1e15 {
		return strconv.FormatFloat(t, 'f', 0, 64) + " " + info.TimeUnit
	}
	return strconv.FormatFloat(t, 'g', 4, 64) + " " + info.TimeUnit
}

// Unit is what a reported number measures, so that the page writes each
// in its own unit instead of guessing from its key or value.
type Unit uint8

const (
	UnitPlain   Unit = iota // a number without a unit, written as is
	UnitTime                // a simulated time: seconds, or the scene's Info.TimeUnit
	UnitRatio               // a dimensionless ratio, e.g. a speedup: "1.38×"
	UnitCount               // a whole count of things: "17"
	UnitBytes               // a size: "500 kB"
	UnitProcess             // a process's number: "P12"
	UnitPercent             // a fraction in [0, 1] written as a percentage: "42 %"
	UnitRate                // per second: "3.2 /s"
)

var unitNames = [...]string{"plain", "time", "ratio", "count", "bytes", "process", "percent", "rate"}

func (u Unit) String() string {
	if int(u) < len(unitNames) {
		return unitNames[u]
	}
	return "Unit(" + strconv.Itoa(int(u)) + ")"
}

// Number is one of a run's results as the page lists it.
type Number struct {
	Key   string  // the Numbers key, e.g. "speedup"
	Label string  // in words, naming what it counts: "speedup over MPI (blocking)"
	Value float64 // in the Unit's base: seconds (or Info.TimeUnit), bytes, a ratio
	Unit  Unit
}

// Text writes the number in its unit for the scene described by info.
func (n Number) Text(info Info) string {
	x := n.Value
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	switch n.Unit {
	case UnitTime:
		return Time(info, x)
	case UnitRatio:
		return strconv.FormatFloat(x, 'g', 3, 64) + "×"
	case UnitCount:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatFloat(x, 'f', 0, 64)
		}
		return strconv.FormatFloat(x, 'g', 4, 64)
	case UnitBytes:
		return ByteSize(x)
	case UnitProcess:
		return "P" + strconv.FormatFloat(x, 'f', 0, 64)
	case UnitPercent:
		return strconv.FormatFloat(100*x, 'g', 3, 64) + " %"
	case UnitRate:
		return strconv.FormatFloat(x, 'g', 3, 64) + " /s"
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// ByteSize writes a size in bytes with a decimal SI prefix and three
// significant digits: "500 kB", "1.5 GB", "12 B".
func ByteSize(b float64) string {
	units := []string{"B", "kB", "MB", "GB", "TB"}
	i := 0
	for math.Abs(b) >= 999.5 && i < len(units)-1 {
		b /= 1000
		i++
	}
	return strconv.FormatFloat(b, 'g', 3, 64) + " " + units[i]
}

// NumberSpec says what one of a Run's Numbers is: its label and unit.
type NumberSpec struct {
	Key   string
	Label string
	Unit  Unit
}

// Describe lists the numbers m in the order of specs, each with its label
// and unit; a key specs do not name comes last, labelled by its key and
// without a unit, and a spec whose key m lacks is left out (catalog's
// TestReportsDescribeEveryNumber finds both).
func Describe(m map[string]float64, specs []NumberSpec) []Number {
	out := make([]Number, 0, len(m))
	named := make(map[string]bool, len(specs))
	for _, s := range specs {
		named[s.Key] = true
		if x, ok := m[s.Key]; ok {
			out = append(out, Number{Key: s.Key, Label: s.Label, Value: x, Unit: s.Unit})
		}
	}
	var rest []Number
	for k, x := range m {
		if !named[k] {
			rest = append(rest, Number{Key: k, Label: k, Value: x, Unit: UnitPlain})
		}
	}
	sortByKey(rest)
	return append(out, rest...)
}

// sortByKey sorts a few numbers by key. An insertion sort: slices.SortFunc
// instantiated for Number costs the browser's wasm about 4.5 KB gzip, for
// lists of a dozen.
func sortByKey(ns []Number) {
	for i := 1; i < len(ns); i++ {
		for j := i; j > 0 && ns[j].Key < ns[j-1].Key; j-- {
			ns[j], ns[j-1] = ns[j-1], ns[j]
		}
	}
}
