package goal

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"

	"commlab/cmd/gen-report/internal/cli"
	engine "commlab/engine/goal"
	"commlab/engine/param"
	"commlab/engine/trace"
	"commlab/internal/outfile"
	"commlab/internal/shown"
)

// Study is the GOAL schedules' study: gen-report's eval goal.
type Study struct{}

func (Study) Name() string { return "goal" }

func (Study) Eval(stdout, stderr io.Writer, args []string) error {
	return evalGoal(stdout, stderr, args)
}

// goalRecordLimit is the largest schedule `eval goal` records (per
// operation times, the critical path, -trace): about 150 bytes an
// operation. Larger ones print the totals only.
const goalRecordLimit = 4 << 20

// critStepBytes is what a recorded critical-path step costs the command
// beyond the engine's run: its goalStep, its label and its JSON (a 1e6
// operation chain's steps and 137 MB of JSON were not counted before).
const critStepBytes = 250

// goalRankEndLimit is the largest rank count whose per-rank end times
// are printed.
const goalRankEndLimit = 64

// goalEval is the JSON that `eval goal` prints. Times in ns.
type goalEval struct {
	Model    string        `json:"model"`
	File     string        `json:"file"`
	Params   engine.Params `json:"params"`
	Noise    *goalNoise    `json:"noise,omitempty"`
	Ranks    int           `json:"ranks"`
	Ops      int64         `json:"ops"`
	Deps     int           `json:"deps"`
	Messages int64         `json:"messages"`
	Events   int64         `json:"events"`
	Pops     int64         `json:"pops"`
	End      int64         `json:"end_ns"`
	EndRank  int           `json:"end_rank"`
	RankEnd  []int64       `json:"rank_end_ns,omitempty"`
	Stall    int64         `json:"noise_stall_ns"`
	Critical []goalStep    `json:"critical_path,omitempty"`
	CritSum  *goalCritSum  `json:"critical_path_ns,omitempty"`
	Omitted  string        `json:"critical_path_omitted,omitempty"`
}

type goalNoise struct {
	Trace       string           `json:"trace,omitempty"`
	CoScheduled bool             `json:"trace_cosched,omitempty"`
	OS          *engine.OSJitter `json:"os,omitempty"`
	Net         *engine.NetNoise `json:"net,omitempty"`
	Seed        uint64           `json:"seed"`
}

type goalStep struct {
	engine.CritStep
	Label string `json:"label,omitempty"`
}

// goalCritSum splits the critical path's length by kind of link.
type goalCritSum struct {
	CPU        int64 `json:"cpu"`
	Receive    int64 `json:"receive"`
	Flight     int64 `json:"flight"`
	Gap        int64 `json:"gap"`
	Rendezvous int64 `json:"rendezvous"`
}

// splitCritical adds up a critical path's links by kind. The GOAL page
// splits its bars with it, so its numbers are eval goal's.
func splitCritical(steps []engine.CritStep) goalCritSum {
	var sum goalCritSum
	for _, st := range steps {
		d := st.End - st.Start
		switch st.Kind {
		case engine.CritCPU:
			sum.CPU += d
		case engine.CritReceive:
			sum.Receive += d
		case engine.CritFlight:
			sum.Flight += d
		case engine.CritGap:
			sum.Gap += d
		case engine.CritRendezvous:
			sum.Rendezvous += d
		}
	}
	return sum
}

