package nbc

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"commlab/cmd/gen-report/internal/fit"
	"commlab/cmd/gen-report/internal/report"
	engine "commlab/engine/nbc"
)

// Paper 001 names the mechanisms behind NBCT's and TCC's smaller speedups
// and the place of NBC_Test, but gives no magnitudes, and its figures'
// absolute times were lost (specs/nbc-tcc.md, "Revised: calibrate on 2
// nodes, predict 32"). The unknown magnitudes are calibrated on the 2-node
// figure alone, least squares over its three speedups, and the 32-node
// figure is predicted with them.

// nbcUnknown is one magnitude the paper names without a number: the
// engine's (engine/nbc.Unknowns: the mechanism, its plausible range [Lo,
// Hi] and where the range comes from), with the wide box the study
// searched before the ranges were sourced. That box is kept as a variant
// of its own: its fit (thread_create far above what creating a thread
// costs) is how the page shows that a mechanism was missing.
type nbcUnknown struct {
	engine.Unknown
	WideLo, WideHi float64
}

// nbcWideBox is the wide search box of each unknown, SI units: about ten
// times the plausible upper end (a hundred for poll_interference), wide
// enough that the fit, not the box, decides.
var nbcWideBox = map[string][2]float64{
	"progress_call":     {0, 20e-6},
	"thread_create":     {0, 2e-3},
	"mutex_handoff":     {0, 1e-3},
	"poll_interference": {0, 3},
	"dma_traffic":       {0, 1}, // a fraction of the bytes on the wire: [0, 1] is all there is
}

// nbcUnknowns are the calibrated magnitudes, in engine/nbc.Unknowns'
// order. One compute thread fewer is structural (15 instead of 16), not a
// magnitude.
var nbcUnknowns = func() []nbcUnknown {
	out := make([]nbcUnknown, len(engine.Unknowns))
	for i, u := range engine.Unknowns {
		w, ok := nbcWideBox[u.Field]
		if !ok {
			panic("gen-report: nbc: no wide box for the unknown " + u.Field)
		}
		out[i] = nbcUnknown{u, w[0], w[1]}
	}
	return out
}()

// nbcCalibMethods are the cases whose speedups the paper reports, the
// calibration's targets and the prediction's outputs.
var nbcCalibMethods = []engine.Method{engine.NBCFTest, engine.NBCT, engine.TCC}

// nbcCalibSetup is the figure the calibration sees: the 2-node Fig. 1.
const nbcCalibSetup = 0

// nbcVariant is one way of calibrating: a reading of NBC_Test (every
// compute thread calls it, the paper's), the search box (the wide one or
// the plausible one) and whether memory bandwidth is shared.
type nbcVariant struct {
	Key         string // the study's key (s.calib)
	TestThreads string
	Plausible   bool // search within the plausible ranges instead of the wide box
	MemoryShare bool // the engine's memory_share, and dma_traffic among the unknowns
	Label       string
	// Corners: the simplex starts from the hardware defaults and from
	// every corner of the plausible box (the study's search before the
	// ranges were sourced, kept with its box); otherwise from the defaults
	// and the nbcCalibKeep best points of a three-level grid over the
	// plausible ranges (as good a fit for a fraction of the runs with five
	// unknowns, whose corners are 32).
	Corners bool
}

// nbcVariants: the wide box (the study before the ranges were sourced:
// its fit is implausible), the plausible box, and the plausible box with
// memory bandwidth shared, the page's default reading (nbcVarDefault).
var nbcVariants = []nbcVariant{
	{nbcVarWide, engine.TestAll, false, false, "wide box", true},
	{nbcVarPlausible, engine.TestAll, true, false, "plausible ranges", false},
	{nbcVarMemory, engine.TestAll, true, true, "plausible ranges, memory shared", false},
}

// The keys of nbcVariants the page names.
const (
	nbcVarWide      = "wide"
	nbcVarPlausible = "plausible"
	nbcVarMemory    = "memory"
	// nbcVarDefault is the page's reading: every value inside its sourced
	// range, and the mechanism the wide fit pointed at.
	nbcVarDefault = nbcVarMemory
)

// variant is the variant named key.
func variant(key string) nbcVariant {
	for _, v := range nbcVariants {
		if v.Key == key {
			return v
		}
	}
	panic("gen-report: nbc: no calibration variant " + key)
}

// unknowns are the magnitudes v fits: dma_traffic only where memory is
// shared, since without it the value does nothing.
func (v nbcVariant) unknowns() []nbcUnknown {
	var out []nbcUnknown
	for _, u := range nbcUnknowns {
		if u.Needs == "" || u.Needs == "memory_share" && v.MemoryShare {
			out = append(out, u)
		}
	}
	return out
}

// box is the search box of unknown u under variant v.
func (v nbcVariant) box(u nbcUnknown) (lo, hi float64) {
	if v.Plausible {
		return u.Lo, u.Hi
	}
	return u.WideLo, u.WideHi
}

// inside is x moved strictly inside [lo, hi], by a thousandth of its width:
// the simplex's starts must be.
func inside(x, lo, hi float64) float64 {
	return min(max(x, lo+1e-3*(hi-lo)), hi-1e-3*(hi-lo))
}

