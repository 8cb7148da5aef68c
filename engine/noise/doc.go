// Package noise holds the jitter models of papers/000 (specs/allreduce-jitter.md,
// "Jitter models"): periodic OS noise and Poisson network noise.
//
// Both are realised from a counter-based stream (Key): every random number
// is a pure function of (trial key, process, time bucket, index). Two
// reasons make that worth it over a sequential generator:
//
//   - random access in time: in the redundant exchanges of the allreduce a
//     process may send a copy at a time earlier than its last conventional
//     send (it adopted an early copy), so the network noise of a port must
//     be queried out of time order and still agree with earlier queries;
//   - order independence: the engine may visit processes in any order (it
//     blocks the butterfly for the cache) and the numbers do not change.
//
// Each model also keeps a per-process cursor (the next OS window, the next
// network event) so that the common case, a message or a piece of work
// that meets no noise, costs one comparison.
//
// Only +, -, *, / and comparisons are used on the random values (no
// math.Exp or math.Log, whose assembly and pure-Go versions differ in the
// last bit), so a seed gives the same numbers natively and in WebAssembly.
package noise
