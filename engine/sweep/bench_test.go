package sweep

import (
	"context"
	"math/rand/v2"
	"testing"
)

// BenchmarkRunOverhead is the scheduler's cost per trial: 1,000 points of
// 100 trials that do nothing but return (a real trial costs µs to ms).
func BenchmarkRunOverhead(b *testing.B) {
	p := Plan{Points: 1000, Trials: 100, Seed: 1, Cost: func(pt int) float64 { return float64(pt % 13) }}
	nop := func(_ struct{}, pt, tr int, _ *rand.Rand) (int, error) { return pt + tr, nil }
	for b.Loop() {
		if _, err := Run(context.Background(), p, func() struct{} { return struct{}{} }, nop); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(p.Points*p.Trials), "ns/trial")
}

// BenchmarkRunUntilOverhead: the adaptive scheduler and its statistic (a
// t interval of the mean, recomputed from all trials at every checkpoint)
// per trial, for 100 points that run to a cap of 1,000 in blocks of 10 —
// the worst case: 100 checkpoints a point, each reading up to 1,000
// results.
func BenchmarkRunUntilOverhead(b *testing.B) {
	p := Plan{Points: 100, Seed: 1, Until: &Rule{Block: 10, Precision: 1e-9, Cap: 1000}}
	draw := func(_ struct{}, _, _ int, rng *rand.Rand) (float64, error) { return rng.Float64(), nil }
	trials := 0
	for b.Loop() {
		r, err := RunUntil(context.Background(), p, meanStat, func() struct{} { return struct{}{} }, draw)
		if err != nil {
			b.Fatal(err)
		}
		trials = 0
		for _, s := range r.Stops {
			trials += s.Trials
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(trials), "ns/trial")
}

// BenchmarkAssign splits 100,000 points over 64 shards.
func BenchmarkAssign(b *testing.B) {
	costs := make([]float64, 100000)
	for i := range costs {
		costs[i] = float64(splitmix(uint64(i)) % 1000000)
	}
	for b.Loop() {
		if _, err := Assign(costs, 64); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMergePlanAdaptive merges 4 shards of an adaptive plan of 100
// points, replaying every point's checkpoints with the statistic.
func BenchmarkMergePlanAdaptive(b *testing.B) {
	p := Plan{Points: 100, Seed: 1, Until: &Rule{Block: 10, Precision: 0.01, Cap: 1000}}
	draw := func(_ struct{}, _, _ int, rng *rand.Rand) (float64, error) { return 1 + rng.Float64(), nil }
	var parts []Partial[float64]
	for i := 1; i <= 4; i++ {
		q := p
		q.Shard = Shard{i, 4}
		r, err := RunUntil(context.Background(), q, meanStat, func() struct{} { return struct{}{} }, draw)
		if err != nil {
			b.Fatal(err)
		}
		parts = append(parts, NewPartial("b", q.Shard, r.Results))
	}
	for b.Loop() {
		if _, err := MergePlan(p, meanStat, parts, nil); err != nil {
			b.Fatal(err)
		}
	}
}
