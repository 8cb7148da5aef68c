package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"commlab/cmd/gen-report/internal/cli"
	"commlab/engine/sweep"
)

const planUsage = "gen-report plan -shards N [-cpus C] [-quick] [-trials N] [-seed S] [-out DIR] [-sbatch]"

// A shard's peak memory is a base and a share per worker: each worker
// holds one simulator at a time, and the allreduce's at P = 2^20 are the
// largest. Shard 1 of the full report's 8 held 143 MB on 1 worker and
// 508 MB on 4 (2026-11-27, docs/cluster.md "Memory" says how to measure
// it again): 21 MB and 122 MB a worker, rounded up here. The studies do
// not estimate their memory (study.Sweep has Costs only), so a grid with
// larger simulators needs these measured again.
const (
	shardBaseBytes   = 32 << 20
	shardWorkerBytes = 128 << 20
)

// Slurm's limits for a shard are the estimates with room: the cost model
// is fitted on the development machine and a cluster's node may be slower
// or shared, so the time limit is timeMargin times the estimate plus
// timeSlack for the start (loading the binary, laying out the sweeps), and
// the memory memMargin times the measured peak.
const (
	timeMargin = 3
	timeSlack  = 5 * 60 // s
	memMargin  = 2
)

// runPlan is `gen-report plan -shards N`: how the split divides the work,
// by the studies' cost estimates, with each shard's estimated time and
// memory; -sbatch prints only the Slurm options for one array task.
func runPlan(stdout, stderr io.Writer, args []string) error {
	fs := cli.NewFlagSet("plan", stderr, planUsage)
	shards := fs.Int("shards", 0, fmt.Sprintf("the number of shards, in [1, %d]", sweep.MaxShards))
	cpus := fs.Int("cpus", 1, "cores per shard (Slurm's --cpus-per-task, the shard's GOMAXPROCS), in [1, 1024]")
	out := fs.String("out", "", "also check that the report can be written to DIR, as merge will check it")
	sbatch := fs.Bool("sbatch", false, "print only sbatch's options for one shard: --time=D-HH:MM:SS --mem=NM")
	config := reportFlags(fs)
	if err := fs.ParseArgs(args, false); err != nil {
		return err
	}
	switch {
	case !fs.IsSet("shards"):
		return fmt.Errorf("plan: give -shards N, the number of shards to split the report into")
	case *shards < 1 || *shards > sweep.MaxShards:
		return fmt.Errorf("plan: -shards = %d is out of range: want an integer in [1, %d]", *shards, sweep.MaxShards)
	case *cpus < 1 || *cpus > 1024:
		return fmt.Errorf("plan: -cpus = %d is out of range: want an integer in [1, 1024]", *cpus)
	}
	cfg, err := config()
	if err != nil {
		return err
	}
	if *out != "" {
		if err := checkOutDir(*out); err != nil {
			return err
		}
	}
	sweeps, err := layOut(cfg)
	if err != nil {
		return err
	}
	own, err := owners(sweeps, *shards)
	if err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	// Each shard's estimate, its points and its heaviest point: a point
	// runs on one core, so a shard takes at least that long whatever its
	// cores.
	loads := make([]float64, *shards)
	points := make([]int, *shards)
	heaviest := make([]float64, *shards)
	total, all := 0.0, 0
	for i, ls := range sweeps {
		for pt, c := range ls.Costs() {
			k := own[i][pt] - 1
			loads[k] += c
			points[k]++
			heaviest[k] = max(heaviest[k], c)
			total += c
			all++
		}
	}
	wall := make([]float64, *shards)
	for k := range wall {
		wall[k] = max(loads[k]/float64(*cpus), heaviest[k])
	}
	longest := slices.Index(wall, slices.Max(wall))
	limit := timeMargin*wall[longest] + timeSlack
	mem := memMargin * float64(shardBaseBytes+shardWorkerBytes**cpus)
	opts := fmt.Sprintf("--time=%s --mem=%dM", slurmTime(limit), int64(math.Ceil(mem/(1<<20))))
	if *sbatch {
		_, err := fmt.Fprintln(stdout, opts)
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "gen-report %s in %d shards: %s points, %s of one core in all by the studies' cost estimates\n",
		configFlags(cfg), *shards, commas(all), seconds(total))
	fmt.Fprintf(&b, "%6s %8s %14s %14s\n", "shard", "points", "one core", plural(*cpus, "core"))
	for k := range loads {
		fmt.Fprintf(&b, "%6d %8s %14s %14s\n", k+1, commas(points[k]), seconds(loads[k]), seconds(wall[k]))
	}
	mean := total / float64(*shards)
	fmt.Fprintf(&b, "longest: shard %d, %s on %s; the largest shard's estimate is %.3f × the mean (%s)\n",
		longest+1, seconds(wall[longest]), plural(*cpus, "core"), slices.Max(loads)/mean, seconds(mean))
	fmt.Fprintf(&b, "per shard: %s (%d × the longest estimate + %d min; %d × the memory measured for %s)\n",
		opts, timeMargin, timeSlack/60, memMargin, plural(*cpus, "worker"))
	_, err = io.WriteString(stdout, b.String())
	return err
}

// slurmTime writes s seconds, rounded up to a minute, as Slurm's
// D-HH:MM:SS.
func slurmTime(s float64) string {
	m := int64(math.Ceil(s / 60))
	return fmt.Sprintf("%d-%02d:%02d:00", m/(24*60), m/60%24, m%60)
}

// plural writes "1 core", "4 cores".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
