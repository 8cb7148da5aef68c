package logp

import (
	"math"
	"math/rand/v2"
	"testing"

	"commlab/engine/sweep"
)

// Pinned draws: do not edit. They must come out the same natively and
// under js/wasm (GOOS=js GOARCH=wasm go test -exec=…/go_js_wasm_exec);
// a difference means a sampler that is not exactly rounded.
func TestPinnedNormals(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	want := []float64{1.9714189185394877, 0.3380252906880822, 1.2596728340794705,
		1.0313661869264052, 0.16940303831318224, -0.7603326133781056}
	for i, w := range want {
		if got := stdNormal(rng); got != w {
			t.Errorf("draw %d = %v, want %v", i, got, w)
		}
	}
}

// Pinned Monte Carlo results: do not edit (see TestPinnedNormals).
func TestPinnedExpected(t *testing.T) {
	m, se, err := Expected(Default(), 10, 1000, 1)
	if err != nil || m != 344.3685961674052 || se != 0.04123816707500366 {
		t.Errorf("P=3: %v ± %v (%v), want 344.3685961674052 ± 0.04123816707500366", m, se, err)
	}
	p := Default()
	p.P, p.GapSigma, p.G = 16, 1.5, 3
	m, se, err = Expected(p, 10, 500, 2)
	if err != nil || m != 95.20023749944485 || se != 0.09546040166224545 {
		t.Errorf("P=16 with gap noise: %v ± %v (%v), want 95.20023749944485 ± 0.09546040166224545", m, se, err)
	}
}

func TestNormalMoments(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 200000
	var s1, s2, s4 float64
	for range n {
		z := stdNormal(rng)
		s1 += z
		s2 += z * z
		s4 += z * z * z * z
	}
	mean, v, k := s1/n, s2/n, s4/n
	if math.Abs(mean) > 4/math.Sqrt(n) || math.Abs(v-1) > 4*math.Sqrt(2.0/n) || math.Abs(k-3) > 4*math.Sqrt(96.0/n) {
		t.Fatalf("mean %g, variance %g, 4th moment %g; want 0, 1, 3", mean, v, k)
	}
}

// Truncation at 0: with μ = 0 every draw is ≥ 0 and the draws are the
// half-normal, mean σ√(2/π).
func TestTruncatedLatency(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 100000
	var s float64
	for range n {
		l := drawLatency(rng, 0, 2)
		if l < 0 {
			t.Fatalf("negative latency %g", l)
		}
		s += l
	}
	if want := 2 * math.Sqrt(2/math.Pi); math.Abs(s/n-want) > 4*2*0.6/math.Sqrt(n) {
		t.Fatalf("mean %g, want %g", s/n, want)
	}
	if g := drawGap(rng, 3, 0); g != 3 {
		t.Fatalf("gap without fluctuation %g, want g = 3", g)
	}
	for range 1000 {
		if g := drawGap(rng, 3, 1); g < 3 {
			t.Fatalf("gap %g below its lower bound 3", g)
		}
	}
}

func TestTrialStreamIsSweepRNG(t *testing.T) {
	st := newTrialStream()
	for _, c := range [][2]int{{1, 0}, {1, 1}, {99, 12345}} {
		a, b := st.at(uint64(c[0]), c[1]), sweep.RNG(uint64(c[0]), 0, c[1])
		for range 5 {
			if x, y := a.Uint64(), b.Uint64(); x != y {
				t.Fatalf("seed %d trial %d: %x vs %x", c[0], c[1], x, y)
			}
		}
	}
}

// The spec's closed form for P = 2 against Monte Carlo, over L_s below,
// at and above μ: within 4 standard errors.
func TestP2ClosedFormMatchesMonteCarlo(t *testing.T) {
	p := Default()
	p.P = 2
	for _, sigma := range []float64{0.5, 2, 5} {
		p.Sigma = sigma
		for _, ls := range []float64{7, 9.5, 10, 10.5, 13} {
			closed, err := ExpectedP2(p, ls)
			if err != nil {
				t.Fatal(err)
			}
			star, _ := ExpectedStar(p, ls)
			mc, se, err := Expected(p, ls, 40000, 11)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(mc-closed) > 4*se+1e-9 || math.Abs(star-closed) > 1e-9 {
				t.Errorf("σ=%g Ls=%g: closed %g, star %g, MC %g ± %g", sigma, ls, closed, star, mc, se)
			}
		}
	}
	if _, err := ExpectedP2(Default(), 10); err == nil {
		t.Error("ExpectedP2 accepted P = 3")
	}
}

