// Package logp is the LogP scene of paper 002 (slides; model settled in
// specs/logp-fluctuation.md): the optimal LogP summation schedule for n
// numbers on P processors (Karp, Sahay, Santos, Schauser 1993), fixed in
// advance with a planning latency L_s, then replayed with latencies drawn
// from Normal(μ, σ²) truncated at 0.
//
// Two Gantt charts share one time axis, one lane per processor (P1, the
// root, holds the sum): the plan, which is the schedule run with every
// latency equal to L_s, and replay 1 with drawn latencies. Additions are
// drawn in the compute colour, the send and receive overheads o in their
// own, and each partial sum as an arrow from its sender's bar when it
// leaves to its receiver's bar when it arrives, moving while in flight.
// An early message does not help (the receiver keeps to its timetable); a
// late one stalls its receiver, drawn hatched in the warning colour, and
// the part of its flight beyond L_s is drawn thick in the same colour, so
// the cause sits next to the effect. Everything after a stall is shifted,
// and the marks for T_s (planned), E[T](L_s) and T (this replay) show how
// far the delay propagated to the completion time. Nothing after the
// playhead is drawn.
//
// Beside the charts, the running mean of T over replays 1..k converges to
// E[T](L_s), above the fluctuation-free T_s(L_s); both are drawn as
// reference lines. Replay k appears when the playhead passes k/N of the
// run, so playing the scene plays the replays too.
//
// Build plans with L_s (logp.Plan), records the plan and replay 0
// (scene.RNG(seed, 0)) with traces, replays the schedule N times without a
// trace (replay i with scene.RNG(seed, i)) and estimates E[T](L_s) with
// logp.Expected (trial t draws from the same stream as replay t), so every
// number the page shows is reproducible natively from the parameters and
// the seed. The Monte Carlo E[T] is used for every P, P = 2 included,
// because the closed form goes through math.Erfc and math.Exp, whose amd64
// assembly can differ from the pure-Go code the browser runs in the last
// bit; a test checks that the two agree for P = 2.
//
// Times are in the model's units, in which one addition costs 1; End,
// Steps and the playhead use them as they are.
package logp
