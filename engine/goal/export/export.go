package export

import (
	"fmt"
	"io"
	"math"

	"commlab/engine/allreduce"
	"commlab/engine/goal"
	"commlab/engine/logp"
	"commlab/engine/nbc"
)

func ns(s float64) int64 { return int64(math.Round(s * 1e9)) }

// Butterfly writes the butterfly (recursive-doubling) allreduce of p as
// GOAL: in stage k = 1..K rank i sends its partial result (N bytes) to
// i XOR 2^(k-1), receives the partner's and reduces for γN (a calc);
// each stage's send waits for the previous reduction. Then p.T redundant
// exchanges (-1: K) in the partner pattern of stages 1..T: every rank
// sends its final result and receives the partner's. GOAL cannot express
// adopting the earliest copy (the paper's min), so the redundant
// exchanges add their traffic and receive overheads to the run but not
// their early finish; the conventional part is exact.
func Butterfly(w io.Writer, p allreduce.Params) error {
	if p.P < 2 || p.P&(p.P-1) != 0 || p.P > allreduce.MaxP {
		return fmt.Errorf("export: P = %d is out of range: want a power of two in [2, %d]", p.P, allreduce.MaxP)
	}
	K := p.K()
	T := p.T
	if T < 0 {
		T = K
	}
	if T > K {
		return fmt.Errorf("export: T = %d is out of range: want an integer in [0, K=%d] (or -1 for K)", p.T, K)
	}
	if !(p.N >= 0 && p.N <= 1e12) || !(p.Gamma >= 0 && p.Gamma <= 1) {
		return fmt.Errorf("export: N = %g or gamma = %g out of range", p.N, p.Gamma)
	}
	bytes := uint64(math.Round(p.N))
	work := uint64(ns(p.Gamma * p.N))
	gw := goal.NewWriter(w, p.P)
	for i := range p.P {
		gw.StartRank(i)
		var last goal.Label
		for k := 1; k <= K; k++ {
			peer := uint32(i ^ 1<<(k-1))
			s := gw.Send(bytes, peer, uint32(k))
			if last > 0 {
				gw.Requires(s, last)
			}
			r := gw.Recv(bytes, peer, uint32(k))
			c := gw.Calc(work)
			gw.Requires(c, r)
			if last > 0 {
				gw.Requires(c, last)
			}
			last = c
		}
		for j := 1; j <= T; j++ {
			peer := uint32(i ^ 1<<(j-1))
			s := gw.Send(bytes, peer, uint32(K+j))
			gw.Requires(s, last)
			gw.Recv(bytes, peer, uint32(K+j))
		}
		gw.EndRank()
	}
	return gw.Close()
}

// ButterflyParams is the LogGOPS machine of the allreduce model: L = α,
// G = β (per byte, rounded to whole ns), no CPU overheads or gaps, every
// message eager. LogGOPSim charges a message L + (N-1)·G where the model
// charges α + βN, one byte's β less per stage.
func ButterflyParams(p allreduce.Params) goal.Params {
	return goal.Params{L: ns(p.Alpha), GapPerByte: ns(p.Beta), S: math.MaxUint32}
}

// Summation writes the optimal LogP summation plan s as GOAL, one time
// unit (one addition) = unit ns (Program with the plan's program). GOAL
// has no start times: the plan's timetable (an op never starts before
// its planned time) is dropped and the schedule runs greedily.
func Summation(w io.Writer, s *logp.Schedule, unit float64) error { return Program(w, s.Prog, unit) }

