package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"

	"commlab/cmd/internal/budget"
	"commlab/engine/allreduce"
	"commlab/engine/cost"
	"commlab/engine/topology"
)

// addForce adds -force: run even when the estimate is over the budget.
func addForce(fs *flag.FlagSet) *bool {
	return fs.Bool("force", false, "run even when the estimate is over the budget ("+budget.Describe()+")")
}

// cliBudget is budget.CLI; tests put a fixed machine in its place.
var cliBudget = budget.CLI

// checkCost refuses a run over the commands' budget before it allocates
// anything, with the estimate's message (the parameters that drive it and
// what would fit).
func checkCost(cmd string, c cost.Cost, force bool) error {
	if err := c.Check(cliBudget(force)); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	return nil
}

// allreduceWorkers is how many sweep workers eval allreduce runs: one per
// core, fewer when their process states together would not fit the memory
// budget (about 1 GiB each at P = 2^24), and refused when the trials would
// not fit its time or one worker its memory. It says on stderr when it
// runs fewer workers than cores.
func allreduceWorkers(stderr io.Writer, p allreduce.Params, trials int, force bool) (int, error) {
	one := allreduce.Estimate(p, false)
	b := cliBudget(force)
	cores := min(runtime.GOMAXPROCS(0), trials)
	w := cores
	if b.Bytes > 0 && !math.IsInf(b.Bytes, 1) {
		w = max(1, min(w, int(b.Bytes/one.Bytes)))
	}
	all := one
	all.Events *= float64(trials)
	all.Bytes *= float64(w)
	all.Seconds *= math.Ceil(float64(trials) / float64(w))
	if trials > 1 {
		all.Why = fmt.Sprintf("trials = %d of %s", trials, one.Why)
		all.Key = "trials"
	}
	if err := all.Check(b); err != nil {
		return 0, fmt.Errorf("eval allreduce: %w", err)
	}
	if w < cores {
		fmt.Fprintf(stderr, "eval allreduce: %d workers instead of %d: each holds %s at P = %d, and %d fit %s's %s\n",
			w, cores, cost.Bytes(one.Bytes), p.P, w, b.Name, cost.Bytes(b.Bytes))
	}
	return w, nil
}

// neededOutputBytes is what topology infer adds per question it lists as
// needed: the question in its output and its JSON (measured: 3.9 M
// questions on 200 leaf groups peaked at 3.0 GB, InferTree's share about
// 2.3 GB).
const neededOutputBytes = 400

// inferTreeCost is topology.EstimateTree with the needed list's output.
func inferTreeCost(leaves int, answered bool) cost.Cost {
	c := topology.EstimateTree(leaves, answered)
	if !answered {
		c.Bytes += neededOutputBytes * c.Events
	}
	return c
}

// gcSlack is how far the heap grows past what is live before the collector
// runs (GOGC=100: up to twice). The topology commands hold most of what
// they allocate at once (the N×N RTT matrix and its copies), so their peak
// is about twice the engine's count: topology measure on 4,096 nodes
// allocated 0.9 GB and peaked at 1.77 GB RSS.
const gcSlack = 2

// leavesCost is topology.EstimateLeaves as a command's peak.
func leavesCost(n int) cost.Cost {
	c := topology.EstimateLeaves(n)
	c.Bytes *= gcSlack
	return c
}

// measureCost is topology.EstimateMeasure as a command's peak, with the
// RTT CSV's text (about 10 bytes an entry).
func measureCost(t *topology.Tree) cost.Cost {
	c := topology.EstimateMeasure(t)
	n := float64(len(t.Nodes))
	c.Bytes = gcSlack*c.Bytes + 10*n*n
	return c
}
