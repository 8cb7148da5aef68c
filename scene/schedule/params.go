package schedule

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"commlab/engine/goal"
	"commlab/engine/param"
	"commlab/scene"
)

// The scene's URL keys. The LogGOPS parameters are LogGOPSim's flag names
// (goal.Params' JSON names); set B's carry a 2.
const (
	KeyFile     = "file"
	KeyCompare  = "compare"
	KeyFile2    = "file2"
	KeyNoise    = "noise"
	KeyCoSched  = "cosched"
	KeyPeriod   = "os_period"
	KeyDuration = "os_duration"
	KeyNetMean  = "net_mean"
	KeyNetDelay = "net_delay"
	// KeyTrace is a noise trace loaded on the page (or none);
	// KeyTraceCoSched reads it at one offset on every rank.
	KeyTrace        = "noise_trace"
	KeyTraceCoSched = "trace_cosched"
)

// The parameter keys of set A, in LogGOPSim's order; set B's are the same
// with "2" appended.
var paramKeys = []string{"L", "o", "g", "G", "O", "S"}

// What the second side shows.
const (
	CompareNone   = "none"   // one side
	CompareParams = "params" // the same file under set B
	CompareFile   = "file"   // file2 under set A
)

// The noise choices: commlab's periodic OS jitter on CPU work, its
// Poisson network noise on messages, or both.
const (
	NoiseNone = "none"
	NoiseOS   = "os"
	NoiseNet  = "net"
	NoiseBoth = "os+net"
)

// The defaults: the recursive-doubling allreduce on 32 ranks under
// LogGOPSim's defaults (set A) against the examples' second parameter set
// (set B); noise off, and when on, a 5 µs interruption every 50 µs and a
// 2 µs network delay every 20 µs on each port: visible on runs of tens of
// microseconds.
var (
	DefaultFile  = "allreduce_recdoub_32"
	DefaultFile2 = "binomialtreebcast_32"
	DefaultA     = goal.Default()
	DefaultB     = goal.Params{L: 3000, Overhead: 1000, Gap: 2000, GapPerByte: 4, OverheadPerByte: 0, S: 1024}
)

const (
	DefaultPeriod   = 50_000
	DefaultDuration = 5_000
	DefaultNetMean  = 20_000
	DefaultNetDelay = 2_000
	// maxNoise bounds the noise times (engine/goal's bound, 10^15 ns).
	maxNoise = 1e15
)

//go:noinline
func itoa(x int64) string { return strconv.FormatInt(x, 10) }

func paramValues(p goal.Params) []int64 {
	return []int64{p.L, p.Overhead, p.Gap, p.GapPerByte, p.OverheadPerByte, p.S}
}

var paramHelp = map[string]string{
	"L": "latency L: wire time of a message, ns",
	"o": "overhead o: CPU time of a send or receive, ns",
	"g": "gap g: NIC time between messages, ns",
	"G": "gap per byte G: NIC time per byte after the first, ns",
	"O": "overhead per byte O: CPU time per byte after the first, ns",
	"S": "largest eager message S, bytes; larger ones go by rendezvous",
}

// Fields are the controls: the file, set A, what to compare with, file 2
// and set B, and the noise. The file fields' choices include the files a
// page has added (AddFile), so they are built on each call.
func Fields() []scene.Field {
	fileChoices := choices()
	fs := []scene.Field{
		{Key: KeyFile, Label: "file", Help: "the GOAL schedule: a shipped example, or a file loaded on the page", Kind: scene.Choice, Type: "choice", Choices: fileChoices, Default: DefaultFile},
	}
	params := func(suffix, set string, p goal.Params) {
		for i, k := range paramKeys {
			unit, max := "ns", float64(math.MaxInt32)
			if k == "S" {
				unit, max = "B", math.MaxUint32
			}
			if k == "G" || k == "O" {
				unit = "ns/B"
			}
			fs = append(fs, scene.Field{Key: k + suffix, Label: k + suffix, Unit: unit, Help: paramHelp[k] + " (" + set + ")",
				Kind: scene.Int, Type: "int", Min: 0, Max: max, Default: itoa(paramValues(p)[i])})
		}
	}
	params("", "set A", DefaultA)
	fs = append(fs,
		scene.Field{Key: KeyCompare, Label: "compare", Help: "a second side: none, the same file under set B, or file 2 under set A", Kind: scene.Choice, Type: "choice", Choices: []string{CompareNone, CompareParams, CompareFile}, Default: CompareParams},
		scene.Field{Key: KeyFile2, Label: "file 2", Help: "the second side's schedule when compare = file", Kind: scene.Choice, Type: "choice", Choices: fileChoices, Default: DefaultFile2},
	)
	params("2", "set B, when compare = params", DefaultB)
	fs = append(fs,
		scene.Field{Key: KeyNoise, Label: "noise", Help: "OS jitter stretches CPU work (o, calc); network noise delays messages in flight", Kind: scene.Choice, Type: "choice", Choices: []string{NoiseNone, NoiseOS, NoiseNet, NoiseBoth}, Default: NoiseNone},
		scene.Field{Key: KeyPeriod, Label: "OS period", Unit: "ns", Help: "OS jitter: one interruption every period on each rank", Kind: scene.Int, Type: "int", Min: 2, Max: maxNoise, Log: true, Default: itoa(DefaultPeriod)},
		scene.Field{Key: KeyDuration, Label: "OS duration", Unit: "ns", Help: "OS jitter: how long an interruption lasts (less than the period)", Kind: scene.Int, Type: "int", Min: 1, Max: maxNoise, Log: true, Default: itoa(DefaultDuration)},
		scene.Field{Key: KeyCoSched, Label: "co-scheduled", Help: "OS jitter at the same phase on every rank instead of a random phase each", Kind: scene.Bool, Type: "bool", Default: "0"},
		scene.Field{Key: KeyNetMean, Label: "net mean", Unit: "ns", Help: "network noise: mean time between events on a sender's port", Kind: scene.Int, Type: "int", Min: 1, Max: maxNoise, Log: true, Default: itoa(DefaultNetMean)},
		scene.Field{Key: KeyNetDelay, Label: "net delay", Unit: "ns", Help: "network noise: how long each event delays a message in flight (less than net mean)", Kind: scene.Int, Type: "int", Min: 1, Max: maxNoise, Log: true, Default: itoa(DefaultNetDelay)},
		scene.Field{Key: KeyTrace, Label: "noise trace", Help: "a LogGOPSim noise trace (start<TAB>duration lines, ns) loaded on the page: each event it holds stretches the CPU work (o, calc) it meets, on top of the noise above", Kind: scene.Choice, Type: "choice", Choices: traceChoices(), Default: TraceNone},
		scene.Field{Key: KeyTraceCoSched, Label: "trace co-scheduled", Help: "every rank reads the noise trace at the same offset instead of a random offset each (seeded)", Kind: scene.Bool, Type: "bool", Default: "0"},
	)
	return fs
}

