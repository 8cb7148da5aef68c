package lp

import (
	"math"
	"math/rand/v2"
	"testing"

	"commlab/engine/mmdl"
	"commlab/engine/param"
)

func near(a, b, rel float64) bool { return math.Abs(a-b) <= rel*max(1, math.Abs(a), math.Abs(b)) }

func TestHandCases(t *testing.T) {
	// γ = 1, β = 0.5, loads (10, 0): T = 7.5 (the closed form's hand case).
	two := mmdl.Instance{MHz: []float64{1, 1}, Tasks: []float64{10, 0}, Compute: 1, Throughput: 1}
	st, err := SteadyStatePairwise(two, Uniform(2, 0.5))
	if err != nil {
		t.Fatal(err)
	}
	if !near(st.T, 7.5, 1e-9) || !near(st.Flow[0][1], 5, 1e-9) {
		t.Errorf("two processors: T = %g, x01 = %g; want 7.5 and 5", st.T, st.Flow[0][1])
	}
	// A third processor behind a slow link (β = 100) gets nothing.
	three := mmdl.Instance{MHz: []float64{1, 1, 1}, Tasks: []float64{10, 0, 0}, Compute: 1, Throughput: 1}
	beta := Uniform(3, 0.5)
	beta[0][2], beta[2][0], beta[1][2], beta[2][1] = 100, 100, 100, 100
	st, err = SteadyStatePairwise(three, beta)
	if err != nil {
		t.Fatal(err)
	}
	if !near(st.T, 7.5, 1e-9) || st.Final[2] != 0 {
		t.Errorf("far processor: T = %g, final %v; want 7.5 and nothing on P2", st.T, st.Final)
	}
	// Two clusters: P0 (loaded) reaches P1 at β = 0.5 and P2 at 0.75.
	// At the optimum all three are busy T: P1 1.5·x1 = T, P2 1.75·x2 = T,
	// P0 10 − 0.5·x1 − 0.25·x2 = T, so T·(1 + 1/3 + 1/7) = 10: T = 210/31,
	// x1 = 140/31, x2 = 120/31.
	beta = [][]float64{{0, 0.5, 0.75}, {0.5, 0, 1}, {0.75, 1, 0}}
	st, err = SteadyStatePairwise(three, beta)
	if err != nil {
		t.Fatal(err)
	}
	if !near(st.T, 210.0/31, 1e-9) || !near(st.Flow[0][1], 140.0/31, 1e-9) || !near(st.Flow[0][2], 120.0/31, 1e-9) {
		t.Errorf("two clusters: T = %g, x01 = %g, x02 = %g; want 210/31, 140/31, 120/31", st.T, st.Flow[0][1], st.Flow[0][2])
	}
}

// On one β the LP and the closed form agree on T, and the LP's flows are a
// feasible schedule for the rounds (the flows may differ where the optimum
// is not unique).
func TestAgreesWithClosedForm(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 4))
	var ins []mmdl.Instance
	for _, ps := range []int{1, 2} {
		for _, l := range mmdl.Loads {
			for _, cal := range []bool{false, true} {
				in, _ := mmdl.Preset(ps, l, cal)
				ins = append(ins, in)
			}
		}
	}
	for range 40 {
		p := 2 + r.IntN(12)
		in := mmdl.Instance{MHz: make([]float64, p), Tasks: make([]float64, p),
			Compute: 0.05 + 0.5*r.Float64(), Comm: 0.0005 + 0.01*r.Float64(), Latency: 1e-4, Throughput: 800e6}
		for i := range p {
			in.MHz[i] = float64(1000 + 200*r.IntN(15))
			if r.IntN(3) > 0 {
				in.Tasks[i] = float64(r.IntN(200000))
			}
		}
		ins = append(ins, in)
	}
	for k, in := range ins {
		want, err := mmdl.SteadyState(in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := SteadyStatePairwise(in, Uniform(in.Procs(), in.Beta()))
		if err != nil {
			t.Fatalf("instance %d: %v", k, err)
		}
		if !near(got.T, want.T, 1e-7) {
			t.Errorf("instance %d: LP T = %.12g, closed form %.12g", k, got.T, want.T)
		}
		var n, nf float64
		for i := range got.Final {
			n += in.Tasks[i]
			nf += got.Final[i]
		}
		if !near(n, nf, 1e-9) {
			t.Errorf("instance %d: LP final loads sum to %g, want %g", k, nf, n)
		}
		for _, sched := range []mmdl.Sched{mmdl.Paper, mmdl.Overlap} {
			s, err := mmdl.Rounds(in, got, 5, sched)
			if err != nil {
				t.Fatalf("instance %d: %v rounds of the LP's flows: %v", k, sched, err)
			}
			if s.Makespan < got.T*(1-1e-9) {
				t.Errorf("instance %d, %v: makespan %g below T %g", k, sched, s.Makespan, got.T)
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	in, _ := mmdl.Preset(2, "2", true)
	for name, beta := range map[string][][]float64{
		"beta":       Uniform(3, 1e-5),
		"beta[1]":    append(Uniform(8, 1e-5)[:1], make([]float64, 3), nil, nil, nil, nil, nil, nil),
		"beta[0][1]": func() [][]float64 { m := Uniform(8, 1e-5); m[0][1] = -1; return m }(),
	} {
		_, err := SteadyStatePairwise(in, beta)
		re, ok := err.(*param.Error)
		if !ok || re.Field != name {
			t.Errorf("%s: got %v, want a *param.Error on %s", name, err, name)
		}
	}
}
