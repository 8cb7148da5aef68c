package logp_test

import (
	"fmt"

	"commlab/engine/logp"
	"commlab/engine/sweep"
)

// The slides' P = 3 case (n = 1000, L = μ = 10, o = g = 1) for a range of
// σ: where the optimal planning latency lies and how far E[T] there is
// above the fluctuation-free prediction T_s(μ). The offset stays near
// 0.195σ and the excess near 0.673σ until the truncation at 0 matters.
func ExampleOptimalStar() {
	for _, sigma := range []float64{0.5, 1, 1.75, 2, 3, 3.9, 5, 10} {
		p := logp.Default()
		p.Sigma = sigma
		ls, e, err := logp.OptimalStar(p)
		if err != nil {
			fmt.Println(err)
			return
		}
		s, _ := logp.Plan(p, p.L)
		fmt.Printf("σ=%-4g L_s-μ=%.4f E[T]-T_s(μ)=%.4f\n", sigma, ls-p.L, e-s.Planned())
	}
	// Output:
	// σ=0.5  L_s-μ=0.0976 E[T]-T_s(μ)=0.3364
	// σ=1    L_s-μ=0.1951 E[T]-T_s(μ)=0.6727
	// σ=1.75 L_s-μ=0.3415 E[T]-T_s(μ)=1.1773
	// σ=2    L_s-μ=0.3902 E[T]-T_s(μ)=1.3455
	// σ=3    L_s-μ=0.5867 E[T]-T_s(μ)=2.0188
	// σ=3.9  L_s-μ=0.7828 E[T]-T_s(μ)=2.6331
	// σ=5    L_s-μ=1.0987 E[T]-T_s(μ)=3.4172
	// σ=10   L_s-μ=3.7026 E[T]-T_s(μ)=7.5058
}

// The slides' P = 3 schedule planned with L_s = μ, replayed with seeded
// latency draws.
func ExampleReplay() {
	p := logp.Default()
	s, _ := logp.Plan(p, p.L)
	fmt.Printf("T_s = %g on %d processors\n", s.Planned(), s.Used)
	for trial := range 3 {
		r, _ := logp.Replay(s, p, sweep.RNG(1, 0, trial), nil)
		fmt.Printf("T = %.3f, stall %.3f, %d late\n", r.T, r.Stall, r.Late)
	}
	// Output:
	// T_s = 343 on 3 processors
	// T = 347.362, stall 4.362, 1 late
	// T = 346.791, stall 3.791, 1 late
	// T = 343.276, stall 0.276, 1 late
}
