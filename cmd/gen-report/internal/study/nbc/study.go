package nbc

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/study"
	engine "commlab/engine/nbc"
)

// Study is paper 001's study (non-blocking collectives, LibNBC against TCC): gen-report's eval nbc and
// the nbc page.
type Study struct{}

func (Study) Name() string { return "nbc" }

func (Study) Eval(stdout, stderr io.Writer, args []string) error {
	return evalNbc(stdout, stderr, args)
}

// Sweep lays out the study's runs. It calibrates the unknown magnitudes on
// the paper's 2-node case first (seconds, deterministic): the runs that
// use the calibrated values are points of the sweep, so every shard and
// the merge calibrate again and agree on them.
func (Study) Sweep(cfg study.Config) (study.Sweep, error) {
	s := newNbcStudy(cfg.Full)
	if err := s.calibrate(); err != nil {
		return nil, err
	}
	return s, nil
}

// The paper's overlap speedups (Section V): each implementation's time
// without overlap over its time with it, for the one non-blocking Alltoall
// before the matrix-vector product.
var paperSpeedups = map[int]map[engine.Method]float64{
	2:  {engine.NBCFTest: 1.346, engine.NBCT: 1.127, engine.TCC: 1.166},
	32: {engine.NBCFTest: 1.338, engine.NBCT: 1.020, engine.TCC: 1.271},
}

// paperCases are the bars of the paper's Fig. 1 and 2, in its order, with
// the paper's names.
var paperCases = []struct {
	Method engine.Method
	Name   string
}{
	{engine.NBCFNoOvlp, "NBCF-noovlp"},
	{engine.NBCFTest, "NBCF-ovlp-test"},
	{engine.NBCFNoTest, "NBCF-ovlp-notest"},
	{engine.NBCT, "NBCT-ovlp"},
	{engine.MPI, "MPI"},
	{engine.TCC, "TCC-ovlp"},
}

// overlapMethods are the implementations that overlap, the ones the
// sweeps beyond the paper compare (the paper's speedups are theirs).
var overlapMethods = []engine.Method{engine.NBCFTest, engine.NBCFNoTest, engine.NBCT, engine.TCC}

// caseName is the paper's name of a method's case.
func caseName(m engine.Method) string {
	for _, c := range paperCases {
		if c.Method == m {
			return c.Name
		}
	}
	return string(m)
}

// nbcSetup is one of the paper's two experiments.
type nbcSetup struct {
	Nodes  int
	Label  string // "2 nodes, 5 MB, 4,000 × 4,000"
	Short  string // without the message size, which the recommender varies
	params func(engine.Method) engine.Params
}

var nbcSetups = []nbcSetup{
	{2, "2 nodes, 5 MB, 4,000 × 4,000", "2 nodes, 4,000 × 4,000", engine.Paper2Nodes},
	{32, "32 nodes, 500 KB, 30,000 × 30,000", "32 nodes, 30,000 × 30,000", engine.Paper32Nodes},
}

// nbcStudy is the paper-001 study (specs/nbc-tcc.md): the six cases of
// Fig. 1 and 2, and the sweeps beyond the paper that its Section V asks
// for. The engine is deterministic (no random draws), so every point is
// one run.
type nbcStudy struct {
	Full bool

	inflight   []int           // collectives in flight
	sizes      []float64       // message sizes (B) of the size sweep
	testEvery  []int           // NBCF-test: outer-loop iterations per progress call
	slices     []float64       // scheduler time slices (s) of the oversubscription sweeps
	switches   []float64       // context-switch costs (s) of the oversubscription map
	switchMeth []engine.Method // the threaded methods of that sweep
	regimes    []nbcRegime
	sensMsg    []float64 // message sizes (B) of the sensitivity maps
	sensMatrix []int     // matrix sizes n of the sensitivity maps

	// calib holds the values calibrated on the 2-node figure, by reading
	// variant (nbcVariants); run fills it before the sweep.
	calib map[string]*nbcCalibration

	jobs  []engine.Params
	index map[engine.Params]int
}

// nbcRegime is one row of the recommender: a setting, and whether the
// programmer can find a good progress-call frequency (Section V's first
// question), which decides whether NBCF-test is a candidate.
type nbcRegime struct {
	Setup       int     // index into nbcSetups
	Msg         float64 // bytes per destination
	Collectives int
	Tunable     bool // NBCF-test with the best call frequency of the grid is a candidate
}

// The recommender's grids: message sizes on both sides of the eager limit
// and the ends of the in-flight sweep.
const (
	nbcEagerMsg = 64 << 10 // B: a message well under Intel MPI's 256 KiB eager limit
)

func newNbcStudy(full bool) *nbcStudy {
	s := &nbcStudy{Full: full, index: map[engine.Params]int{}}
	if full {
		for k := 1; k <= engine.MaxCollectives; k++ {
			s.inflight = append(s.inflight, k)
		}
		for e := 12; e <= 24; e++ { // 4 KiB … 16 MiB
			s.sizes = append(s.sizes, float64(int(1)<<e))
		}
		for e := 0; e <= 10; e++ {
			s.testEvery = append(s.testEvery, 1<<e)
		}
		s.slices = []float64{0.1e-3, 0.25e-3, 0.5e-3, 1e-3, 2e-3, 3.75e-3, 6e-3, 10e-3}
		s.switches = []float64{0, 1e-6, 3e-6, 10e-6, 30e-6, 100e-6, 300e-6}
		// Half decades through both of the paper's points.
		s.sensMsg = []float64{50e3, 150e3, 500e3, 1.5e6, 5e6, 15e6}
		s.sensMatrix = []int{1000, 2000, 4000, 8000, 15000, 30000, 60000}
	} else {
		s.inflight = []int{1, 2, 4, 8, 16}
		s.sizes = []float64{16 << 10, 64 << 10, 256 << 10, 512 << 10, 4 << 20}
		s.testEvery = []int{1, 8, 64, 512}
		s.slices = []float64{0.25e-3, 1e-3, 3.75e-3}
		s.switches = []float64{0, 3e-6, 100e-6}
		s.sensMsg = []float64{500e3, 5e6}
		s.sensMatrix = []int{4000, 30000}
	}
	s.switchMeth = []engine.Method{engine.NBCT, engine.TCC}
	for si := range nbcSetups {
		for _, tun := range []bool{true, false} {
			for _, k := range []int{1, engine.MaxCollectives} {
				for _, msg := range []float64{nbcEagerMsg, nbcSetups[si].params(engine.MPI).Msg} {
					s.regimes = append(s.regimes, nbcRegime{Setup: si, Msg: msg, Collectives: k, Tunable: tun})
				}
			}
		}
	}
	s.plan()
	return s
}