// nbcCalibration is the result of calibrating the unknowns on one setup.
type nbcCalibration struct {
	Variant  nbcVariant
	Unknowns []nbcUnknown // the ones fitted (Variant.unknowns())
	Values   []float64    // per Unknowns, in SI units
	Fit      fit.Result
}

// apply sets the calibrated values, the reading of NBC_Test and memory
// sharing in p.
func (c *nbcCalibration) apply(p engine.Params) engine.Params {
	for i, u := range c.Unknowns {
		u.Set(&p, c.Values[i])
	}
	p.TestThreads, p.MemoryShare = c.Variant.TestThreads, c.Variant.MemoryShare
	return p
}

// value is the calibrated value of field, if this calibration fitted it.
func (c *nbcCalibration) value(field string) (float64, bool) {
	for i, u := range c.Unknowns {
		if u.Field == field {
			return c.Values[i], true
		}
	}
	return 0, false
}

// nbcCalibEvals caps the objective's runs from each start: each is three
// 2-node runs (a few ms each).
const nbcCalibEvals = 200

// nbcCalibCorners are the corners of the plausible box, strictly inside
// v's box.
func nbcCalibCorners(v nbcVariant) [][]float64 {
	us := v.unknowns()
	var out [][]float64
	for mask := range 1 << len(us) {
		x := make([]float64, len(us))
		for i, u := range us {
			c := u.Lo
			if mask>>i&1 == 1 {
				c = u.Hi
			}
			lo, hi := v.box(u)
			x[i] = inside(c, lo, hi)
		}
		out = append(out, x)
	}
	return out
}

// nbcCalibGrid are the points the simplex may start from besides the
// hardware defaults: every combination of three levels of each unknown,
// its plausible range's ends and its middle (geometric where the range
// does not start at 0). The speedups have plateaus and cliffs in the
// unknowns (NBC_Test calls cost nothing until they saturate the library's
// lock, then a lot), and a simplex only walks down the slope it starts on:
// on a plateau it does not move.
func nbcCalibGrid(v nbcVariant) [][]float64 {
	us := v.unknowns()
	levels := make([][3]float64, len(us))
	for i, u := range us {
		mid := (u.Lo + u.Hi) / 2
		if u.Lo > 0 {
			mid = math.Sqrt(u.Lo * u.Hi)
		}
		// Strictly inside the box: a plausible bound may be the box's.
		lo, hi := v.box(u)
		levels[i] = [3]float64{inside(u.Lo, lo, hi), inside(mid, lo, hi), inside(u.Hi, lo, hi)}
	}
	n := 1
	for range us {
		n *= 3
	}
	out := make([][]float64, n)
	for k := range out {
		x, rest := make([]float64, len(us)), k
		for i := range us {
			x[i] = levels[i][rest%3]
			rest /= 3
		}
		out[k] = x
	}
	return out
}

// nbcCalibKeep is how many of nbcCalibGrid the simplex starts from
// (besides the hardware defaults): the best of them by the objective
// itself. Each start's objective is one evaluation (three 2-node runs); a
// simplex from each would be nbcCalibEvals.
const nbcCalibKeep = 4

// bestStarts are the keep starts with the least sum of squared residuals,
// in their order among the starts (ties keep it too).
func bestStarts(starts [][]float64, residuals func([]float64) ([]float64, error), keep int) ([][]float64, error) {
	cost := make([]float64, len(starts))
	for i, x := range starts {
		r, err := residuals(x)
		if err != nil {
			return nil, err
		}
		for _, v := range r {
			cost[i] += v * v
		}
	}
	idx := make([]int, len(starts))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return cost[idx[a]] < cost[idx[b]] })
	idx = idx[:min(keep, len(idx))]
	sort.Ints(idx)
	out := make([][]float64, len(idx))
	for i, k := range idx {
		out[i] = starts[k]
	}
	return out, nil
}

// calibrateNbc fits the unknowns so that the model's speedups on setup's
// experiment match targets, the paper's speedups of that figure only:
// nothing else enters (TestCalibrationSees2NodesOnly checks it).
func calibrateNbc(setup func(engine.Method) engine.Params, targets map[engine.Method]float64, v nbcVariant) (*nbcCalibration, error) {
	// The key is everything the calibration sees (fmt prints maps sorted).
	key := fmt.Sprintf("%+v|%v|%+v", v, targets, setup(engine.NBCFTest))
	nbcCalibMemo.Lock()
	c, ok := nbcCalibMemo.m[key]
	off := nbcCalibMemo.off
	nbcCalibMemo.Unlock()
	if ok && !off {
		return c, nil
	}
	c, err := calibrateNbcOnce(setup, targets, v)
	if err == nil && !off {
		nbcCalibMemo.Lock()
		nbcCalibMemo.m[key] = c
		nbcCalibMemo.Unlock()
	}
	return c, err
}

// nbcCalibMemo keeps the calibrations made in this process: the report
// and its tests build the study more than once. Tests switch it off to
// see a calibration really rerun.
var nbcCalibMemo = struct {
	sync.Mutex
	m   map[string]*nbcCalibration
	off bool
}{m: map[string]*nbcCalibration{}}

