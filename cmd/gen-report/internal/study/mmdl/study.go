package mmdl

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"commlab/cmd/gen-report/internal/cli"
	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/study"
	engine "commlab/engine/mmdl"
	"commlab/engine/trace"
	scmmdl "commlab/scene/mmdl"
)

// Study is paper 003's study (multi-master divisible load in steady rounds): gen-report's eval mmdl and
// the mmdl page.
type Study struct{}

func (Study) Name() string { return "mmdl" }

func (Study) Eval(stdout, stderr io.Writer, args []string) error {
	return evalMmdl(stdout, stderr, args)
}

// Sweep lays out the study: Table 4's cases, Table 5's round counts and
// the wide round grid, one point each. The Gantt charts are drawn and
// the live calibration loop runs when the page is built, on the machine
// that writes the report.
func (Study) Sweep(cfg study.Config) (study.Sweep, error) {
	return newMmdlStudy(cfg.Full), nil
}

// mmdlRounds is the paper's round count of Table 4 and of Fig. 4-7.
const mmdlRounds = 5

// mmdlCase is one row of the paper's Table 4.
type mmdlCase struct {
	ProcSet int
	Load    string
}

func (c mmdlCase) String() string { return fmt.Sprintf("ProcSet %d, Load %s", c.ProcSet, c.Load) }

// mmdlCases are Table 4's nine cases, in its order.
var mmdlCases = []mmdlCase{
	{1, "1"}, {1, "2"}, {1, "3-a"}, {1, "4"},
	{2, "1"}, {2, "2"}, {2, "3-a"}, {2, "3-b"}, {2, "4"},
}

// paperTable4 is the paper's Table 4 (s), one row per mmdlCases entry:
// simulated before and after calibration, measured before and after.
var paperTable4 = [][4]float64{
	{3.125000, 9.187500, 9.217236, 9.208515},
	{4.589715, 11.845532, 12.633339, 11.835162},
	{4.626095, 10.888976, 10.884279, 10.941214},
	{5.238346, 12.886128, 13.015991, 12.822947},
	{4.159893, 11.724372, 11.839234, 11.712632},
	{4.883831, 12.431613, 13.245593, 12.474350},
	{4.712693, 11.253531, 11.591924, 11.417429},
	{5.045411, 11.501171, 12.467642, 11.568004},
	{5.287006, 13.214013, 13.520686, 13.477915},
}

// paperTable5 is the paper's Table 5 (s): ProcSet 2, Load 2, after
// calibration, rounds 1 … 20: simulated and measured.
var paperTable5 = [][2]float64{
	{11.996034, 11.895846}, {15.506518, 15.542628}, {13.798204, 13.837349}, {12.944644, 12.993227},
	{12.431613, 12.474350}, {12.090941, 12.117615}, {11.846690, 11.878990}, {11.665072, 11.691494},
	{11.522636, 11.542078}, {11.408744, 11.440548}, {11.316546, 11.331306}, {11.238737, 11.271751},
	{11.173820, 11.198440}, {11.118194, 11.113453}, {11.070093, 11.078544}, {11.029194, 11.019053},
	{10.989639, 10.986812}, {10.956554, 10.957962}, {10.928810, 10.924403}, {10.900142, 10.918454},
}

// The case of Table 5, Fig. 4-8.
var mmdlFigCase = mmdlCase{2, "2"}

// mmdlStudy is the paper-003 study (specs/mmdl.md): Table 4, Table 5 /
// Fig. 8, the Gantt charts of Fig. 4 and 6, the round count beyond the
// paper, and the calibration loop run on this machine.
type mmdlStudy struct {
	Full   bool
	wide   []int // the round counts of the sweep beyond Table 5
	calib  mmdlCalibConfig
	runner mmdlCalibRunner
}

func newMmdlStudy(full bool) *mmdlStudy {
	s := &mmdlStudy{Full: full, calib: quickCalib, runner: mmdlCalibration}
	// Beyond Table 5: R on a log grid past R* = √(T/α) ≈ 320 for
	// ProcSet 2 / Load 2, where α·R overtakes T/R.
	if full {
		s.calib = fullCalib
		for R := 1.0; R <= 2000; R *= math.Pow(10, 0.1) {
			if r := int(math.Round(R)); len(s.wide) == 0 || r != s.wide[len(s.wide)-1] {
				s.wide = append(s.wide, r)
			}
		}
	} else {
		s.wide = []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000}
	}
	return s
}

