package calibrate

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"commlab/engine/mmdl"
	"commlab/engine/param"
)

// DefaultScale is the fraction of the paper's load a pass executes when
// Options.Scale is 0: 6,000 of the 600,000 tasks, a few tens of
// milliseconds of compute per pass on this machine.
const DefaultScale = 0.01

// MaxVectors bounds the scaled load (3200 bytes each), so that a wrong
// Scale cannot allocate the machine away.
const MaxVectors = 200_000

// Options tune a calibration run; the zero value is the default.
type Options struct {
	// Scale is the fraction of every processor's initial load that is
	// executed, in (0, 1]; 0 means DefaultScale. Loads are rounded to
	// whole vectors.
	Scale float64 `json:"scale"`
	// WallClock times operations by the wall clock instead of their
	// thread's CPU clock, so that other work on the machine shows in
	// them (the CPU clock is Linux only; elsewhere the wall clock is
	// always used).
	WallClock bool `json:"wall_clock"`
}

// The clocks an operation can be timed by (Result.Clock).
const (
	ClockThreadCPU = "thread CPU time"
	ClockWall      = "wall clock"
)

// optionError is an option outside its range: a *param.Error (errors.As
// finds it) under the package's name.
func optionError(field, value, want string) error {
	return fmt.Errorf("calibrate: %w", &param.Error{Field: field, Value: value, Want: want})
}

// Record is one executed operation.
type Record struct {
	// Planned is the schedule's operation: its kind, processor, peer,
	// round, fractional tasks and simulated Start and End.
	Planned mmdl.Op `json:"planned"`
	// Vectors is the whole vectors it really computed or moved.
	Vectors int `json:"vectors"`
	// Duration is its own measured time, s: for a compute, the products
	// (and the emulated clock rate's repeated rows); for a send or a
	// receive, the sender's packing, the emulated wire and the receiver's
	// unpacking, the same for both ends.
	Duration float64 `json:"duration"`
	// Wire is the emulated network's part of a transfer's Duration:
	// latency + bytes moved x 8 / throughput (0 for a compute).
	Wire float64 `json:"wire,omitempty"`
	// Start and End place it on the executed timeline (s from 0): the
	// measured durations replayed on dedicated processors in the
	// schedule's order (see the package doc).
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	// Remainder marks a compute the schedule did not have: the vectors
	// rounding left on a processor after its last operation.
	Remainder bool `json:"remainder,omitempty"`
}

// Pass is one schedule, executed.
type Pass struct {
	// Params are the parameters the schedule was built with.
	Params Params `json:"params"`
	// Clock is what timed the operations: ClockThreadCPU or ClockWall.
	Clock string `json:"clock"`
	// R is the schedule's round count.
	R int `json:"rounds"`
	// T is the steady state's asymptotic makespan, Formula the paper's
	// T + T/R + α·R, Predicted the schedule's simulated makespan (the
	// paper's Table 4 "simulation"), all in seconds.
	T         float64 `json:"t"`
	Formula   float64 `json:"formula_total"`
	Predicted float64 `json:"predicted"`
	// Measured is the executed timeline's makespan (Table 4 "actual").
	Measured float64 `json:"measured"`
	// Fitted is eq. (1), (2) refitted from Ops.
	Fitted Fit `json:"fitted"`
	// Wall is the wall-clock time the execution took, one operation at a
	// time; it is not a makespan.
	Wall float64 `json:"wall"`
	// Checksum is the XOR of every computed vector's result hash; Run
	// checks it against SerialChecksum.
	Checksum uint64 `json:"checksum"`
	// Schedule is the executed schedule; Ops[k] is Schedule.Ops[k] executed
	// for k < len(Schedule.Ops), then any remainder computes.
	Schedule *mmdl.Schedule `json:"-"`
	Ops      []Record       `json:"ops"`
}

// Result is the calibration loop's outcome, like the paper's Table 4 for
// one case: Before ran the schedule of the guessed parameters, After the
// schedule of the parameters fitted from Before.
type Result struct {
	// Instance is the scaled instance with the guessed parameters.
	Instance mmdl.Instance `json:"instance"`
	Scale    float64       `json:"scale"`
	// HostMHz is the clock rate this machine's core stands for: the
	// instance's fastest.
	HostMHz float64 `json:"host_mhz"`
	Before  Pass    `json:"before"`
	After   Pass    `json:"after"`
}