// Optimum at μ and excess σ/√(2π) (slides: "L_s = L_ave is optimal, the
// expected time is the fluctuation-free prediction + 0.7"; σ/√(2π) = 0.7
// at σ = 1.75). The Monte Carlo search finds the same point.
func TestP2Optimum(t *testing.T) {
	p := Default()
	p.P = 2
	for _, sigma := range []float64{1, 1.75, 2} {
		p.Sigma = sigma
		ls, e, err := OptimalStar(p)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := Plan(p, p.L)
		excess := sigma / math.Sqrt(2*math.Pi)
		// Within 1e-5: the truncation at 0 (Φ(μ/σ) = 1 - 3e-7 at σ = 2)
		// moves both by less.
		if math.Abs(ls-p.L) > 1e-5 || math.Abs(e-s.Planned()-excess) > 1e-5 {
			t.Errorf("σ=%g: optimum at %g (μ = 10), excess %.9f, want %.9f", sigma, ls, e-s.Planned(), excess)
		}
		mls, me, err := Optimal(p, 20000, 5)
		if err != nil {
			t.Fatal(err)
		}
		// The sample median of 20000 draws is within ~0.03σ of μ.
		if math.Abs(mls-p.L) > 0.04*sigma || math.Abs(me-e) > 0.02*sigma {
			t.Errorf("σ=%g: Monte Carlo optimum %g (E %g), closed form %g (E %g)", sigma, mls, me, ls, e)
		}
	}
}

// P = 3 (a star of two messages): F(L_s)² = 1/3 at the optimum, so
// L_s - μ = Φ⁻¹(1/√3)σ = 0.19507σ, and the excess over T_s(μ) is 0.6727σ
// for μ ≫ σ. Monte Carlo agrees with the quadrature.
func TestP3Optimum(t *testing.T) {
	p := Default()
	ls, e, err := OptimalStar(p)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := Plan(p, p.L)
	if z := (ls - p.L) / p.Sigma; math.Abs(z-0.19507) > 2e-4 {
		t.Errorf("optimal offset %g σ, want 0.19507", z)
	}
	if x := (e - s.Planned()) / p.Sigma; math.Abs(x-0.6727) > 2e-4 {
		t.Errorf("excess %g σ, want 0.6727", x)
	}
	for _, l := range []float64{9, ls, 11.5} {
		closed, _ := ExpectedStar(p, l)
		mc, se, _ := Expected(p, l, 40000, 3)
		if math.Abs(mc-closed) > 4*se {
			t.Errorf("Ls=%g: quadrature %g, Monte Carlo %g ± %g", l, closed, mc, se)
		}
	}
	mls, me, err := Optimal(p, 20000, 9)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(mls-ls) > 0.05*p.Sigma || math.Abs(me-e) > 0.02*p.Sigma {
		t.Errorf("Monte Carlo optimum %g (E %g), quadrature %g (E %g)", mls, me, ls, e)
	}
}

func TestNotStar(t *testing.T) {
	// With L=10, o=1, g=1 the root's slots sit at offsets 13, 15, …, 25
	// and the first grandchild at 26: P = 8 is still a star, P = 16 not.
	p := Params{P: 8, N: 1000, L: 10, O: 1, G: 1, Sigma: 2}
	if _, err := ExpectedStar(p, 10); err != nil {
		t.Errorf("P=8: %v, want a star", err)
	}
	p.P = 16
	if _, err := ExpectedStar(p, 10); err != ErrNotStar {
		t.Errorf("P=16: %v, want ErrNotStar", err)
	}
	p = Default()
	p.GapSigma = 1
	if _, err := ExpectedStar(p, 10); err != ErrNotStar {
		t.Errorf("P=3 with gap noise: %v, want ErrNotStar", err)
	}
}