// mmdlPoint is the engine on one instance and round count: both
// schedules of the same steady state.
type mmdlPoint struct {
	T        float64 // the steady state's asymptotic makespan
	Makespan float64 // the paper's schedule (engine.Paper), simulated
	Overlap  float64 // the overlapped schedule (engine.Overlap, the paper's future work), simulated
	Formula  float64 // T + T/R + α·R
	Period   float64 // the paper's schedule's round length
	R        int
	D        int  // the most messages one processor handles per round
	Moves    bool // the steady state moves tasks at all (a balanced load does not)
}

// mmdlCaseResult is one row of Table 4: before and after calibration.
type mmdlCaseResult struct {
	Case          mmdlCase
	Before, After mmdlPoint
	// Executed is the paper's schedule planned with the first guess
	// (0.1 / 0.003) and run on the calibrated machine (0.294 / 0.0034),
	// R = 5: the model's counterpart of Table 4's measured-before column.
	Executed float64
	// The scheduler's own choice of R (after calibration) and its
	// makespan, for each schedule.
	ChosenR, ChosenROverlap       int
	ChosenMakespan, ChosenOverlap float64
	OptimalR                      int // R* = round(√(T/α))
}

// mmdlResults is everything the page shows.
type mmdlResults struct {
	Cases   []mmdlCaseResult
	Rounds  []mmdlPoint // Table 5: R = 1 … 20, ProcSet 2 / Load 2 after calibration
	Wide    []mmdlPoint // the same beyond the paper, on s.wide
	Gantts  []mmdlGantt // Fig. 4 and 6 (the paper's schedule) and Fig. 6's case overlapped
	Alpha   float64
	FigT    float64 // T of ProcSet 2 / Load 2 after calibration
	Calib   *mmdlCalibResult
	CalibOK bool // false: the loop failed on this machine; CalibEr says why
	CalibEr string
}

// mmdlGantt is one schedule drawn as a Gantt chart.
type mmdlGantt struct {
	ID, Title, Caption string
	Trace              *trace.Trace
}

// mmdlRun runs the engine on one instance at R rounds: the steady state
// and both schedules. It returns the paper's schedule.
func mmdlRun(in engine.Instance, R int) (mmdlPoint, *engine.Schedule, error) {
	st, err := engine.SteadyState(in)
	if err != nil {
		return mmdlPoint{}, nil, err
	}
	paper, err := engine.Rounds(in, st, R, engine.Paper)
	if err != nil {
		return mmdlPoint{}, nil, err
	}
	ov, err := engine.Rounds(in, st, R, engine.Overlap)
	if err != nil {
		return mmdlPoint{}, nil, err
	}
	return mmdlPoint{T: st.T, Makespan: paper.Makespan, Overlap: ov.Makespan, Formula: engine.FormulaTotal(st.T, in.Latency, R),
		Period: paper.Period, R: R, D: paper.MaxDegree, Moves: len(st.Transfers) > 0}, paper, nil
}

// The sweep's points: Table 4's cases first, then Table 5's R = 1 … 20
// and the wide grid, all on ProcSet 2 / Load 2 after calibration.
func (s *mmdlStudy) points() int { return len(mmdlCases) + len(paperTable5) + len(s.wide) }

// roundsAt is the round count of a rounds point (pt ≥ len(mmdlCases)).
func (s *mmdlStudy) roundsAt(pt int) int {
	k := pt - len(mmdlCases)
	if k < len(paperTable5) {
		return k + 1
	}
	return s.wide[k-len(paperTable5)]
}

// Fingerprint names the grid.
func (s *mmdlStudy) Fingerprint() string {
	return fmt.Sprintf("mmdl/v1 full=%t cases=%d rounds=%d wide=%v", s.Full, len(mmdlCases), len(paperTable5), s.wide)
}

// Costs are engine/mmdl's estimates: a case builds the paper's schedule
// before and after calibration at R = 5, executes the guessed plan, and
// lets the scheduler choose R for both schedules (EstimateChoose); a
// rounds point builds both schedules of R rounds. The steady states they
// need are linear programs on eight processors, solved here in
// milliseconds.
func (s *mmdlStudy) Costs() []float64 {
	c := make([]float64, s.points())
	fig, figFlows, _ := steadyOf(mmdlFigCase, true)
	for pt := range c {
		if pt >= len(mmdlCases) {
			c[pt] = 2 * engine.Estimate(len(fig.MHz), figFlows, s.roundsAt(pt)).Seconds
			continue
		}
		in, flows, T := steadyOf(mmdlCases[pt], true)
		one := engine.Estimate(len(in.MHz), flows, mmdlRounds).Seconds
		c[pt] = 5*one + engine.EstimateChoose(len(in.MHz), flows, T, in.Latency, engine.Paper).Seconds +
			engine.EstimateChoose(len(in.MHz), flows, T, in.Latency, engine.Overlap).Seconds
	}
	return c
}

