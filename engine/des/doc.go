// Package des is a tiny discrete-event core in the style of SimPy: a clock
// (Now), a future-event list (Schedule), Step and RunUntil.
//
// Events are small value structs in a binary heap, ordered by time and then
// by a sequence number given at scheduling, so two events at the same time
// are handled in the order they were scheduled: a run never depends on map
// iteration, goroutine scheduling or heap internals. There are no goroutines
// and no closure per event; a model keeps its state in plain slices and
// tells events apart by Kind and ID, and a Handler interprets them. Reset
// keeps the heap's storage, so a model replayed many times allocates nothing
// after its first run.
//
// Real-time pacing (an animation) is a layer above: it reads the record a
// run leaves, it never drives the clock.
package des