// calibrateNbcOnce is calibrateNbc without the memo.
func calibrateNbcOnce(setup func(engine.Method) engine.Params, targets map[engine.Method]float64, v nbcVariant) (*nbcCalibration, error) {
	us := v.unknowns()
	ps := make([]fit.Param, len(us))
	for i, u := range us {
		lo, hi := v.box(u)
		ps[i] = fit.Param{Name: u.Field, Lo: lo, Hi: hi, Start: inside(u.Default, lo, hi)}
	}
	residuals := func(x []float64) ([]float64, error) {
		// The three runs are independent: run them side by side.
		cx := &nbcCalibration{Variant: v, Unknowns: us, Values: x}
		r := make([]float64, len(nbcCalibMethods))
		errs := make([]error, len(nbcCalibMethods))
		var wg sync.WaitGroup
		for i, m := range nbcCalibMethods {
			want, ok := targets[m]
			if !ok {
				return nil, fmt.Errorf("no target speedup for %s", m)
			}
			wg.Go(func() {
				run, err := engine.Run(cx.apply(setup(m)), nil)
				r[i], errs[i] = run.Speedup-want, err
			})
		}
		wg.Wait()
		return r, errors.Join(errs...)
	}
	starts := nbcCalibCorners(v)
	if !v.Corners {
		var err error
		if starts, err = bestStarts(nbcCalibGrid(v), residuals, nbcCalibKeep); err != nil {
			return nil, fmt.Errorf("nbc calibration (%s): %w", v.Label, err)
		}
	}
	res, err := fit.LeastSquares(ps, residuals, fit.Options{MaxEvals: nbcCalibEvals, Restarts: 1, Tol: 1e-7, Starts: starts})
	if err != nil {
		return nil, fmt.Errorf("nbc calibration (%s): %w", v.Label, err)
	}
	return &nbcCalibration{Variant: v, Unknowns: us, Values: res.X, Fit: res}, nil
}

// flags are the calibrated values as eval nbc flags, to rerun a point.
func (c *nbcCalibration) flags() string {
	var s []string
	if c.Variant.MemoryShare {
		s = append(s, "-memory_share")
	}
	for i, u := range c.Unknowns {
		s = append(s, fmt.Sprintf("-%s %.4g", u.Field, c.Values[i]))
	}
	return strings.Join(append(s, "-test_threads "+c.Variant.TestThreads), " ")
}

// calibrate fits the unknowns in each variant on the 2-node figure and
// queues the runs that use them.
func (s *nbcStudy) calibrate() error {
	set := nbcSetups[nbcCalibSetup]
	cs := map[string]*nbcCalibration{}
	for _, v := range nbcVariants {
		c, err := calibrateNbc(set.params, paperSpeedups[set.Nodes], v)
		if err != nil {
			return err
		}
		cs[v.Key] = c
	}
	s.setCalibration(cs)
	return nil
}

// setCalibration takes calibrated values (from calibrate, or made by hand
// in a test) and queues the runs that use them: the paper's cases under
// each variant, the hardware defaults with memory shared, the probes of
// what is still missing, and the sensitivity grid under the default
// reading.
func (s *nbcStudy) setCalibration(cs map[string]*nbcCalibration) {
	s.calib = cs
	for si := range nbcSetups {
		for _, m := range nbcCalibMethods {
			s.add(s.memPoint(si, m))
			for _, v := range nbcVariants {
				s.add(s.calibPoint(v.Key, si, m))
			}
		}
	}
	for _, pr := range nbcProbes {
		for _, m := range nbcProbeMethods {
			s.add(s.probePoint(pr, m))
		}
	}
	for si := range nbcSetups {
		for _, m := range nbcCalibMethods {
			for _, n := range s.sensMatrix {
				for _, msg := range s.sensMsg {
					s.add(s.sensPoint(si, m, msg, n))
				}
			}
		}
	}
}

// calibPoint is one of the paper's cases with the values calibrated in
// variant key.
func (s *nbcStudy) calibPoint(key string, si int, m engine.Method) engine.Params {
	return s.calib[key].apply(s.paperCase(si, m))
}

// memPoint is one of the paper's cases with the hardware defaults and
// memory bandwidth shared: what the mechanism does before any fit.
func (s *nbcStudy) memPoint(si int, m engine.Method) engine.Params {
	p := s.paperCase(si, m)
	p.MemoryShare = true
	return p
}

// sensPoint is a case at another message and matrix size, calibrated
// under the default reading: the sensitivity to the compute/communication
// ratio that the paper's lost absolute times would have fixed.
func (s *nbcStudy) sensPoint(si int, m engine.Method, msg float64, matrix int) engine.Params {
	p := s.calibPoint(nbcVarDefault, si, m)
	p.Msg, p.Matrix = msg, matrix
	return p
}

// nbcProbe is one change to the default reading at 32 nodes that stands
// for a mechanism the model does not have, to see whether it would move
// the prediction the way the paper's figure does. A probe is evidence,
// not a fit: its magnitude is a round guess, and the page says so.
type nbcProbe struct {
	Key, Label string
	change     func(*engine.Params)
}