// Params reads set A (suffix "") or set B (suffix "2") from v.
func Params(v scene.Values, suffix string) (goal.Params, error) {
	var x [6]int64
	for i, k := range paramKeys {
		n, err := strconv.ParseInt(v[k+suffix], 10, 64)
		if err != nil {
			return goal.Params{}, &scene.FieldError{Key: k + suffix, Value: v[k+suffix], Want: "a whole number"}
		}
		x[i] = n
	}
	p := goal.Params{L: x[0], Overhead: x[1], Gap: x[2], GapPerByte: x[3], OverheadPerByte: x[4], S: x[5]}
	if err := p.Validate(); err != nil {
		var re *param.Error
		if errors.As(err, &re) {
			return p, &scene.FieldError{Key: re.Field + suffix, Value: re.Value, Want: re.Want}
		}
		return p, err
	}
	return p, nil
}

// noiseSet is the noise a run gets: nil models when off.
type noiseSet struct {
	os      *goal.OSJitter
	net     *goal.NetNoise
	trace   *goal.NoiseTrace
	traceCo bool
}

// on reports whether any model is on.
func (n noiseSet) on() bool { return n.os != nil || n.net != nil || n.trace != nil }

// noiseConfig reads the noise fields. The OS duration must be less than
// the period and the network delay less than its mean; a noise trace must
// be one the page loaded.
func noiseConfig(v scene.Values) (noiseSet, error) {
	osj, net, err := noiseModels(v)
	if err != nil {
		return noiseSet{}, err
	}
	tr, err := lookupTrace(v[KeyTrace])
	if err != nil {
		return noiseSet{}, &scene.FieldError{Key: KeyTrace, Value: v[KeyTrace], Want: "none or a noise trace loaded on the page (" + err.Error() + ")"}
	}
	return noiseSet{os: osj, net: net, trace: tr, traceCo: v.Bool(KeyTraceCoSched)}, nil
}

// noiseModels reads commlab's OS jitter and network noise.
func noiseModels(v scene.Values) (*goal.OSJitter, *goal.NetNoise, error) {
	kind := v[KeyNoise]
	var osj *goal.OSJitter
	var net *goal.NetNoise
	if kind == NoiseOS || kind == NoiseBoth {
		per, dur := int64(v.Int(KeyPeriod)), int64(v.Int(KeyDuration))
		if dur >= per {
			return nil, nil, &scene.FieldError{Key: KeyDuration, Value: v[KeyDuration], Want: fmt.Sprintf("a whole number of ns in [1, %d) (less than os_period)", per)}
		}
		osj = &goal.OSJitter{Period: per, Duration: dur, CoScheduled: v.Bool(KeyCoSched)}
	}
	if kind == NoiseNet || kind == NoiseBoth {
		mean, delay := int64(v.Int(KeyNetMean)), int64(v.Int(KeyNetDelay))
		if delay >= mean {
			return nil, nil, &scene.FieldError{Key: KeyNetDelay, Value: v[KeyNetDelay], Want: fmt.Sprintf("a whole number of ns in [1, %d) (less than net_mean: each noise event delays a message by net_delay and another comes every net_mean on average, so a longer delay lets a flight grow without end)", mean)}
		}
		net = &goal.NetNoise{Mean: mean, Delay: delay}
	}
	return osj, net, nil
}
