package mmdl

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"commlab/cmd/gen-report/internal/calibrate"
	"commlab/cmd/gen-report/internal/report"
	engine "commlab/engine/mmdl"
	"commlab/engine/trace"
)

// mmdlCalibConfig is what the calibration loop runs: the paper's Fig. 4-7
// case with its first-guess parameters, scaled to a fraction of its load.
type mmdlCalibConfig struct {
	Case   mmdlCase
	Rounds int
	Scale  float64 // fraction of every processor's initial load that really runs
}

// The quick report scales the load to 1/200 (3,000 vectors, about 0.1 s
// for the loop here), the full one to 1/20 (30,000 vectors, about 1 s):
// the larger the load, the less the clock's and the scheduler's noise
// weighs in each measured operation.
var (
	quickCalib = mmdlCalibConfig{Case: mmdlFigCase, Rounds: mmdlRounds, Scale: 1.0 / 200}
	fullCalib  = mmdlCalibConfig{Case: mmdlFigCase, Rounds: mmdlRounds, Scale: 1.0 / 20}
)

// mmdlCalibPass is one pass of the loop: schedule with Compute and Comm,
// execute, measure, refit.
type mmdlCalibPass struct {
	Compute, Comm       float64 // the parameters the schedule used
	Predicted, Measured float64 // its simulated and executed makespans (s)
	FitCompute, FitComm float64 // eq. (1) and (2) refitted from the execution
	Simulated, Executed *trace.Trace
}

// mmdlCalibResult is the calibration loop's outcome, as the page shows it.
type mmdlCalibResult struct {
	Instance      engine.Instance // the scaled instance that ran, first-guess parameters
	Rounds        int
	Before, After mmdlCalibPass
}

// mmdlCalibRunner runs the loop. The report runs it live on this machine
// (mmdlLiveCalibration); tests substitute a deterministic one, since
// measured times are not byte-stable.
type mmdlCalibRunner func(ctx context.Context, cfg mmdlCalibConfig) (*mmdlCalibResult, error)

// mmdlCalibration is the runner newMmdlStudy uses: the live loop. The
// package's tests replace it (TestMain), so that the quick report golden
// stays byte-stable.
var mmdlCalibration mmdlCalibRunner = mmdlLiveCalibration

// mmdlLiveCalibration executes the schedules on this machine through
// internal/calibrate.
func mmdlLiveCalibration(ctx context.Context, cfg mmdlCalibConfig) (*mmdlCalibResult, error) {
	in, err := engine.Preset(cfg.Case.ProcSet, cfg.Case.Load, false)
	if err != nil {
		return nil, err
	}
	res, err := calibrate.Run(ctx, in, cfg.Rounds, calibrate.Options{Scale: cfg.Scale})
	if err != nil {
		return nil, err
	}
	out := &mmdlCalibResult{Instance: res.Instance, Rounds: cfg.Rounds}
	for i, p := range []*calibrate.Pass{&res.Before, &res.After} {
		cp := mmdlCalibPass{
			Compute: p.Params.Compute, Comm: p.Params.Comm,
			Predicted: p.Predicted, Measured: p.Measured,
			FitCompute: p.Fitted.Compute, FitComm: p.Fitted.Comm,
			Simulated: p.Schedule.Trace(),
		}
		cp.Executed = executedSchedule(p).Trace()
		if i == 0 {
			out.Before = cp
		} else {
			out.After = cp
		}
	}
	return out, nil
}

// executedSchedule is a pass's schedule with the executed timeline's
// times in place of the simulated ones (and any remainder computes), so
// that it draws as the simulated one does; the round boundaries are where
// each round's first executed transfer starts.
func executedSchedule(p *calibrate.Pass) *engine.Schedule {
	ex := *p.Schedule
	ex.Ops = make([]engine.Op, len(p.Ops))
	ex.RoundStart, ex.RoundEnd = make([]float64, ex.R), make([]float64, ex.R)
	for k, rec := range p.Ops {
		op := rec.Planned
		op.Start, op.End = rec.Start, rec.End
		ex.Ops[k] = op
		if op.Kind != engine.Compute && op.Round >= 0 && op.Round < ex.R {
			if ex.RoundEnd[op.Round] == 0 || op.Start < ex.RoundStart[op.Round] {
				ex.RoundStart[op.Round] = op.Start
			}
			ex.RoundEnd[op.Round] = max(ex.RoundEnd[op.Round], op.End)
		}
	}
	// Trace draws a boundary where each round's first transfer starts.
	ex.Boundaries = nil
	for k, e := range ex.RoundEnd {
		if e > 0 {
			ex.Boundaries = append(ex.Boundaries, ex.RoundStart[k])
		}
	}
	// Trace wants every processor's operations in time order.
	slices.SortStableFunc(ex.Ops, func(a, b engine.Op) int {
		return cmp.Or(cmp.Compare(a.Proc, b.Proc), cmp.Compare(a.Start, b.Start))
	})
	ex.Makespan = p.Measured
	return &ex
}