// Program writes any LogP executor program as GOAL, one time unit = unit
// ns: per processor its operations in program order with their
// dependencies on the same processor (across processors the message is
// the dependency), a send's tag its operation index so each message
// meets exactly its receive, message sizes in bytes (at least 1).
func Program(w io.Writer, prog *logp.Program, unit float64) error {
	if !(unit > 0 && unit <= 1e9) {
		return fmt.Errorf("export: unit = %g ns is out of range: want a number in (0, 1e9]", unit)
	}
	gw := goal.NewWriter(w, prog.P)
	label := make([]goal.Label, len(prog.Ops))
	// the ops of each processor, in program order (counting sort by Proc)
	start := make([]int, prog.P+1)
	for _, op := range prog.Ops {
		start[op.Proc+1]++
	}
	for q := range prog.P {
		start[q+1] += start[q]
	}
	order := make([]int32, len(prog.Ops))
	fill := append([]int(nil), start[:prog.P]...)
	for i, op := range prog.Ops {
		order[fill[op.Proc]] = int32(i)
		fill[op.Proc]++
	}
	for q := range prog.P {
		gw.StartRank(q)
		for _, i32 := range order[start[q]:start[q+1]] {
			i := int(i32)
			op := prog.Ops[i]
			switch op.Kind {
			case logp.Compute:
				label[i] = gw.Calc(uint64(math.Round(op.Dur * unit)))
			case logp.Send:
				label[i] = gw.Send(uint64(max(op.Size, 1)), uint32(op.Peer), uint32(i))
			case logp.Recv:
				label[i] = gw.Recv(uint64(max(op.Size, 1)), uint32(op.Peer), uint32(op.Match))
			}
			for _, d := range prog.Deps(i) {
				if prog.Ops[d].Proc == op.Proc {
					gw.Requires(label[i], label[d])
				}
			}
		}
		gw.EndRank()
	}
	return gw.Close()
}

// SummationParams is the LogP machine of p, one addition = unit ns: L =
// μ, o, g; one-byte messages, so G and O do not matter.
func SummationParams(p logp.Params, unit float64) goal.Params {
	r := func(x float64) int64 { return int64(math.Round(x * unit)) }
	return goal.Params{L: r(p.L), Overhead: r(p.O), Gap: r(p.G), S: math.MaxUint32}
}

// NBCAlltoall writes the alltoall of the non-blocking collectives model
// for p.Nodes ranks of p.Msg bytes per destination: first the local copy
// of the rank's own block (a calc of Msg / CopyBandwidth), then LibNBC's
// all-at-once schedule (every receive from r-d and send to r+d posted at
// once, d = 1..P-1) or the pairwise one (step d waits for step d-1), as
// the method's library uses (nbc.Params.NBCAlltoall for LibNBC methods,
// Alltoall otherwise).
func NBCAlltoall(w io.Writer, p nbc.Params) error {
	if err := p.Validate(); err != nil {
		return err
	}
	alg := p.Alltoall
	if p.Method.LibNBC() {
		alg = p.NBCAlltoall
	}
	P := p.Nodes
	bytes := uint64(math.Round(p.Msg))
	gw := goal.NewWriter(w, P)
	for r := range P {
		gw.StartRank(r)
		prev := gw.Calc(uint64(ns(p.Msg / p.CopyBandwidth)))
		for d := 1; d < P; d++ {
			rv := gw.Recv(bytes, uint32((r-d+P)%P), 0)
			sd := gw.Send(bytes, uint32((r+d)%P), 0)
			gw.Requires(rv, prev)
			gw.Requires(sd, prev)
			if alg == nbc.Pairwise {
				c := gw.Calc(0)
				gw.Requires(c, rv)
				gw.Requires(c, sd)
				prev = c
			}
		}
		gw.EndRank()
	}
	return gw.Close()
}

// NBCParams is the LogGOPS machine of the model's network: L = Latency,
// G = 1/Bandwidth per byte (rounded to whole ns, at least 1 when the
// bandwidth is below 2 GB/s), o = one MPI call, S = the eager limit.
func NBCParams(p nbc.Params) goal.Params {
	return goal.Params{L: ns(p.Latency), Overhead: ns(p.MPICall), GapPerByte: ns(1 / p.Bandwidth),
		S: int64(min(p.EagerLimit, math.MaxUint32))}
}
