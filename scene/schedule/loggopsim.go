package schedule

import (
	_ "embed"
	"slices"
	"strconv"
	"strings"
	"sync"

	"commlab/engine/goal"
	"commlab/internal/errf"
	"commlab/scene"
)

// expectedTSV is LogGOPSim's own output for the shipped examples, copied
// unchanged with them (examples/README.md): file, LogGOPSim's flags,
// maximum finishing time in ns.
//
//go:embed examples/expected.tsv
var expectedTSV string

// LogGOPSimAnswer is the maximum finishing time LogGOPSim (spcl/LogGOPSim,
// built from source) printed for a shipped example under a parameter set.
type LogGOPSimAnswer struct {
	Example string      // the example's name, as Examples has it: "allreduce_recdoub_32"
	Flags   string      // LogGOPSim's flags as run: "defaults" or "-L 3000 -o 1000 -g 2000 -G 4 -S 1024"
	Params  goal.Params // the same as goal.Params
	End     int64       // ns
}

// LogGOPSimAnswers returns LogGOPSim's answers for the shipped examples
// (examples/expected.tsv), in the file's order: the one place they are
// read from, by the scene and its tests.
func LogGOPSimAnswers() ([]LogGOPSimAnswer, error) {
	a, err := answers()
	return slices.Clone(a), err
}

// answers parses expectedTSV once.
func answers() ([]LogGOPSimAnswer, error) {
	parsed.Do(func() { parsed.list, parsed.err = parseAnswers(expectedTSV) })
	return parsed.list, parsed.err
}

var parsed struct {
	sync.Once
	list []LogGOPSimAnswer
	err  error
}

// parseAnswers reads expected.tsv: tab-separated file, flags and end.
func parseAnswers(text string) ([]LogGOPSimAnswer, error) {
	var out []LogGOPSimAnswer
	for i, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		c := strings.Split(line, "\t")
		if len(c) != 3 {
			return nil, errf.Errorf("expected.tsv:%d: %d columns, want 3 (file, flags, end)", i+1, len(c))
		}
		name := strings.TrimSuffix(strings.TrimPrefix(c[0], "ex_"), ".goal")
		if !slices.Contains(Examples, name) {
			return nil, errf.Errorf("expected.tsv:%d: %s is no shipped example", i+1, c[0])
		}
		p, err := parseFlags(c[1])
		if err != nil {
			return nil, errf.Errorf("expected.tsv:%d: %w", i+1, err)
		}
		end, err := strconv.ParseInt(c[2], 10, 64)
		if err != nil || end < 0 {
			return nil, errf.Errorf("expected.tsv:%d: end %q: want a whole number of ns", i+1, c[2])
		}
		out = append(out, LogGOPSimAnswer{Example: name, Flags: c[1], Params: p, End: end})
	}
	return out, nil
}

// parseFlags reads LogGOPSim's flags: "defaults" (its own, goal.Default)
// or pairs such as "-L 3000 -o 1000", one space apart, each changing one
// of the defaults.
func parseFlags(flags string) (goal.Params, error) {
	p := goal.Default()
	if flags == "defaults" {
		return p, nil
	}
	f := strings.Split(flags, " ")
	if len(f)%2 != 0 {
		return p, errf.Errorf("flags %q: want pairs such as -L 3000", flags)
	}
	for i := 0; i < len(f); i += 2 {
		x, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			return p, errf.Errorf("flags %q: %s %q is no whole number", flags, f[i], f[i+1])
		}
		switch f[i] {
		case "-L":
			p.L = x
		case "-o":
			p.Overhead = x
		case "-g":
			p.Gap = x
		case "-G":
			p.GapPerByte = x
		case "-O":
			p.OverheadPerByte = x
		case "-S":
			p.S = x
		default:
			return p, errf.Errorf("flags %q: unknown flag %s (want -L, -o, -g, -G, -O or -S)", flags, f[i])
		}
	}
	return p, p.Validate()
}

// logGOPSimEnd is LogGOPSim's answer for example under p, if it printed
// one.
func logGOPSimEnd(example string, p goal.Params) (LogGOPSimAnswer, bool) {
	all, err := answers()
	if err != nil {
		return LogGOPSimAnswer{}, false
	}
	for _, a := range all {
		if a.Example == example && a.Params == p {
			return a, true
		}
	}
	return LogGOPSimAnswer{}, false
}

// PaperPoint shows LogGOPSim's maximum finishing time beside the run's for
// each side that runs a shipped example under a parameter set LogGOPSim
// was run with (examples/expected.tsv), without noise: the scene opens on
// one (the recursive-doubling allreduce under LogGOPSim's defaults and
// under the examples' second set). A file loaded on the page, or any
// noise, shows none (scene.PaperPointer).
func (Scene) PaperPoint(v scene.Values, numbers map[string]float64) []scene.PaperNumber {
	if v[KeyNoise] != NoiseNone || v[KeyTrace] != TraceNone {
		return nil
	}
	pa, err := Params(v, "")
	if err != nil {
		return nil
	}
	type sideOf struct {
		name, file, key string
		p               goal.Params
	}
	sides := []sideOf{{"A", v[KeyFile], "end", pa}}
	switch v[KeyCompare] {
	case CompareParams:
		pb, err := Params(v, "2")
		if err != nil {
			return nil
		}
		sides = append(sides, sideOf{"B", v[KeyFile], "end_b", pb})
	case CompareFile:
		sides = append(sides, sideOf{"B", v[KeyFile2], "end_b", pa})
	}
	var out []scene.PaperNumber
	for _, s := range sides {
		a, ok := logGOPSimEnd(s.file, s.p)
		ours, have := numbers[s.key]
		if !ok || !have {
			continue
		}
		out = append(out, scene.PaperNumber{
			What:  "maximum finishing time, side " + s.name + " (" + s.file + ")",
			Paper: float64(a.End), By: "LogGOPSim", Ours: ours, Unit: scene.UnitTime, Digits: 0,
			Source: "its output under " + flagsText(a.Flags),
		})
	}
	return out
}

// flagsText names LogGOPSim's flags for a reader: "its defaults", or the
// flags as given.
func flagsText(flags string) string {
	if flags == "defaults" {
		return "its defaults"
	}
	return flags
}