// calibSection is the page's live part: the loop's before/after, like
// Table 4, the executed schedules like Fig. 5 and 7, and the findings the
// loop decides. Its numbers are measured on the machine that writes the
// report and differ from run to run, so the section is Live: the report
// draws it on a page of its own (mmdl-live.html), keeps its findings out
// of the page's summary, the verdict counts and the findings file, and
// every other file of the report stays the same from run to run.
func (s *mmdlStudy) calibSection(r *mmdlResults) report.Section {
	sec := report.Section{Title: "The calibration loop, run on this machine", Live: true}
	findings := report.Findings{Title: "The paper's findings the live loop decides", Items: liveFindings(r)}
	if !r.CalibOK {
		sec.Intro = "The calibration loop could not run on the machine that generated this report: " + r.CalibEr
		sec.Items = []any{findings}
		return sec
	}
	c := r.Calib
	sec.Intro = fmt.Sprintf("Measured live on the machine that generated this report: these numbers vary from run to run and from machine to machine (every other number on the page is deterministic). The paper's loop (Section 3, Fig. 2): schedule %s with the first-guess parameters (%g / %g), execute the schedule with the real task (a 20 × 400 matrix times a 400-element vector per task, the vectors' bytes really copied between workers), record the start and end of every send, receive and compute, refit the compute parameter with eq. (1) (compute time × clock rate) and the communication parameter with eq. (2) (transfer time × throughput), reschedule with the refitted parameters and execute again. The load is scaled to %.3g of the paper's (%.0f vectors in all), R = %d. Eight processors are emulated on this machine's cores (internal/calibrate): one operation runs at a time and times only its own work; a slower clock rate repeats rows of the product in proportion; the network waits out the latency and the throughput's wire time after the real copy. The executed timeline is built from the measured durations as eight dedicated processors would run them.",
		s.calib.Case, c.Before.Compute, c.Before.Comm, s.calib.Scale, c.Instance.TotalTasks(), c.Rounds)
	sec.Items = append(sec.Items, s.calibTable(c))
	sec.Items = append(sec.Items,
		calibGantt("live-mmdl-before", "Like Fig. 5: the first-guess schedule as executed on this machine", c.Before),
		calibGantt("live-mmdl-after", "Like Fig. 7: the recalibrated schedule as executed on this machine", c.After),
		findings)
	return sec
}

func (s *mmdlStudy) calibTable(c *mmdlCalibResult) *report.Table {
	t := &report.Table{
		ID:      "live-mmdl-calibration",
		Title:   "Predicted and measured on this machine, before and after calibration",
		Caption: "Live numbers, like the paper's Table 4 and 3: each pass's parameters, the makespan the engine predicts for its schedule, the makespan measured executing it, the prediction's error, and the parameters eq. (1) and (2) refit from the execution. The second pass uses the first pass's refit.",
		Header:  []string{"pass", "compute parameter", "communication parameter", "predicted (s)", "measured (s)", "prediction error", "refit: compute", "refit: communication"},
	}
	for i, p := range []mmdlCalibPass{c.Before, c.After} {
		name := "before calibration"
		if i == 1 {
			name = "after calibration"
		}
		t.Rows = append(t.Rows, []string{name, fmt.Sprintf("%.4g", p.Compute), fmt.Sprintf("%.4g", p.Comm),
			f6(p.Predicted), f6(p.Measured), pct(relErr(p.Predicted, p.Measured)),
			fmt.Sprintf("%.4g", p.FitCompute), fmt.Sprintf("%.4g", p.FitComm)})
	}
	return t
}

func calibGantt(id, title string, p mmdlCalibPass) *report.Gantt {
	return ganttOf(mmdlGantt{ID: id, Title: title, Trace: p.Executed,
		Caption: fmt.Sprintf("Parameters %.4g / %.4g; predicted %.6g s, measured %.6g s (%s). Live: differs from run to run.",
			p.Compute, p.Comm, p.Predicted, p.Measured, pct(relErr(p.Predicted, p.Measured)))})
}

// predictionError is |predicted − measured| / measured.
func (p mmdlCalibPass) predictionError() float64 {
	return math.Abs(p.Predicted-p.Measured) / p.Measured
}
