package overlay

import (
	"testing"

	"commlab/engine/trace"
)

// The opener of a shortcut may send on it before the far end has accepted
// it (HandshakeKernel); SetReady then lets both ends send. A shortcut
// closed meanwhile is not made ready, and its record is reused only once
// the handshake is over.
func TestOpenerReadyFirst(t *testing.T) {
	cs := NewConnections(make([][]int, 4), 1, nil)
	id, _ := cs.OpenShortcut(0, 2)
	if cs.Ready(0, 2) || cs.Ready(2, 0) {
		t.Fatal("ready before the handshake")
	}
	if !cs.SetOpenerReady(id) || !cs.Ready(0, 2) || cs.Ready(2, 0) {
		t.Fatalf("after the SYN-ACK: opener ready %v, far end ready %v; want true, false", cs.Ready(0, 2), cs.Ready(2, 0))
	}
	if !cs.SetReady(id) || !cs.Ready(2, 0) {
		t.Fatal("after the accept the far end cannot send")
	}
	// Closed between the SYN-ACK and the accept: its record stays until
	// SetReady, then serves the next shortcut.
	id1, _ := cs.OpenShortcut(1, 3)
	cs.SetOpenerReady(id1)
	id2, _ := cs.OpenShortcut(1, 0) // 1's cache of 1 evicts 1–3, 0's evicts 0–2
	if id2 == id1 || cs.Ready(1, 3) {
		t.Fatalf("1–3 evicted: new id %d (old %d), still ready %v", id2, id1, cs.Ready(1, 3))
	}
	if cs.SetOpenerReady(id1) || cs.SetReady(id1) {
		t.Error("a closed shortcut made ready")
	}
	if id3, _ := cs.OpenShortcut(2, 3); id3 != id1 && id3 != id {
		t.Errorf("closed records not reused: got %d, want %d or %d", id3, id1, id)
	}
}

// handshakeRun runs the small case (4 processes; 0–3 and 1–2 have no
// static connection) with a trace, under handshake h.
func handshakeRun(t *testing.T, h Handshake) (Params, *cluster, Result, *trace.Trace) {
	t.Helper()
	p := small()
	p.Handshake = h
	tree, err := Cluster(p)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := fromTree(tree, p.Procs)
	if err != nil {
		t.Fatal(err)
	}
	var rec trace.Trace
	r, err := RunIS(p, rng(3), &rec)
	if err != nil {
		t.Fatal(err)
	}
	return p, cl, r, &rec
}

// Under the kernel's handshake the opener may send one round trip after
// its connect, whatever its CPU is doing, and the far end accepts after
// the third one-way trip (the ACK); under the application's, the connect
// and the accept run on the CPUs first, so a shortcut is ready at least a
// round trip plus both ends' set-up CPU after it opened.
func TestHandshakeTimes(t *testing.T) {
	for _, h := range Handshakes {
		p, cl, r, rec := handshakeRun(t, h)
		lat := func(a, b int32) float64 {
			return p.Latency + float64(cl.hops(cl.procNode[a], cl.procNode[b]))*p.HopLatency
		}
		opened := map[[2]int32]float64{}
		n := 0
		for _, e := range r.Events {
			switch e.Kind {
			case ShortcutOpen:
				opened[[2]int32{e.From, e.To}] = e.Time
			case ShortcutReady:
				t0, ok := opened[[2]int32{e.From, e.To}]
				if !ok {
					t.Fatalf("%s: shortcut %d–%d ready, never opened", h, e.From, e.To)
				}
				n++
				rtt := 2 * lat(e.From, e.To)
				switch h {
				case HandshakeKernel:
					if d := e.Time - t0; d != (t0+lat(e.From, e.To)+lat(e.From, e.To))-t0 {
						t.Errorf("kernel: %d–%d ready %g s after it opened, want the round trip %g s", e.From, e.To, d, rtt)
					}
					// The far end's accept starts no sooner than the ACK.
					acc := false
					for _, sp := range rec.Spans {
						if sp.Lane == int(e.To) && sp.Label == "accept" && sp.Start >= t0 {
							acc = true
							if sp.Start < t0+1.5*rtt*(1-1e-12) {
								t.Errorf("kernel: %d accepts at %g, before the ACK at %g", e.To, sp.Start, t0+1.5*rtt)
							}
							break
						}
					}
					if !acc {
						t.Errorf("kernel: %d never accepts the shortcut from %d", e.To, e.From)
					}
				case HandshakeApplication:
					if d := e.Time - t0; d < rtt+2*p.HandshakeCPU {
						t.Errorf("application: %d–%d ready %g s after it opened, want at least %g s", e.From, e.To, d, rtt+2*p.HandshakeCPU)
					}
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: no shortcut became ready", h)
		}
	}
}

// chunkCase is a sort whose key messages are ~2 KiB per pair, as the
// paper's experiment's (NPB class A on 128 processes), on 32 processes
// over 4 switches: 21 destinations of each process lack a static
// connection.
func chunkCase() Params {
	p := Default()
	p.Nodes, p.Procs, p.Switches = 16, 32, 4
	p.Keys, p.MaxKey, p.Iterations = 32*32*512, 1<<16, 1
	return p
}

// The defect: with the application completing the handshake, no
// chunk of the exchange that opened a shortcut can use it, so a cache
// spares almost no relay; with the kernel completing it, later chunks of
// the same message go direct.
func TestLaterChunksUseShortcut(t *testing.T) {
	relayed := func(h Handshake, c, chunk int) int {
		p := chunkCase()
		p.Handshake, p.Cache, p.ChunkBytes = h, c, chunk
		r, err := RunIS(p, rng(12), nil)
		if err != nil {
			t.Fatal(err)
		}
		return r.Relayed
	}
	r0 := relayed(HandshakeKernel, 0, 256)
	if a := relayed(HandshakeApplication, 0, 256); a != r0 {
		t.Fatalf("C = 0: %d relayed under the kernel's handshake, %d under the application's; no shortcut, no difference", r0, a)
	}
	k, a := relayed(HandshakeKernel, 4, 256), relayed(HandshakeApplication, 4, 256)
	t.Logf("256 B chunks, relayed messages: C = 0 %d; C = 4 kernel %d, application %d", r0, k, a)
	if float64(k) > 0.8*float64(r0) {
		t.Errorf("kernel, C = 4: %d relayed of %d at C = 0; later chunks must use the shortcut (want at most 80 %%)", k, r0)
	}
	if float64(a) < 0.9*float64(r0) {
		t.Errorf("application, C = 4: %d relayed of %d at C = 0; the chunks posted before the connect cannot use it (want at least 90 %%)", a, r0)
	}
	// Whole messages: a shortcut has nothing more to carry in the exchange
	// that opened it.
	if w0, wk := relayed(HandshakeKernel, 0, 0), relayed(HandshakeKernel, 4, 0); float64(wk) < 0.9*float64(w0) {
		t.Errorf("whole messages, C = 4: %d relayed of %d at C = 0; want at least 90 %%", wk, w0)
	}
}