// Run is the calibration loop of the paper's Fig. 2 on this machine:
// schedule in (scaled by opts.Scale) with its parameters, execute, refit
// with eq. (1) and (2), reschedule with the fitted parameters, execute
// again. rounds is R for both schedules, or 0 to let mmdl.ChooseRounds pick
// it each time. ctx stops an execution between operations.
func Run(ctx context.Context, in mmdl.Instance, rounds int, opts Options) (Result, error) {
	if err := in.Validate(); err != nil {
		return Result{}, err
	}
	if rounds < 0 || rounds > maxRounds {
		return Result{}, optionError("rounds", strconv.Itoa(rounds), fmt.Sprintf("0 (the scheduler chooses) or 1 to %d", maxRounds))
	}
	scale := opts.Scale
	if scale == 0 {
		scale = DefaultScale
	}
	if !(scale > 0 && scale <= 1) {
		return Result{}, optionError("scale", strconv.FormatFloat(opts.Scale, 'g', -1, 64), "a fraction of the load in (0, 1], or 0 for the default")
	}
	sc := in
	sc.Tasks = make([]float64, len(in.Tasks))
	total := 0.0
	for i, l := range in.Tasks {
		sc.Tasks[i] = math.Round(l * scale)
		total += sc.Tasks[i]
	}
	if total < 1 || total > MaxVectors {
		return Result{}, optionError("scale", strconv.FormatFloat(scale, 'g', -1, 64), fmt.Sprintf("a fraction that leaves 1 to %d whole tasks (it leaves %g of %g)", MaxVectors, total, in.TotalTasks()))
	}
	res := Result{Instance: sc, Scale: scale, HostMHz: hostMHz(sc)}
	want := SerialChecksum(int(total))

	var err error
	if res.Before, err = runPass(ctx, sc, rounds, want, opts.WallClock); err != nil {
		return res, fmt.Errorf("calibrate: before: %w", err)
	}
	after := sc
	after.Compute, after.Comm = res.Before.Fitted.Compute, res.Before.Fitted.Comm
	if err := after.Validate(); err != nil {
		return res, fmt.Errorf("calibrate: fitted parameters: %w", err)
	}
	if res.After, err = runPass(ctx, after, rounds, want, opts.WallClock); err != nil {
		return res, fmt.Errorf("calibrate: after: %w", err)
	}
	return res, nil
}

// maxRounds bounds R: each round is one message per flow, so very many
// rounds only measure latency.
const maxRounds = 1000

// hostMHz is the clock rate this machine's core emulates: the fastest
// processor's, so every other processor only adds work.
func hostMHz(in mmdl.Instance) float64 {
	m := 0.0
	for _, f := range in.MHz {
		m = max(m, f)
	}
	return m
}

// runPass schedules in, executes the schedule and refits.
func runPass(ctx context.Context, in mmdl.Instance, rounds int, want uint64, wallClock bool) (Pass, error) {
	st, err := mmdl.SteadyState(in)
	if err != nil {
		return Pass{}, err
	}
	// The overlapped schedule: its simulation is the rule the executor
	// follows (every operation as soon as it can, in order), so predicted
	// and measured compare like with like. The paper's schedule keeps a
	// fixed round length that an as-soon-as-possible executor would not.
	var s *mmdl.Schedule
	if rounds == 0 {
		_, s, err = mmdl.ChooseRounds(in, st, mmdl.Overlap)
	} else {
		s, err = mmdl.Rounds(in, st, rounds, mmdl.Overlap)
	}
	if err != nil {
		return Pass{}, err
	}
	ex, err := execute(ctx, in, s.Ops, wallClock)
	if err != nil {
		return Pass{}, err
	}
	if ex.checksum != want {
		return Pass{}, fmt.Errorf("checksum %#x of the executed results, want %#x from a serial computation: some vector was lost, duplicated or computed wrong", ex.checksum, want)
	}
	p := Pass{
		Clock: ex.clock, Params: Params{Compute: in.Compute, Comm: in.Comm}, R: s.R,
		T: st.T, Formula: mmdl.FormulaTotal(st.T, in.Latency, s.R), Predicted: s.Makespan,
		Measured: ex.makespan, Wall: ex.wall, Checksum: ex.checksum, Schedule: s, Ops: ex.records,
	}
	if p.Fitted, err = Refit(in, p.Ops); err != nil {
		return Pass{}, err
	}
	return p, nil
}

// Executed is the pass's schedule with the executed timeline's times
// (remainder computes appended), so that the same Trace and Gantt code draws
// the actual run beside the simulation, as the paper's Fig. 5 and 7 beside
// Fig. 4 and 6.
func (p Pass) Executed() *mmdl.Schedule {
	if p.Schedule == nil {
		return nil
	}
	s := *p.Schedule
	s.Ops = make([]mmdl.Op, len(p.Ops))
	s.RoundStart = make([]float64, s.R)
	s.RoundEnd = make([]float64, s.R)
	seen := make([]bool, s.R)
	for k, r := range p.Ops {
		op := r.Planned
		if r.Remainder {
			op.Tasks = float64(r.Vectors)
		}
		op.Start, op.End = r.Start, r.End
		s.Ops[k] = op
		if op.Kind == mmdl.Send && op.Round >= 0 && op.Round < s.R {
			if !seen[op.Round] || op.Start < s.RoundStart[op.Round] {
				s.RoundStart[op.Round] = op.Start
			}
			s.RoundEnd[op.Round] = max(s.RoundEnd[op.Round], op.End)
			seen[op.Round] = true
		}
	}
	s.Boundaries = nil
	for k, ok := range seen {
		if ok {
			s.Boundaries = append(s.Boundaries, s.RoundStart[k])
		}
	}
	// The schedule's Ops go processor by processor in time order; keep
	// that for the remainders too.
	slices.SortStableFunc(s.Ops, func(a, b mmdl.Op) int { return a.Proc - b.Proc })
	s.Makespan = p.Measured
	return &s
}
