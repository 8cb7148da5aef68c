package logp

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"commlab/engine/trace"
	"commlab/internal/errf"
)

// Result is one replay of a fixed schedule under drawn latencies.
type Result struct {
	// T is the completion time: when the root's last addition ends.
	T float64
	// Planned is the schedule's fluctuation-free T_s(L_s).
	Planned float64
	// Stall is T - Planned ≥ 0: what late messages (and long gaps) cost.
	Stall float64
	// Late counts messages that arrived later than planned.
	Late int
	// MaxDelay is the largest lateness of a message beyond its plan.
	MaxDelay float64
}

// drawNoise fills the per-op latencies and gaps of one replay from rng:
// ops in program order, a Send's latency then (with gap fluctuation) its
// gap, a Recv's gap. The order is part of the model's determinism: the
// same seed gives the same replay on every platform.
func drawNoise(prog *Program, p Params, rng *rand.Rand, nz *Noise) {
	n := len(prog.Ops)
	nz.Latency = resize(nz.Latency, n)
	nz.Gap = resize(nz.Gap, n)
	for i := range prog.Ops {
		switch prog.Ops[i].Kind {
		case Send:
			nz.Latency[i] = drawLatency(rng, p.L, p.Sigma)
			nz.Gap[i] = drawGap(rng, p.G, p.GapSigma)
		case Recv:
			nz.Gap[i] = drawGap(rng, p.G, p.GapSigma)
		default:
			nz.Latency[i], nz.Gap[i] = 0, p.G
		}
	}
}

// Replay runs the fixed schedule s with per-message latencies drawn from
// Normal(μ = p.L, σ = p.Sigma) truncated at 0 and gaps max(g, g + N(0,
// p.GapSigma²)), all from rng. No operation starts before its planned
// time, so an early message does not help; a late one stalls its receiver
// and everything after it. p must describe the same machine the schedule
// was planned for except for L, Sigma and GapSigma (the fluctuation);
// rec, if non-nil, receives the run's trace.
func Replay(s *Schedule, p Params, rng *rand.Rand, rec *trace.Trace) (Result, error) {
	if s == nil || s.Prog == nil {
		return Result{}, errors.New("logp: replay of a nil schedule")
	}
	if err := p.Validate(); err != nil {
		return Result{}, err
	}
	sp := s.Params
	if p.P != sp.P || p.N != sp.N || p.O != sp.O || p.G != sp.G {
		return Result{}, errf.Errorf("logp: replay with P=%d n=%d o=%g g=%g of a schedule planned for P=%d n=%d o=%g g=%g",
			p.P, p.N, p.O, p.G, sp.P, sp.N, sp.O, sp.G)
	}
	var nz Noise
	drawNoise(s.Prog, p, rng, &nz)
	var e Executor
	t := e.Run(s.Prog, s.machine(), nz)
	r := s.result(t, &e)
	if rec != nil {
		s.record(&e, &nz, r, rec)
	}
	return r, nil
}

func (s *Schedule) result(t float64, e *Executor) Result {
	r := Result{T: t, Planned: s.planned, Stall: t - s.planned}
	for i, op := range s.Prog.Ops {
		if op.Kind != Send {
			continue
		}
		if d := e.Arrive(i) - s.plannedArrive(i); d > 0 {
			r.Late++
			r.MaxDelay = max(r.MaxDelay, d)
		}
	}
	return r
}

// plannedArrive is when Send i's message arrives in the plan.
func (s *Schedule) plannedArrive(i int) float64 {
	return s.Prog.Ops[i].NotBefore + s.Params.O + s.Ls
}

// record writes the replay into rec: one lane per processor; the CPU's
// operations as Compute (additions), Send and Receive (o) spans; waiting
// before an op's planned start as Idle and waiting past it (a late
// message or a long gap) as Stall; every message with its lateness beyond
// the plan as Delay; markers for the planned and the actual completion.
func (s *Schedule) record(e *Executor, nz *Noise, r Result, rec *trace.Trace) {
	p := s.Params
	*rec = *trace.New("logp", p.P, func(i int) string { return fmt.Sprintf("P%d", i+1) })
	rec.Unit = "addition"        // the model's time unit: one addition takes 1
	prev := make([]float64, p.P) // end of the processor's previous op
	for i, op := range s.Prog.Ops {
		q := int(op.Proc)
		st, en := e.Start(i), e.End(i)
		plan := op.NotBefore
		step := int(op.Step)
		if w := min(st, max(prev[q], plan)); w > prev[q] {
			rec.AddSpan(q, trace.Idle, prev[q], w, step, "waiting")
		}
		if from := max(prev[q], plan); st > from {
			why := "gap"
			if op.Kind == Recv && e.Arrive(int(op.Match)) >= st {
				why = fmt.Sprintf("late message from P%d", op.Peer+1)
			} else if e.Ready(i) >= st {
				why = "late dependency"
			}
			rec.AddSpan(q, trace.Stall, from, st, step, why)
		}
		switch op.Kind {
		case Compute:
			rec.AddSpan(q, trace.Compute, st, en, step, fmt.Sprintf("add ×%.4g", op.Dur))
		case Send:
			rec.AddSpan(q, trace.Send, st, en, step, fmt.Sprintf("send to P%d", op.Peer+1))
			at := e.Arrive(i)
			leave := st + p.O
			rec.AddMessage(trace.Message{
				From: q, To: int(op.Peer), Send: leave, Arrive: at, Step: step,
				Class: "partial sum", Delay: max(0, nz.Latency[i]-s.Ls), Used: true,
			})
		case Recv:
			rec.AddSpan(q, trace.Receive, st, en, step, fmt.Sprintf("receive from P%d", op.Peer+1))
		}
		prev[q] = en
	}
	rec.AddMarker(0, r.Planned, "planned T_s")
	rec.AddMarker(0, r.T, "T")
	rec.Sort()
}
