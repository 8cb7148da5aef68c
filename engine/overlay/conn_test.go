package overlay

import "testing"

// A closed shortcut's record is reused only once no handshake refers to
// it: one closed during its handshake keeps its id (SetReady still says
// false) until SetReady, and a run keeps at most the static connections
// plus P·C/2 open shortcuts plus those in their handshake as records, not
// one per shortcut ever opened.
func TestConnectionRecordsReused(t *testing.T) {
	none := make([][]int, 4)
	cs := NewConnections(none, 1, nil)
	a, _ := cs.OpenShortcut(0, 1)
	b, ev := cs.OpenShortcut(0, 2) // evicts 0–1 during its handshake
	if len(ev) != 1 || a == b {
		t.Fatalf("evictions %v, ids %d and %d", ev, a, b)
	}
	c, _ := cs.OpenShortcut(3, 1) // must not take a's record: a is pending
	if c == a {
		t.Fatalf("shortcut 3–1 took the record %d of 0–1, whose handshake is pending", a)
	}
	if cs.SetReady(a) {
		t.Error("SetReady on a shortcut closed during its handshake said true")
	}
	// a's record is free now, and 0–2's once it is ready and closed; 3–1,
	// closed during its handshake, is not: the next shortcut takes a
	// freed record, not a new one nor 3–1's.
	cs.SetReady(b)
	d, _ := cs.OpenShortcut(1, 2) // evicts 3–1 (1's) and 0–2 (2's)
	if d != a && d != b {
		t.Errorf("shortcut 1–2 got record %d, want a freed one (%d or %d; %d is pending)", d, a, b, c)
	}
	if !cs.SetReady(d) || !cs.Ready(2, 1) || cs.Connected(0, 1) {
		t.Error("the reused record's shortcut is not ready, or 0–1 came back")
	}

	// Thrashing: 1,000 shortcuts opened among 8 processes with C = 2
	// keep at most 8·2/2 records.
	cs = NewConnections(make([][]int, 8), 2, nil)
	for k := range 1000 {
		x, y := k%8, (k*3+1)%8
		if id, _ := cs.OpenShortcut(x, y); id >= 0 {
			cs.SetReady(id)
		}
	}
	if len(cs.conns) > 8 {
		t.Errorf("%d connection records for at most 8 open at once", len(cs.conns))
	}
}
