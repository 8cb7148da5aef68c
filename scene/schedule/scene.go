package schedule

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"commlab/engine/goal"
	"commlab/engine/progress"
	"commlab/engine/trace"
	"commlab/internal/permsort"
	"commlab/render"
	"commlab/scene"
)

// Scene is the schedule scene.
type Scene struct{}

// New returns the schedule scene.
func New() scene.Scene { return Scene{} }

// Info names the scene for the index page. Times are LogGOPSim's integer
// nanoseconds, so the page shows the maximum finishing time exactly as
// LogGOPSim prints it.
func (Scene) Info() scene.Info {
	return scene.Info{
		Name:  "schedule",
		Title: "GOAL schedules under LogGOPS",
		Paper: "LogGOPSim's GOAL format and LogGOPS model (Hoefler, Schneider, Lumsdaine, HPDC 2010); issue 15",
		Summary: "A communication schedule in LogGOPSim's GOAL format runs as LogGOPSim runs it: each rank's " +
			"sends and receives cost CPU overhead o (plus O per byte) and NIC gap g (plus G per byte), " +
			"messages arrive o + L after the send starts, messages above S bytes wait for their receive " +
			"(rendezvous), and calc keeps the CPU busy. The Gantt chart shows every rank's CPU work, " +
			"its NIC gaps and the messages in flight; OS jitter stalls (hatched) and network-noise " +
			"delays appear when noise is on. The thick line is the critical path: the chain of work, " +
			"gaps and messages that sets the maximum finishing time, which the page reports to the " +
			"nanosecond. A second side runs the same file under another parameter set, or another " +
			"file; load your own with the file picker, by dropping it on the page, or with ?goal=PATH.",
		TimeUnit: "ns",
	}
}

// Fields: see Fields.
func (Scene) Fields() []scene.Field { return Fields() }

// Build reads the files, runs side A and, if asked, side B, recording
// their timelines. Both sides draw noise from the same seed.
func (sc Scene) Build(v scene.Values, seed uint64) (scene.Run, error) {
	return sc.BuildProgress(v, seed, nil)
}

// BuildProgress is Build telling pr the fraction done (scene.Progressive):
// each side's run through the executor's Options.Progress, then its
// layout rank by rank. The layout is most of a big schedule's build.
func (sc Scene) BuildProgress(v scene.Values, seed uint64, pr progress.Func) (scene.Run, error) {
	if err := scene.CheckValues(sc.Fields(), v); err != nil {
		return nil, err
	}
	nz, err := noiseConfig(v)
	if err != nil {
		return nil, err
	}
	pa, err := Params(v, "")
	if err != nil {
		return nil, err
	}
	r := &run{compare: v[KeyCompare], noise: v[KeyNoise], trace: traceName(v[KeyTrace]), seed: seed}
	parts := 1.0
	if v[KeyCompare] == CompareParams || v[KeyCompare] == CompareFile {
		parts = 2
	}
	a, err := runSide("A", KeyFile, v[KeyFile], pa, nz, v, "", seed, pr.Part(0, 1/parts))
	if err != nil {
		return nil, err
	}
	r.sides = append(r.sides, a)
	switch r.compare {
	case CompareParams:
		pb, err := Params(v, "2")
		if err != nil {
			return nil, err
		}
		b, err := runSide("B", KeyFile, v[KeyFile], pb, nz, v, "2", seed, pr.Part(0.5, 1))
		if err != nil {
			return nil, err
		}
		r.sides = append(r.sides, b)
	case CompareFile:
		b, err := runSide("B", KeyFile2, v[KeyFile2], pa, nz, v, "", seed, pr.Part(0.5, 1))
		if err != nil {
			return nil, err
		}
		r.sides = append(r.sides, b)
	}
	r.prepare()
	return r, nil
}

// side is one schedule run under one parameter set.
type side struct {
	name  string // "A" or "B"
	file  string
	p     goal.Params
	s     *goal.Schedule
	res   *goal.Result
	ranks int

	bars  [][]bar // per rank, CPU work in time order
	gaps  [][]gap // per rank, NIC gaps
	heat  *heat   // for many ranks
	crit  []goal.CritStep
	stall int64
}

// bar is one operation's CPU time and the noise after it.
type bar struct {
	start, end, stall int64
	kind              goal.Kind
	label             int32 // the op's index
}

// gap is a NIC gap after a send or a receive.
type gap struct{ start, end int64 }

// traceName is a noise_trace value's file name ("" for none).
func traceName(key string) string {
	if key == TraceNone {
		return ""
	}
	name := strings.TrimPrefix(key, "trace:")
	if i := strings.LastIndexByte(name, '~'); i >= 0 {
		name = name[:i]
	}
	return name
}

