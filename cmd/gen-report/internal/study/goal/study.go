package goal

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/study"
	engine "commlab/engine/goal"
	"commlab/scene/schedule"
)

// Sweep lays out the GOAL page: one point per row of the shipped
// examples' expected.tsv (each example under LogGOPSim's defaults and
// under the second parameter set), run from the files the schedule scene
// embeds, so that each row's link opens the very schedule the row ran.
// The grid is the same in the quick and the full report: there is nothing
// to sample.
func (Study) Sweep(study.Config) (study.Sweep, error) {
	return newSweep(schedule.ExampleFiles())
}

// goalSweep is the GOAL page's work: the examples of fsys.
type goalSweep struct {
	fsys     fs.FS
	examples []example
	sum      uint32 // fingerprint of expected.tsv and the files
}

func newSweep(fsys fs.FS) (*goalSweep, error) {
	exs, err := readExamples(fsys)
	if err != nil {
		return nil, err
	}
	sum, err := fingerprint(fsys, exs)
	if err != nil {
		return nil, err
	}
	return &goalSweep{fsys: fsys, examples: exs, sum: sum}, nil
}

// Fingerprint names the examples by their bytes.
func (g *goalSweep) Fingerprint() string {
	return fmt.Sprintf("goal/v1 examples=%d files=%08x", len(g.examples), g.sum)
}

var _ study.TrialCounter = (*goalSweep)(nil) // gen-report status counts its trials

// PointTrials is 0: a GOAL schedule runs once, deterministically (noise
// traces aside, which the shipped examples do not take).
func (g *goalSweep) PointTrials(int, json.RawMessage) (int, error) { return 0, nil }

// Costs are engine/goal's bounds for reading and running each file (far
// above what these small schedules take, but in proportion).
func (g *goalSweep) Costs() []float64 {
	c := make([]float64, len(g.examples))
	for i, ex := range g.examples {
		c[i] = engine.EstimateRead(ex.Size, false).Seconds + engine.EstimateText(ex.Size, true).Seconds
	}
	return c
}

// answer is one point's result: what the page shows of what `gen-report
// eval goal` prints for the file under the row's parameters. Times in ns.
type answer struct {
	Ranks    int         `json:"ranks"`
	Events   int64       `json:"events"`
	End      int64       `json:"end_ns"`
	EndRank  int         `json:"end_rank"`
	Critical goalCritSum `json:"critical_path_ns"`
}

// Run reads and runs the owned examples, recording the critical path.
func (g *goalSweep) Run(ctx context.Context, owned []bool, progress func(done, total float64)) ([]json.RawMessage, error) {
	return study.RunPoints(ctx, owned, g.Costs(), progress, func(i int) (answer, error) {
		return g.run(g.examples[i])
	})
}

func (g *goalSweep) run(ex example) (answer, error) {
	text, err := fs.ReadFile(g.fsys, ex.File)
	if err != nil {
		return answer{}, err
	}
	s, err := engine.Read(bytes.NewReader(text), ex.File, engine.ReadOptions{SizeHint: int64(len(text))})
	if err != nil {
		return answer{}, err
	}
	r, err := engine.Run(s, ex.Params, engine.Noise{}, engine.Options{Record: true})
	if err != nil {
		return answer{}, fmt.Errorf("%s under %s: %w", ex.File, ex.Flags, err)
	}
	return answer{
		Ranks: s.NumRanks(), Events: r.Events,
		End: r.End, EndRank: r.EndRank, Critical: splitCritical(r.Critical),
	}, nil
}

// check vets a point's result read from a shard file: counts and times
// not negative, the finishing rank one of the ranks, the critical path's
// parts no longer than the run.
func check(_ int, a answer) error {
	for _, v := range []struct {
		what string
		v    int64
	}{
		{"events", a.Events}, {"end_ns", a.End},
		{"critical_path_ns.cpu", a.Critical.CPU}, {"critical_path_ns.receive", a.Critical.Receive},
		{"critical_path_ns.flight", a.Critical.Flight}, {"critical_path_ns.gap", a.Critical.Gap},
		{"critical_path_ns.rendezvous", a.Critical.Rendezvous},
	} {
		if v.v < 0 {
			return fmt.Errorf("%s is %d, want ≥ 0", v.what, v.v)
		}
	}
	if a.Ranks < 1 || a.EndRank < 0 || a.EndRank >= a.Ranks {
		return fmt.Errorf("end_rank %d of %d ranks: want a rank in [0, ranks), ranks ≥ 1", a.EndRank, a.Ranks)
	}
	if sum := a.Critical.total(); sum > a.End {
		return fmt.Errorf("the critical path's parts add up to %d ns, past end_ns %d", sum, a.End)
	}
	return nil
}