// steadyOf is a case's instance, its steady state's flow count and T (a
// case the engine cannot solve costs as one flow: Run reports the error).
func steadyOf(c mmdlCase, calibrated bool) (engine.Instance, int, float64) {
	in, err := engine.Preset(c.ProcSet, c.Load, calibrated)
	if err != nil {
		return in, 1, 0
	}
	st, err := engine.SteadyState(in)
	if err != nil {
		return in, 1, 0
	}
	return in, max(1, len(st.Transfers)), st.T
}

// Run runs the owned points: a case's row of Table 4, or one round count.
func (s *mmdlStudy) Run(ctx context.Context, owned []bool, progress func(done, total float64)) ([]json.RawMessage, error) {
	fig, err := engine.Preset(mmdlFigCase.ProcSet, mmdlFigCase.Load, true)
	if err != nil {
		return nil, err
	}
	return study.RunPoints(ctx, owned, s.Costs(), progress, func(pt int) (any, error) {
		if pt < len(mmdlCases) {
			return caseRun(mmdlCases[pt])
		}
		R := s.roundsAt(pt)
		p, _, err := mmdlRun(fig, R)
		if err != nil {
			return nil, fmt.Errorf("mmdl: %s, R = %d: %w", mmdlFigCase, R, err)
		}
		return p, nil
	})
}

var _ study.TrialCounter = (*mmdlStudy)(nil) // gen-report status counts its trials

// PointTrials is 0: the schedules are computed, not sampled (the live
// calibration loop runs where the page is built, not in a shard).
func (s *mmdlStudy) PointTrials(int, json.RawMessage) (int, error) { return 0, nil }

// caseRun is one row of Table 4: the paper's schedule before and after
// calibration, the guessed plan on the calibrated machine, and the
// scheduler's choices of R.
func caseRun(c mmdlCase) (mmdlCaseResult, error) {
	cr := mmdlCaseResult{Case: c}
	guess, err := engine.Preset(c.ProcSet, c.Load, false)
	if err != nil {
		return cr, err
	}
	in, err := engine.Preset(c.ProcSet, c.Load, true)
	if err != nil {
		return cr, err
	}
	if cr.Before, _, err = mmdlRun(guess, mmdlRounds); err != nil {
		return cr, fmt.Errorf("mmdl: %s: %w", c, err)
	}
	if cr.After, _, err = mmdlRun(in, mmdlRounds); err != nil {
		return cr, fmt.Errorf("mmdl: %s: %w", c, err)
	}
	plan, err := engine.SteadyState(guess)
	if err != nil {
		return cr, err
	}
	ex, err := engine.Execute(in, plan, mmdlRounds, engine.Paper)
	if err != nil {
		return cr, fmt.Errorf("mmdl: %s: the first guess's plan on the calibrated machine: %w", c, err)
	}
	cr.Executed = ex.Makespan
	st, err := engine.SteadyState(in)
	if err != nil {
		return cr, err
	}
	R, sch, err := engine.ChooseRounds(in, st, engine.Paper)
	if err != nil {
		return cr, fmt.Errorf("mmdl: %s: choosing R: %w", c, err)
	}
	cr.ChosenR, cr.ChosenMakespan = R, sch.Makespan
	R, sch, err = engine.ChooseRounds(in, st, engine.Overlap)
	if err != nil {
		return cr, fmt.Errorf("mmdl: %s: choosing R: %w", c, err)
	}
	cr.ChosenROverlap, cr.ChosenOverlap = R, sch.Makespan
	cr.OptimalR = engine.OptimalRounds(st.T, in.Latency)
	return cr, nil
}

// Page builds the page from every point's result, draws the Gantt
// charts, and runs the calibration loop live.
func (s *mmdlStudy) Page(raw []json.RawMessage) (report.Page, error) {
	r, err := s.results(raw)
	if err != nil {
		return report.Page{}, err
	}
	return s.page(r), nil
}