// noiseStream separates the noise draws from the seed's other uses.
const noiseStream = 0x676f616c // "goal"

// runSide runs one side and lays it out, telling pr the fraction done: the
// executor's run the first third, the layout the rest (the layout costs
// about twice the run per operation).
func runSide(name, key, file string, p goal.Params, nz noiseSet, v scene.Values, suffix string, seed uint64, pr progress.Func) (*side, error) {
	s, err := lookup(file)
	if err != nil {
		return nil, &scene.FieldError{Key: key, Value: file, Want: "a shipped example or a file loaded on the page (" + err.Error() + ")"}
	}
	n := goal.Noise{OS: nz.os, Net: nz.net, Trace: nz.trace, CoScheduled: nz.traceCo}
	if nz.on() {
		n.Rand = rand.New(rand.NewPCG(seed, noiseStream))
		// A run the noise could stretch past the engine's times is refused
		// here too, for callers that skip the budget's Estimate.
		if _, err := noiseCost(s, p, nz, v, suffix); err != nil {
			return nil, err
		}
	}
	res, err := goal.Run(s, p, n, goal.Options{Record: true, Progress: pr.Part(0, 1.0/3)})
	if errors.Is(err, progress.ErrCanceled) {
		return nil, err // stopped by pr: not the file's fault
	}
	if err != nil {
		var re *goal.RangeError
		if errors.As(err, &re) {
			k := re.Field
			if slices.Contains(paramKeys, k) { // a LogGOPS parameter of this side's set
				k += suffix
			}
			return nil, &scene.FieldError{Key: k, Value: re.Value, Want: re.Want}
		}
		var oe *goal.OverflowError
		if errors.As(err, &oe) {
			// a time past 2^63 ns is refused, not drawn (it was drawn as
			// the wrapped "1 ns")
			return nil, &scene.FieldError{Key: key, Value: file, Want: "a schedule whose times stay under 2^63 ns: " + err.Error()}
		}
		// A schedule that cannot complete (unmatched messages, operations
		// whose dependencies never finish) is the file's fault.
		return nil, &scene.FieldError{Key: key, Value: file, Want: "a schedule that completes: " + err.Error()}
	}
	sd := &side{name: name, file: file, p: p, s: s, res: res, ranks: s.NumRanks(), crit: res.Critical, stall: res.Stall}
	if err := sd.collect(pr.Part(1.0/3, 1)); err != nil {
		return nil, err
	}
	// A side too small for the checkpoints above still says it is done
	// (and can still be stopped there).
	if err := pr.Report(1); err != nil {
		return nil, err
	}
	return sd, nil
}

