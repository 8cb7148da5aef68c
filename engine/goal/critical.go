package goal

// critical walks back from the CPU that finishes last: each link is what
// set the time the next one began (the CPU's previous occupant, the NIC's
// previous gap, a message's flight, a rendezvous release), so the chain
// covers the run from 0 to End without the slack that did not matter.
func (e *exec) critical(h int) []CritStep {
	// h is the rank that finishes last
	c := h * e.w
	for k := range e.ncpu {
		if e.hs[h*e.w+k].o > e.hs[c].o {
			c = h*e.w + k
		}
	}
	// counted first, then filled from its end: the path is exactly as
	// long as it is (a chain of a million calcs has a million links; an
	// append grown a quarter at a time allocated five times that)
	limit := critLimit(e.s.NumOps(), len(e.tl.Messages))
	n := 0
	for at := e.cpuBy[c]; !at.none && n < limit; n++ {
		_, at = e.link(at)
	}
	out := make([]CritStep, n)
	at := e.cpuBy[c]
	for k := n - 1; k >= 0; k-- {
		out[k], at = e.link(at)
	}
	return out
}

// critLimit bounds a critical path's length in a run of ops operations
// and msgs messages: each link is an operation's CPU time, or a
// message's flight, receive, NIC gap at either end or rendezvous, and no
// link repeats (each begins before the one it explains).
func critLimit(ops, msgs int) int { return ops + 5*msgs + 1 }

// link is the link at names and the cause of the one before it.
func (e *exec) link(at cause) (CritStep, cause) {
	s := e.s
	var st CritStep
	var prev cause
	switch at.kind {
	case CritCPU:
		i := int(e.ix[at.id]) // cause ids of operations are places
		r := e.tl.Ops[i]
		st = CritStep{Kind: CritCPU, Rank: s.RankOf(i), Peer: -1, Op: i, Start: r.Start, End: r.End + r.Stall}
		if k := s.kind(uint32(at.id)); k == Send {
			st.Peer = int(s.ops[at.id].peer)
		}
		prev = e.cause[at.id]
	case CritReceive:
		m := e.tl.Messages[at.id]
		size := m.Bytes
		end := m.Taken + int64(e.o+max((size-1)*e.O, (size-1)*e.G)) + m.Stall
		st = CritStep{Kind: CritReceive, Rank: int(m.To), Peer: int(m.From), Op: int(m.Send), Start: m.Taken, End: end}
		prev = e.mcause[at.id]
	case CritFlight:
		m := e.tl.Messages[at.id]
		st = CritStep{Kind: CritFlight, Rank: int(m.From), Peer: int(m.To), Op: int(m.Send), Start: m.Sent, End: m.Arrive}
		prev = e.cause[s.place(int(m.Send))]
	case CritGap:
		if at.gapR {
			m := e.tl.Messages[at.id]
			st = CritStep{Kind: CritGap, Rank: int(m.To), Peer: int(m.From), Op: int(m.Send), Start: m.Taken,
				End: m.Taken + int64(e.g+(m.Bytes-1)*e.G)}
			prev = e.mcause[at.id]
		} else {
			i := int(e.ix[at.id])
			r := e.tl.Ops[i]
			size := s.size(uint32(at.id))
			st = CritStep{Kind: CritGap, Rank: s.RankOf(i), Peer: int(s.ops[at.id].peer), Op: i,
				Start: r.Start, End: r.Start + int64(e.g+(size-1)*e.G)}
			prev = e.cause[at.id]
		}
	case CritRendezvous:
		m := e.tl.Messages[at.id]
		st = CritStep{Kind: CritRendezvous, Rank: int(m.From), Peer: int(m.To), Op: int(m.Send), Start: m.Matched, End: m.Matched}
		if m.Unexpected && m.Recv >= 0 {
			prev = e.cause[s.place(int(m.Recv))]
		} else {
			prev = e.mcause[at.id]
		}
	}
	return st, prev
}