// results decodes every point's result (vetting what a shard file holds),
// draws the Gantt charts and runs the calibration loop.
func (s *mmdlStudy) results(raw []json.RawMessage) (*mmdlResults, error) {
	r := &mmdlResults{}
	for pt, b := range raw {
		var err error
		if b == nil {
			err = fmt.Errorf("no result")
		} else if pt < len(mmdlCases) {
			var cr mmdlCaseResult
			if err = cli.DecodeStrict(b, &cr); err == nil {
				err = checkCase(mmdlCases[pt], cr)
			}
			r.Cases = append(r.Cases, cr)
		} else {
			var p mmdlPoint
			if err = cli.DecodeStrict(b, &p); err == nil {
				err = checkPoint(s.roundsAt(pt), p)
			}
			if pt < len(mmdlCases)+len(paperTable5) {
				r.Rounds = append(r.Rounds, p)
			} else {
				r.Wide = append(r.Wide, p)
			}
		}
		if err != nil {
			return nil, &study.PointError{Point: pt, Err: err}
		}
	}
	in, err := engine.Preset(mmdlFigCase.ProcSet, mmdlFigCase.Load, true)
	if err != nil {
		return nil, err
	}
	r.Alpha = in.Latency
	r.FigT = r.Rounds[0].T
	if err := s.gantts(r); err != nil {
		return nil, err
	}
	res, err := s.runner(context.Background(), s.calib)
	if err != nil {
		r.CalibEr = err.Error()
	} else {
		r.Calib, r.CalibOK = res, true
	}
	return r, nil
}

// checkCase vets a case's row read from a shard file.
func checkCase(c mmdlCase, cr mmdlCaseResult) error {
	if cr.Case != c {
		return fmt.Errorf("the row of %s, want %s", cr.Case, c)
	}
	for _, p := range []mmdlPoint{cr.Before, cr.After} {
		if err := checkPoint(mmdlRounds, p); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		what string
		v    float64
	}{{"executed", cr.Executed}, {"chosen makespan", cr.ChosenMakespan}, {"chosen overlapped makespan", cr.ChosenOverlap}} {
		if err := study.NonNegative(f.what, f.v); err != nil {
			return err
		}
	}
	if cr.ChosenR < 1 || cr.ChosenROverlap < 1 || cr.OptimalR < 1 {
		return fmt.Errorf("round counts %d, %d, %d: want at least 1", cr.ChosenR, cr.ChosenROverlap, cr.OptimalR)
	}
	return nil
}

// checkPoint vets one round count's numbers read from a shard file.
func checkPoint(R int, p mmdlPoint) error {
	if p.R != R {
		return fmt.Errorf("R = %d, want %d", p.R, R)
	}
	for _, f := range []struct {
		what string
		v    float64
	}{{"T", p.T}, {"makespan", p.Makespan}, {"overlapped makespan", p.Overlap}, {"formula", p.Formula}, {"period", p.Period}} {
		if err := study.NonNegative(f.what, f.v); err != nil {
			return err
		}
	}
	if p.D < 0 {
		return fmt.Errorf("D = %d, want ≥ 0", p.D)
	}
	return nil
}

// gantts draws Fig. 4 and 6 (the paper's schedule) and Fig. 6's case
// overlapped.
func (s *mmdlStudy) gantts(r *mmdlResults) error {
	for _, g := range []struct {
		cal       bool
		sched     engine.Sched
		id, title string
	}{
		{false, engine.Paper, "mmdl-fig4", "Fig. 4: the paper's schedule before calibration (simulated), ProcSet 2, Load 2, R = 5"},
		{true, engine.Paper, "mmdl-fig6", "Fig. 6: the paper's schedule after calibration (simulated), ProcSet 2, Load 2, R = 5"},
		{true, engine.Overlap, "mmdl-fig6-overlap", "Fig. 6's case overlapped (the paper's future work), after calibration, R = 5"},
	} {
		in, err := engine.Preset(mmdlFigCase.ProcSet, mmdlFigCase.Load, g.cal)
		if err != nil {
			return err
		}
		st, err := engine.SteadyState(in)
		if err != nil {
			return err
		}
		sch, err := engine.Rounds(in, st, mmdlRounds, g.sched)
		if err != nil {
			return err
		}
		what := fmt.Sprintf("the paper's simulation gives %.6g s", paperSim(mmdlFigCase, g.cal))
		if g.sched == engine.Overlap {
			what = fmt.Sprintf("the paper's schedule of the same case takes %.6g s", r.Cases[caseIndex(mmdlFigCase)].After.Makespan)
		}
		r.Gantts = append(r.Gantts, mmdlGantt{ID: g.id, Title: g.title, Trace: sch.Trace(),
			Caption: fmt.Sprintf("%s, schedule = %s; compute parameter %g (%g K clocks per task), communication parameter %g (%g KB per task). T = %.6g s, simulated makespan %.6g s, T + T/R + α·R = %.6g s; %s.",
				mmdlFigCase, g.sched, in.Compute, in.Compute*1e3, in.Comm, in.Comm*1e3, st.T, sch.Makespan, engine.FormulaTotal(st.T, in.Latency, mmdlRounds), what)})
	}

	return nil
}

