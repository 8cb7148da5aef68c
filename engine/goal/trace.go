package goal

import (
	"fmt"

	"commlab/engine/trace"
	"commlab/internal/errf"
)

// Trace converts a recorded run (Options.Record) into commlab's event
// record, in seconds: a lane per rank (per rank and CPU when the
// schedule uses several), a span per send overhead, receive overhead,
// calc and noise stall, a message per send. Step is the operation's index
// within its rank; the span label names the operation.
func Trace(s *Schedule, r *Result) (*trace.Trace, error) {
	if r.Timeline == nil {
		return nil, errf.Errorf("goal: the run was not recorded (Options.Record)")
	}
	ncpu := s.CPUs()
	name := func(i int) string { return fmt.Sprintf("rank %d", i) }
	if ncpu > 1 {
		name = func(i int) string { return fmt.Sprintf("rank %d cpu %d", i/ncpu, i%ncpu) }
	}
	t := trace.New("goal", s.numRanks*ncpu, name)
	const ns = 1e-9
	tl := r.Timeline
	for i, rec := range tl.Ops {
		if rec.Start < 0 {
			continue
		}
		u := s.place(i)
		rank := s.RankOf(i)
		first, _ := s.RankOps(rank)
		cpu := int(s.cpu(u))
		kind := trace.Compute
		label := s.Label(i)
		switch s.kind(u) {
		case Send:
			kind = trace.Send
			label = fmt.Sprintf("send %dB to %d", s.size(u), s.ops[u].peer)
		case Recv:
			kind = trace.Receive
			m := tl.Messages[rec.Msg]
			cpu = int(s.cpu(s.place(int(m.Send)))) // LogGOPSim takes it on the sender's CPU index
			label = fmt.Sprintf("recv %dB from %d", m.Bytes, m.From)
		default:
			label = fmt.Sprintf("calc %d ns", s.size(u))
		}
		lane := rank*ncpu + cpu
		t.AddSpan(lane, kind, float64(rec.Start)*ns, float64(rec.End)*ns, i-first, label)
		if rec.Stall > 0 {
			t.AddSpan(lane, trace.Stall, float64(rec.End)*ns, float64(rec.End+rec.Stall)*ns, i-first, "noise")
		}
	}
	for _, m := range tl.Messages {
		first, _ := s.RankOps(int(m.From))
		class := "eager"
		if m.Rendezvous {
			class = "rendezvous"
		}
		to := int(m.To) * ncpu
		if m.Recv >= 0 {
			to += int(s.cpu(s.place(int(m.Send))))
		}
		t.AddMessage(trace.Message{From: int(m.From)*ncpu + int(s.cpu(s.place(int(m.Send)))), To: to,
			Send: float64(m.Sent) * ns, Arrive: float64(m.Arrive) * ns, Step: int(m.Send) - first,
			Class: class, Delay: float64(m.Delay) * ns, Used: m.Recv >= 0})
	}
	t.Sort()
	return t, nil
}