// nbcFabricBandwidth is the probe's per-node alltoall bandwidth at 32
// nodes, a third of FDR InfiniBand's 6 GB/s (the engine's link): all-to-all
// traffic through a statically routed fat tree gets a fraction of the link
// (Hoefler, Schneider and Lumsdaine, "Multistage Switches are not
// Crossbars", IEEE Cluster 2008); the fraction is not known for the
// paper's machine.
const nbcFabricBandwidth = 2e9

var nbcProbes = []nbcProbe{
	{"none", "the default reading (calibrated on 2 nodes, memory shared)", func(*engine.Params) {}},
	{"fabric", fmt.Sprintf("the alltoall at %g GB/s per node, a third of the link (a statically routed fat tree)", nbcFabricBandwidth/1e9),
		func(p *engine.Params) { p.Bandwidth = nbcFabricBandwidth }},
	{"oversubscribe", "the progress thread on a compute thread's core (16 + 1 threads)", func(p *engine.Params) { p.Oversubscribe = true }},
}

// nbcProbeMethods are the cases a probe runs: the three with the paper's
// speedups, and NBCF without progress calls, which the paper found as
// fast as with them at 32 nodes.
var nbcProbeMethods = []engine.Method{engine.NBCFTest, engine.NBCFNoTest, engine.NBCT, engine.TCC}

// nbcProbeSetup is where the probes run: the 32-node figure, the one the
// model misses.
const nbcProbeSetup = 1

// probePoint is case m at 32 nodes under the default reading, changed by pr.
func (s *nbcStudy) probePoint(pr nbcProbe, m engine.Method) engine.Params {
	p := s.calibPoint(nbcVarDefault, nbcProbeSetup, m)
	pr.change(&p)
	return p
}

// nbcPrediction is one case's speedup: the paper's, with the hardware
// defaults (alone and with memory shared), and calibrated under each
// variant.
type nbcPrediction struct {
	Nodes     int
	Si        int
	Method    engine.Method
	Paper     float64
	Hardware  float64
	Memory    float64            // hardware defaults, memory shared
	Cal       map[string]float64 // by variant
	Predicted bool               // the 32-node figure: not seen by the calibration
}

// Err is the calibrated model's error in variant key.
func (p nbcPrediction) Err(key string) float64 { return p.Cal[key] - p.Paper }

func (s *nbcStudy) predictions(r *nbcResults) []nbcPrediction {
	var out []nbcPrediction
	for si, set := range nbcSetups {
		for _, m := range nbcCalibMethods {
			p := nbcPrediction{Nodes: set.Nodes, Si: si, Method: m, Paper: paperSpeedups[set.Nodes][m],
				Hardware: r.at(s.paperCase(si, m)).Speedup, Memory: r.at(s.memPoint(si, m)).Speedup,
				Cal: map[string]float64{}, Predicted: si != nbcCalibSetup}
			for _, v := range nbcVariants {
				p.Cal[v.Key] = r.at(s.calibPoint(v.Key, si, m)).Speedup
			}
			out = append(out, p)
		}
	}
	return out
}

// rmsErr is the root mean square of variant key's errors on the predicted
// (32-node) cases, or on the fitted ones.
func rmsErr(ps []nbcPrediction, key string, predicted bool) float64 {
	var sum float64
	var n int
	for _, p := range ps {
		if p.Predicted == predicted {
			sum += p.Err(key) * p.Err(key)
			n++
		}
	}
	return math.Sqrt(sum / float64(n))
}

// errs lists variant key's errors on the predicted or fitted cases:
// "NBCF-ovlp-test +0.212, NBCT-ovlp +0.388, TCC-ovlp +0.246".
func errs(ps []nbcPrediction, key string, predicted bool) string {
	var out []string
	for _, p := range ps {
		if p.Predicted == predicted {
			out = append(out, fmt.Sprintf("%s %+.3f", caseName(p.Method), p.Err(key)))
		}
	}
	return strings.Join(out, ", ")
}

// plausibility says whether a calibrated value lies in its sourced range
// and, if not, by how much it misses it.
func (u nbcUnknown) plausibility(v float64) string {
	switch {
	case v < u.Lo:
		return fmt.Sprintf("implausible: below the range's lower end, %s %s", fmtUnit(u, u.Lo), u.Unit)
	case v > u.Hi:
		return fmt.Sprintf("implausible: %.1f times the range's upper end, %s %s", v/u.Hi, fmtUnit(u, u.Hi), u.Unit)
	}
	return "inside its range"
}

// fmtUnit writes v in u's display unit.
func fmtUnit(u nbcUnknown, v float64) string { return fmt.Sprintf("%.4g", v/u.Scale) }

// rangeText is u's plausible range in its unit: "10–130 µs".
func (u nbcUnknown) rangeText() string {
	return fmt.Sprintf("%s–%s %s", fmtUnit(u, u.Lo), fmtUnit(u, u.Hi), u.Unit)
}

// implausible lists the values of calibration c outside their ranges:
// "thread_create = 371 µs (2.9 times the range's upper end, 130 µs)".
func (c *nbcCalibration) implausible() []string {
	var out []string
	for i, u := range c.Unknowns {
		if x := c.Values[i]; !u.Plausible(x) {
			out = append(out, fmt.Sprintf("%s = %s %s (%s)", u.Field, fmtUnit(u, x), u.Unit, u.plausibility(x)))
		}
	}
	return out
}