// paperSim is Table 4's simulated time of a case.
func paperSim(c mmdlCase, calibrated bool) float64 {
	i := caseIndex(c)
	if calibrated {
		return paperTable4[i][1]
	}
	return paperTable4[i][0]
}

// paperMeasured is Table 4's measured time of a case.
func paperMeasured(c mmdlCase, calibrated bool) float64 {
	i := caseIndex(c)
	if calibrated {
		return paperTable4[i][3]
	}
	return paperTable4[i][2]
}

func caseIndex(c mmdlCase) int {
	for i, x := range mmdlCases {
		if x == c {
			return i
		}
	}
	panic("mmdl: " + c.String() + " is not a case of Table 4") // the page's own constants
}

// relErr is (a − b)/b.
func relErr(a, b float64) float64 { return (a - b) / b }

func pct(x float64) string { return fmt.Sprintf("%+.1f %%", 100*x) }

// pct3 is a relative difference to 0.001 %, for the simulated columns the
// paper prints to 7 digits.
func pct3(x float64) string { return fmt.Sprintf("%+.3f %%", 100*x) }

// page builds the MMDL report page.
func (s *mmdlStudy) page(r *mmdlResults) report.Page {
	mode := "full grids"
	if !s.Full {
		mode = "quick grids (make report regenerates the full grids)"
	}
	before, err1 := engine.Preset(1, "1", false)
	after, err2 := engine.Preset(1, "1", true)
	if err1 != nil || err2 != nil { // the engine's own presets; run already used them
		panic(fmt.Sprint("mmdl presets: ", err1, err2))
	}
	p := report.Page{
		File:      "mmdl.html",
		Thumbnail: "mmdl-fig8",
		Title:     "Multi-master divisible load: steady rounds, on paper and on this machine",
		Subtitle:  "Paper 003 (Sayaka Tomi and Reiji Suda: asymptotically optimum scheduling of multi-master divisible load problems evaluated on actual machines): Table 4, Table 5 / Fig. 8 and Fig. 4-7 regenerated with the paper's schedule, beside the overlapped schedule of its future work, the round count chosen by the scheduler, and the calibration loop run live, " + mode,
		Intro: strings.Join([]string{
			"Eight processors on a crossbar each start with some of 600,000 independent unit tasks (a vector to multiply by a common 20 × 400 matrix). Moving a task costs β on both ends, computing it costs γ_i on processor i, and a processor does one thing at a time: compute, or take part in one transfer. The steady state is the flow of tasks that minimises the asymptotic makespan T. Model as in specs/mmdl.md; engine/mmdl computes the steady state (closed form: every processor imports or exports), builds an executable schedule of R rounds (order and times of every send, receive and compute, one transfer at a time per processor, a task computed only after it arrived) and simulates it; gen-report eval mmdl runs one instance.",
			"Two schedules. The paper's (schedule = paper, the default; Section 2.3): R identical rounds, each flow one message per round; a round lasts T/R plus the latency α of each message of its busiest processor, and a processor computes in each round the tasks that arrived in the round before, so the first round only communicates and one more round at the end only computes. The paper accounts this as T + T/R + α·R; its simulation, like ours, ends the compute-only round when its computation does, at T + max γ_i·f_i/R + D·α·R (D messages per round). With one round there is no pipeline: the round communicates, then computes. The overlapped schedule (schedule = overlap) is the paper's future work (Section 6: process the initial load in the first round): every transfer as soon as both ends are free, every gap filled with computation of tasks the processor holds, its own load included.",
			fmt.Sprintf("Parameters (the paper's Section 4): γ_i = compute parameter × 10^6 clocks / clock rate, β = communication parameter × 10^6 bytes × 8 / throughput; before calibration %g and %g (%g K clocks and %g KB per task), after calibration %g and %g; latency α = %g µs, throughput %g Mbit/s. ProcSet 1 is eight 2400 MHz processors, ProcSet 2 six 2400 MHz and two 2000 MHz. The engine is deterministic: every number on this page is the same on every run; the calibration loop's, measured live on the machine that writes the report, are on a page of their own.",
				before.Compute, before.Comm, before.Compute*1e3, before.Comm*1e3, after.Compute, after.Comm, before.Latency*1e6, before.Throughput/1e6),
			"Every chart links to its data as CSV and JSON.",
		}, "\n\n"),
	}
	p.Sections = append(p.Sections, report.Section{
		Title: "The paper's Table 4: predicted and measured times, R = 5",
		Intro: "For each of the nine cases, before and after calibration: the paper's simulated (predicted) time beside the paper's schedule simulated here, and the paper's measured time beside the model's counterpart. Before calibration the paper planned with its first guess (0.1 / 0.003) and ran the plan on its cluster, whose true parameters its calibration found (0.294 / 0.0034); the model does the same: it plans with the guess and executes the plan's flows and order with the calibrated parameters (mmdl.Execute). After calibration plan and machine agree, and the model's execution is its simulation. Then the overlapped schedule, T and the paper's formula.",
		Items: []any{s.table4(r), s.table4Chart(r, false), s.table4Chart(r, true)},
	})
	p.Sections = append(p.Sections, report.Section{
		Title: "The paper's Table 5 and Fig. 8: the round count",
		Intro: fmt.Sprintf("%s after calibration, R = 1 … 20. T = %.6g s and α = %g µs, so the formula is least at R* = √(T/α) ≈ %.0f, far beyond the paper's 20. The paper's schedule pays the compute-only last round, max γ_i·f_i/R, and the latency of each round; the overlapped schedule pays neither round, only the latencies and what waits remain.", mmdlFigCase, r.FigT, r.Alpha*1e6, math.Sqrt(r.FigT/r.Alpha)),
		Items: []any{s.roundsChart(r), s.roundsTable(r), s.wideChart(r)},
	})
	var gantts []any
	for _, g := range r.Gantts {
		gantts = append(gantts, ganttOf(g))
	}
	p.Sections = append(p.Sections, report.Section{
		Title: "The paper's Fig. 4 and 6: the schedules as Gantt charts",
		Intro: "One lane per processor; a bar per send, receive and compute, coloured by kind; blank is idle. The dashed lines are the round boundaries. In the paper's schedule the first round only sends and receives, so most processors idle in it, and the last round only computes; the overlapped schedule of the same case fills that idle time. Zoom on time with the mouse wheel or the slider. Fig. 5 and 7 of the paper are the same schedules executed on its cluster; the calibration loop, measured live on a page of its own, executes a schedule on the machine that wrote this report.",
		Items: gantts,
	})
	p.Sections = append(p.Sections, s.calibSection(r))
	p.Sections = append(p.Sections, report.Section{
		Title: "Findings",
		Intro: "The paper's claims, and the model's own promises, checked against the numbers above. Each finding puts the paper's number beside ours, computed from the data, and the range the paper's words allow it, quoted in its tolerance: the model is deterministic, so a finding is reproduced when our number lies in that range and not reproduced when it does not (partly when some of its checks are and some are not). The verdicts are computed, not written by hand.",
		Items: []any{report.Findings{Title: "The paper's findings against this engine", Items: mmdlFindings(r)}},
	})
	return p
}

