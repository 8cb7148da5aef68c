package overlay

import (
	"testing"
)

// checkMembership: every live process is connected to all of its switch
// and to at least one process of every other switch with members, and
// every pair routes in at most two hops (Next, then Next again lands).
func checkMembership(t *testing.T, m *Membership, what string) {
	t.Helper()
	sw := m.switches()
	for p := range m.leaf {
		if !m.Live(p) {
			if len(m.Connections(p)) != 0 {
				t.Fatalf("%s: gone process %d has connections", what, p)
			}
			continue
		}
		for _, s := range sw {
			n := 0
			for _, q := range m.Connections(p) {
				if !m.Live(q) {
					t.Fatalf("%s: %d is connected to gone %d", what, p, q)
				}
				if m.leaf[q] == s {
					n++
				}
			}
			if s == m.leaf[p] && n != len(m.members(s))-1 || s != m.leaf[p] && n == 0 {
				t.Fatalf("%s: process %d has %d connections into switch %d (%d members)", what, p, n, s, len(m.members(s)))
			}
		}
		for q := range m.leaf {
			if q == p || !m.Live(q) {
				continue
			}
			h, ok := m.Next(p, q)
			if !ok {
				t.Fatalf("%s: no route %d → %d", what, p, q)
			}
			if h != q {
				if h2, ok := m.Next(h, q); !ok || h2 != q {
					t.Fatalf("%s: %d → %d relays through %d, which is not connected to %d", what, p, q, h, q)
				}
			}
		}
	}
}

// Joins and leaves on the paper's cluster (128 processes over 6
// switches): the connections stay the topology policy's, a join opens
// only the joiner's own connections, a leave only replaces the ways into
// its switch that went through the leaver.
func TestMembershipJoinLeave(t *testing.T) {
	p := Default()
	tr, err := Cluster(p)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := fromTree(tr, p.Procs)
	if err != nil {
		t.Fatal(err)
	}
	m := NewMembership(cl.procLeaf)
	checkMembership(t, m, "start")
	r := rng(5)
	for step := range 200 {
		if r.IntN(2) == 0 {
			q := r.IntN(len(m.leaf))
			if !m.Live(q) || len(m.members(m.leaf[q])) < 2 {
				continue
			}
			before := len(m.Connections(q))
			closed, opened, err := m.Leave(q)
			if err != nil {
				t.Fatal(err)
			}
			if len(closed) != before || len(opened) > before {
				t.Fatalf("step %d: leave of %d closed %d (had %d), opened %d", step, q, len(closed), before, len(opened))
			}
			checkMembership(t, m, "after a leave")
		} else {
			q := len(m.leaf)
			leaf := cl.procLeaf[r.IntN(len(cl.procLeaf))]
			mates := len(m.members(leaf))
			others := len(m.switches()) - 1
			if mates == 0 {
				others++
			}
			opened, err := m.Join(q, leaf)
			if err != nil {
				t.Fatal(err)
			}
			if len(opened) != mates+others {
				t.Fatalf("step %d: join opened %d connections, want %d on its switch + %d others", step, len(opened), mates, others)
			}
			checkMembership(t, m, "after a join")
		}
	}
	live := 0
	for !m.Live(live) {
		live++
	}
	if _, err := m.Join(live, 0); err == nil {
		t.Error("a member joined twice")
	}
	if _, _, err := m.Leave(-1); err == nil {
		t.Error("a non-member left")
	}
}