// The sweeps' points, each a function of the study's grids: plan queues
// them all, and the page looks the results up by the same functions.

// paperCase is one bar of Fig. 1 or 2.
func (s *nbcStudy) paperCase(setup int, m engine.Method) engine.Params {
	return nbcSetups[setup].params(m)
}

// inflightPoint is a method with k collectives in flight.
func (s *nbcStudy) inflightPoint(setup int, m engine.Method, k int) engine.Params {
	p := nbcSetups[setup].params(m)
	p.Collectives = k
	return p
}

// sizePoint is a method at message size msg.
func (s *nbcStudy) sizePoint(setup int, m engine.Method, msg float64) engine.Params {
	p := nbcSetups[setup].params(m)
	p.Msg = msg
	return p
}

// testPoint is NBCF-test with a progress call every n outer-loop iterations.
func (s *nbcStudy) testPoint(setup, n int) engine.Params {
	p := nbcSetups[setup].params(engine.NBCFTest)
	p.TestEvery = n
	return p
}

// threadPoint is a threaded method with its progress thread on its own
// core (15 + 1) or sharing one (16 + 1), at a context-switch cost and a
// time slice.
func (s *nbcStudy) threadPoint(setup int, m engine.Method, over bool, ctxSwitch, slice float64) engine.Params {
	p := nbcSetups[setup].params(m)
	p.Oversubscribe, p.ContextSwitch, p.TimeSlice = over, ctxSwitch, slice
	return p
}

// The oversubscription map is TCC's at 32 nodes, where the paper's TCC
// gains most.
const (
	nbcMapSetup  = 1
	nbcMapMethod = engine.TCC
)

// regimePoint is one candidate of a regime.
func (s *nbcStudy) regimePoint(r nbcRegime, m engine.Method) engine.Params {
	p := nbcSetups[r.Setup].params(m)
	p.Msg, p.Collectives = r.Msg, r.Collectives
	return p
}

// nbcCandidate is one implementation, configured, that the recommender
// weighs.
type nbcCandidate struct {
	Name string
	P    engine.Params
}

// candidates are the implementations a regime chooses from: NBCF-test at
// each call frequency of the grid (only if the programmer can tune it),
// NBCF-notest, and NBCT and TCC each with 15 + 1 and 16 + 1 threads. The
// blocking MPI_Alltoall is the reference every candidate must beat.
func (s *nbcStudy) candidates(r nbcRegime) []nbcCandidate {
	var out []nbcCandidate
	if r.Tunable {
		for _, n := range s.testEvery {
			p := s.regimePoint(r, engine.NBCFTest)
			p.TestEvery = n
			out = append(out, nbcCandidate{"NBCF-ovlp-test, " + everyLabel(n), p})
		}
	}
	out = append(out, nbcCandidate{"NBCF-ovlp-notest", s.regimePoint(r, engine.NBCFNoTest)})
	for _, m := range s.switchMeth {
		for _, over := range []bool{false, true} {
			p := s.regimePoint(r, m)
			p.Oversubscribe = over
			out = append(out, nbcCandidate{caseName(m) + ", " + threadsLabel(p), p})
		}
	}
	return out
}

// everyLabel is "a progress call every n iterations".
func everyLabel(n int) string {
	if n == 1 {
		return "a progress call every iteration"
	}
	return fmt.Sprintf("a progress call every %d iterations", n)
}

// threadsLabel is "15 + 1" or "16 + 1 (oversubscribed)".
func threadsLabel(p engine.Params) string {
	if p.Oversubscribe {
		return fmt.Sprintf("%d + 1 threads (oversubscribed)", p.Cores)
	}
	return fmt.Sprintf("%d + 1 threads", p.Cores-1)
}

func (s *nbcStudy) plan() {
	for si := range nbcSetups {
		for _, c := range paperCases {
			s.add(s.paperCase(si, c.Method))
		}
		for _, m := range overlapMethods {
			for _, k := range s.inflight {
				s.add(s.inflightPoint(si, m, k))
			}
			for _, msg := range s.sizes {
				s.add(s.sizePoint(si, m, msg))
			}
		}
		for _, k := range s.inflight {
			s.add(s.inflightPoint(si, engine.MPI, k))
		}
		for _, msg := range s.sizes {
			s.add(s.sizePoint(si, engine.MPI, msg))
		}
		for _, n := range s.testEvery {
			s.add(s.testPoint(si, n))
		}
		for _, m := range s.switchMeth {
			d := nbcSetups[si].params(m)
			for _, ts := range s.slices {
				for _, over := range []bool{false, true} {
					s.add(s.threadPoint(si, m, over, d.ContextSwitch, ts))
				}
			}
		}
	}
	for _, cs := range s.switches {
		for _, ts := range s.slices {
			for _, over := range []bool{false, true} {
				s.add(s.threadPoint(nbcMapSetup, nbcMapMethod, over, cs, ts))
			}
		}
	}
	for _, r := range s.regimes {
		s.add(s.regimePoint(r, engine.MPI))
		for _, c := range s.candidates(r) {
			s.add(c.P)
		}
	}
}

// add queues a run, once however many charts show it, and returns its index.
func (s *nbcStudy) add(p engine.Params) int {
	if i, ok := s.index[p]; ok {
		return i
	}
	s.jobs = append(s.jobs, p)
	s.index[p] = len(s.jobs) - 1
	return len(s.jobs) - 1
}

// nbcRun is one run's numbers, without the handle events.
type nbcRun struct {
	Total, Compute, Comm, Overlap, Overhead, Baseline, Speedup float64
}

// Exposed is the communication not hidden behind computation.
func (r nbcRun) Exposed() float64 { return r.Comm - r.Overlap }

// nbcResults maps every queued point to its run.
type nbcResults struct {
	runs  []nbcRun
	index map[engine.Params]int
}