func f6(v float64) string { return fmt.Sprintf("%.6g", v) }

// f7 prints a time as the paper's tables do, to the microsecond.
func f7(v float64) string { return fmt.Sprintf("%.6f", v) }

func (s *mmdlStudy) table4(r *mmdlResults) *report.Table {
	t := &report.Table{
		ID:      "mmdl-table4",
		Title:   "Table 4: the paper's times beside this engine's, R = 5",
		Caption: "Times in seconds. Paper: Table 4's simulation (prediction) and actual-machine columns. Ours: the paper's schedule simulated; executed, before calibration the first guess's plan run with the calibrated parameters, after calibration the calibrated plan (its simulation); the overlapped schedule; T, the steady state's asymptotic makespan; and the formula T + T/R + α·R. A balanced load (ProcSet 1, Load 1) moves nothing, and there every schedule takes T. A click on a row opens the mmdl scene with its case and parameters.",
		Header:  []string{"case", "parameters", "paper: simulated", "ours: paper's schedule", "vs paper", "paper: measured", "ours: executed", "vs paper", "ours: overlapped", "ours: T", "ours: formula"},
	}
	for _, c := range r.Cases {
		for _, cal := range []bool{false, true} {
			p, name, ex := c.Before, "before (0.1 / 0.003)", c.Executed
			if cal {
				p, name, ex = c.After, "after (0.294 / 0.0034)", c.After.Makespan
			}
			sim, meas := paperSim(c.Case, cal), paperMeasured(c.Case, cal)
			t.Rows = append(t.Rows, []string{c.Case.String(), name, f7(sim), f7(p.Makespan), pct3(relErr(p.Makespan, sim)),
				f7(meas), f7(ex), pct(relErr(ex, meas)), f7(p.Overlap), f7(p.T), f7(p.Formula)})
			not := ""
			if !cal {
				not = guessedNote
			}
			t.RowLinks = append(t.RowLinks, sceneLink(c.Case, cal, mmdlRounds, engine.Paper, "this row of Table 4", not))
		}
	}
	return t
}

