// Package catalog lists the scenes commlab ships, in the order the index
// page and the scene menu show them: the butterfly allreduce and its
// jitter (paper 000), LogP summation (002), TCC's queue (001), steady
// rounds of divisible load (003), shortcut creation (004) and GOAL
// schedules under LogGOPS. The browser binary (wasm) and the native
// exporter (cmd/gen-anim) both take their scenes from here, so they cannot
// disagree. All gives them under the page's budget, Unchecked without one
// for a command to give its own.
//
// Its tests run every scene through what the page does with it: URLs
// fuzzed against the real catalog, budgets, progress and cancelling,
// repaints, follow-ups between fields and the numbers each reports.
package catalog