// at is the run of a point the study queued; a point it did not queue is
// a bug of the page, not of the input.
func (r *nbcResults) at(p engine.Params) nbcRun {
	i, ok := r.index[p]
	if !ok {
		panic(fmt.Sprintf("gen-report: nbc point not in the study: %+v", p))
	}
	return r.runs[i]
}

// Fingerprint names the grid: the mode and the points.
func (s *nbcStudy) Fingerprint() string {
	return fmt.Sprintf("nbc/v2 full=%t points=%d", s.Full, len(s.jobs))
}

// Costs is each run's estimated time (engine.Estimate).
func (s *nbcStudy) Costs() []float64 {
	c := make([]float64, len(s.jobs))
	for i, p := range s.jobs {
		c[i] = engine.Estimate(p).Seconds
	}
	return c
}

// Run simulates the owned points, spread over the cores. The engine draws
// no random numbers, so the result does not depend on the seed or the
// worker count.
func (s *nbcStudy) Run(ctx context.Context, owned []bool, progress func(done, total float64)) ([]json.RawMessage, error) {
	return study.RunPoints(ctx, owned, s.Costs(), progress, func(i int) (nbcRun, error) {
		r, err := engine.Run(s.jobs[i], nil)
		if err != nil {
			return nbcRun{}, fmt.Errorf("nbc point %d (%s, %d nodes, msg %g B, %d collectives): %w",
				i, s.jobs[i].Method, s.jobs[i].Nodes, s.jobs[i].Msg, s.jobs[i].Collectives, err)
		}
		return nbcRun{r.Total, r.Compute, r.Comm, r.Overlap, r.Overhead, r.Baseline, r.Speedup}, nil
	})
}

var _ study.TrialCounter = (*nbcStudy)(nil) // gen-report status counts its trials

// PointTrials is 0: the engine draws no random numbers.
func (s *nbcStudy) PointTrials(int, json.RawMessage) (int, error) { return 0, nil }

// Page builds the page from every point's run.
func (s *nbcStudy) Page(raw []json.RawMessage) (report.Page, error) {
	r, err := s.results(raw)
	if err != nil {
		return report.Page{}, err
	}
	return s.page(r)
}

// results decodes every point's run, vetting what a shard file holds.
func (s *nbcStudy) results(raw []json.RawMessage) (*nbcResults, error) {
	runs, err := study.Decode(raw, func(_ int, r nbcRun) error {
		for _, f := range []struct {
			name string
			v    float64
		}{{"total", r.Total}, {"compute", r.Compute}, {"comm", r.Comm}, {"overlap", r.Overlap}, {"baseline", r.Baseline}, {"speedup", r.Speedup}} {
			if err := study.NonNegative(f.name, f.v); err != nil {
				return err
			}
		}
		// The overhead is what the run takes beyond its parts and may come
		// out below zero (the parts overlap): finite is all it must be.
		return study.Finite("overhead", r.Overhead)
	})
	if err != nil {
		return nil, err
	}
	return &nbcResults{runs: runs, index: s.index}, nil
}

// ms is seconds in milliseconds, for the charts.
func ms(t float64) float64 { return t * 1e3 }

