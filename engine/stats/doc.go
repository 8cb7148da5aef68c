// Package stats gives Monte Carlo numbers their uncertainty: running means
// and variances, 95 % intervals for a mean (Student's t), for a ratio of
// paired means (delta method, Fieller, percentile bootstrap) and for a
// proportion (Wilson), each as an Interval that names its method.
//
// Every function is a pure function of its inputs, with the same bits
// natively and under js/wasm: the arithmetic is + − × ÷ and math.Sqrt
// (rounded exactly by IEEE 754 everywhere), products that feed sums are
// converted with float64(...) so that no compiler fuses them into an FMA,
// and the logarithms and exponentials are engine/detmath's, never math.Log,
// math.Exp, math.Pow or math.Lgamma (whose amd64 assembly differs from
// their pure-Go code in the last bit). The t quantiles come from the
// regularized incomplete beta function, whose continued fraction and
// Γ-ratios need nothing else for integer degrees of freedom. The bootstrap draws its resamples from a PCG seeded by the
// data's bits, never the clock, so the same sample gives the same
// interval on every run and machine.
//
// docs/statistics.md says which interval to use where and how the sweeps'
// adaptive trials stop.
package stats