// valuesText lists calibration c's values: "progress_call = 0.1 µs, …".
func (c *nbcCalibration) valuesText() string {
	var out []string
	for i, u := range c.Unknowns {
		out = append(out, fmt.Sprintf("%s = %s %s", u.Field, fmtUnit(u, c.Values[i]), u.Unit))
	}
	return strings.Join(out, ", ")
}

// calibTable lists the unknowns: the hardware default, the plausible range
// and its source, and the value each variant calibrated.
func (s *nbcStudy) calibTable() *report.Table {
	d := engine.Default()
	t := &report.Table{
		ID:     "nbc-calibrated",
		Title:  "The magnitudes the paper names without numbers: plausible ranges, sources, and the values calibrated on the 2-node figure",
		Header: []string{"parameter (eval nbc flag)", "the paper's mechanism", "unit", "hardware default", "plausible range"},
	}
	for _, v := range nbcVariants {
		t.Header = append(t.Header, "calibrated, "+v.Label)
	}
	t.Header = append(t.Header, "where the range comes from")
	for _, u := range nbcUnknowns {
		row := []string{u.Field, u.Mechanism, u.Unit, fmtUnit(u, u.Get(d)), u.rangeText()}
		for _, v := range nbcVariants {
			x, ok := s.calib[v.Key].value(u.Field)
			switch {
			case !ok:
				row = append(row, "not fitted: it does nothing without "+u.Needs)
			case u.Plausible(x):
				row = append(row, fmtUnit(u, x))
			default:
				row = append(row, fmtUnit(u, x)+" ("+u.plausibility(x)+")")
			}
		}
		t.Rows = append(t.Rows, append(row, u.Source))
	}
	var fits []string
	for _, v := range nbcVariants {
		c := s.calib[v.Key]
		var res []string
		for i, m := range nbcCalibMethods {
			res = append(res, fmt.Sprintf("%s %+.3f", caseName(m), c.Fit.Residuals[i]))
		}
		lo, hi := "the wide box (", ")"
		if v.Plausible {
			lo, hi = "the plausible ranges", ""
		} else {
			var box []string
			for _, u := range c.Unknowns {
				box = append(box, fmt.Sprintf("%s [%s, %s] %s", u.Field, fmtUnit(u, u.WideLo), fmtUnit(u, u.WideHi), u.Unit))
			}
			lo += strings.Join(box, ", ")
		}
		share := "memory bandwidth not shared"
		if v.MemoryShare {
			share = "memory bandwidth shared (memory_share)"
		}
		fits = append(fits, fmt.Sprintf("%s%s: searched in %s%s, %s; residuals at 2 nodes %s (sum of squares %.2g) after %d runs of the objective (%s); rerun a case with gen-report eval nbc -nodes 32 -msg 500KB -matrix 30000 -method tcc %s",
			strings.ToUpper(v.Label[:1]), v.Label[1:], lo, hi, share, strings.Join(res, ", "), c.Fit.Cost, c.Fit.Evals, c.Fit.Status, c.flags()))
	}
	t.Caption = fmt.Sprintf("Least squares over the 2-node figure's three speedups (NBCF-ovlp-test %.3f, NBCT-ovlp %.3f, TCC-ovlp %.3f) and nothing else, by Nelder–Mead (gonum/optimize, at most %d runs of the objective from each start), every compute thread calling NBC_Test (the paper's reading). The simplex starts from the hardware defaults and, in the wide box, from every corner of the plausible box (the study's search before the ranges were sourced); in the plausible ranges, from the %d best points of a grid of three levels per unknown (each range's ends and middle), each point one run of the objective. Each range comes from a source outside the paper (last column; engine/nbc.Unknowns, docs/nbc.md). One compute thread fewer is structural (15 instead of 16), not a magnitude. %s.",
		paperSpeedups[2][engine.NBCFTest], paperSpeedups[2][engine.NBCT], paperSpeedups[2][engine.TCC], nbcCalibEvals, nbcCalibKeep, strings.Join(fits, ". "))
	return t
}

// predictTable puts the fitted 2-node and predicted 32-node speedups
// beside the paper's and the hardware defaults'.
func (s *nbcStudy) predictTable(r *nbcResults) *report.Table {
	t := &report.Table{
		ID:     "nbc-predict",
		Title:  "Calibrated on 2 nodes, predicted at 32: overlap speedups",
		Header: []string{"nodes", "case", "role", "paper", "hardware defaults", "hardware defaults, memory shared"},
	}
	for _, v := range nbcVariants {
		t.Header = append(t.Header, "calibrated, "+v.Label, "error")
	}
	for _, p := range s.predictions(r) {
		role := "fitted (the calibration's target)"
		if p.Predicted {
			role = "predicted (never seen by the calibration)"
		}
		row := []string{fmt.Sprint(p.Nodes), caseName(p.Method), role, fmt.Sprintf("%.3f", p.Paper), fmt.Sprintf("%.3f", p.Hardware), fmt.Sprintf("%.3f", p.Memory)}
		for _, v := range nbcVariants {
			row = append(row, fmt.Sprintf("%.3f", p.Cal[v.Key]), fmt.Sprintf("%+.3f", p.Err(v.Key)))
		}
		t.Rows = append(t.Rows, row)
		t.RowLinks = append(t.RowLinks, sceneLink(s.calibPoint(nbcVarDefault, p.Si, p.Method), "", fmt.Sprintf("%s at %d nodes, calibrated", caseName(p.Method), p.Nodes)))
	}
	t.Caption = "Speedup = the baseline's time over the case's (LibNBC's cases against NBCF-noovlp, TCC against MPI), every case simulated with the calibrated values; error = calibrated − paper. The 32-node rows are a prediction: the 32-node figure's numbers never enter the calibration (a test perturbs them and checks that the calibrated values stay bit-identical). A row opens the tcc scene on its workload (with the engine's defaults: the scene takes no calibrated values)."
	return t
}

