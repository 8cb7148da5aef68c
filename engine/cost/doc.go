// Package cost is what a model's run will take, estimated from its
// parameters before it runs: engine events, trace records, peak memory and
// engine time. Every model has an estimate (allreduce.Estimate,
// logp.Estimate, ...), and the page and the commands check it against a
// Budget, so that an input inside the documented ranges that would need
// gigabytes or hours is refused at once with a message that names the
// parameters driving it and what would fit, instead of running out of
// memory or running for hours.
//
// Engine time is the event count times a per-event cost measured on the
// development machine (2 cores, AMD EPYC; each model's cost.go says how it
// was measured); the browser runs the same code about WasmSlowdown times
// slower. Memory is counted from the data structures a run allocates.
//
// A refusal says what would fit: a model's Knobs are the parameters it may
// advise moving and its estimate as a function of them, and the refusal
// names the values, searched on that estimate, that bring the run within
// the budget (advise.go). docs/budgets.md has the whole story.
package cost
