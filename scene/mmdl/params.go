package mmdl

import (
	"strconv"

	emmdl "commlab/engine/mmdl"
	"commlab/scene"
)

// The scene's URL keys. The link parameters are the engine's JSON names
// (emmdl.Instance), so a page URL, a gen-report flag and an engine error
// name them alike.
const (
	KeyProcSet    = "procset"
	KeyLoad       = "load"
	KeyCalibrated = "calibrated"
	KeyRounds     = "rounds"
	KeySchedule   = "schedule"
	KeyLatency    = "latency"
	KeyThroughput = "throughput"
)

// MaxRounds bounds the slider: at 100 rounds a round of the paper's
// presets is still several pixels wide on a 960-pixel Gantt chart, and a
// rebuild stays far under 100 ms. The scheduler's own choice (R = 0) may
// exceed it; the picture then thins the round rules (see roundRules).
const MaxRounds = 100

// The link's range: from a fast interconnect's microsecond to a second
// (where R* falls to a handful of rounds), and from 1 Mbit/s to 100
// Gbit/s.
const (
	MinLatency    = 1e-6
	MaxLatency    = 1
	MinThroughput = 1e6
	MaxThroughput = 1e11
)

// The defaults are the paper's Fig. 4-8 case: ProcSet 2 (two slower
// processors), Load 2 (a ramp from 40,000 to 110,000 tasks), the
// calibrated parameters, five rounds as in Table 4, 100 µs and 800 Mbit/s.
const (
	DefaultProcSet    = "2"
	DefaultLoad       = "2"
	DefaultRounds     = 5
	DefaultSchedule   = "paper"
	DefaultLatency    = 100e-6
	DefaultThroughput = 800e6
)

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Fields are the controls: the paper's presets, the schedule, the round
// count and the link.
func Fields() []scene.Field {
	return []scene.Field{
		{Key: KeyProcSet, Label: "ProcSet", Help: "the paper's Table 1: 1 = eight 2400 MHz processors, 2 = six 2400 MHz and two 2000 MHz", Kind: scene.Choice, Type: "choice", Choices: []string{"1", "2"}, Default: DefaultProcSet},
		{Key: KeyLoad, Label: "Load", Help: "the paper's Table 2: how the 600,000 tasks start out spread over the processors", Kind: scene.Choice, Type: "choice", Choices: emmdl.Loads, Default: DefaultLoad},
		{Key: KeyCalibrated, Label: "calibrated", Help: "the scheduler's parameters after the calibration run (0.294 / 0.0034: 294 K clocks and 3.4 KB per task) or before it (0.1 / 0.003)", Kind: scene.Bool, Type: "bool", Default: "1"},
		{Key: KeySchedule, Label: "schedule", Help: "paper: the paper's rounds, all of one length, computing what arrived the round before, so the first only sends and receives and one more at the end only computes; overlap: its future work, every transfer as soon as both ends are free and processors computing their own load while they wait", Kind: scene.Choice, Type: "choice", Choices: emmdl.Scheds, Default: DefaultSchedule},
		{Key: KeyRounds, Label: "R", Help: "steady rounds; 0 lets the scheduler choose", Kind: scene.Int, Type: "int", Min: 0, Max: MaxRounds, Default: strconv.Itoa(DefaultRounds)},
		{Key: KeyLatency, Label: "α", Unit: "s", Help: "start-up latency per message and round (the paper: 100 µs)", Kind: scene.Float, Type: "float", Min: MinLatency, Max: MaxLatency, Log: true, Default: num(DefaultLatency)},
		{Key: KeyThroughput, Label: "throughput", Unit: "bit/s", Help: "link throughput (the paper: 800 Mbit/s); β = bytes per task / throughput", Kind: scene.Float, Type: "float", Min: MinThroughput, Max: MaxThroughput, Log: true, Default: num(DefaultThroughput)},
	}
}

// Instance turns field values into the engine's instance: the preset, with
// the link's latency and throughput from the controls. A value the engine
// rejects comes back as a *scene.FieldError on the field to change.
func Instance(v scene.Values) (emmdl.Instance, error) {
	in, err := emmdl.Preset(v.Int(KeyProcSet), v[KeyLoad], v.Bool(KeyCalibrated))
	if err != nil {
		return in, scene.EngineError(err, v)
	}
	in.Latency = v.Float(KeyLatency)
	in.Throughput = v.Float(KeyThroughput)
	return in, scene.EngineError(in.Validate(), v)
}
