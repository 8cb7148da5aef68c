package overlay

import (
	"errors"
	"math"
	"slices"
	"testing"

	"commlab/render"
	"commlab/scene"
)

// A node joins on every leaf switch in turn and another leaves: the
// joiner measures one RTT per switch and lands on the switch it is
// cabled to with the topology policy's connections (all of its switch,
// one per other switch); the leaver's connections are all closed by the
// end, every remaining process still has a way into its switch, and the
// sort itself is the same run as without membership.
func TestMembershipScene(t *testing.T) {
	plain := build(t, nil)
	for _, c := range []struct{ join, leave string }{{"0", "-1"}, {"1", "3"}, {"3", "19"}, {"-1", "7"}, {"2", "0"}} {
		set := map[string]string{"join": c.join, "leave": c.leave}
		r := build(t, set)
		mb := r.mb
		if r.res.Time != plain.res.Time || r.res.Evicted != plain.res.Evicted {
			t.Errorf("%v: the sort changed: %v s, %d evicted; without membership %v s, %d", set, r.res.Time, r.res.Evicted, plain.res.Time, plain.res.Evicted)
		}
		if !(r.End() > r.res.Time) || r.Steps()[len(r.Steps())-1] != r.End() || !slices.IsSorted(r.Steps()) {
			t.Fatalf("%v: End %v after the sort's %v, steps end at %v", set, r.End(), r.res.Time, r.Steps()[len(r.Steps())-1])
		}
		open := func(a, b int) bool { // a connection a–b open at the end
			for _, ln := range r.h.links {
				if (ln.a == a && ln.b == b || ln.a == b && ln.b == a) && ln.open <= r.End() && r.End() < ln.close {
					return true
				}
			}
			return false
		}
		leafOf := func(q int) int { // the switch a process's node hangs on
			n := r.cl.procNode[q]
			for sw, ns := range r.cl.nodesOf {
				if slices.Contains(ns, n) {
					return sw
				}
			}
			return -1
		}
		nums := r.Numbers()
		if mb.joinLeaf >= 0 {
			S := len(r.cl.leaves)
			if nums["join_rtts"] != float64(S) || mb.placed != mb.joinLeaf || nums["join_switch"] != float64(mb.joinLeaf) {
				t.Errorf("%v: %v RTTs for %d switches, placed on %d, cabled to %d", set, nums["join_rtts"], S, mb.placed, mb.joinLeaf)
			}
			if want := r.cl.leaves[mustInt(t, c.join)]; mb.joinLeaf != want {
				t.Errorf("%v: cabled to switch %d, want the %s-th leaf %d", set, mb.joinLeaf, c.join, want)
			}
			mates, others := 0, map[int]bool{}
			for q := range r.p.Procs {
				if slices.Contains(mb.leaveProcs, q) || !open(mb.joinProc, q) {
					continue
				}
				if leafOf(q) == mb.joinLeaf {
					mates++
				} else {
					others[leafOf(q)] = true
				}
			}
			wantMates := 0
			for q := range r.p.Procs {
				if leafOf(q) == mb.joinLeaf && !slices.Contains(mb.leaveProcs, q) {
					wantMates++
				}
			}
			if mates != wantMates || len(others) != S-1 {
				t.Errorf("%v: the joiner is connected to %d of its switch's %d and into %d other switches, want %d", set, mates, wantMates, len(others), S-1)
			}
		}
		if mb.leaveNode >= 0 {
			if len(mb.leaveProcs) == 0 || nums["leave_closed"] < 1 {
				t.Errorf("%v: leave of node %d: processes %v, closed %v", set, mb.leaveNode, mb.leaveProcs, nums["leave_closed"])
			}
			gone := mb.leaveProcs[0]
			for q := range len(r.cl.procNode) {
				if !slices.Contains(mb.leaveProcs, q) && open(gone, q) {
					t.Errorf("%v: P%d left but P%d–P%d is still open", set, gone, gone, q)
				}
			}
			// Every remaining process still reaches the leaver's switch
			// (when it has members left) through a connection of its own.
			sw := leafOf(gone)
			for q := range len(r.cl.procNode) {
				if slices.Contains(mb.leaveProcs, q) || leafOf(q) == sw || mb.joinLeaf >= 0 && q == mb.joinProc && mb.placed < 0 {
					continue
				}
				into, members := false, false
				for x := range len(r.cl.procNode) {
					if leafOf(x) == sw && !slices.Contains(mb.leaveProcs, x) {
						members = true
						into = into || open(q, x)
					}
				}
				if members && !into {
					t.Errorf("%v: P%d has no connection into switch %d after the leave", set, q, sw)
				}
			}
			// The frame crosses the leaver's node and draws none of its
			// connections at the end.
			_, p := r.paint(r.End(), scene.View{W: 960, H: 540, Theme: render.Light()})
			for _, i := range p.links {
				if ln := r.h.links[i]; slices.Contains(mb.leaveProcs, ln.a) || slices.Contains(mb.leaveProcs, ln.b) {
					t.Errorf("%v: the end frame draws P%d–P%d of a process that left", set, ln.a, ln.b)
				}
			}
		}
	}
}

func mustInt(t *testing.T, s string) int {
	t.Helper()
	v := values(map[string]string{"join": s})
	return v.Int("join")
}

// Joins and leaves are the topology policy's: under the others they are
// refused on their own field, and out-of-range values name the bound.
func TestMembershipRefused(t *testing.T) {
	sc := New()
	for _, c := range []struct {
		set map[string]string
		key string
	}{
		{map[string]string{"policy": "all", "join": "0"}, "join"},
		{map[string]string{"policy": "random", "leave": "2"}, "leave"},
		{map[string]string{"join": "4"}, "join"},    // 4 switches: 0 … 3
		{map[string]string{"leave": "20"}, "leave"}, // 20 nodes: 0 … 19
		{map[string]string{"join": "-2"}, "join"},
	} {
		_, err := sc.Build(values(c.set), 1)
		var fe *scene.FieldError
		if !errors.As(err, &fe) || fe.Key != c.key {
			t.Errorf("%v: error %v, want a FieldError on %s", c.set, err, c.key)
		}
	}
}

// With one switch there is nothing to tell apart: the join still
// measures (one RTT) and the scene builds, placed or refused with the
// reason, and its counts stay consistent.
func TestMembershipSmallClusters(t *testing.T) {
	for _, set := range []map[string]string{
		{"switches": "1", "nodes": "4", "procs": "4", "cache": "2", "join": "0", "leave": "1"},
		{"switches": "4", "nodes": "4", "procs": "8", "join": "3", "leave": "3"},
		{"switches": "2", "nodes": "2", "procs": "4", "cache": "2", "join": "1", "leave": "0"},
	} {
		r := build(t, set)
		mb := r.mb
		if mb.placed < 0 && mb.refusal == "" || mb.placed >= 0 && mb.refusal != "" {
			t.Errorf("%v: placed %d, refusal %q", set, mb.placed, mb.refusal)
		}
		if math.IsInf(r.End(), 0) || !(r.End() > r.res.Time) {
			t.Errorf("%v: End %v", set, r.End())
		}
		for _, frac := range []float64{0, 0.5, 0.97, 0.999, 1} {
			r.Frame(r.res.Time+(r.End()-r.res.Time)*frac, scene.View{W: 640, H: 360, Theme: render.Dark()})
		}
	}
}
