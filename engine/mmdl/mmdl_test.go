package mmdl

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"commlab/engine/param"
	"commlab/engine/trace"
)

func near(a, b, rel float64) bool { return math.Abs(a-b) <= rel*max(1, math.Abs(a), math.Abs(b)) }

// unit is an instance with γ_i = 1/MHz_i... in plain numbers: Compute 1,
// so γ_i = 1/MHz_i, and β = comm·8e6/throughput.
func unit(mhz, tasks []float64, beta float64) Instance {
	return Instance{MHz: mhz, Tasks: tasks, Compute: 1, Comm: beta, Throughput: 8e6}
}

func TestUnits(t *testing.T) {
	in, err := Preset(2, "2", false)
	if err != nil {
		t.Fatal(err)
	}
	// 100 K clocks at 2400 MHz and at 2000 MHz; 3 KB at 100 MB/s.
	if g := in.Gamma(0); !near(g, 100e3/2400e6, 1e-15) {
		t.Errorf("γ_0 = %g, want %g", g, 100e3/2400e6)
	}
	if g := in.Gamma(7); !near(g, 50e-6, 1e-15) {
		t.Errorf("γ_7 = %g, want 50 µs", g)
	}
	if b := in.Beta(); !near(b, 30e-6, 1e-15) {
		t.Errorf("β = %g, want 30 µs", b)
	}
	if n := in.TotalTasks(); n != 600000 {
		t.Errorf("Load 2 holds %g tasks, want 600,000", n)
	}
	for _, l := range Loads {
		in, _ := Preset(1, l, true)
		if n := in.TotalTasks(); n != 600000 {
			t.Errorf("Load %s holds %g tasks, want 600,000", l, n)
		}
	}
}

// The paper's ProcSet 1, Load 1 moves nothing: T is 75,000·γ, and its
// Table 4 simulated times are exactly that.
func TestBalancedPaperCase(t *testing.T) {
	for _, c := range []struct {
		cal  bool
		want float64
	}{{false, 3.125}, {true, 9.1875}} {
		in, _ := Preset(1, "1", c.cal)
		st, err := SteadyState(in)
		if err != nil {
			t.Fatal(err)
		}
		if !near(st.T, c.want, 1e-14) || len(st.Transfers) != 0 {
			t.Errorf("calibrated=%v: T = %g with %d transfers, want %g and none", c.cal, st.T, len(st.Transfers), c.want)
		}
		for _, sched := range []Sched{Paper, Overlap} {
			s, err := Rounds(in, st, 5, sched)
			if err != nil {
				t.Fatal(err)
			}
			if !near(s.Makespan, c.want, 1e-14) {
				t.Errorf("calibrated=%v, %v: makespan %g, want %g", c.cal, sched, s.Makespan, c.want)
			}
		}
	}
}

