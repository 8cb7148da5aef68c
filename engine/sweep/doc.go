// Package sweep runs a model over a parameter grid on all cores, with
// fixed or adaptive trial counts, on one machine or split into shards.
//
// A grid is Points × trials jobs. Every job gets its own random source,
// seeded from (seed, point, trial) alone (RNG), and writes its own result
// slot, so the results do not depend on the number of workers or on the
// order in which jobs finish. Heavy points go first (longest processing
// time first) so the last job to finish is a short one and every core
// stays busy.
//
// Run gives every point Plan.Trials trials. RunUntil gives each point
// blocks of trials until a statistic of its results so far (the caller's:
// a mean, a ratio under common random numbers) is within a relative
// precision, never below a per-point minimum and up to a cap (Rule). A
// point's decision to run another block reads only that point's earlier
// trials, so adaptive results too are the same for any number of workers
// and any shards.
//
// A sweep is embarrassingly parallel across machines: Shard i/n runs the
// points Plan.Owners gives shard i, a split by estimated cost (Assign,
// longest processing time first) that every shard computes alike from the
// plan; MergePlan checks a set of shard outputs against the plan (one
// grid, every shard once, every point where the split puts it, the trials
// the plan runs) and puts them back together; PlanStatus says how far a
// set of parts has come and how long the rest should take. That is all a
// Slurm array, a Kubernetes indexed Job or GNU parallel needs.
//
// docs/statistics.md describes the stopping rule and the split.
package sweep
