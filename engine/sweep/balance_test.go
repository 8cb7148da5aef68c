package sweep_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"commlab/engine/allreduce"
	"commlab/engine/sweep"
)

// balance is max(loads)/mean(loads): 1 is a perfect split.
func balance(costs []float64, owners []int, n int) float64 {
	loads := sweep.Loads(costs, owners, n)
	var sum float64
	for _, l := range loads {
		sum += l
	}
	return slices.Max(loads) / (sum / float64(n))
}

// interleaved is the split -shard used before costs: point i to shard
// i mod n + 1.
func interleaved(points, n int) []int {
	o := make([]int, points)
	for i := range o {
		o[i] = i%n + 1
	}
	return o
}

// TestAssignBalanceAllreduce: the allreduce study's full grid (papers/000,
// costs P·(K+T) spanning six decades, 30 trials a point) split into 8
// shards. Interleaving by index put whole rows of the largest P on some
// shards; the cost split is within 1 % of the mean.
func TestAssignBalanceAllreduce(t *testing.T) {
	var costs []float64
	for _, set := range allreduce.PaperSets(true) {
		for xi := range set.XExp {
			for _, k := range set.K {
				if p, ok := set.Point(xi, k); ok {
					costs = append(costs, 30*allreduce.Updates(p))
				}
			}
		}
	}
	for _, n := range []int{4, 8, 64} {
		owners, err := sweep.Assign(costs, n)
		if err != nil {
			t.Fatal(err)
		}
		lpt, mod := balance(costs, owners, n), balance(costs, interleaved(len(costs), n), n)
		t.Logf("%d points, %d shards: longest shard / mean = %.5f by cost, %.4f interleaved", len(costs), n, lpt, mod)
		if n <= 8 && lpt > 1.01 {
			t.Errorf("%d shards: longest shard %.4f × the mean, want ≤ 1.01", n, lpt)
		}
		if lpt > mod {
			t.Errorf("%d shards: the cost split (%.4f) is worse than interleaving (%.4f)", n, lpt, mod)
		}
	}
}

// TestAssignBalanceHeavyTail: costs from a Pareto law of index 1.1 (a few
// points dominate). LPT's longest shard is at most the mean plus the
// largest point (each point goes where the load is least), and close to
// the mean when no point outweighs a shard.
func TestAssignBalanceHeavyTail(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	costs := make([]float64, 2000)
	for i := range costs {
		costs[i] = math.Pow(1-rng.Float64(), -1/1.1)
	}
	var sum float64
	for _, c := range costs {
		sum += c
	}
	for _, n := range []int{2, 8, 64} {
		owners, _ := sweep.Assign(costs, n)
		loads := sweep.Loads(costs, owners, n)
		mean := sum / float64(n)
		if slices.Max(loads) > mean+slices.Max(costs)+1e-9*sum {
			t.Errorf("%d shards: longest %v, mean %v, largest point %v", n, slices.Max(loads), mean, slices.Max(costs))
		}
		t.Logf("%d shards: longest / mean = %.5f by cost, %.4f interleaved (largest point / mean = %.3f)",
			n, slices.Max(loads)/mean, balance(costs, interleaved(len(costs), n), n), slices.Max(costs)/mean)
	}
}