func TestSteadyHandCases(t *testing.T) {
	cases := []struct {
		name  string
		in    Instance
		T     float64
		final []float64
	}{
		// γ = 1, β = 0.5, loads (10, 0): the exporter keeps 2T − 10, the
		// importer takes T/1.5; they sum to 10 at T = 7.5: 5 and 5, each
		// busy 5 + 0.5·5.
		{"one exporter", unit([]float64{1, 1}, []float64{10, 0}, 0.5), 7.5, []float64{5, 5}},
		// β = 2 > γ: sending costs more than computing, nothing moves.
		{"costly network", unit([]float64{1, 1}, []float64{10, 0}, 2), 10, []float64{10, 0}},
		// Equal loads on equal processors: nothing moves.
		{"balanced", unit([]float64{2, 2, 2}, []float64{4, 4, 4}, 0.1), 2, []float64{4, 4, 4}},
		// γ = (1, 0.5), β = 0.5, loads (6, 0): exporter f0 = 2T − 6,
		// importer f1 = T; 3T − 6 = 6 at T = 4: finals 2 and 4.
		{"fast importer", unit([]float64{1, 2}, []float64{6, 0}, 0.5), 4, []float64{2, 4}},
		// Free network (β = 0): loads in proportion to speed, T = N/Σ MHz.
		{"free network", unit([]float64{1, 3}, []float64{8, 0}, 0), 2, []float64{2, 6}},
		{"no tasks", unit([]float64{1, 3}, []float64{0, 0}, 1), 0, []float64{0, 0}},
		{"one processor", unit([]float64{4}, []float64{8}, 1), 2, []float64{8}},
	}
	for _, c := range cases {
		st, err := SteadyState(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !near(st.T, c.T, 1e-12) {
			t.Errorf("%s: T = %.15g, want %g", c.name, st.T, c.T)
		}
		for i, f := range c.final {
			if !near(st.Final[i], f, 1e-12) {
				t.Errorf("%s: final[%d] = %.15g, want %g", c.name, i, st.Final[i], f)
			}
		}
		checkSteady(t, c.name, c.in, st)
	}
}

// checkSteady checks what any steady state keeps: conservation, flows that
// match the final loads, and every busy time ≤ T with one reaching it.
func checkSteady(t *testing.T, name string, in Instance, st Steady) {
	t.Helper()
	p := in.Procs()
	var n, nf float64
	for i := range p {
		n += in.Tasks[i]
		nf += st.Final[i]
		if st.Final[i] < 0 {
			t.Errorf("%s: final[%d] = %g < 0", name, i, st.Final[i])
		}
	}
	if !near(n, nf, 1e-12) {
		t.Errorf("%s: final loads sum to %g, initial to %g", name, nf, n)
	}
	f := FinalLoads(in.Tasks, st.Transfers)
	comm := make([]float64, p)
	for _, tr := range st.Transfers {
		comm[tr.From] += tr.Tasks
		comm[tr.To] += tr.Tasks
		if st.Flow != nil && st.Flow[tr.From][tr.To] != tr.Tasks {
			t.Errorf("%s: Flow[%d][%d] = %g, transfer says %g", name, tr.From, tr.To, st.Flow[tr.From][tr.To], tr.Tasks)
		}
	}
	var busiest float64
	for i := range p {
		if !near(f[i], st.Final[i], 1e-12) {
			t.Errorf("%s: transfers leave %g on %d, Final says %g", name, f[i], i, st.Final[i])
		}
		busy := in.Gamma(i)*st.Final[i] + in.Beta()*comm[i]
		if busy > st.T*(1+1e-9)+1e-12 {
			t.Errorf("%s: processor %d busy %g > T = %g", name, i, busy, st.T)
		}
		busiest = max(busiest, busy)
	}
	if !near(busiest, st.T, 1e-9) {
		t.Errorf("%s: busiest processor %g, T = %g: T is not tight", name, busiest, st.T)
	}
}

func randomInstance(r *rand.Rand, p int) Instance {
	in := Instance{MHz: make([]float64, p), Tasks: make([]float64, p),
		Compute: 0.05 + 0.5*r.Float64(), Comm: 0.0005 + 0.01*r.Float64(),
		Latency: []float64{0, 1e-5, 1e-4, 1e-3}[r.IntN(4)], Throughput: 800e6}
	shape := r.IntN(3)
	for i := range p {
		in.MHz[i] = float64(1000 + 200*r.IntN(15))
		switch shape {
		case 0: // anything
			in.Tasks[i] = float64(r.IntN(200000))
		case 1: // master-worker: one processor holds it all
			if i == 0 {
				in.Tasks[i] = 600000
			}
		case 2: // half loaded, half empty
			if r.IntN(2) == 0 {
				in.Tasks[i] = float64(50000 + r.IntN(100000))
			}
		}
	}
	return in
}

func TestSteadyRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 1))
	for k := range 300 {
		in := randomInstance(r, 1+r.IntN(40))
		st, err := SteadyState(in)
		if err != nil {
			t.Fatal(err)
		}
		checkSteady(t, "random "+itoa(k), in, st)
	}
}

