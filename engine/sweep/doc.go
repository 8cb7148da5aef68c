// Package sweep runs a model over a parameter grid on all cores.
//
// A grid is Points × Trials jobs. Every job gets its own random source,
// seeded from (seed, point, trial) alone, and writes its own result slot,
// so the results do not depend on the number of workers or on the order in
// which jobs finish. Heavy points go first (longest-processing-time order)
// so the last job to finish is a short one and both cores stay busy.
//
// A sweep is embarrassingly parallel across machines too: Shard i/n runs
// the points with index ≡ i−1 (mod n); Merge checks that a set of shard
// outputs covers the grid exactly once and puts the results back together.
// That is all a Slurm array, a Kubernetes indexed Job or GNU parallel needs.
package sweep