// missingTable is the evidence for the mechanisms still missing: the
// 32-node cases under the default reading and under each probe.
func (s *nbcStudy) missingTable(r *nbcResults) *report.Table {
	t := &report.Table{
		ID:     "nbc-missing",
		Title:  "32 nodes: what a slower alltoall or a shared core would do to the prediction (probes, not fits)",
		Header: []string{"reading"},
	}
	for _, m := range nbcProbeMethods {
		t.Header = append(t.Header, caseName(m))
	}
	t.Header = append(t.Header, "NBCF-ovlp-test against -notest")
	paper := []string{"the paper (Section V; Section IV-C: NBCF with and without NBC_Test about the same)"}
	for _, m := range nbcProbeMethods {
		if v, ok := paperSpeedups[32][m]; ok {
			paper = append(paper, fmt.Sprintf("%.3f", v))
		} else {
			paper = append(paper, "not given")
		}
	}
	t.Rows = append(t.Rows, append(paper, "about the same"))
	t.RowLinks = append(t.RowLinks, nil)
	for _, pr := range nbcProbes {
		row := []string{pr.Label}
		for _, m := range nbcProbeMethods {
			row = append(row, fmt.Sprintf("%.3f", r.at(s.probePoint(pr, m)).Speedup))
		}
		tt, nt := r.at(s.probePoint(pr, engine.NBCFTest)).Total, r.at(s.probePoint(pr, engine.NBCFNoTest)).Total
		row = append(row, fmt.Sprintf("%.1f %% apart", 100*relDiff(tt, nt)))
		t.Rows = append(t.Rows, row)
		t.RowLinks = append(t.RowLinks, sceneLink(s.probePoint(pr, engine.TCC), viewBoth, "the 32-node case, "+pr.Label))
	}
	t.Caption = fmt.Sprintf("Overlap speedups at 32 nodes with the values calibrated on 2 nodes (%s). The probes change one thing each; their magnitudes are round guesses, not fitted: a magnitude for either could only be fitted to the 32-node figure, which would leave nothing to predict.",
		s.calib[nbcVarDefault].valuesText())
	return t
}