// checkSchedule checks a simulated schedule against the rules: one
// operation at a time per processor, sends paired with receives, no task
// computed before it arrived (nor one that will be sent), every
// processor's final load computed, T ≤ makespan; for Overlap makespan ≤
// T + T/R + α·R·D, for Paper the pipeline of checkPaper.
func checkSchedule(t *testing.T, name string, in Instance, st Steady, s *Schedule) {
	t.Helper()
	name += " " + s.Sched.String()
	p := in.Procs()
	if err := trace.Validate(s.Trace()); err != nil {
		t.Fatalf("%s: trace: %v", name, err)
	}
	sent := make([]float64, p)
	for _, tr := range st.Transfers {
		sent[tr.From] += tr.Tasks
	}
	computed := make([]float64, p)
	recv := make([]float64, p)
	last := make([]float64, p)
	var sends, recvs float64
	for _, op := range s.Ops {
		i := op.Proc
		if op.Start < last[i]-1e-12 {
			t.Fatalf("%s: processor %d starts %v at %g before its previous op ends at %g", name, i, op.Kind, op.Start, last[i])
		}
		last[i] = op.End
		switch op.Kind {
		case Send:
			sends += op.Tasks
		case Recv:
			recvs += op.Tasks
			recv[i] += op.Tasks
		case Compute:
			computed[i] += op.Tasks
			if avail := in.Tasks[i] + recv[i] - sent[i]; computed[i] > avail+1e-9*max(1, in.Tasks[i]+recv[i]) {
				t.Fatalf("%s: processor %d has computed %g by %g but holds only %g it keeps", name, i, computed[i], op.End, avail)
			}
		}
		if op.Round < 0 || op.Round >= s.R {
			t.Fatalf("%s: op round %d outside [0, %d)", name, op.Round, s.R)
		}
	}
	if !near(sends, recvs, 1e-12) {
		t.Errorf("%s: %g tasks sent, %g received", name, sends, recvs)
	}
	for i := range p {
		if !near(computed[i], st.Final[i], 1e-9) {
			t.Errorf("%s: processor %d computed %g of its %g tasks", name, i, computed[i], st.Final[i])
		}
	}
	if s.Makespan < st.T*(1-1e-12) {
		t.Errorf("%s: makespan %g below T %g", name, s.Makespan, st.T)
	}
	if s.Sched == Paper {
		checkPaper(t, name, in, st, s)
		return
	}
	hi := s.Formula + in.Latency*float64(s.R*max(0, s.MaxDegree-1))
	if s.Makespan > hi*(1+1e-12) {
		t.Errorf("%s: makespan %g above T + T/R + α·R·D = %g (R %d, D %d)", name, s.Makespan, hi, s.R, s.MaxDegree)
	}
}

// checkPaper checks the paper's pipeline: round k's transfers run in
// [k·Period, (k+1)·Period), a computation of round c's tasks starts only
// after the processor's round-c receives have ended, nothing computes in
// round 0 (unless nothing moves), and the makespan is R·Period plus the
// longest last-round quota (R ≥ 2 with transfers).
func checkPaper(t *testing.T, name string, in Instance, st Steady, s *Schedule) {
	t.Helper()
	moves := len(st.Transfers) > 0
	if !moves || s.R == 1 {
		return
	}
	L := s.Period
	if L < st.T/float64(s.R)*(1-1e-12) {
		t.Errorf("%s: period %g shorter than T/R = %g", name, L, st.T/float64(s.R))
	}
	if len(s.Boundaries) != s.R+1 {
		t.Fatalf("%s: %d round boundaries, want R + 1 = %d", name, len(s.Boundaries), s.R+1)
	}
	tol := 1e-9 * L * float64(s.R+1)
	recvEnd := make([][]float64, s.Procs) // per processor and round
	for i := range recvEnd {
		recvEnd[i] = make([]float64, s.R)
	}
	for _, op := range s.Ops {
		if op.Kind == Recv {
			recvEnd[op.Proc][op.Round] = max(recvEnd[op.Proc][op.Round], op.End)
		}
	}
	var lastQuota float64
	for _, op := range s.Ops {
		switch op.Kind {
		case Send, Recv:
			if lo := float64(op.Round) * L; op.Start < lo-tol || op.End > lo+L+tol {
				t.Fatalf("%s: round %d transfer [%g, %g] outside its round [%g, %g]", name, op.Round, op.Start, op.End, lo, lo+L)
			}
		case Compute:
			if op.Start < recvEnd[op.Proc][op.Round]-tol {
				t.Fatalf("%s: processor %d computes round %d's tasks at %g, before its receives end at %g", name, op.Proc, op.Round, op.Start, recvEnd[op.Proc][op.Round])
			}
			if op.Start < L-tol {
				t.Fatalf("%s: processor %d computes at %g, in the first round [0, %g)", name, op.Proc, op.Start, L)
			}
			if op.Round == s.R-1 && op.Start >= float64(s.R)*L-tol {
				lastQuota = max(lastQuota, op.End-op.Start)
			}
		}
	}
	if want := float64(s.R)*L + lastQuota; !near(s.Makespan, want, 1e-12) {
		t.Errorf("%s: makespan %g, want R·Period + last quota = %g", name, s.Makespan, want)
	}
}