// collect sorts the timeline into per-rank bars and gaps, or heat cells
// when there are too many ranks or operations to draw one by one.
func (sd *side) collect(pr progress.Func) error {
	tl := sd.res.Timeline
	if sd.ranks > MaxLanes || sd.s.NumOps() > MaxLaneOps {
		h, err := newHeat(sd, pr)
		sd.heat = h
		return err
	}
	sd.bars = make([][]bar, sd.ranks)
	sd.gaps = make([][]gap, sd.ranks)
	for r := range sd.ranks {
		first, end := sd.s.RankOps(r)
		for i := first; i < end; i++ {
			rec := tl.Ops[i]
			if rec.Start < 0 {
				continue
			}
			op := sd.s.Op(i)
			if rec.End > rec.Start || rec.Stall > 0 {
				sd.bars[r] = append(sd.bars[r], bar{rec.Start, rec.End, rec.Stall, op.Kind, int32(i)})
			}
			if op.Kind != goal.Calc {
				g := sd.p.Gap + int64(max(op.Size, 1)-1)*sd.p.GapPerByte
				if g > 0 {
					sd.gaps[r] = append(sd.gaps[r], gap{rec.Start, rec.Start + g})
				}
			}
		}
		permsort.SortFunc(sd.bars[r], func(a, b bar) int { return cmpInt(a.start, b.start) })
		permsort.SortFunc(sd.gaps[r], func(a, b gap) int { return cmpInt(a.start, b.start) })
		if r%64 == 63 {
			if err := pr.Report(float64(r+1) / float64(sd.ranks)); err != nil {
				return err
			}
		}
	}
	return nil
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// run is one built scene.
type run struct {
	sides   []*side
	compare string
	noise   string
	trace   string // the noise trace's file name, or ""
	seed    uint64
	end     int64 // the later side's maximum finishing time
	steps   []float64
	tr      *trace.Trace
	items   int // a frame's display list, at most (about)
}

func (r *run) prepare() {
	for _, sd := range r.sides {
		r.end = max(r.end, sd.res.End)
	}
	if r.end <= 0 {
		r.end = 1
	}
	// Step between the critical path's links of side A: each is a moment
	// the run's outcome moved forward.
	for _, c := range r.sides[0].crit {
		if c.End > 0 && c.End <= r.end {
			r.steps = append(r.steps, float64(c.End))
		}
	}
	for _, sd := range r.sides {
		r.steps = append(r.steps, float64(sd.res.End))
		r.items += 4*sd.ranks + 2*len(sd.res.Timeline.Messages)
		for k := range sd.bars {
			r.items += 2*len(sd.bars[k]) + len(sd.gaps[k])
		}
	}
	r.items = min(r.items+200, 1<<20)
	permsort.Sort(r.steps)
	r.steps = slices.Compact(r.steps)
}

func (r *run) End() float64     { return float64(r.end) }
func (r *run) Steps() []float64 { return r.steps }
func (r *run) Frame(t float64, v scene.View) render.List {
	return r.paint(t, v)
}

// Trace is the run as a trace in ns: side A's ranks as lanes (then side
// B's), CPU work as spans (send, receive, compute), noise as stalls, and
// every message.
func (r *run) Trace() *trace.Trace {
	if r.tr != nil {
		return r.tr
	}
	n := 0
	for _, sd := range r.sides {
		n += sd.ranks
	}
	names := make([]string, 0, n)
	for _, sd := range r.sides {
		for k := range sd.ranks {
			names = append(names, fmt.Sprintf("%s rank %d", sd.name, k))
		}
	}
	tr := trace.New("goal", n, func(i int) string { return names[i] })
	tr.Unit = "ns"
	base := 0
	for _, sd := range r.sides {
		tl := sd.res.Timeline
		for i, rec := range tl.Ops {
			if rec.Start < 0 {
				continue
			}
			lane := base + sd.s.RankOf(i)
			k := trace.Compute
			switch sd.s.Op(i).Kind {
			case goal.Send:
				k = trace.Send
			case goal.Recv:
				k = trace.Receive
			}
			tr.AddSpan(lane, k, float64(rec.Start), float64(rec.End), -1, sd.s.Label(i))
			if rec.Stall > 0 {
				tr.AddSpan(lane, trace.Stall, float64(rec.End), float64(rec.End+rec.Stall), -1, "noise")
			}
		}
		for _, m := range tl.Messages {
			if m.Arrive < 0 {
				continue
			}
			tr.AddMessage(trace.Message{From: base + int(m.From), To: base + int(m.To), Send: float64(m.Sent), Arrive: float64(m.Arrive), Step: -1, Class: "message", Delay: float64(m.Delay), Used: m.Recv >= 0})
		}
		tr.AddMarker(base+sd.res.EndRank, float64(sd.res.End), "maximum finishing time")
		base += sd.ranks
	}
	tr.Sort()
	r.tr = tr
	return tr
}

// Numbers are each side's maximum finishing time (LogGOPSim's number),
// the rank that sets it, its operation and message counts and the noise's
// CPU time; side B's keys end in _b.
func (r *run) Numbers() map[string]float64 {
	m := map[string]float64{}
	for i, sd := range r.sides {
		suf := ""
		if i == 1 {
			suf = "_b"
		}
		m["end"+suf] = float64(sd.res.End)
		m["end_rank"+suf] = float64(sd.res.EndRank)
		m["ops"+suf] = float64(sd.res.Ops)
		m["messages"+suf] = float64(sd.res.Messages)
		m["stall"+suf] = float64(sd.res.Stall)
		m["ranks"+suf] = float64(sd.ranks)
	}
	return m
}

var numberSpecs = []scene.NumberSpec{
	{Key: "end", Label: "maximum finishing time (A)", Unit: scene.UnitTime},
	{Key: "end_rank", Label: "rank that sets it (A)", Unit: scene.UnitCount},
	{Key: "end_b", Label: "maximum finishing time (B)", Unit: scene.UnitTime},
	{Key: "end_rank_b", Label: "rank that sets it (B)", Unit: scene.UnitCount},
	{Key: "ranks", Label: "ranks (A)", Unit: scene.UnitCount},
	{Key: "ops", Label: "operations (A)", Unit: scene.UnitCount},
	{Key: "messages", Label: "messages (A)", Unit: scene.UnitCount},
	{Key: "stall", Label: "CPU time lost to noise (A)", Unit: scene.UnitTime},
	{Key: "ranks_b", Label: "ranks (B)", Unit: scene.UnitCount},
	{Key: "ops_b", Label: "operations (B)", Unit: scene.UnitCount},
	{Key: "messages_b", Label: "messages (B)", Unit: scene.UnitCount},
	{Key: "stall_b", Label: "CPU time lost to noise (B)", Unit: scene.UnitTime},
}

// Report is Numbers with labels and units (scene.Reporter).
func (r *run) Report() []scene.Number { return scene.Describe(r.Numbers(), numberSpecs) }
