package export

import (
	"bytes"
	"math"
	"testing"

	"commlab/engine/allreduce"
	"commlab/engine/goal"
	"commlab/engine/logp"
	"commlab/engine/nbc"
)

func run(t *testing.T, text []byte, p goal.Params) (*goal.Schedule, *goal.Result) {
	t.Helper()
	s, err := goal.Read(bytes.NewReader(text), "export.goal", goal.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := goal.Run(s, p, goal.Noise{}, goal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s, r
}

// The conventional butterfly in GOAL ends where the allreduce model's
// no-jitter time says, less one byte's β per stage (LogGOPS charges
// (N-1)·G, the model βN).
func TestButterflyAgainstModel(t *testing.T) {
	for _, c := range []struct {
		P     int
		alpha float64
		beta  float64
		gamma float64
		N     float64
	}{
		{64, 1e-6, 1e-9, 1e-10, 1000},
		{1024, 1e-7, 2e-9, 1e-9, 8},
	} {
		p := allreduce.Default()
		p.P, p.Alpha, p.Beta, p.Gamma, p.N, p.T = c.P, c.alpha, c.beta, c.gamma, c.N, 0
		var buf bytes.Buffer
		if err := Butterfly(&buf, p); err != nil {
			t.Fatal(err)
		}
		gp := ButterflyParams(p)
		s, r := run(t, buf.Bytes(), gp)
		K := int64(p.K())
		want := K * (gp.L + int64(c.N-1)*gp.GapPerByte + int64(math.Round(c.gamma*c.N*1e9)))
		if r.End != want {
			t.Errorf("P=%d: GOAL end %d ns, want %d", c.P, r.End, want)
		}
		model := p.NoJitterTime() * 1e9
		if d := model - float64(r.End); d < 0 || d > float64(K)*(c.beta*1e9+1) {
			t.Errorf("P=%d: GOAL %d ns, model %.1f ns: off by %.1f", c.P, r.End, model, d)
		}
		if s.NumSends() != c.P*p.K() || r.Messages != int64(s.NumSends()) {
			t.Errorf("P=%d: %d sends", c.P, s.NumSends())
		}
	}
}

func TestButterflyRedundant(t *testing.T) {
	p := allreduce.Default()
	p.P, p.T, p.N = 256, -1, 8
	var buf bytes.Buffer
	if err := Butterfly(&buf, p); err != nil {
		t.Fatal(err)
	}
	s, r := run(t, buf.Bytes(), ButterflyParams(p))
	if s.NumSends() != 256*16 {
		t.Errorf("%d sends, want %d", s.NumSends(), 256*16)
	}
	p.T = 0
	buf.Reset()
	Butterfly(&buf, p)
	_, r0 := run(t, buf.Bytes(), ButterflyParams(p))
	if r.End <= r0.End {
		t.Errorf("T=K ends at %d, T=0 at %d", r.End, r0.End)
	}
	p.T = 9
	if err := Butterfly(&buf, p); err == nil {
		t.Error("T > K accepted")
	}
	p.P = 6
	if err := Butterfly(&buf, p); err == nil {
		t.Error("P = 6 accepted")
	}
}

// The summation plan run greedily in GOAL meets the plan's own time: the
// plan is tight, so nothing could start earlier than planned anyway.
func TestSummationAgainstPlan(t *testing.T) {
	for _, P := range []int{2, 3, 8, 64} {
		p := logp.Default()
		p.P, p.N, p.Sigma = P, 1000, 0
		s, err := logp.Plan(p, p.L)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		const unit = 1000 // 1 µs an addition
		if err := Summation(&buf, s, unit); err != nil {
			t.Fatal(err)
		}
		_, r := run(t, buf.Bytes(), SummationParams(p, unit))
		if want := s.Planned() * unit; math.Abs(float64(r.End)-want) > float64(P) {
			t.Errorf("P=%d: GOAL %d ns, plan %.0f ns", P, r.End, want)
		}
	}
}

func TestNBCAlltoall(t *testing.T) {
	for _, alg := range []string{nbc.AllAtOnce, nbc.Pairwise} {
		p := nbc.Default()
		p.Nodes, p.NBCAlltoall, p.Alltoall, p.Msg = 16, alg, alg, 65536
		var buf bytes.Buffer
		if err := NBCAlltoall(&buf, p); err != nil {
			t.Fatal(err)
		}
		gp := NBCParams(p)
		s, r := run(t, buf.Bytes(), gp)
		if s.NumSends() != 16*15 || r.Messages != 16*15 {
			t.Errorf("%s: %d sends", alg, s.NumSends())
		}
		// at least the 15 messages a rank receives, back to back on its NIC
		if min := 15 * (p.Msg - 1) * float64(gp.GapPerByte); float64(r.End) < min {
			t.Errorf("%s: end %d ns, below %g", alg, r.End, min)
		}
	}
}