func TestRoundsPresets(t *testing.T) {
	for _, ps := range []int{1, 2} {
		for _, l := range Loads {
			for _, cal := range []bool{false, true} {
				in, _ := Preset(ps, l, cal)
				st, err := SteadyState(in)
				if err != nil {
					t.Fatal(err)
				}
				checkSteady(t, "preset", in, st)
				for _, R := range []int{1, 2, 5, 20, OptimalRounds(st.T, in.Latency)} {
					for _, sched := range []Sched{Paper, Overlap} {
						s, err := Rounds(in, st, R, sched)
						if err != nil {
							t.Fatal(err)
						}
						checkSchedule(t, "preset", in, st, s)
					}
				}
			}
		}
	}
}

func TestRoundsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 2))
	for k := range 80 {
		in := randomInstance(r, 1+r.IntN(24))
		st, err := SteadyState(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, R := range []int{1, 1 + r.IntN(30), OptimalRounds(st.T, max(in.Latency, 1e-4))} {
			for _, sched := range []Sched{Paper, Overlap} {
				R := R
				if sched == Paper {
					// The paper's rounds hold every round's operations
					// explicitly; R* here can reach MaxRounds.
					R = min(R, 500)
				}
				s, err := Rounds(in, st, R, sched)
				if err != nil {
					t.Fatal(err)
				}
				checkSchedule(t, "random "+itoa(k), in, st, s)
			}
		}
	}
}

func TestFormula(t *testing.T) {
	if got := FormulaTotal(1, 1e-4, 100); !near(got, 1.02, 1e-15) {
		t.Errorf("FormulaTotal(1, 1e-4, 100) = %g, want 1.02", got)
	}
	for _, c := range []struct {
		T, a float64
		want int
	}{{1, 1e-4, 100}, {2, 1e-4, 141}, {1e-9, 1, 1}, {0, 1, 1}, {1, 0, MaxRounds}, {1e9, 1e-9, MaxRounds}} {
		if got := OptimalRounds(c.T, c.a); got != c.want {
			t.Errorf("OptimalRounds(%g, %g) = %d, want %d", c.T, c.a, got, c.want)
		}
	}
	// R* minimises the formula among integers.
	T, a := 10.379, 1e-4
	rs := OptimalRounds(T, a)
	for _, R := range []int{rs - 1, rs + 1} {
		if FormulaTotal(T, a, R) < FormulaTotal(T, a, rs) {
			t.Errorf("FormulaTotal at R = %d beats R* = %d", R, rs)
		}
	}
}

func TestChooseRounds(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 3))
	for range 12 {
		in := randomInstance(r, 2+r.IntN(10))
		in.Latency = 1e-4
		st, _ := SteadyState(in)
		for _, sched := range []Sched{Paper, Overlap} {
			R, s, err := ChooseRounds(in, st, sched)
			if err != nil {
				t.Fatal(err)
			}
			if s.R != R || s.Sched != sched {
				t.Fatalf("ChooseRounds(%v) returned R %d with a %v schedule of %d rounds", sched, R, s.Sched, s.R)
			}
			for _, other := range []int{1, 5, OptimalRounds(st.T, in.Latency)} {
				o, _ := Rounds(in, st, other, sched)
				if o.Makespan < s.Makespan*(1-1e-12) {
					t.Errorf("%v: chosen R %d (makespan %g) loses to R %d (%g)", sched, R, s.Makespan, other, o.Makespan)
				}
			}
		}
	}
}