func evalGoal(stdout, stderr io.Writer, args []string) error {
	p := engine.Default()
	fs := cli.NewFlagSet("eval goal", stderr, "gen-report eval goal -f FILE [flags]")
	file := fs.String("f", "", "the GOAL schedule (LogGOPSim's text format) to run")
	cli.BindParams(fs.FlagSet, &p)
	noiseTrace := fs.String("noise-trace", "", `LogGOPSim noise trace ("start<TAB>duration" lines, ns) injected into o and calc`)
	cosched := fs.Bool("noise-cosched", false, "all ranks read the noise trace at one offset (default: a random offset each)")
	osPeriod := fs.Int64("os-period", 0, "commlab periodic OS jitter: period, ns, in [1, 1e15] (0: off)")
	osDuration := fs.Int64("os-duration", 0, "OS jitter window, ns, in [1, os-period)")
	osCosched := fs.Bool("os-cosched", false, "all ranks share one OS-jitter phase")
	netMean := fs.Int64("net-mean", 0, "commlab Poisson network noise: mean time between events on a port, ns, in [1, 1e15] (0: off)")
	netDelay := fs.Int64("net-delay", 0, "network noise delay per event, ns, in [1, 1e15]")
	seed := fs.Uint64("seed", 1, "random seed of the noise offsets and phases; the same seed gives the same output")
	traceOut := fs.String("trace", "", "write the run as Chrome trace JSON (Perfetto) to this file")
	force := cli.AddForce(fs.FlagSet)
	if err := fs.ParseArgs(args, false); err != nil {
		return err
	}
	if *file == "" {
		return fmt.Errorf("eval goal: -f is required: the GOAL file to run")
	}
	if *traceOut == "-" {
		return fmt.Errorf("eval goal: -trace -: standard output carries the eval's JSON; name a file")
	}
	// The trace must not replace an input: -trace naming the schedule (or
	// the noise trace) would overwrite the file being read.
	for _, in := range []struct{ flag, path string }{{"-f", *file}, {"-noise-trace", *noiseTrace}} {
		if *traceOut != "" && in.path != "" && sameFile(*traceOut, in.path) {
			return fmt.Errorf("eval goal: -trace %s is the %s input: the trace would overwrite it; name another file", shown.Cut(*traceOut), in.flag)
		}
	}
	if err := p.Validate(); err != nil {
		return fs.ParamError(err)
	}
	ev := goalEval{Model: "goal", File: filepath.Base(*file), Params: p}
	var nz engine.Noise
	var gn goalNoise
	if *noiseTrace != "" {
		f, err := os.Open(*noiseTrace)
		if err != nil {
			return fmt.Errorf("eval goal: -noise-trace: %w", err)
		}
		tr, err := engine.ReadNoiseTraceWithin(f, *noiseTrace, engine.LimitsFor(cli.Budget(*force)))
		f.Close()
		if err != nil {
			return fmt.Errorf("eval goal: -noise-trace: %w", err)
		}
		nz.Trace, nz.CoScheduled = tr, *cosched
		gn.Trace, gn.CoScheduled = filepath.Base(*noiseTrace), *cosched
	} else if *cosched {
		return fmt.Errorf("eval goal: -noise-cosched needs -noise-trace")
	}
	if *osPeriod != 0 || *osDuration != 0 {
		nz.OS = &engine.OSJitter{Period: *osPeriod, Duration: *osDuration, CoScheduled: *osCosched}
		gn.OS = nz.OS
	} else if *osCosched {
		return fmt.Errorf("eval goal: -os-cosched needs -os-period and -os-duration")
	}
	if *netMean != 0 || *netDelay != 0 {
		nz.Net = &engine.NetNoise{Mean: *netMean, Delay: *netDelay}
		gn.Net = nz.Net
	}
	if nz.Trace != nil || nz.OS != nil || nz.Net != nil {
		nz.Rand = rand.New(rand.NewPCG(*seed, 0x60a1))
		gn.Seed = *seed
		ev.Noise = &gn
	}
	if err := nz.Validate(); err != nil {
		return fs.ParamError(err)
	}
	f, err := os.Open(*file)
	if err != nil {
		return fmt.Errorf("eval goal: -f: %w", err)
	}
	defer f.Close()
	var hint int64
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		hint = st.Size()
	}
	// A regular file's size bounds the reading's time (EstimateRead):
	// refuse a file over the budget before reading it. Its memory, and
	// all of a stream's (a pipe, standard input), the reader counts as it
	// reads, within the budget's Limits.
	labels := hint > 0 && hint < goalRecordLimit*8
	if hint > 0 {
		rd := engine.EstimateRead(hint, labels)
		rd.Bytes = 0
		if err := cli.CheckCost("eval goal", rd, *force); err != nil {
			return err
		}
	}
	s, err := engine.Read(f, *file, engine.ReadOptions{Labels: labels, SizeHint: hint, Limits: engine.LimitsFor(cli.Budget(*force))})
	if err != nil {
		return fmt.Errorf("eval goal: %w", err)
	}
	record := s.NumOps() <= goalRecordLimit
	if *traceOut != "" && !record {
		return fmt.Errorf("eval goal: -trace needs a schedule of at most %d operations (this one has %d)", goalRecordLimit, s.NumOps())
	}
	// The run's cost, from the schedule itself (its shape bounds the
	// queue), with the noise's, the schedule's own bytes and, when
	// recording, the critical path's steps and their JSON.
	run := engine.EstimateSchedule(s, record)
	if ev.Noise != nil {
		// What the noise adds, counted from the schedule: its engine time
		// against the budget with the run's, and the noisy run's length
		// against what the engine's times hold (-force does not lift that).
		names := engine.FlagNames
		names.TraceFile = gn.Trace
		nc, err := engine.EstimateNoise(s, p, nz, names)
		if err != nil {
			return fs.ParamError(err)
		}
		run = engine.AddNoise(run, nc)
	}
	run.Bytes += s.Bytes()
	if record {
		run.Bytes += critStepBytes * float64(s.NumOps()+5*s.NumSends()+1)
	}
	if err := cli.CheckCost("eval goal", run, *force); err != nil {
		return err
	}
	r, err := engine.Run(s, p, nz, engine.Options{Record: record})
	var pe *param.Error
	if errors.As(err, &pe) { // a parameter the schedule cannot take (0-byte messages' G, O)
		return fs.ParamError(err)
	}
	if err != nil {
		return fmt.Errorf("eval goal: %w", err)
	}
	ev.Ranks, ev.Ops, ev.Deps, ev.Messages, ev.Events, ev.Pops = s.NumRanks(), r.Ops, s.NumDeps(), r.Messages, r.Events, r.Pops
	ev.End, ev.EndRank, ev.Stall = r.End, r.EndRank, r.Stall
	if s.NumRanks() <= goalRankEndLimit {
		ev.RankEnd = r.RankEnd
	}
	if record {
		sum := splitCritical(r.Critical)
		ev.CritSum = &sum
		for _, st := range r.Critical {
			ev.Critical = append(ev.Critical, goalStep{CritStep: st, Label: s.Label(st.Op)})
		}
	} else {
		ev.Omitted = fmt.Sprintf("not recorded above %d operations (about 150 bytes each)", goalRecordLimit)
	}
	if *traceOut != "" {
		tc, err := engine.Trace(s, r)
		if err != nil {
			return fmt.Errorf("eval goal: %w", err)
		}
		if err := writeGoalTrace(*traceOut, tc); err != nil {
			return fmt.Errorf("eval goal: -trace: %w", err)
		}
	}
	return fs.WriteJSON(stdout, ev)
}

// writeGoalTrace writes the trace as every command writes its outputs
// (internal/outfile): atomically for a regular file, through a symlink to
// its target, straight into a FIFO or device, no temporary file left on
// SIGINT.
func writeGoalTrace(path string, tc *trace.Trace) error {
	return outfile.Write(path, nil, func(w io.Writer) error { return trace.WriteChrome(w, tc) })
}

// sameFile reports whether a and b name one existing file (through links
// or different spellings of its path).
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