func caseAxis() report.Axis {
	x := report.Axis{Name: "case"}
	for _, c := range mmdlCases {
		x.Labels = append(x.Labels, fmt.Sprintf("PS%d L%s", c.ProcSet, c.Load))
	}
	return x
}

func (s *mmdlStudy) table4Chart(r *mmdlResults, cal bool) *report.BarChart {
	id, when := "mmdl-table4-before", "before calibration (planned with 0.1 / 0.003)"
	if cal {
		id, when = "mmdl-table4-after", "after calibration (0.294 / 0.0034)"
	}
	var sim, meas, mk, ex, ov, T []float64
	for _, c := range r.Cases {
		p, e := c.Before, c.Executed
		if cal {
			p, e = c.After, c.After.Makespan
		}
		sim, meas = append(sim, paperSim(c.Case, cal)), append(meas, paperMeasured(c.Case, cal))
		mk, ex, ov, T = append(mk, p.Makespan), append(ex, e), append(ov, p.Overlap), append(T, p.T)
	}
	return &report.BarChart{
		ID:      id,
		Title:   "Table 4 " + when,
		Caption: "PSn Lx is ProcSet n, Load x; R = 5. The paper's two columns beside ours: the paper's schedule simulated, executed on the calibrated machine, the overlapped schedule and T.",
		X:       caseAxis(), YName: "time (s)", Digits: 6,
		Series: []report.BarSeries{
			{Name: "paper: simulated", Values: sim},
			{Name: "paper: measured", Values: meas},
			{Name: "ours: paper's schedule", Values: mk},
			{Name: "ours: executed", Values: ex},
			{Name: "ours: overlapped", Values: ov},
			{Name: "ours: T", Values: T},
		},
	}
}

func roundsAxis(rs []int) report.Axis {
	x := report.Axis{Name: "rounds R"}
	for _, R := range rs {
		x.Labels = append(x.Labels, fmt.Sprint(R))
		x.Values = append(x.Values, float64(R))
	}
	return x
}

func (s *mmdlStudy) roundsChart(r *mmdlResults) *report.LineChart {
	var rs []int
	var sim, meas, mk, ov, fo, T []float64
	var paperLinks, ovLinks []*report.Link
	for i, p := range r.Rounds {
		rs = append(rs, p.R)
		sim, meas = append(sim, paperTable5[i][0]), append(meas, paperTable5[i][1])
		mk, ov, fo, T = append(mk, p.Makespan), append(ov, p.Overlap), append(fo, p.Formula), append(T, p.T)
		what := fmt.Sprintf("Fig. 8 at R = %d", p.R)
		paperLinks = append(paperLinks, sceneLink(mmdlFigCase, true, p.R, engine.Paper, what, ""))
		ovLinks = append(ovLinks, sceneLink(mmdlFigCase, true, p.R, engine.Overlap, what, ""))
	}
	return &report.LineChart{
		ID:      "mmdl-fig8",
		Title:   "Fig. 8: time versus the number of rounds, ProcSet 2, Load 2",
		Caption: "After calibration (0.294 / 0.0034). The paper's simulated and measured times (Table 5) beside the paper's schedule and the overlapped one simulated here, the formula T + T/R + α·R and T. A click on a point opens the mmdl scene at that R, with the overlapped schedule for its curve and the paper's for the others.",
		X:       roundsAxis(rs), YName: "time (s)", Digits: 6,
		Series: []report.Series{
			{Name: "paper: simulated", Values: sim, Links: paperLinks},
			{Name: "paper: measured", Values: meas, Links: paperLinks},
			{Name: "ours: paper's schedule", Values: mk, Links: paperLinks},
			{Name: "ours: overlapped", Values: ov, Links: ovLinks},
			{Name: "ours: T + T/R + α·R", Values: fo, Links: paperLinks},
			{Name: "ours: T", Values: T, Links: paperLinks},
		},
	}
}

