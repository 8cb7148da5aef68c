package sweep

import (
	"context"
	"math"
	"runtime"
	"sync"

	"commlab/internal/errf"
)

// pointPlan is what the plan says about one point before it runs.
type pointPlan struct {
	cost        float64 // of one trial
	min         int     // the rule's minimum (the trials, for Run)
	first, last int     // checkpoints
	expect      float64 // expected trials
}

// layout evaluates the plan's hooks once per point, checking them.
func (p Plan) layout() ([]pointPlan, error) {
	if p.Points < 1 {
		return nil, errf.Errorf("sweep: plan needs ≥ 1 point, got %d", p.Points)
	}
	if p.Until == nil {
		if p.Trials < 1 || p.Trials > MaxTrials {
			return nil, errf.Errorf("sweep: plan's Trials = %d is out of range: want an integer in [1, %d]", p.Trials, MaxTrials)
		}
	} else {
		if p.Trials != 0 {
			return nil, errf.Errorf("sweep: plan has Trials = %d and an adaptive rule: the rule decides the trials, leave Trials 0", p.Trials)
		}
		if err := p.Until.check(); err != nil {
			return nil, err
		}
	}
	if err := p.Shard.check(); err != nil {
		return nil, err
	}
	pts := make([]pointPlan, p.Points)
	for pt := range pts {
		c := 1.0
		if p.Cost != nil {
			c = p.Cost(pt)
		}
		if !(c >= 0 && c <= math.MaxFloat64) {
			return nil, errf.Errorf("sweep: Cost(%d) = %v: want a finite cost ≥ 0", pt, c)
		}
		pp := pointPlan{cost: c, min: p.Trials, first: p.Trials, last: p.Trials, expect: float64(p.Trials)}
		if r := p.Until; r != nil {
			m, err := r.minimum(pt)
			if err != nil {
				return nil, err
			}
			pp.min = m
			pp.first, pp.last = r.span(m)
			if pp.expect, err = r.expect(pt, pp.first); err != nil {
				return nil, err
			}
		}
		pts[pt] = pp
	}
	return pts, nil
}

// execute runs a plan: fixed trials when stat is nil (one block of
// p.Trials per point), adaptive otherwise.
//
// Workers take trials from a queue of points, heaviest first (so that the
// last trial to finish is a short one), a point's trials in order. The
// worker that finishes a point's block asks the statistic, outside the
// lock, whether the point needs another block; nobody else touches that
// point meanwhile, since none of its trials is queued or running.
func execute[W, R any](ctx context.Context, p Plan, stat Statistic[R], newWorker func() W, trial Trial[W, R]) (Result[R], error) {
	pts, err := p.layout()
	if err != nil {
		return Result[R]{}, err
	}
	owned := make([]bool, len(pts))
	if p.Shard.Count == 0 {
		for pt := range owned {
			owned[pt] = true
		}
	} else {
		owners, err := assign(pts, p.Shard.Count)
		if err != nil {
			return Result[R]{}, err
		}
		for pt, o := range owners {
			owned[pt] = o == p.Shard.Index
		}
	}
	x := &execution[W, R]{
		pts: pts, stat: stat, rule: p.Until, trial: trial, seed: p.Seed,
		results: make([][]R, len(pts)), stops: make([]Stop, len(pts)),
		next: make([]int, len(pts)), end: make([]int, len(pts)), pending: make([]int, len(pts)),
		planned: make([]float64, len(pts)),
	}
	x.cond = sync.NewCond(&x.mu)
	x.queue.cost = func(pt int) float64 { return pts[pt].cost }
	var total float64
	firstTrials := 0
	for pt, pp := range pts {
		if !owned[pt] {
			continue
		}
		firstTrials += pp.first
		x.results[pt] = make([]R, pp.first)
		x.end[pt], x.pending[pt] = pp.first, pp.first
		x.queue.push(pt)
		x.active++
		x.planned[pt] = max(pp.expect, float64(pp.first))
		total += pp.cost * x.planned[pt]
	}
	if x.active == 0 { // a shard with no points (more shards than points)
		return Result[R]{Results: x.results, Stops: x.stops}, nil
	}
	workers := p.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, firstTrials) // no more than can start at once
	if err := ctx.Err(); err != nil {
		return Result[R]{}, errf.Errorf("sweep: stopped before the start: %w", context.Cause(ctx))
	}
	stopWatch := context.AfterFunc(ctx, func() {
		x.fail(errf.Errorf("sweep: stopped before the end: %w", context.Cause(ctx)))
	})
	defer stopWatch()
	if p.Progress != nil {
		x.progress = make(chan [2]float64, 4*workers)
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x.work(newWorker())
		}()
	}
	if p.Progress != nil {
		go func() { wg.Wait(); close(x.progress) }()
		var done float64
		for d := range x.progress {
			done += d[0]
			total += d[1]
			p.Progress(done, total)
		}
	} else {
		wg.Wait()
	}
	stopWatch()
	x.mu.Lock() // the AfterFunc may be writing err
	err = x.err
	x.mu.Unlock()
	if err == nil && ctx.Err() != nil { // cancelled as the last trials ended
		err = errf.Errorf("sweep: stopped before the end: %w", context.Cause(ctx))
	}
	if err != nil {
		return Result[R]{}, err
	}
	return Result[R]{Results: x.results, Stops: x.stops}, nil
}

