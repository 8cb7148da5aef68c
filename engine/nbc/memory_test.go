package nbc

import (
	"reflect"
	"strings"
	"testing"

	"commlab/engine/des"
)

// TestFairShare: max-min fair shares by hand.
func TestFairShare(t *testing.T) {
	for _, c := range []struct {
		capacity float64
		n        int
		a        float64
		m        int
		b        float64
		ra, rb   float64
	}{
		{40, 8, 8, 0, 8, 5, 0},             // eight threads on a socket: 40/8
		{40, 4, 8, 0, 8, 8, 0},             // four: each at its core's cap
		{40, 8, 8, 1, 8, 40. / 9, 40. / 9}, // the copy is one more equal share
		{40, 8, 8, 1, 2, 38. / 8, 2},       // a copy that wants less leaves the rest
		{40, 2, 3, 1, 50, 3, 34},           // capped threads leave the rest to the copy
		{40, 0, 8, 1, 8, 0, 8},             // the copy alone, at its cap
		{40, 0, 8, 0, 8, 0, 0},
	} {
		ra, rb := fairShare(c.capacity, c.n, c.a, c.m, c.b)
		if !near(ra, c.ra, 1e-12) || !near(rb, c.rb, 1e-12) {
			t.Errorf("fairShare(%g, %d×%g, %d×%g) = %g, %g; want %g, %g", c.capacity, c.n, c.a, c.m, c.b, ra, rb, c.ra, c.rb)
		}
		if used := float64(c.n)*ra + float64(c.m)*rb; used > c.capacity*(1+1e-12) {
			t.Errorf("fairShare(%g, …) hands out %g", c.capacity, used)
		}
	}
}

// TestSharesByHand: socket 0 of the paper's node with eight compute
// threads streaming, both directions of the link busy and the copy
// running: the DMA takes its traffic first (at most half the socket), the
// threads and the copy share the rest equally.
func TestSharesByHand(t *testing.T) {
	p := Paper2Nodes(NBCT)
	p.MemoryShare, p.DMATraffic = true, 0.5
	m := newModel(p, nil, false)
	rk := &m.ranks[0]
	rk.streams[0], rk.streams[1] = 8, 7
	check := func(what string, s int, wantC, wantCopy float64) {
		t.Helper()
		c, cp := m.shares(0, s)
		if !near(c, wantC, 1e-12) || !near(cp, wantCopy, 1e-12) {
			t.Errorf("%s: socket %d shares %g, %g; want %g, %g", what, s, c, cp, wantC, wantCopy)
		}
	}
	check("idle link", 0, 5e9, 0)
	check("socket 1 (no buffers)", 1, min(p.CoreBandwidth, 40e9/7), 0)
	rk.dma[0].push(0, 1)
	rk.dma[1].push(0, 1)
	check("both directions busy", 0, (40e9-2*0.5*6e9)/8, 0)
	rk.cp.active = true
	check("and the copy", 0, 34e9/9, 34e9/9)
	p.DMATraffic = 1
	m.p.Bandwidth = 30e9 // 60 GB/s of DMA: held to half the socket
	check("DMA over half the socket", 0, 20e9/9, 20e9/9)
	check("socket 1 unaffected", 1, min(p.CoreBandwidth, 40e9/7), 0)
}

// TestCopySharesTheSocket: TCC's progress thread copies the alltoall's own
// block while the product runs; with memory sharing the copy gets one
// share of socket 0 among its eight compute threads and itself (the
// product outlasts the copy here, and the eager data leaves only after
// it), so the first send leaves Msg / (40/9/2 GB/s) + two MPI calls after
// the collective starts, where alone it takes Msg / CopyBandwidth.
func TestCopySharesTheSocket(t *testing.T) {
	for _, share := range []bool{false, true} {
		p := Paper2Nodes(TCC)
		p.Msg, p.Matrix, p.MemoryShare = 200e3, 40000, share
		r, tr := run1(t, p)
		var start float64
		for _, e := range r.Events {
			if e.Kind == Start && e.Handle == 0 {
				start = e.Time
			}
		}
		send := -1.0
		for _, msg := range tr.Messages {
			if msg.From != len(tr.Lanes)-1 { // rank 0 sends from its progress thread's lane
				send = msg.Send
				break
			}
		}
		copyRate := p.CopyBandwidth
		if share {
			copyRate = p.SocketBandwidth / 9 / 2
		}
		want := start + p.Msg/copyRate + 2*p.MPICall
		if !near(send, want, 1e-9) {
			t.Errorf("memory_share %v: first send at %.9g s, want start %.9g + copy + 2 calls = %.9g", share, send, start, want)
		}
	}
}