// A schedule where importers start empty has to wait for data: more rounds
// bring the first data sooner, so the chosen R is above 1.
func TestChooseRoundsStarving(t *testing.T) {
	in := Instance{MHz: []float64{2400, 2400, 2400, 2400}, Tasks: []float64{600000, 0, 0, 0},
		Compute: ComputeAfter, Comm: CommAfter, Latency: PaperLatency, Throughput: PaperBitRate}
	st, _ := SteadyState(in)
	R, s, err := ChooseRounds(in, st, Overlap)
	if err != nil {
		t.Fatal(err)
	}
	one, _ := Rounds(in, st, 1, Overlap)
	if R < 2 || s.Makespan >= one.Makespan {
		t.Errorf("master-worker: chose R = %d (makespan %g), R = 1 gives %g", R, s.Makespan, one.Makespan)
	}
}

func TestValidate(t *testing.T) {
	good, _ := Preset(2, "2", true)
	cases := []struct {
		field string
		edit  func(*Instance)
	}{
		{"tasks", func(in *Instance) { in.Tasks = in.Tasks[:3] }},
		{"mhz", func(in *Instance) { in.MHz = nil; in.Tasks = nil }},
		{"mhz[6]", func(in *Instance) { in.MHz[6] = 0 }},
		{"mhz[1]", func(in *Instance) { in.MHz[1] = math.NaN() }},
		{"tasks[2]", func(in *Instance) { in.Tasks[2] = -1 }},
		{"tasks[0]", func(in *Instance) { in.Tasks[0] = math.Inf(1) }},
		{"compute", func(in *Instance) { in.Compute = 0 }},
		{"comm", func(in *Instance) { in.Comm = -0.001 }},
		{"latency", func(in *Instance) { in.Latency = -1 }},
		{"throughput", func(in *Instance) { in.Throughput = 0 }},
	}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		in := good
		in.MHz = append([]float64(nil), good.MHz...)
		in.Tasks = append([]float64(nil), good.Tasks...)
		c.edit(&in)
		err := in.Validate()
		var re *param.Error
		if !errors.As(err, &re) || re.Field != c.field {
			t.Errorf("%s: got %v, want a *param.Error on %s", c.field, err, c.field)
		}
		if _, err := SteadyState(in); err == nil {
			t.Errorf("%s: SteadyState accepted it", c.field)
		}
	}
	if _, err := Preset(3, "1", false); err == nil || !strings.Contains(err.Error(), "procset") {
		t.Errorf("Preset(3): %v", err)
	}
	if _, err := Preset(1, "5", false); err == nil || !strings.Contains(err.Error(), "load") {
		t.Errorf(`Preset(1, "5"): %v`, err)
	}
	st, _ := SteadyState(good)
	for _, R := range []int{0, -1, MaxRounds + 1} {
		if _, err := Rounds(good, st, R, Paper); err == nil || !strings.Contains(err.Error(), "rounds") {
			t.Errorf("Rounds(R = %d): %v", R, err)
		}
	}
}

// TestPinned pins a few values to the bit, natively and under js/wasm
// (GOOS=js GOARCH=wasm go test -exec=$(go env GOROOT)/lib/wasm/go_js_wasm_exec).
func TestPinned(t *testing.T) {
	in, _ := Preset(2, "2", true)
	st, _ := SteadyState(in)
	s, _ := Rounds(in, st, 5, Overlap)
	p, _ := Rounds(in, st, 5, Paper)
	got := []float64{st.T, s.Makespan, st.Final[0], st.Final[7], p.Makespan}
	want := []float64{pinT, pinMakespan, pinFinal0, pinFinal7, pinPaperMakespan}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("pinned value %d = %.17g, want %.17g", i, got[i], want[i])
		}
	}
}