// sizeLabel writes a message size in binary units ("256 KiB"), or in the
// paper's decimal units where it is round in those ("500 KB", "5 MB").
func sizeLabel(b float64) string {
	switch {
	case b >= 1e6 && math.Mod(b, 1e6) == 0 && math.Mod(b, 1<<20) != 0:
		return fmt.Sprintf("%g MB", b/1e6)
	case b >= 1e3 && math.Mod(b, 1e3) == 0 && math.Mod(b, 1<<10) != 0:
		return fmt.Sprintf("%g KB", b/1e3)
	case b >= 1<<20:
		return fmt.Sprintf("%g MiB", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%g KiB", b/(1<<10))
	}
	return fmt.Sprintf("%g B", b)
}

// page builds the NBC report page.
func (s *nbcStudy) page(r *nbcResults) (report.Page, error) {
	mode := "full grids"
	if !s.Full {
		mode = "quick grids (make report regenerates the full grids)"
	}
	d := engine.Default()
	p := report.Page{
		File:     "nbc.html",
		Title:    "Non-blocking collectives: LibNBC's progress function and thread against TCC",
		Subtitle: "Paper 001 (Kyushu University; LibNBC and the proposed TCC on a Fujitsu PRIMERGY CX400): the paper's Fig. 1 and 2 regenerated, and the sweeps its Section V asks for, " + mode,
		Intro: strings.Join([]string{
			"One non-blocking MPI Alltoall is started, then an OpenMP matrix-vector product runs (rows block-distributed over the ranks, one rank per node, and over the threads), then the Alltoall is waited on. The implementations: the MPI library's blocking MPI_Alltoall before the product (MPI); LibNBC's schedule of non-blocking point-to-point operations advanced by the progress function NBC_Test, called once per outer-loop iteration (NBCF-ovlp-test), never (NBCF-ovlp-notest) or waited on at once (NBCF-noovlp), or by LibNBC's progress thread (NBCT-ovlp); and the paper's TCC, whose progress thread runs the library's blocking collectives in issue order from a ring queue of handles (TCC-ovlp). A progress thread takes a core: 15 compute threads instead of 16. Model as in specs/nbc-tcc.md, simulated by engine/nbc on the discrete-event core; gen-report eval nbc runs one point.",
			fmt.Sprintf("Machine (engine/nbc defaults, from the hardware the paper names, none fitted to its bars): %d cores in %d sockets per node, %.3g GB/s memory bandwidth per socket and %.3g GB/s for one core alone, %g-byte matrix elements; InfiniBand FDR at %.3g GB/s per node and %.3g µs latency; Intel MPI's eager limit %s, larger messages by rendezvous, which advances only when a thread is inside the library; an MPI call %.3g µs, a LibNBC schedule step %.3g µs, a progress call %.3g µs, a condition-variable hand-off %.3g µs, the progress thread's creation %.3g µs, a context switch %.3g µs with a %.3g ms time slice on a shared core, and a polling progress thread slows the compute threads by %.3g %%. The MPI library's Alltoall is %s, LibNBC's %s. NBC_Test is called once per outer-loop iteration by every compute thread (test_threads = %s: the call sits in the OpenMP-parallel loop's body, the paper's reading), one call at a time under the library's lock. The section after Fig. 1 and 2 calibrates the magnitudes the paper leaves open on its 2-node figure and predicts the 32-node one.",
				d.Cores, d.Sockets, d.SocketBandwidth/1e9, d.CoreBandwidth/1e9, d.ElemBytes, d.Bandwidth/1e9, d.Latency*1e6, sizeLabel(d.EagerLimit),
				d.MPICall*1e6, d.ScheduleStep*1e6, d.ProgressCall*1e6, d.MutexHandoff*1e6, d.ThreadCreate*1e6, d.ContextSwitch*1e6, d.TimeSlice*1e3, 100*d.PollInterference, d.Alltoall, d.NBCAlltoall, d.TestThreads),
			"The paper's speedup of an implementation is its time without overlap over its time with it: LibNBC's cases against NBCF-noovlp (16 compute threads), TCC against the blocking MPI_Alltoall. The engine is deterministic: every point is one run. Every chart links to its data as CSV and JSON.",
		}, "\n\n"),
	}

	var figs []any
	for si := range nbcSetups {
		b, err := s.figChart(r, si)
		if err != nil {
			return report.Page{}, err
		}
		figs = append(figs, b)
	}
	figs = append(figs, s.speedupTable(r))
	p.Sections = append(p.Sections, report.Section{
		Title: "The paper's Fig. 1 and 2: the six cases, and the overlap speedups",
		Intro: "The left bar of each case is its simulated time, stacked from its parts: the computation alone (with this case's compute threads), the communication that no computation hid, and the overheads (library and thread costs, and the time data waited for a thread to enter the library). The right bar is the communication the overlap hid under the computation; unhidden and hidden together are the collectives' time alone. The table puts the paper's speedups beside the simulated ones and, where they differ, says why from the parts.",
		Items: figs,
	})
	p.Sections = append(p.Sections, report.Section{
		Title: "Calibrated on 2 nodes, predicted at 32",
		Intro: s.calibIntro(r),
		Items: []any{s.calibTable(), s.predictTable(r), s.calibChart(r), s.missingTable(r)},
	})
	var sens []any
	for si := range nbcSetups {
		for _, m := range nbcCalibMethods {
			sens = append(sens, s.sensMap(r, si, m))
		}
	}
	p.Sections = append(p.Sections, report.Section{
		Title: "Sensitivity: message size × matrix size",
		Intro: "The paper's absolute times were lost, and with them the ratio of computation to communication that sets how much an overlap can gain. These maps give each case's overlap speedup over the message size and the matrix size around the paper's two points, with the values calibrated on 2 nodes: a small matrix leaves little computation to hide the Alltoall under, a large one little communication worth hiding. " +
			s.sensBest(r, 1) + ". A cell away from the paper's point stands for a machine whose computation (a larger matrix) or communication (a larger message) took longer against the other than the hardware figures make it.",
		Items: sens,
	})
	p.Sections = append(p.Sections, report.Section{
		Title: "Beyond the paper: several collectives in flight",
		Intro: "The paper overlaps one Alltoall and expects LibNBC, which advances all its schedules at once, to gain where several are in flight, while TCC's progress thread runs them one after another. Here k Alltoalls are started back to back before the product and waited on after it. Against a common reference, the blocking MPI_Alltoall run k times, so that the higher line is the faster implementation.",
		Items: []any{s.inflightChart(r, 0), s.inflightChart(r, 1)},
	})
	p.Sections = append(p.Sections, report.Section{
		Title: "Beyond the paper: message size across the eager limit",
		Intro: fmt.Sprintf("Below the eager limit (%s) a message goes out at once and arrives without help; above it the rendezvous handshake advances only when some thread is in the MPI library. So an implementation that enters the library rarely while computing loses the overlap above the limit.", sizeLabel(d.EagerLimit)),
		Items: []any{s.sizeChart(r, 0), s.sizeChart(r, 1)},
	})
	p.Sections = append(p.Sections, report.Section{
		Title: "Beyond the paper: how often to call the progress function",
		Intro: "NBCF-ovlp-test with the progress function called once per n outer-loop iterations of the main thread's share of the product (the paper: n = 1). Section V argues a programmer can find the best n when there are few choices.",
		Items: []any{s.testChart(r)},
	})
	p.Sections = append(p.Sections, report.Section{
		Title: "Beyond the paper: 15 + 1 or 16 + 1 threads",
		Intro: "The paper gives the progress thread a core of its own (15 compute threads); Section V names the alternative, 16 compute threads with the progress thread sharing a core, a trade of one core's computation against context switches. On a shared core the progress thread also waits for the scheduler to give it the core, up to a time slice, while the rendezvous it should answer waits with it.",
		Items: []any{s.threadsChart(r), s.sliceChart(r), s.switchMap(r)},
	})
	p.Sections = append(p.Sections, report.Section{
		Title: "A recommender: which implementation for which regime",
		Intro: "The paper's aim is to choose the implementation automatically (Section V: whether a good progress-call frequency is easy to find, and how many collectives are in flight, are the deciding questions). For each regime the candidates run and the fastest is recommended; the reason is computed from the parts of its time and the runner-up's.",
		Items: []any{s.recommendTable(r)},
	})
	p.Sections = append(p.Sections, report.Section{
		Title: "Findings",
		Intro: fmt.Sprintf("The paper's claims, checked against the numbers above. Each finding sets our numbers against the range the paper's words allow, the words quoted beside it; the engine draws no random numbers, so our numbers are exact and a verdict turns on that range alone. One tie band decides every \"the same\" and every \"faster\": a ratio within 1 ± %g, half a unit of the second decimal of the speedups the paper calls \"約\" (about). Findings 1 to 6 use the hardware defaults (nothing fitted); finding 7 the default calibrated reading (%s).", nbcTie, variant(nbcVarDefault).Label),
		Items: []any{report.Findings{Title: "The paper's findings against this simulation", Items: nbcFindings(s, r)}},
	})
	return p, nil
}

// figChart is Fig. 1 (setup 0) or Fig. 2 (setup 1): the six cases' times
// stacked from their parts.
func (s *nbcStudy) figChart(r *nbcResults, si int) (*report.BarChart, error) {
	x := report.Axis{Name: "case"}
	// Total = Compute + (Comm − Overlap) + Overhead: the stack is the
	// total; the hidden communication stands beside it (it may exceed
	// Compute, when progress calls lengthen the computation it hides under).
	parts := []report.BarSeries{
		{Name: "computation (ms)", Stack: "time"},
		{Name: "communication not hidden (ms)", Stack: "time"},
		{Name: "overheads (ms)", Stack: "time"},
		{Name: "communication hidden under computation: overlap (ms)", Stack: "hidden"},
	}
	var totals []string
	for _, c := range paperCases {
		run := r.at(s.paperCase(si, c.Method))
		x.Labels = append(x.Labels, c.Name)
		vals := []float64{run.Compute, run.Exposed(), run.Overhead, run.Overlap}
		for i, v := range vals {
			// A negative part would stack downwards and no longer read
			// as a share of the total: the engine's parts must not be.
			if v < 0 {
				return nil, fmt.Errorf("nbc: %s at %d nodes: the part %q is %g s, below zero", c.Name, nbcSetups[si].Nodes, parts[i].Name, v)
			}
			parts[i].Values = append(parts[i].Values, ms(v))
		}
		totals = append(totals, fmt.Sprintf("%s %.4g ms", c.Name, ms(run.Total)))
	}
	set := nbcSetups[si]
	p := s.paperCase(si, engine.MPI)
	return &report.BarChart{
		ID:    fmt.Sprintf("nbc-fig%d", si+1),
		Title: fmt.Sprintf("Fig. %d  Time of each case, %s", si+1, set.Label),
		Caption: fmt.Sprintf("The paper's Fig. %d, simulated: %d nodes, %s per destination, a %d × %d matrix, one Alltoall. Totals: %s. Without a progress thread 16 compute threads, with one 15 (its own core).",
			si+1, p.Nodes, sizeLabel(p.Msg), p.Matrix, p.Matrix, strings.Join(totals, "; ")),
		X: x, YName: "time (ms)", Digits: 4,
		Series: parts,
	}, nil
}

// speedupTable puts the paper's speedups beside the simulated ones.
func (s *nbcStudy) speedupTable(r *nbcResults) *report.Table {
	t := &report.Table{
		ID:    "nbc-speedups",
		Title: "Overlap speedups: the paper against the simulation",
		Caption: fmt.Sprintf("Speedup = the baseline's time over the case's (LibNBC's cases against NBCF-noovlp, TCC against MPI), with the hardware defaults (nothing fitted). Agreement: within %g of the paper's speedup, half a unit of the second decimal (the paper calls each speedup \"約\", about: the findings say why). Why: how the case's time differs from its baseline's, part by part, and, where the simulation misses the paper, what it would take to meet it. A row opens the tcc scene on the case's workload.",
			nbcAbout),
		Header: []string{"nodes", "case", "baseline", "paper speedup", "simulated speedup", "difference", "agreement", "simulated time (ms)", "baseline time (ms)", "why"},
	}
	for si, set := range nbcSetups {
		for _, m := range []engine.Method{engine.NBCFTest, engine.NBCT, engine.TCC} {
			sp := s.speedupRow(r, si, m)
			agree := "yes"
			if !sp.agrees() {
				agree = "no"
			}
			t.Rows = append(t.Rows, []string{
				fmt.Sprint(set.Nodes), caseName(m), caseName(m.Baseline()),
				fmt.Sprintf("%.3f", sp.Paper), fmt.Sprintf("%.3f", sp.Sim), fmt.Sprintf("%+.3f", sp.Sim-sp.Paper), agree,
				fmt.Sprintf("%.4g", ms(sp.Run.Total)), fmt.Sprintf("%.4g", ms(sp.Base.Total)), sp.why(),
			})
			t.RowLinks = append(t.RowLinks, sceneLink(sp.P, "", fmt.Sprintf("%s at %d nodes", caseName(m), set.Nodes)))
		}
	}
	return t
}

// inflightChart is the speedup over the blocking MPI_Alltoall against the
// number of collectives in flight.
func (s *nbcStudy) inflightChart(r *nbcResults, si int) *report.LineChart {
	x := report.Axis{Name: "collectives in flight"}
	for _, k := range s.inflight {
		x.Labels = append(x.Labels, fmt.Sprint(k))
		x.Values = append(x.Values, float64(k))
	}
	lc := &report.LineChart{
		ID:    fmt.Sprintf("nbc-inflight-%d", nbcSetups[si].Nodes),
		Title: fmt.Sprintf("Speedup over the blocking MPI_Alltoall versus collectives in flight, %s", nbcSetups[si].Label),
		X:     x, YName: "T(MPI, k Alltoalls) / T", Digits: 4,
	}
	for _, m := range overlapMethods {
		v := make([]float64, len(s.inflight))
		links := make([]*report.Link, len(s.inflight))
		for i, k := range s.inflight {
			p := s.inflightPoint(si, m, k)
			v[i] = r.at(s.inflightPoint(si, engine.MPI, k)).Total / r.at(p).Total
			links[i] = sceneLink(p, "", fmt.Sprintf("%s with %d collective(s) in flight", caseName(m), k))
		}
		lc.Series = append(lc.Series, report.Series{Name: caseName(m), Values: v, Links: links})
	}
	last := len(s.inflight) - 1
	lc.Caption = fmt.Sprintf("%s; k Alltoalls of %s each, started back to back, then the product, then the waits (TCC's queue holds %d handles). With k = %d the blocking reference takes %.4g ms.",
		nbcSetups[si].Label, sizeLabel(s.paperCase(si, engine.MPI).Msg), s.paperCase(si, engine.TCC).QueueCap, s.inflight[last], ms(r.at(s.inflightPoint(si, engine.MPI, s.inflight[last])).Total))
	return lc
}

// sizeChart is the speedup over the blocking MPI_Alltoall against the
// message size, the eager limit marked on the axis.
func (s *nbcStudy) sizeChart(r *nbcResults, si int) *report.LineChart {
	eager := s.paperCase(si, engine.MPI).EagerLimit
	x := report.Axis{Name: "message size per destination"}
	for _, b := range s.sizes {
		l := sizeLabel(b)
		if b == eager {
			l += " = eager limit"
		}
		x.Labels = append(x.Labels, l)
		x.Values = append(x.Values, b)
	}
	lc := &report.LineChart{
		ID:    fmt.Sprintf("nbc-msgsize-%d", nbcSetups[si].Nodes),
		Title: fmt.Sprintf("Speedup over the blocking MPI_Alltoall versus message size, %s", nbcSetups[si].Label),
		Caption: fmt.Sprintf("%s except the message size (bytes per destination, powers of two, log axis). Messages up to the eager limit (%s, marked on the axis) go eagerly; larger ones by rendezvous.",
			nbcSetups[si].Label, sizeLabel(eager)),
		X: x, YName: "T(MPI) / T", Digits: 4,
	}
	for _, m := range overlapMethods {
		v := make([]float64, len(s.sizes))
		links := make([]*report.Link, len(s.sizes))
		for i, b := range s.sizes {
			p := s.sizePoint(si, m, b)
			v[i] = r.at(s.sizePoint(si, engine.MPI, b)).Total / r.at(p).Total
			links[i] = sceneLink(p, "", fmt.Sprintf("%s with %s messages", caseName(m), sizeLabel(b)))
		}
		lc.Series = append(lc.Series, report.Series{Name: caseName(m), Values: v, Links: links})
	}
	return lc
}

// testChart is NBCF-test's speedup against its progress-call interval, at
// both setups, with NBCF-notest (no call at all) as the flat reference.
func (s *nbcStudy) testChart(r *nbcResults) *report.LineChart {
	x := report.Axis{Name: "outer-loop iterations per progress call"}
	for _, n := range s.testEvery {
		x.Labels = append(x.Labels, fmt.Sprint(n))
		x.Values = append(x.Values, float64(n))
	}
	lc := &report.LineChart{
		ID:    "nbc-testfreq",
		Title: "NBCF-ovlp-test: speedup versus the progress-call interval",
		X:     x, YName: "speedup over NBCF-noovlp", Digits: 4,
	}
	var rows []string
	for si, set := range nbcSetups {
		v, flat := make([]float64, len(s.testEvery)), make([]float64, len(s.testEvery))
		vl, fl := make([]*report.Link, len(s.testEvery)), make([]*report.Link, len(s.testEvery))
		ntp := s.paperCase(si, engine.NBCFNoTest)
		nt := r.at(ntp).Speedup
		for i, n := range s.testEvery {
			v[i], flat[i] = r.at(s.testPoint(si, n)).Speedup, nt
			vl[i] = sceneLink(s.testPoint(si, n), "", fmt.Sprintf("NBCF-ovlp-test at %d nodes, %s", set.Nodes, everyLabel(n)))
			fl[i] = sceneLink(ntp, "", fmt.Sprintf("NBCF-ovlp-notest at %d nodes", set.Nodes))
		}
		lc.Series = append(lc.Series,
			report.Series{Name: fmt.Sprintf("NBCF-ovlp-test, %d nodes", set.Nodes), Values: v, Links: vl},
			report.Series{Name: fmt.Sprintf("NBCF-ovlp-notest, %d nodes", set.Nodes), Values: flat, Links: fl})
		p := s.paperCase(si, engine.NBCFTest)
		rows = append(rows, fmt.Sprintf("%d nodes: %d rows per rank, about %d per compute thread", set.Nodes, p.Matrix/p.Nodes, p.Matrix/p.Nodes/p.ComputeThreads()))
	}
	lc.Caption = fmt.Sprintf("The paper's two setups; the x axis is logarithmic (powers of two). %s: an interval beyond the main thread's share calls the progress function no more before the wait, like NBCF-ovlp-notest (the flat lines).", strings.Join(rows, "; "))
	return lc
}

// threadsChart sets 15 + 1 against 16 + 1 threads for the two threaded
// implementations at both setups.
func (s *nbcStudy) threadsChart(r *nbcResults) *report.BarChart {
	x := report.Axis{Name: "case"}
	ded := report.BarSeries{Name: "15 compute threads + progress thread on its own core"}
	over := report.BarSeries{Name: "16 compute threads + progress thread sharing a core"}
	d := engine.Default()
	for si, set := range nbcSetups {
		for _, m := range s.switchMeth {
			x.Labels = append(x.Labels, fmt.Sprintf("%s, %d nodes", caseName(m), set.Nodes))
			ded.Values = append(ded.Values, r.at(s.threadPoint(si, m, false, d.ContextSwitch, d.TimeSlice)).Speedup)
			over.Values = append(over.Values, r.at(s.threadPoint(si, m, true, d.ContextSwitch, d.TimeSlice)).Speedup)
		}
	}
	return &report.BarChart{
		ID:    "nbc-threads",
		Title: "15 + 1 against 16 + 1 threads: overlap speedup",
		Caption: fmt.Sprintf("The paper's two setups, one Alltoall; speedup over each case's baseline (NBCT against NBCF-noovlp, TCC against MPI). Context switch %.3g µs, time slice %.3g ms.",
			d.ContextSwitch*1e6, d.TimeSlice*1e3),
		X: x, YName: "speedup", Digits: 4,
		Series: []report.BarSeries{ded, over},
	}
}

// sliceChart is the gain of oversubscribing against the scheduler's time
// slice: the progress thread waits up to a slice for its turn on the
// shared core, so the slice, more than the switch itself, sets the price.
func (s *nbcStudy) sliceChart(r *nbcResults) *report.LineChart {
	x := report.Axis{Name: "time slice (ms)"}
	for _, ts := range s.slices {
		x.Labels = append(x.Labels, fmt.Sprintf("%g", ts*1e3))
		x.Values = append(x.Values, ts*1e3)
	}
	d := engine.Default()
	lc := &report.LineChart{
		ID:    "nbc-slice",
		Title: "16 + 1 over 15 + 1 threads versus the scheduler's time slice",
		Caption: fmt.Sprintf("T(15 + 1) / T(16 + 1): above 1 the oversubscribed progress thread pays, below 1 the dedicated core does. The paper's two setups, one Alltoall, context switch %.3g µs; the engine's default slice is %.3g ms (CFS on the paper's kernel). The 15 + 1 runs share no core, so the slice only touches 16 + 1.",
			d.ContextSwitch*1e6, d.TimeSlice*1e3),
		X: x, YName: "T(15 + 1) / T(16 + 1)", Digits: 4,
	}
	for si, set := range nbcSetups {
		for _, m := range s.switchMeth {
			cs := nbcSetups[si].params(m).ContextSwitch
			v := make([]float64, len(s.slices))
			links := make([]*report.Link, len(s.slices))
			for i, ts := range s.slices {
				over := s.threadPoint(si, m, true, cs, ts)
				v[i] = r.at(s.threadPoint(si, m, false, cs, ts)).Total / r.at(over).Total
				links[i] = sceneLink(over, "", fmt.Sprintf("%s at %d nodes, 16 + 1 threads, a %g ms time slice", caseName(m), set.Nodes, ts*1e3))
			}
			lc.Series = append(lc.Series, report.Series{Name: fmt.Sprintf("%s, %d nodes", caseName(m), set.Nodes), Values: v, Links: links})
		}
	}
	return lc
}

// switchMap is the same gain over the time slice and the context-switch
// cost, for TCC at 32 nodes.
func (s *nbcStudy) switchMap(r *nbcResults) *report.HeatMap {
	x := report.Axis{Name: "time slice (ms)"}
	for _, ts := range s.slices {
		x.Labels = append(x.Labels, fmt.Sprintf("%g", ts*1e3))
		x.Values = append(x.Values, ts*1e3)
	}
	y := report.Axis{Name: "context switch (µs)"}
	z := make([][]float64, len(s.switches))
	links := make([][]*report.Link, len(s.switches))
	for j, cs := range s.switches {
		y.Labels = append(y.Labels, fmt.Sprintf("%g", cs*1e6))
		y.Values = append(y.Values, cs*1e6)
		z[j] = make([]float64, len(s.slices))
		links[j] = make([]*report.Link, len(s.slices))
		for i, ts := range s.slices {
			over := s.threadPoint(nbcMapSetup, nbcMapMethod, true, cs, ts)
			z[j][i] = r.at(s.threadPoint(nbcMapSetup, nbcMapMethod, false, cs, ts)).Total / r.at(over).Total
			links[j][i] = sceneLink(over, "", fmt.Sprintf("%s, 16 + 1 threads, a %g ms time slice and a %g µs context switch", caseName(nbcMapMethod), ts*1e3, cs*1e6))
		}
	}
	return &report.HeatMap{
		ID:      "nbc-switch",
		Title:   fmt.Sprintf("%s, %s: 16 + 1 over 15 + 1 threads", caseName(nbcMapMethod), nbcSetups[nbcMapSetup].Label),
		Caption: "T(15 + 1) / T(16 + 1) over the scheduler's time slice and the cost of one context switch: red where the oversubscribed progress thread pays, blue where the dedicated core does; the scale is centred at 1 and values beyond [0.5, 1.5] take the end colours.",
		X:       x, Y: y, Z: z, ZName: "T(15 + 1) / T(16 + 1)", Digits: 3, Links: links,
		ZMin: report.Float(0.5), ZMax: report.Float(1.5), Palette: report.Diverging, CellLabels: true,
	}
}

// nbcSpeedup is one row of the speedup table: a case, its baseline, the
// paper's speedup.
type nbcSpeedup struct {
	Nodes     int
	Method    engine.Method
	Paper     float64
	Sim       float64
	Run, Base nbcRun
	P         engine.Params
}

func (s *nbcStudy) speedupRow(r *nbcResults, si int, m engine.Method) nbcSpeedup {
	p := s.paperCase(si, m)
	run := r.at(p)
	return nbcSpeedup{
		Nodes: nbcSetups[si].Nodes, Method: m, Paper: paperSpeedups[nbcSetups[si].Nodes][m], Sim: run.Speedup,
		Run: run, Base: r.at(s.paperCase(si, m.Baseline())), P: p,
	}
}

// agrees says whether the simulated speedup is the paper's within its
// precision (aboutClaim: one unit of its third decimal).
func (sp nbcSpeedup) agrees() bool {
	c := aboutClaim("", sp.Paper, "")
	return sp.Sim >= c.Lo && sp.Sim <= c.Hi
}

// fmtMs is a duration in ms for prose.
func fmtMs(t float64) string { return fmt.Sprintf("%.3g ms", ms(t)) }

// signed says "x ms more" or "x ms less" of a part.
func signed(d float64, what string) string {
	if d >= 0 {
		return fmt.Sprintf("%s more %s", fmtMs(d), what)
	}
	return fmt.Sprintf("%s less %s", fmtMs(-d), what)
}

// why explains a case's speedup from its parts and, where it misses the
// paper's, what the paper's number would need.
func (sp nbcSpeedup) why() string {
	r, b := sp.Run, sp.Base
	threads := sp.P.ComputeThreads()
	bp := sp.P
	bp.Method = sp.Method.Baseline()
	comp := fmt.Sprintf("the same computation (%d compute threads each)", threads)
	if threads != bp.ComputeThreads() || r.Compute != b.Compute {
		comp = fmt.Sprintf("%s (%d compute threads against %d)", signed(r.Compute-b.Compute, "computation"), threads, bp.ComputeThreads())
	}
	out := fmt.Sprintf("Against %s: the overlap hides %s of %s of communication (%.0f %%); %s; %s.",
		caseName(bp.Method), fmtMs(r.Overlap), fmtMs(r.Comm), 100*r.Overlap/r.Comm, comp,
		signed(r.Overhead-b.Overhead, "overheads"))
	if sp.agrees() {
		return out
	}
	need := b.Total / sp.Paper
	out += fmt.Sprintf(" The paper's %.3f would need %s, %s.", sp.Paper, fmtMs(need), signed(need-r.Total, "time than simulated"))
	// Perfect overlap with no overheads: the longer of computation and
	// communication.
	bound := b.Total / math.Max(r.Compute, r.Comm)
	switch {
	case sp.Paper > bound:
		out += fmt.Sprintf(" No overlap can give it here: hiding all communication at no cost gives at most %.3f, since the baseline's communication is %.0f %% of its time and the paper's speedup needs %.0f %% of the baseline's time to vanish; the machine's communication was a larger share of the baseline than the model's.",
			bound, 100*b.Comm/b.Total, 100*(1-1/sp.Paper))
	case sp.Sim < sp.Paper:
		out += " The model loses more than the machine did: " + largestLoss(r) + "."
	default:
		// Keep the model's computation, communication and overheads: the
		// paper's time then says how much of the communication was hidden.
		hid := r.Compute + r.Comm + r.Overhead - need
		if hid > 0 {
			out += fmt.Sprintf(" With the model's computation, communication and overheads as they are, the paper's time means the overlap hid only %s (%.0f %%) of the communication, against the model's %.0f %%: on the machine the collective advanced less while the threads computed, or costs the model leaves out or puts lower (its overheads here are %s) took the difference.",
				fmtMs(hid), 100*hid/r.Comm, 100*r.Overlap/r.Comm, fmtMs(r.Overhead))
		} else {
			out += fmt.Sprintf(" Even with no overlap at all the model's parts would take only %s: costs the model leaves out or puts lower (its overheads here are %s) took the difference.",
				fmtMs(r.Compute+r.Comm+r.Overhead), fmtMs(r.Overhead))
		}
	}
	return out
}

// largestLoss names the bigger of what a case still loses: unhidden
// communication or overheads.
func largestLoss(r nbcRun) string {
	if r.Exposed() >= r.Overhead {
		return fmt.Sprintf("%s of communication stay unhidden (overheads %s)", fmtMs(r.Exposed()), fmtMs(r.Overhead))
	}
	return fmt.Sprintf("%s of overheads (unhidden communication %s)", fmtMs(r.Overhead), fmtMs(r.Exposed()))
}

// nbcChoice is a regime's recommendation.
type nbcChoice struct {
	Regime        nbcRegime
	Best, Runner  nbcCandidate
	BestR, RunR   nbcRun
	MPI           nbcRun
	NoCandidateOK bool // no candidate beats the blocking collective
}

// choose runs the recommender for one regime: the fastest candidate, and
// the fastest of another implementation as the runner-up.
func (s *nbcStudy) choose(r *nbcResults, g nbcRegime) nbcChoice {
	cs := s.candidates(g)
	c := nbcChoice{Regime: g, MPI: r.at(s.regimePoint(g, engine.MPI))}
	bi := 0
	for i := range cs {
		if r.at(cs[i].P).Total < r.at(cs[bi].P).Total {
			bi = i
		}
	}
	c.Best, c.BestR = cs[bi], r.at(cs[bi].P)
	ri := -1
	for i := range cs {
		if cs[i].P.Method != c.Best.P.Method && (ri < 0 || r.at(cs[i].P).Total < r.at(cs[ri].P).Total) {
			ri = i
		}
	}
	c.Runner, c.RunR = cs[ri], r.at(cs[ri].P)
	c.NoCandidateOK = c.BestR.Total >= c.MPI.Total
	return c
}

// reason says, part by part, why the best candidate beats the runner-up.
func (c nbcChoice) reason() string {
	w, u := c.BestR, c.RunR
	type part struct {
		d    float64 // runner-up minus best: > 0 is where the best gains
		name string
	}
	parts := []part{
		{u.Exposed() - w.Exposed(), "unhidden communication"},
		{u.Overhead - w.Overhead, "overheads"},
		{u.Compute - w.Compute, fmt.Sprintf("computation (%d against %d compute threads)", c.Best.P.ComputeThreads(), c.Runner.P.ComputeThreads())},
	}
	// Largest gain first; ties keep the order above.
	for i := 1; i < len(parts); i++ {
		for j := i; j > 0 && parts[j].d > parts[j-1].d; j-- {
			parts[j], parts[j-1] = parts[j-1], parts[j]
		}
	}
	var gains, losses []string
	for _, p := range parts {
		switch {
		case ms(p.d) >= nbcPartMs:
			gains = append(gains, fmt.Sprintf("%s less %s", fmtMs(p.d), p.name))
		case ms(-p.d) >= nbcPartMs:
			losses = append(losses, fmt.Sprintf("%s more %s", fmtMs(-p.d), p.name))
		}
	}
	margin := (u.Total - w.Total) / w.Total
	out := fmt.Sprintf("%.1f %% faster than %s", 100*margin, c.Runner.Name)
	if margin <= nbcTie {
		out = fmt.Sprintf("a tie (within %g %%, the paper's precision) with %s", 100*nbcTie, c.Runner.Name)
	}
	if len(gains) > 0 {
		out += ": " + strings.Join(gains, ", ")
	}
	if len(losses) > 0 {
		out += ", against " + strings.Join(losses, ", ")
	}
	if c.NoCandidateOK {
		out += fmt.Sprintf(". No candidate beats the blocking MPI_Alltoall here (%s): use it", fmtMs(c.MPI.Total))
	}
	return out + "."
}

// regimeLabels describe a regime's columns.
func (g nbcRegime) labels(eager float64) (msg, tun string) {
	proto := "rendezvous"
	if g.Msg <= eager {
		proto = "eager"
	}
	msg = fmt.Sprintf("%s (%s)", sizeLabel(g.Msg), proto)
	tun = "no"
	if g.Tunable {
		tun = "yes"
	}
	return msg, tun
}

func (s *nbcStudy) recommendTable(r *nbcResults) *report.Table {
	t := &report.Table{
		ID:    "nbc-recommend",
		Title: "Recommended implementation per regime",
		Caption: fmt.Sprintf("The candidates: NBCF-ovlp-test with a progress call every n outer-loop iterations, n in {%s} (only where a good frequency can be found: 'tunable'), NBCF-ovlp-notest, and NBCT and TCC each with 15 + 1 and 16 + 1 threads. The fastest is recommended; the runner-up is the fastest other implementation. Speedup is over the blocking MPI_Alltoall run as many times. Part differences under %g ms are left out of the reason.",
			joinInts(s.testEvery), nbcPartMs),
		Header: []string{"setup", "message", "collectives in flight", "progress frequency tunable", "recommended", "time (ms)", "speedup over MPI", "runner-up", "runner-up time (ms)", "why"},
	}
	for _, g := range s.regimes {
		c := s.choose(r, g)
		msg, tun := g.labels(s.paperCase(g.Setup, engine.MPI).EagerLimit)
		t.Rows = append(t.Rows, []string{
			nbcSetups[g.Setup].Short, msg, fmt.Sprint(g.Collectives), tun,
			c.Best.Name, fmt.Sprintf("%.4g", ms(c.BestR.Total)), fmt.Sprintf("%.3f", c.MPI.Total/c.BestR.Total),
			c.Runner.Name, fmt.Sprintf("%.4g", ms(c.RunR.Total)), c.reason(),
		})
		t.RowLinks = append(t.RowLinks, sceneLink(c.Best.P, "", "the recommended "+c.Best.Name))
	}
	return t
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}