// total is the critical path's length. (The parts cannot overflow: each
// is at most the run's end, checked first.)
func (c goalCritSum) total() int64 { return c.CPU + c.Receive + c.Flight + c.Gap + c.Rendezvous }

// Page builds the GOAL page from every example's answer.
func (g *goalSweep) Page(raw []json.RawMessage) (report.Page, error) {
	res, err := study.Decode(raw, check)
	if err != nil {
		return report.Page{}, err
	}
	if len(res) != len(g.examples) {
		return report.Page{}, fmt.Errorf("%d results for %d examples", len(res), len(g.examples))
	}
	return g.page(res), nil
}

// sets are the parameter sets of the examples, in the order expected.tsv
// first gives them.
func (g *goalSweep) sets() []string {
	var out []string
	for _, ex := range g.examples {
		if !slices.Contains(out, ex.Flags) {
			out = append(out, ex.Flags)
		}
	}
	return out
}

func (g *goalSweep) page(res []answer) report.Page {
	sets := g.sets()
	var tables, charts []any
	for i, set := range sets {
		tables = append(tables, g.answersTable(res, i, set))
		charts = append(charts, g.criticalChart(res, i, set))
	}
	p := report.Page{
		File:  "goal.html",
		Title: "GOAL schedules: LogGOPSim's answers beside ours",
		Subtitle: fmt.Sprintf("LogGOPSim (Hoefler, Schneider, Lumsdaine, HPDC 2010): its %d shipped GOAL examples, each under %s, run by commlab's engine/goal",
			len(g.examples)/len(sets), strings.Join(setNames(sets), " and ")),
		Intro: strings.Join([]string{
			"GOAL is LogGOPSim's text format for communication schedules: per rank, labelled sends, receives and computations with the dependencies between them. LogGOPSim's Schedgen writes collectives and MPI traces in it, and researchers bring such files from elsewhere: commlab's engine/goal reads them and runs them under LogGOPSim's rules (L, o, g, G, O, S; eager up to S bytes, rendezvous above; LogGOPSim's queue order, ties and integer nanoseconds), and `gen-report eval goal -f FILE` prints the answer from the command line.",
			"The answers beside ours are LogGOPSim's own output, not a paper's figure: expected.tsv (in the project's shared goal-examples folder, copied unchanged to scene/schedule/examples and engine/goal/testdata/examples) holds, per file and parameter set, \"the maximum finishing time (ns) that LogGOPSim (spcl/LogGOPSim, built from source) prints for each\", in the folder's own words. \"defaults\" are LogGOPSim's own: L = 2500, o = 1500, g = 1000, G = 6, O = 0, S = 65535.",
			"Each row of the answers' tables opens its schedule in the schedule scene (a Gantt chart per rank with the critical path drawn over it) with the row's file and parameters in the scene's URL. The speed table at the end gives the measured speed of reading and running GOAL against LogGOPSim's, dated, with the commands that measure it again.",
		}, "\n\n"),
		Thumbnail: criticalID(0),
	}
	p.Sections = append(p.Sections,
		report.Section{
			Title: "LogGOPSim's answers beside ours",
			Intro: "Each shipped example under each parameter set of expected.tsv, a table per set: LogGOPSim's maximum finishing time and ours, to the nanosecond. Click a row to watch it run.",
			Items: tables,
		},
		report.Section{
			Title: "Where the time goes: the critical path",
			Intro: "The critical path is the chain of work and messages that sets the maximum finishing time: walking back from the CPU that finishes last, each link is what set the time the next one began. Its links are CPU time (a send's or a computation's o, calc and O per byte), a receive's overhead at the receiver, a message's flight (o + L after the send starts), a NIC gap (g and G per byte) that held the next message back, and a rendezvous release (a send above S bytes waiting for its receive). One chart per parameter set, a bar per example.",
			Items: charts,
		},
		report.Section{
			Title: "Speed against LogGOPSim, as measured",
			Intro: "How fast engine/goal reads and runs GOAL files, against LogGOPSim's figures. The sizes are far beyond the examples above: a butterfly allreduce of up to 2^20 ranks, 2.6 GB of text, written by a test helper (engine/goal's BenchmarkButterfly2e20).",
			Items: []any{speedTable()},
		},
		report.Section{
			Title: "Findings",
			Intro: "LogGOPSim's answers against ours: the verdict is computed from the answers' tables above, not written by hand.",
			Items: []any{report.Findings{Title: "LogGOPSim's answers against this executor", Items: []report.Finding{g.finding(res)}}},
		},
	)
	return p
}

// setNames names the parameter sets: "LogGOPSim's defaults" or the flags.
func setNames(sets []string) []string {
	out := make([]string, len(sets))
	for i, s := range sets {
		out[i] = setName(s)
	}
	return out
}

func setName(flags string) string {
	if flags == "defaults" {
		return "LogGOPSim's defaults"
	}
	return flags
}