// calibIntro is the calibration section's text, every number from the
// runs: the method, the wide fit and why it is implausible, what memory
// sharing explains, the 32-node errors before and after, and the two
// mechanisms still missing with the probes' evidence.
func (s *nbcStudy) calibIntro(r *nbcResults) string {
	ps := s.predictions(r)
	wide, def := s.calib[nbcVarWide], s.calib[nbcVarDefault]
	speeds := func(si int, f func(nbcPrediction) float64) string {
		var out []string
		for _, p := range ps {
			if p.Si == si {
				out = append(out, fmt.Sprintf("%.3f", f(p)))
			}
		}
		return strings.Join(out, " / ")
	}
	hw := func(p nbcPrediction) float64 { return p.Hardware }
	mem := func(p nbcPrediction) float64 { return p.Memory }
	intro := "The paper names the mechanisms behind NBCT's and TCC's smaller speedups (thread creation and mutual exclusion, one compute thread fewer, synchronisation between the progress thread and the compute threads) and puts NBC_Test once per outer-loop iteration of the OpenMP-parallel loop (every compute thread calls it: the reading used here), but gives none of their magnitudes, and its figures' absolute times were lost. Each mechanism is a parameter of the engine with a plausible range from a source outside the paper (the first table: the kernel's and the C library's costs, the processor's data sheet). The magnitudes are fitted to the 2-node figure alone and the 32-node figure is predicted with them. The default reading, which the findings and the sensitivity maps use, keeps every value inside its range."
	wideBad := "every value inside its range, so the box is not what misses the figure"
	if bad := wide.implausible(); len(bad) > 0 {
		wideBad = strings.Join(bad, " and ") + ". A value outside what its mechanism can cost stands in for a mechanism the model lacks"
	}
	intro += fmt.Sprintf("\n\nSearched in a wide box, with the matrix-vector product alone on the memory, the fit comes to the 2-node figure within %s with %s; this fit predicts 32 nodes off by %s (root mean square %.3f). Held to the ranges, still without memory sharing, the fit misses the 2-node figure by %s and 32 nodes by %s (root mean square %.3f).",
		errs(ps, nbcVarWide, false), wideBad, errs(ps, nbcVarWide, true), rmsErr(ps, nbcVarWide, true),
		errs(ps, nbcVarPlausible, false), errs(ps, nbcVarPlausible, true), rmsErr(ps, nbcVarPlausible, true))
	// The case memory sharing costs most at 2 nodes.
	var most nbcPrediction
	for _, p := range ps {
		if p.Si == nbcCalibSetup && p.Hardware-p.Memory > most.Hardware-most.Memory {
			most = p
		}
	}
	why := ""
	if most.Method == engine.TCC {
		why = fmt.Sprintf(", where its progress thread copies the %s block to itself on the socket the product saturates: the gap thread_create absorbed in the wide fit", sizeLabel(s.paperCase(nbcCalibSetup, engine.TCC).Msg))
	}
	intro += fmt.Sprintf("\n\nThe missing mechanism is memory bandwidth. The product streams its matrix from memory, 8 B per multiply-add, far slower than the cores compute, and the NIC's DMA and the alltoall's local copy stream from the same socket's memory while it runs (memory_share: the DMA takes dma_traffic bytes per byte on the wire first, the compute threads and the copy share the rest fairly). Every overlapping method then loses part of its overlap to the traffic it overlaps with. With the hardware figures alone, memory sharing moves the speedups NBCF-ovlp-test / NBCT-ovlp / TCC-ovlp from %s to %s at 2 nodes and from %s to %s at 32; %s loses most at 2 nodes%s. Calibrated with memory shared and every value inside its range (%s), the residuals at 2 nodes are %s and the 32-node errors %s: root mean square %.3f, against %.3f in the wide box and %.3f in the ranges without it.",
		speeds(0, hw), speeds(0, mem), speeds(1, hw), speeds(1, mem), caseName(most.Method), why, def.valuesText(),
		errs(ps, nbcVarDefault, false), errs(ps, nbcVarDefault, true), rmsErr(ps, nbcVarDefault, true), rmsErr(ps, nbcVarWide, true), rmsErr(ps, nbcVarPlausible, true))
	probe := func(key string, m engine.Method) float64 {
		for _, pr := range nbcProbes {
			if pr.Key == key {
				return r.at(s.probePoint(pr, m)).Speedup
			}
		}
		panic("gen-report: nbc: no probe " + key)
	}
	gap := func(key string) float64 {
		for _, pr := range nbcProbes {
			if pr.Key == key {
				return relDiff(r.at(s.probePoint(pr, engine.NBCFTest)).Total, r.at(s.probePoint(pr, engine.NBCFNoTest)).Total)
			}
		}
		panic("gen-report: nbc: no probe " + key)
	}
	intro += fmt.Sprintf("\n\nNo plausible values meet even the 2-node figure within the paper's precision (±%g), and two mechanisms are still missing at 32 nodes, neither in the paper's words and neither visible on 2 nodes (the last table probes both). (1) The 32-node alltoall is slower than the link. With the alltoall at %g GB/s per node, a third of the link, NBCF-ovlp-test comes out %.3f and TCC-ovlp %.3f against the paper's %.3f and %.3f, and NBCF with and without NBC_Test come %.1f %% apart (%.1f %% in the default reading), where the paper found them about the same. All-to-all traffic through a statically routed fat tree gets a fraction of the link bandwidth (Hoefler, Schneider and Lumsdaine, \"Multistage Switches are not Crossbars\", IEEE Cluster 2008); two nodes over one pair of links never see it, and the paper says nothing of its network beyond \"InfiniBand FDR\". It is not modelled: its magnitude could only be fitted to the 32-node figure. (2) NBCT's overlap collapses at 32 nodes (約%.3f, against TCC's 約%.3f with the same progress thread on its own core). Nothing in the model does that to NBCT alone: with the slower alltoall NBCT-ovlp stays at %.3f, and a progress thread on a compute thread's core takes NBCT-ovlp to %.3f but TCC-ovlp to %.3f as well. LibNBC 1.1.1's threaded code has its thread wait in MPI_Waitany from its creation, woken by a message the main thread sends itself under the MPI library's lock, which the model's NBCT does not follow; which of these the paper's machine did cannot be told from its two figures.",
		nbcAbout, nbcFabricBandwidth/1e9, probe("fabric", engine.NBCFTest), probe("fabric", engine.TCC), paperSpeedups[32][engine.NBCFTest], paperSpeedups[32][engine.TCC],
		100*gap("fabric"), 100*gap("none"), paperSpeedups[32][engine.NBCT], paperSpeedups[32][engine.TCC],
		probe("fabric", engine.NBCT), probe("oversubscribe", engine.NBCT), probe("oversubscribe", engine.TCC))
	return intro
}

// calibChart draws the same speedups as bars.
func (s *nbcStudy) calibChart(r *nbcResults) *report.BarChart {
	x := report.Axis{Name: "case"}
	series := []report.BarSeries{{Name: "paper"}, {Name: "hardware defaults"}, {Name: "hardware defaults, memory shared"}}
	for _, v := range nbcVariants {
		series = append(series, report.BarSeries{Name: "calibrated on 2 nodes, " + v.Label})
	}
	for _, p := range s.predictions(r) {
		x.Labels = append(x.Labels, fmt.Sprintf("%s, %d nodes", caseName(p.Method), p.Nodes))
		series[0].Values = append(series[0].Values, p.Paper)
		series[1].Values = append(series[1].Values, p.Hardware)
		series[2].Values = append(series[2].Values, p.Memory)
		for i, v := range nbcVariants {
			series[3+i].Values = append(series[3+i].Values, p.Cal[v.Key])
		}
	}
	return &report.BarChart{
		ID:      "nbc-calib",
		Title:   "Overlap speedups: the paper, the hardware defaults, calibrated on 2 nodes",
		Caption: "The three 2-node bars are the calibration's targets; the three 32-node bars are predicted with the values calibrated at 2 nodes.",
		X:       x, YName: "overlap speedup", Digits: 4, Series: series,
	}
}

