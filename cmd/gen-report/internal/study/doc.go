// Package study says what a paper's study is to gen-report: a model name,
// an eval command, and for the papers with a report page a sweep that
// builds it. Each paper's study lives in a package of its own below this
// one (allreduce, logp, nbc, mmdl, overlay, and goal for LogGOPSim's
// schedules), holding its grid, runs, page, findings, calibration and eval
// command together; gen-report's main package iterates over them.
package study
