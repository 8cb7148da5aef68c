// Package trace is the one event record every commlab model can emit.
//
// A Trace has lanes (one per process, thread or link), spans of a Kind
// (compute, send, receive, stall, idle) on those lanes, messages between
// lanes, and markers (instants with a label). The render package draws a
// trace at a playhead time; Validate checks the invariants every model's
// tests rely on; WriteChrome exports the Chrome trace-event JSON that
// Perfetto (ui.perfetto.dev) and chrome://tracing open.
//
// Times are in seconds of simulated time, as float64, unless Trace.Unit
// names a model's own unit (LogP's traces count in additions).
package trace
