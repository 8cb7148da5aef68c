package sweep

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"commlab/internal/permsort"
)

// Plan describes a grid and how to run it.
type Plan struct {
	Points int    // grid points, ≥ 1
	Trials int    // Monte-Carlo trials per point, ≥ 1
	Seed   uint64 // the sweep's seed
	// Workers is the number of goroutines; 0 means GOMAXPROCS.
	Workers int
	// Cost estimates a point's relative cost (e.g. process-stage updates).
	// Points run heaviest first and progress is reported in these units.
	// nil: every point costs 1.
	Cost func(point int) float64
	// Progress, if set, is called after each job with the cost done so
	// far and the total, always from the goroutine that called Run.
	Progress func(done, total float64)
	// Shard restricts the run to one slice of the points.
	Shard Shard
}

// RNG returns the random source of one job: PCG seeded from the sweep's
// seed, the point and the trial, and nothing else.
func RNG(seed uint64, point, trial int) *rand.Rand {
	return rand.New(rand.NewPCG(splitmix(seed^splitmix(uint64(point))), splitmix(seed+0x9e3779b97f4a7c15*uint64(trial+1))))
}

func splitmix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Run runs trial for every (point, trial) of the plan that its shard owns.
// Each worker goroutine gets its own W from newWorker (a simulator with its
// buffers, say). The result is indexed [point][trial]; points outside the
// shard are nil. The first error stops the sweep and is returned with the
// point and trial that caused it; so does the context's cancellation.
func Run[W, R any](ctx context.Context, p Plan, newWorker func() W, trial func(w W, point, trial int, rng *rand.Rand) (R, error)) ([][]R, error) {
	if p.Points < 1 || p.Trials < 1 {
		return nil, fmt.Errorf("sweep: plan needs ≥ 1 point and ≥ 1 trial, got %d × %d", p.Points, p.Trials)
	}
	if err := p.Shard.check(); err != nil {
		return nil, err
	}
	cost := p.Cost
	if cost == nil {
		cost = func(int) float64 { return 1 }
	}
	type job struct {
		point, trial int
		cost         float64
	}
	var jobs []job
	var total float64
	results := make([][]R, p.Points)
	for pt := range p.Points {
		if !p.Shard.Owns(pt) {
			continue
		}
		results[pt] = make([]R, p.Trials)
		c := cost(pt)
		for t := range p.Trials {
			jobs = append(jobs, job{pt, t, c})
			total += c
		}
	}
	permsort.SortStableFunc(jobs, func(a, b job) int { return cmp.Compare(b.cost, a.cost) })

	workers := p.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(jobs))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next     atomic.Int64
		firstErr error
		errOnce  sync.Once
		wg       sync.WaitGroup
	)
	done := make(chan float64, 4*workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newWorker()
			for ctx.Err() == nil {
				k := int(next.Add(1) - 1)
				if k >= len(jobs) {
					return
				}
				j := jobs[k]
				r, err := trial(w, j.point, j.trial, RNG(p.Seed, j.point, j.trial))
				if err != nil {
					errOnce.Do(func() {
						firstErr = fmt.Errorf("sweep: point %d, trial %d: %w", j.point, j.trial, err)
						cancel()
					})
					return
				}
				results[j.point][j.trial] = r
				done <- j.cost
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()
	var sofar float64
	for c := range done {
		sofar += c
		if p.Progress != nil {
			p.Progress(sofar, total)
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil { // the caller cancelled
		return nil, fmt.Errorf("sweep: stopped before the end: %w", err)
	}
	return results, nil
}