// TestMemorySharingOff: without MemoryShare, DMATraffic changes nothing.
func TestMemorySharingOff(t *testing.T) {
	for _, m := range Methods {
		p := Paper2Nodes(m)
		a, _ := run1(t, p)
		p.DMATraffic = 0.3
		b, _ := run1(t, p)
		if a.Total != b.Total {
			t.Errorf("%s: dma_traffic changed the total without memory sharing: %g → %g", m, a.Total, b.Total)
		}
	}
}

// TestMemorySharingSlowsOverlap: sharing the socket with the copy and the
// DMA never speeds a run up, and more DMA traffic never helps.
func TestMemorySharingSlowsOverlap(t *testing.T) {
	for _, setup := range []func(Method) Params{Paper2Nodes, Paper32Nodes} {
		for _, m := range []Method{NBCFTest, NBCT, TCC} {
			p := setup(m)
			off, _ := run1(t, p)
			p.MemoryShare = true
			prev := 0.0
			for _, d := range []float64{0, 0.5, 1} {
				p.DMATraffic = d
				r, _ := run1(t, p)
				if r.Total < prev*(1-1e-9) {
					t.Errorf("%d nodes %s: dma_traffic %g: total %g below %g at less traffic", p.Nodes, m, d, r.Total, prev)
				}
				prev = r.Total
			}
			if prev < off.Total*(1-1e-9) {
				t.Errorf("%d nodes %s: memory sharing sped the run up: %g → %g", p.Nodes, m, off.Total, prev)
			}
		}
	}
}

// TestUnknowns: every calibrated magnitude names a field of Params, has a
// range that Validate accepts at both ends, a source, and the default the
// engine uses inside its range.
func TestUnknowns(t *testing.T) {
	fields := map[string]bool{}
	ty := reflect.TypeFor[Params]()
	for i := range ty.NumField() {
		name, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ",")
		fields[name] = true
	}
	d := Default()
	for _, u := range Unknowns {
		if !fields[u.Field] {
			t.Errorf("%s: no Params field has that JSON name", u.Field)
		}
		if !(u.Lo < u.Hi) || u.Scale <= 0 || u.Unit == "" || len(u.Source) < 40 || u.Mechanism == "" {
			t.Errorf("%s: incomplete: %+v", u.Field, u)
		}
		if got := u.Get(d); got != u.Default {
			t.Errorf("%s: Default() has %g, the table says %g", u.Field, got, u.Default)
		}
		if !u.Plausible(u.Default) {
			t.Errorf("%s: default %g outside its plausible range [%g, %g]", u.Field, u.Default, u.Lo, u.Hi)
		}
		for _, v := range []float64{u.Lo, u.Hi} {
			p := d
			u.Set(&p, v)
			if u.Get(p) != v {
				t.Errorf("%s: Set(%g) then Get = %g", u.Field, v, u.Get(p))
			}
			if err := p.Validate(); err != nil {
				t.Errorf("%s = %g (an end of its range): %v", u.Field, v, err)
			}
		}
		if got, ok := UnknownByField(u.Field); !ok || got.Field != u.Field {
			t.Errorf("UnknownByField(%q) = %v, %v", u.Field, got, ok)
		}
	}
	if _, ok := UnknownByField("latency"); ok {
		t.Error("UnknownByField found latency, which is no calibrated unknown")
	}
}

// peakHandler runs a model and records the most events pending at once.
type peakHandler struct {
	m    *model
	peak int
}

func (h *peakHandler) Handle(s *des.Sim, e des.Event) {
	h.m.Handle(s, e)
	h.peak = max(h.peak, s.Len())
}

// TestSlicesLeaveNoStaleEvents: on an oversubscribed core with Linux's
// shortest slice, thousands of slices pass, but the events pending at once
// stay a handful per rank: compute thread w's completion is scheduled only
// when nothing on the core comes first (issue 26: one stale completion per
// slice filled the memory).
func TestSlicesLeaveNoStaleEvents(t *testing.T) {
	p := Paper2Nodes(TCC)
	p.Oversubscribe, p.TimeSlice, p.ContextSwitch = true, MinTimeSlice, 0
	// The progress thread copies and polls for some 40 ms while the
	// product (85 ms) runs: some 200 cycles of slices a rank.
	p.Msg, p.Matrix = 100e6, 40000
	m := newModel(p, nil, false)
	h := &peakHandler{m: m}
	for r := range m.P {
		m.sim.Schedule(0, evMain, int32(r))
	}
	n := m.sim.Run(h)
	if n < 1000 {
		t.Fatalf("only %d events: the slices did not happen", n)
	}
	if h.peak > 40 {
		t.Errorf("%d events pending at once over %d handled: stale completions pile up", h.peak, n)
	}
}