// sensMap is one case's speedup over message size × matrix size at one
// node count, calibrated, with the paper's point marked on the axes.
func (s *nbcStudy) sensMap(r *nbcResults, si int, m engine.Method) *report.HeatMap {
	set := nbcSetups[si]
	pp := s.paperCase(si, m)
	x := report.Axis{Name: "message size per destination"}
	for _, b := range s.sensMsg {
		l := sizeLabel(b)
		if b == pp.Msg {
			l += " (paper)"
		}
		x.Labels = append(x.Labels, l)
		x.Values = append(x.Values, b)
	}
	y := report.Axis{Name: "matrix n (n × n)"}
	z := make([][]float64, len(s.sensMatrix))
	links := make([][]*report.Link, len(s.sensMatrix))
	bi, bj, best := -1, -1, math.Inf(1)
	paper := paperSpeedups[set.Nodes][m]
	for j, n := range s.sensMatrix {
		l := fmt.Sprint(n)
		if n == pp.Matrix {
			l += " (paper)"
		}
		y.Labels = append(y.Labels, l)
		y.Values = append(y.Values, float64(n))
		z[j] = make([]float64, len(s.sensMsg))
		links[j] = make([]*report.Link, len(s.sensMsg))
		for i, b := range s.sensMsg {
			z[j][i] = r.at(s.sensPoint(si, m, b, n)).Speedup
			links[j][i] = sceneLink(s.sensPoint(si, m, b, n), "", fmt.Sprintf("%s at %d nodes with %s messages and n = %d, calibrated", caseName(m), set.Nodes, sizeLabel(b), n))
			if d := math.Abs(z[j][i] - paper); d < best {
				bi, bj, best = i, j, d
			}
		}
	}
	ours := r.at(s.calibPoint(nbcVarDefault, si, m)).Speedup
	return &report.HeatMap{
		ID:    fmt.Sprintf("nbc-sens-%d-%s", set.Nodes, m),
		Title: fmt.Sprintf("%s, %d nodes: overlap speedup over message size × matrix size (calibrated)", caseName(m), set.Nodes),
		Caption: fmt.Sprintf("%d nodes, one Alltoall, the values calibrated on 2 nodes in the default reading (plausible ranges, memory shared). The paper's point (%s, %d × %d, marked on both axes): the paper %.3f, the model %.3f. The cell nearest the paper's %.3f is %s at n = %d (%.3f). Scale from 1 (no gain; lower values take the end colour) to 2.",
			set.Nodes, sizeLabel(pp.Msg), pp.Matrix, pp.Matrix, paper, ours, paper, sizeLabel(s.sensMsg[bi]), s.sensMatrix[bj], z[bj][bi]),
		X: x, Y: y, Z: z, ZName: "overlap speedup", Digits: 3, Links: links,
		ZMin: report.Float(1), ZMax: report.Float(2), CellLabels: true,
	}
}

// sensBest is the cell of setup si's sensitivity maps where the three
// cases' speedups together come closest to the paper's (least root mean
// square error), and that error beside the error at the paper's own point.
func (s *nbcStudy) sensBest(r *nbcResults, si int) string {
	set := nbcSetups[si]
	pp := s.paperCase(si, engine.TCC)
	rms := func(msg float64, n int) (float64, []string) {
		var sum float64
		var vals []string
		for _, m := range nbcCalibMethods {
			v := r.at(s.sensPoint(si, m, msg, n)).Speedup
			d := v - paperSpeedups[set.Nodes][m]
			sum += d * d
			vals = append(vals, fmt.Sprintf("%.3f", v))
		}
		return math.Sqrt(sum / float64(len(nbcCalibMethods))), vals
	}
	bestE, bestMsg, bestN := math.Inf(1), 0.0, 0
	for _, n := range s.sensMatrix {
		for _, msg := range s.sensMsg {
			if e, _ := rms(msg, n); e < bestE {
				bestE, bestMsg, bestN = e, msg, n
			}
		}
	}
	_, vals := rms(bestMsg, bestN)
	atPaper, _ := rms(pp.Msg, pp.Matrix)
	var paper []string
	for _, m := range nbcCalibMethods {
		paper = append(paper, fmt.Sprintf("%.3f", paperSpeedups[set.Nodes][m]))
	}
	return fmt.Sprintf("%d nodes: the cell where NBCF-ovlp-test, NBCT-ovlp and TCC-ovlp together come closest to the paper's %s is %s at n = %d (%s; root mean square error %.3f, against %.3f at the paper's %s and n = %d)",
		set.Nodes, strings.Join(paper, " / "), sizeLabel(bestMsg), bestN, strings.Join(vals, " / "), bestE, atPaper, sizeLabel(pp.Msg), pp.Matrix)
}
