package mmdl

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"commlab/cmd/gen-report/internal/cli"
	engine "commlab/engine/mmdl"
)

// mmdlEval is the JSON that `eval mmdl` prints. Times are in seconds,
// loads and flows in unit tasks.
type mmdlEval struct {
	Model    string          `json:"model"`
	ProcSet  int             `json:"procset,omitempty"` // absent for a custom instance
	Load     string          `json:"load,omitempty"`
	Instance engine.Instance `json:"instance"`
	Gamma    []float64       `json:"gamma_s"`
	Beta     float64         `json:"beta_s"`

	// T is the steady state's asymptotic makespan.
	T float64 `json:"T"`
	// Schedule is -schedule: the paper's rounds or the overlapped ones.
	Schedule engine.Sched `json:"schedule"`
	// Rounds is R: -rounds, or the scheduler's choice (RoundsChosen).
	Rounds       int  `json:"rounds"`
	RoundsChosen bool `json:"rounds_chosen"`
	// FormulaTotal is the paper's T + T/R + α·R; Makespan the simulated
	// schedule's; OptimalRounds R* = √(T/α).
	FormulaTotal  float64 `json:"formula_total"`
	Makespan      float64 `json:"makespan"`
	OptimalRounds int     `json:"optimal_rounds"`
	FormulaAtOpt  float64 `json:"formula_total_at_optimal_rounds"`
	// Period is the paper's schedule's round length (0 overlapped).
	Period float64 `json:"period"`
	// MaxDegree is the most messages one processor handles per round.
	MaxDegree int               `json:"max_degree"`
	Final     []float64         `json:"final"`
	Flows     []engine.Transfer `json:"flows"`
}

// floatList is a comma-separated list of numbers (-mhz, -tasks).
type floatList struct {
	v   []float64
	set bool
}

func (f *floatList) String() string {
	if f == nil {
		return ""
	}
	s := make([]string, len(f.v))
	for i, x := range f.v {
		s[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strings.Join(s, ",")
}

func (f *floatList) Set(s string) error {
	parts := strings.Split(s, ",")
	v := make([]float64, len(parts))
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return fmt.Errorf("entry %d (%q) is not a number: want comma-separated numbers, e.g. 2400,2400,2000", i, p)
		}
		v[i] = x
	}
	f.v, f.set = v, true
	return nil
}

func evalMmdl(stdout, stderr io.Writer, args []string) error {
	fs := cli.NewFlagSet("eval mmdl", stderr, "gen-report eval mmdl [flags]")
	procset := fs.Int("procset", 2, "the paper's processor set (Table 1): 1 or 2")
	load := fs.String("load", "2", "the paper's initial load (Table 2): "+strings.Join(engine.Loads, ", "))
	schedule := fs.String("schedule", "paper", "the round schedule: paper (the paper's rounds: the first only communicates, the last only computes) or overlap (its future work: computing while the first transfers run)")
	rounds := fs.Int("rounds", 0, fmt.Sprintf("steady rounds R in [1, %d]; 0 lets the scheduler choose", engine.MaxRounds))
	var mhz, tasks floatList
	fs.Var(&mhz, "mhz", "clock rate per processor, MHz, each in [1, 1e6], comma-separated (replaces -procset)")
	fs.Var(&tasks, "tasks", "initial unit tasks per processor, comma-separated (replaces -load)")
	compute := fs.Float64("compute", engine.ComputeAfter, "compute parameter: 10^6 clocks per task (the paper: 0.1 before, 0.294 after calibration)")
	comm := fs.Float64("comm", engine.CommAfter, "communication parameter: MB per task (the paper: 0.003 before, 0.0034 after)")
	latency := fs.Float64("latency", engine.PaperLatency, "start-up latency α per message, s")
	throughput := fs.Float64("throughput", engine.PaperBitRate, "network throughput, bit/s, in [1, 1e15]")
	force := cli.AddForce(fs.FlagSet)
	if err := fs.ParseArgs(args, false); err != nil {
		return err
	}
	ev := mmdlEval{Model: "mmdl"}
	var in engine.Instance
	if !mhz.set || !tasks.set {
		p, err := engine.Preset(*procset, *load, true)
		if err != nil {
			return fmt.Errorf("eval mmdl: -%w", err)
		}
		in = p
		if !mhz.set {
			ev.ProcSet = *procset
		}
		if !tasks.set {
			ev.Load = *load
		}
	}
	if mhz.set {
		in.MHz = mhz.v
	}
	if tasks.set {
		in.Tasks = tasks.v
	}
	in.Compute, in.Comm, in.Latency, in.Throughput = *compute, *comm, *latency, *throughput
	if err := in.Validate(); err != nil {
		return fs.ParamError(err)
	}
	if *rounds < 0 || *rounds > engine.MaxRounds {
		return fmt.Errorf("eval mmdl: -rounds = %d is out of range: want 0 (the scheduler chooses) or an integer in [1, %d]", *rounds, engine.MaxRounds)
	}
	if len(in.MHz) > engine.DenseFlowLimit {
		return fmt.Errorf("eval mmdl: -mhz has %d processors: want at most %d", len(in.MHz), engine.DenseFlowLimit)
	}
	sched, err := engine.ParseSched(*schedule)
	if err != nil {
		return fmt.Errorf("eval mmdl: -%w", err)
	}
	st, err := engine.SteadyState(in)
	if err != nil {
		return fmt.Errorf("eval mmdl: %w", err)
	}
	est := engine.EstimateChoose(len(in.MHz), len(st.Transfers), st.T, in.Latency, sched)
	if *rounds > 0 {
		est = engine.Estimate(len(in.MHz), len(st.Transfers), *rounds)
	}
	if err := cli.CheckCost("eval mmdl", est, *force); err != nil {
		return err
	}
	var s *engine.Schedule
	if *rounds == 0 {
		_, s, err = engine.ChooseRounds(in, st, sched)
		ev.RoundsChosen = true
	} else {
		s, err = engine.Rounds(in, st, *rounds, sched)
	}
	if err != nil {
		return fmt.Errorf("eval mmdl: %w", err)
	}
	ev.Instance, ev.Beta = in, in.Beta()
	for i := range in.MHz {
		ev.Gamma = append(ev.Gamma, in.Gamma(i))
	}
	ev.T, ev.Schedule, ev.Rounds, ev.FormulaTotal, ev.Makespan, ev.Period = st.T, s.Sched, s.R, s.Formula, s.Makespan, s.Period
	ev.OptimalRounds = engine.OptimalRounds(st.T, in.Latency)
	ev.FormulaAtOpt = engine.FormulaTotal(st.T, in.Latency, ev.OptimalRounds)
	ev.MaxDegree, ev.Final, ev.Flows = s.MaxDegree, st.Final, st.Transfers
	if ev.Flows == nil {
		ev.Flows = []engine.Transfer{}
	}
	return fs.WriteJSON(stdout, ev)
}