// answersID is the ID of the answers' table of parameter set i: the
// finding cites them.
func answersID(i int) string { return fmt.Sprintf("goal-answers-%d", i+1) }

func (g *goalSweep) answersTable(res []answer, si int, set string) *report.Table {
	t := &report.Table{
		ID:    answersID(si),
		Title: fmt.Sprintf("Under %s: the maximum finishing time (ns)", setName(set)),
		Caption: fmt.Sprintf("Parameters: %s. LogGOPSim's column is expected.tsv's; ours is engine/goal's run of the same file under the same flags, what `gen-report eval goal -f FILE%s` prints as end_ns. The difference (ns) is ours less LogGOPSim's; the last rank is the rank that finishes last (end_rank), and the events are the operations and messages the run put in its queue, as LogGOPSim counts them (events). A row opens the schedule scene with its file and parameters.",
			paramWordsOf(g.examples, set), flagArgs(set)),
		Header: []string{"example", "LogGOPSim", "ours", "difference", "last rank", "events", "file"},
	}
	for i, ex := range g.examples {
		if ex.Flags != set {
			continue
		}
		a := res[i]
		_, short := ex.names(a.Ranks)
		t.Rows = append(t.Rows, []string{
			short, fmt.Sprint(ex.LogGOPSim), fmt.Sprint(a.End), fmt.Sprint(a.End - ex.LogGOPSim),
			fmt.Sprint(a.EndRank), fmt.Sprint(a.Events), ex.File,
		})
		t.RowLinks = append(t.RowLinks, sceneLink(ex, a.Ranks))
	}
	return t
}

// flagArgs is what eval goal takes for a parameter set: nothing for
// LogGOPSim's defaults (they are eval goal's), else its flags.
func flagArgs(set string) string {
	if set == "defaults" {
		return ""
	}
	return " " + set
}

// criticalID is the ID of the critical-path chart of parameter set i.
func criticalID(i int) string { return fmt.Sprintf("goal-critical-%d", i+1) }

// The critical path's kinds, in the order of goalCritSum and the stack.
var critKinds = []string{"CPU", "receive", "flight", "gap", "rendezvous"}

func (c goalCritSum) parts() []int64 { return []int64{c.CPU, c.Receive, c.Flight, c.Gap, c.Rendezvous} }

func (g *goalSweep) criticalChart(res []answer, si int, set string) *report.BarChart {
	x := report.Axis{Name: "example"}
	series := make([]report.BarSeries, len(critKinds))
	for k, name := range critKinds {
		series[k] = report.BarSeries{Name: name + " (µs)", Stack: "critical path"}
	}
	var whole, ends []string
	for i, ex := range g.examples {
		if ex.Flags != set {
			continue
		}
		a := res[i]
		_, short := ex.names(a.Ranks)
		x.Labels = append(x.Labels, short)
		for k, v := range a.Critical.parts() {
			series[k].Values = append(series[k].Values, float64(v)/1e3) // 7710 ns is 7.71 µs; round(µs·1000) gives the ns back
		}
		ends = append(ends, fmt.Sprintf("%s %d ns", short, a.End))
		if a.Critical.total() == a.End {
			whole = append(whole, short)
		}
	}
	covers := fmt.Sprintf("The path covers the whole run, from 0 to the finishing time, in %d of the %d examples", len(whole), len(x.Labels))
	if len(whole) == len(x.Labels) {
		covers = "Each bar is as tall as its example's finishing time: the path covers the whole run, from 0 to the end"
	}
	var none []string
	for k, sr := range series {
		if !slices.ContainsFunc(sr.Values, func(v float64) bool { return v != 0 }) {
			none = append(none, critKinds[k])
		}
	}
	if len(none) > 0 {
		covers += fmt.Sprintf("; no %s link lies on these paths", orList(none))
	}
	return &report.BarChart{
		ID:    criticalID(si),
		Title: fmt.Sprintf("The critical path by kind of link, under %s", setName(set)),
		Caption: fmt.Sprintf("The length of the critical path of each example's run under %s, split by kind of link: what `gen-report eval goal` prints as critical_path_ns, here in µs. %s (%s).",
			paramWordsOf(g.examples, set), covers, strings.Join(ends, "; ")),
		X: x, YName: "time on the critical path (µs)", Digits: 6,
		Series: series,
	}
}

// paramWordsOf names set with its parameter values.
func paramWordsOf(exs []example, set string) string {
	for _, ex := range exs {
		if ex.Flags == set {
			return paramWords(ex)
		}
	}
	return set
}

// orList joins words as "a", "a or b", "a, b or c".
func orList(w []string) string {
	if len(w) < 2 {
		return strings.Join(w, "")
	}
	return strings.Join(w[:len(w)-1], ", ") + " or " + w[len(w)-1]
}