func (s *mmdlStudy) roundsTable(r *mmdlResults) *report.Table {
	t := &report.Table{
		ID:      "mmdl-table5",
		Title:   "Table 5: the number of rounds and the time (s), ProcSet 2, Load 2",
		Caption: "After calibration. Ours: the paper's schedule simulated, its difference from the paper's simulation in milliseconds (the paper prints microseconds), the overlapped schedule and what it saves, and the formula. A click on a row opens the mmdl scene at that R.",
		Header:  []string{"R", "paper: simulated", "paper: measured", "ours: paper's schedule", "vs paper (ms)", "ours: overlapped", "overlap saves", "ours: T + T/R + α·R"},
	}
	for i, p := range r.Rounds {
		t.Rows = append(t.Rows, []string{fmt.Sprint(p.R), f7(paperTable5[i][0]), f7(paperTable5[i][1]), f7(p.Makespan),
			fmt.Sprintf("%+.3f", 1e3*(p.Makespan-paperTable5[i][0])), f7(p.Overlap), pct(-relErr(p.Overlap, p.Makespan)), f7(p.Formula)})
		t.RowLinks = append(t.RowLinks, sceneLink(mmdlFigCase, true, p.R, engine.Paper, fmt.Sprintf("Table 5 at R = %d", p.R), ""))
	}
	return t
}

func (s *mmdlStudy) wideChart(r *mmdlResults) *report.LineChart {
	var rs []int
	var mk, ov, fo, T []float64
	var paperLinks, ovLinks []*report.Link
	for _, p := range r.Wide {
		rs = append(rs, p.R)
		mk, ov, fo, T = append(mk, p.Makespan), append(ov, p.Overlap), append(fo, p.Formula), append(T, p.T)
		what := fmt.Sprintf("R = %d beyond Table 5", p.R)
		paperLinks = append(paperLinks, sceneLink(mmdlFigCase, true, p.R, engine.Paper, what, ""))
		ovLinks = append(ovLinks, sceneLink(mmdlFigCase, true, p.R, engine.Overlap, what, ""))
	}
	c := r.Cases[caseIndex(mmdlFigCase)]
	return &report.LineChart{
		ID:    "mmdl-rounds-wide",
		Title: "Beyond Table 5: R up to past R*, ProcSet 2, Load 2",
		Caption: fmt.Sprintf("After calibration; R on a log grid. R* = √(T/α) = %d minimises the formula (%.6g s there). The scheduler's own choice: R = %d with the paper's schedule (%.6g s), R = %d overlapped (%.6g s). Past the best R, the latency grows faster than the last round shrinks; the paper's schedule pays α for each of the D messages its busiest processor handles per round, so its best R lies near √(max γ_i·f_i/(D·α)), below R*. A click on a point opens the mmdl scene at that R (capped to %d, the most rounds the scene draws).",
			c.OptimalR, engine.FormulaTotal(c.After.T, r.Alpha, c.OptimalR), c.ChosenR, c.ChosenMakespan, c.ChosenROverlap, c.ChosenOverlap, scmmdl.MaxRounds),
		X: roundsAxis(rs), YName: "time (s)", Digits: 6,
		Series: []report.Series{
			{Name: "ours: paper's schedule", Values: mk, Links: paperLinks},
			{Name: "ours: overlapped", Values: ov, Links: ovLinks},
			{Name: "ours: T + T/R + α·R", Values: fo, Links: paperLinks},
			{Name: "ours: T", Values: T, Links: paperLinks},
		},
	}
}

// ganttOf draws a schedule's trace: its compute, send and receive spans
// (idle is what they leave blank) and its round markers.
func ganttOf(g mmdlGantt) *report.Gantt {
	kinds := []trace.Kind{trace.Send, trace.Receive, trace.Compute}
	out := &report.Gantt{
		ID: g.ID, Title: g.Title, Caption: g.Caption,
		LaneName: "processor", XName: "time (s)", Digits: 6,
		MarkName: "round boundary",
	}
	for _, k := range kinds {
		out.Kinds = append(out.Kinds, k.String())
	}
	for _, l := range g.Trace.Lanes {
		out.Lanes = append(out.Lanes, l.Name)
	}
	for _, sp := range g.Trace.Spans {
		for ki, k := range kinds {
			if sp.Kind == k {
				out.Bars = append(out.Bars, report.GanttBar{Lane: sp.Lane, Kind: ki, Start: sp.Start, End: sp.End, Label: sp.Label})
			}
		}
	}
	seen := map[float64]bool{}
	for _, m := range g.Trace.Markers {
		if !seen[m.Time] {
			seen[m.Time] = true
			out.Marks = append(out.Marks, m.Time)
		}
	}
	if len(out.Marks) == 0 {
		out.MarkName = ""
	}
	return out
}