// execution is the shared state of one run; mu guards the fields after it.
type execution[W, R any] struct {
	pts   []pointPlan
	stat  Statistic[R]
	rule  *Rule
	trial Trial[W, R]
	seed  uint64
	// progress carries (cost done, change of the total) to the caller's
	// goroutine; nil without a Progress callback.
	progress chan [2]float64

	mu      sync.Mutex
	cond    *sync.Cond
	queue   pointQueue // points with trials to hand out
	results [][]R
	stops   []Stop
	next    []int     // the next trial to hand out, per point
	end     []int     // the end of the point's current block
	pending []int     // trials of the current block not yet finished
	planned []float64 // trials expected: max(expect, end) until stopped
	active  int       // points not yet stopped
	err     error
}

func (x *execution[W, R]) fail(err error) {
	x.mu.Lock()
	if x.err == nil {
		x.err = err
	}
	x.cond.Broadcast()
	x.mu.Unlock()
}

// work runs trials until every point has stopped or the run failed.
func (x *execution[W, R]) work(w W) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for {
		for x.queue.len() == 0 && x.active > 0 && x.err == nil {
			x.cond.Wait()
		}
		if x.err != nil || x.queue.len() == 0 {
			return
		}
		pt := x.queue.top()
		tr := x.next[pt]
		x.next[pt]++
		if x.next[pt] == x.end[pt] {
			x.queue.pop()
		}
		x.mu.Unlock()
		r, err := x.trial(w, pt, tr, RNG(x.seed, pt, tr))
		x.mu.Lock()
		if err != nil {
			if x.err == nil {
				x.err = errf.Errorf("sweep: point %d, trial %d: %w", pt, tr, err)
			}
			x.cond.Broadcast()
			return
		}
		if x.err != nil {
			return
		}
		x.results[pt][tr] = r
		x.pending[pt]--
		var grow float64
		if x.pending[pt] == 0 {
			grow = x.checkpoint(pt)
		}
		if x.progress != nil {
			x.mu.Unlock()
			x.progress <- [2]float64{x.pts[pt].cost, grow}
			x.mu.Lock()
		}
	}
}

// checkpoint decides, with mu held, whether point pt, whose block just
// finished, stops or runs another block, and returns the change of the
// expected total cost. The statistic runs with mu released: no other
// worker touches the point until it is queued again. Without a statistic
// (Run) a point stops after its one block.
func (x *execution[W, R]) checkpoint(pt int) (grow float64) {
	pp := x.pts[pt]
	c := x.end[pt]
	precise := true
	if x.stat != nil {
		rs := x.results[pt][:c:c]
		x.mu.Unlock()
		est, hw, err := x.stat(pt, rs)
		x.mu.Lock()
		if err != nil {
			if x.err == nil {
				x.err = errf.Errorf("sweep: point %d after %d trials: statistic: %w", pt, c, err)
			}
			x.cond.Broadcast()
			return 0
		}
		precise = x.rule.precise(est, hw)
	}
	was := x.planned[pt]
	if precise || c >= pp.last {
		x.stops[pt] = Stop{Trials: c, Min: pp.min, Capped: !precise}
		x.planned[pt] = float64(c)
		if x.active--; x.active == 0 {
			x.cond.Broadcast()
		}
		return pp.cost * (float64(c) - was)
	}
	n := min(c+x.rule.Block, pp.last)
	x.results[pt] = append(x.results[pt], make([]R, n-c)...)
	x.end[pt], x.pending[pt] = n, n-c
	x.planned[pt] = max(was, float64(n))
	x.queue.push(pt)
	x.cond.Broadcast()
	return pp.cost * (x.planned[pt] - was)
}
