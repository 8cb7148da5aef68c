package overlay

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	eoverlay "commlab/engine/overlay"
	"commlab/render"
	"commlab/scene"
	"commlab/scene/scenetest"
)

var v960 = scene.View{W: 960, H: 540, Theme: render.Light()}

// polylines returns the list's polylines stroked in colour c.
func polylines(l render.List, match func(render.Polyline) bool) []render.Polyline {
	var out []render.Polyline
	for _, it := range l.Items {
		if pl, ok := it.(render.Polyline); ok && match(pl) {
			out = append(out, pl)
		}
	}
	return out
}

// endsAt reports whether polyline pl runs between processes a and b.
func endsAt(pl render.Polyline, p *painter, a, b int) bool {
	f, e := pl.Points[0], pl.Points[len(pl.Points)-1]
	near := func(pt render.Point, q int) bool {
		return math.Abs(pt.X-p.g.procX[q]) < 1e-9 && math.Abs(pt.Y-p.g.arcTop) < 1e-9
	}
	return near(f, a) && near(e, b) || near(f, b) && near(e, a)
}

// TestTreeAndRow: one box per switch (the core and the leaves), one per
// node, one dot per process, every node under its leaf switch and every
// process inside its node.
func TestTreeAndRow(t *testing.T) {
	for _, set := range []map[string]string{nil, {"switches": "1"}, {"procs": "48", "nodes": "24", "switches": "8"}, {"procs": "7", "nodes": "5", "switches": "3"}} {
		r := build(t, set)
		l, p := r.paint(r.End()/2, v960)
		wantSw := r.p.Switches + 1
		if r.p.Switches == 1 {
			wantSw = 1
		}
		sw, nodes, dots := 0, 0, 0
		for _, it := range l.Items {
			switch it := it.(type) {
			case render.Rect:
				b := scenetest.RectBox(it)
				for _, s := range p.g.sw {
					if b == s {
						sw++
					}
				}
				for _, n := range p.g.node {
					if b == n {
						nodes++
					}
				}
			case render.Circle:
				if it.Center.Y == p.g.rowY && it.R == p.dotR && it.Fill.A > 0 {
					dots++
				}
			}
		}
		if sw != wantSw || len(p.g.sw) != wantSw {
			t.Errorf("%v: %d switch boxes drawn (%d laid out), want %d", set, sw, len(p.g.sw), wantSw)
		}
		if nodes != r.p.Nodes || dots != r.p.Procs {
			t.Errorf("%v: %d node boxes and %d process dots, want %d and %d", set, nodes, dots, r.p.Nodes, r.p.Procs)
		}
		for q, n := range r.cl.procNode {
			if b := p.g.node[n]; !(p.g.procX[q] > b.X0 && p.g.procX[q] < b.X1) {
				t.Errorf("%v: P%d at x=%v outside its node %d %v", set, q, p.g.procX[q], n, b)
			}
		}
		for _, sw := range r.cl.leaves {
			for _, n := range r.cl.nodesOf[sw] {
				if b := p.g.node[n]; p.g.swMid[sw] < p.g.groupX[0][0] || b.Y0 <= p.g.sw[sw].Y1 {
					t.Errorf("%v: node %d not under switch %d", set, n, sw)
				}
			}
		}
		if p.labels == 0 {
			t.Errorf("%v: no switch labelled", set)
		}
	}
}

// TestStaticArcsPerPolicy: at the start every static connection is one
// arc in the static style: the topology policy's own-switch-plus-one,
// P(P−1)/2 for "all", P·degree/2 for "random".
func TestStaticArcsPerPolicy(t *testing.T) {
	P := DefaultProcs
	for policy, want := range map[string]int{"all": P * (P - 1) / 2, "random": P * randomDegree(P) / 2, "topology": -1} {
		r := build(t, map[string]string{"policy": policy})
		if want < 0 {
			want = 0
			for _, e := range r.res.Events {
				if e.Kind == eoverlay.Open {
					want++
				}
			}
			// Own switch: 5 processes, 10 pairs, 4 switches; across:
			// the k-th of one switch and the k-th of another share one.
			if want != 4*10+6*5 {
				t.Errorf("topology: %d static connections, want 70", want)
			}
		}
		l, p := r.paint(0, v960)
		st := p.staticStyle()
		arcs := polylines(l, func(pl render.Polyline) bool { return pl.Stroke == st.Stroke && pl.Dash == nil })
		if len(arcs) != want || len(p.links) != want {
			t.Errorf("%s: %d static arcs drawn (%d links), want %d", policy, len(arcs), len(p.links), want)
		}
		for _, i := range p.links {
			ln := r.h.links[i]
			if ln.shortcut {
				t.Errorf("%s: a shortcut P%d–P%d at t = 0", policy, ln.a, ln.b)
			}
		}
	}
}

// TestShortcutOnlyAfterOpen: a shortcut's dashed arc appears at its open
// event and not a moment before; it is drawn opening until its ready
// event, then in full colour.
func TestShortcutOnlyAfterOpen(t *testing.T) {
	r := build(t, nil)
	seen := 0
	for i, ln := range r.h.links {
		if !ln.shortcut || ln.open > r.End() || seen > 30 {
			continue
		}
		seen++
		for _, c := range []struct {
			tt    float64
			shown bool
		}{{math.Nextafter(ln.open, 0), false}, {ln.open, true}} {
			l, p := r.paint(c.tt, v960)
			drawn := false
			for _, j := range p.links {
				drawn = drawn || j == i
			}
			dashed := polylines(l, func(pl render.Polyline) bool {
				return pl.Dash != nil && endsAt(pl, p, ln.a, ln.b) && (pl.Stroke == p.shortcutStyle(true).Stroke || pl.Stroke == p.shortcutStyle(false).Stroke)
			})
			if drawn != c.shown || (len(dashed) > 0) != c.shown {
				t.Errorf("shortcut P%d–P%d opened at %v: at %v drawn %v (%d dashed arcs), want %v", ln.a, ln.b, ln.open, c.tt, drawn, len(dashed), c.shown)
			}
		}
		if ln.ready <= r.End() && ln.ready < ln.close {
			l, p := r.paint(ln.ready, v960)
			if len(polylines(l, func(pl render.Polyline) bool { return endsAt(pl, p, ln.a, ln.b) && pl.Stroke == p.Th.Adopted })) == 0 {
				t.Errorf("shortcut P%d–P%d: not drawn ready at its ready event %v", ln.a, ln.b, ln.ready)
			}
		}
	}
	if seen == 0 {
		t.Fatal("the defaults open no shortcut")
	}
}

// TestEvictionVisible: at an eviction the closed shortcut is drawn in the
// warning colour, crossed, and named (the latest one) with the process
// whose cache closed it; once the fade is over it is gone.
func TestEvictionVisible(t *testing.T) {
	r := build(t, nil)
	fade := evictFade * r.End()
	n := 0
	for i, ln := range r.h.links {
		if ln.by < 0 || n > 20 {
			continue
		}
		n++
		l, p := r.paint(ln.close, v960)
		in := false
		for _, j := range p.fading {
			in = in || j == i
		}
		for _, j := range p.links {
			if j == i {
				t.Errorf("P%d–P%d evicted at %v still drawn open", ln.a, ln.b, ln.close)
			}
		}
		arcs := polylines(l, func(pl render.Polyline) bool {
			return endsAt(pl, p, ln.a, ln.b) && pl.Stroke == p.evictedStyle(0.15).Stroke
		})
		if !in || len(arcs) == 0 {
			t.Errorf("P%d–P%d evicted at %v: fading %v, %d warning arcs", ln.a, ln.b, ln.close, in, len(arcs))
		}
		if p.marked < 0 || r.h.links[p.marked].close != ln.close {
			t.Errorf("at the eviction %v the latest eviction is not marked (%d)", ln.close, p.marked)
		} else {
			m := r.h.links[p.marked]
			want := fmt.Sprintf("P%d–P%d", m.a, m.b)
			found := false
			for _, it := range l.Items {
				if tx, ok := it.(render.Text); ok && strings.Contains(tx.S, want) && tx.Color == p.Th.Stall {
					found = true
				}
			}
			if !found {
				t.Errorf("eviction of %s at %v not named", want, ln.close)
			}
		}
		if ln.close+fade*1.01 < r.End() {
			_, p := r.paint(ln.close+fade*1.01, v960)
			for _, j := range p.fading {
				if j == i {
					t.Errorf("P%d–P%d still fading after the fade", ln.a, ln.b)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("the defaults evict nothing")
	}
}

// TestNothingPastThePlayhead: the messages drawn are exactly the hops on
// the wire at the playhead, each a dot on its own arc; every connection
// drawn was open by then; the counters count events up to it.
func TestNothingPastThePlayhead(t *testing.T) {
	for _, set := range []map[string]string{nil, {"policy": "random"}} {
		r := build(t, set)
		for _, frac := range []float64{0, 0.1, 0.25, 0.5, 0.9, 1} {
			tt := r.End() * frac
			l, p := r.paint(tt, v960)
			want := 0
			for _, hp := range r.h.hops {
				if hp.t0 <= tt && tt < hp.t1 {
					want++
				}
			}
			dots := 0
			for _, it := range l.Items {
				if c, ok := it.(render.Circle); ok && c.Stroke == p.Th.Panel && (c.Fill == p.Th.Send || c.Fill == p.Th.Redundant) {
					dots++
				}
			}
			if len(p.flight) != want || dots != want {
				t.Errorf("%v t=%.0f%%: %d hops drawn, %d dots, %d on the wire", set, frac*100, len(p.flight), dots, want)
			}
			for _, hp := range p.flight {
				if hp.t0 > tt || hp.t1 <= tt {
					t.Errorf("%v t=%v: hop %+v drawn", set, tt, hp)
				}
			}
			for _, i := range p.links {
				if ln := r.h.links[i]; ln.open > tt || ln.close <= tt {
					t.Errorf("%v t=%v: connection %+v drawn", set, tt, ln)
				}
			}
			opened := 0
			for _, e := range r.res.Events {
				if e.Kind == eoverlay.ShortcutOpen && e.Time <= tt {
					opened++
				}
			}
			txt := fmt.Sprintf("shortcuts opened: %d", opened)
			found := false
			for _, it := range l.Items {
				if tx, ok := it.(render.Text); ok && tx.S == txt {
					found = true
				}
			}
			if !found {
				t.Errorf("%v t=%v: no %q in the panel", set, tt, txt)
			}
		}
	}
}

// TestFramesFitTheCanvas: at every size from a 640x360 embed to a 1080p
// slide, in both themes, all text lies on the canvas, no two labels
// overlap, and text is at least 13 px at 960x540.
func TestFramesFitTheCanvas(t *testing.T) {
	sizes := [][2]float64{{640, 360}, {960, 540}, {1280, 720}, {1920, 1080}, {800, 600}}
	for _, set := range []map[string]string{
		nil, {"policy": "all"}, {"policy": "random", "cache": "16"},
		{"procs": "48", "nodes": "24", "switches": "8", "cache": "1"},
		{"procs": "4", "nodes": "2", "switches": "1", "cache": "0"},
	} {
		r := build(t, set)
		fracs := []float64{0, 0.3, 0.6, 1}
		if len(r.h.evicts) > 0 {
			fracs = append(fracs, r.h.evicts[0]/r.End(), r.h.evicts[len(r.h.evicts)-1]/r.End())
		}
		for _, sz := range sizes {
			for _, th := range []render.Theme{render.Light(), render.Dark()} {
				for _, frac := range fracs {
					l, _ := r.paint(r.End()*frac, scene.View{W: sz[0], H: sz[1], Theme: th})
					what := fmt.Sprintf("%v t=%.0f%%", set, frac*100)
					scenetest.TextOnCanvas(t, l, 13, what)
					scenetest.NoOverlappingText(t, l, what)
				}
			}
		}
	}
}

// A relayed message's trace grows by adding points at its head: the
// points it had a moment ago are still there (all but the moving head).
func TestTraceGrowsByAddingPoints(t *testing.T) {
	sc := New()
	st := scene.Default(sc)
	run, err := sc.Build(st.Values, st.Seed)
	if err != nil {
		t.Fatal(err)
	}
	theme, _ := render.ThemeByName("light")
	view := scene.View{W: 960, H: 540, Theme: theme}
	traces := func(at float64) []render.Polyline {
		var out []render.Polyline
		for _, it := range run.Frame(at, view).Items {
			if pl, ok := it.(render.Polyline); ok && pl.Style.Stroke == theme.Redundant && len(pl.Style.Dash) == 0 {
				out = append(out, pl)
			}
		}
		return out
	}
	checked := 0
	for i := 1; i < 400 && checked < 20; i++ {
		at := run.End() * float64(i) / 400
		before, after := traces(at), traces(at+run.End()/4000)
		for _, a := range before {
			for _, b := range after {
				if b.Points[0] != a.Points[0] || len(b.Points) < len(a.Points) || b.Points[len(b.Points)-1] == a.Points[len(a.Points)-1] {
					continue
				}
				if b.Points[1] != a.Points[1] {
					continue // another trace from the same process
				}
				checked++
				for k := range len(a.Points) - 1 {
					if a.Points[k] != b.Points[k] {
						t.Fatalf("t = %v: the trace's point %d moved from %v to %v", at, k, a.Points[k], b.Points[k])
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no growing trace found")
	}
}

// TestBaseLayer: the frame's base layer (render.List.Base) is the key, the
// switch tree and the static connections, the same from frame to frame
// while the playhead moves (the page keeps it painted and repaints only
// what lies above it), and it changes only where a static connection
// opens or closes (a join or a leave). Every shortcut, eviction and
// message lies above it.
func TestBaseLayer(t *testing.T) {
	for _, c := range []struct {
		set map[string]string
	}{{nil}, {map[string]string{"join": "1", "leave": "3"}}, {map[string]string{"policy": "all", "procs": "48", "nodes": "24", "switches": "8"}}} {
		r := build(t, c.set)
		const frames = 400
		changes, want := 0, 0
		var prev []render.Item
		for i := 0; i <= frames; i++ {
			at := r.End() * float64(i) / frames
			l, p := r.paint(at, v960)
			if l.Base <= 0 || l.Base > len(l.Items) {
				t.Fatalf("%v at t = %v: base %d of %d items", c.set, at, l.Base, len(l.Items))
			}
			base := l.Items[:l.Base]
			static := 0
			for _, it := range base {
				if pl, ok := it.(render.Polyline); ok && reflect.DeepEqual(pl.Style, p.staticStyle()) {
					static++
				}
			}
			open := 0
			for _, ln := range r.h.links {
				if !ln.shortcut && !ln.member && ln.open <= p.Now && p.Now < ln.close {
					open++
				}
			}
			if static != open {
				t.Fatalf("%v at t = %v: %d static arcs in the base, %d static connections open", c.set, at, static, open)
			}
			for _, it := range l.Items[l.Base:] {
				if pl, ok := it.(render.Polyline); ok && reflect.DeepEqual(pl.Style, p.staticStyle()) {
					t.Fatalf("%v at t = %v: a static arc above the base layer", c.set, at)
				}
			}
			if i > 0 {
				if !slices.EqualFunc(prev, base, func(a, b render.Item) bool { return reflect.DeepEqual(a, b) }) {
					changes++
				}
				prevT := r.End() * float64(i-1) / frames
				for _, ln := range r.h.links {
					if !ln.shortcut && !ln.member && (prevT < ln.open && ln.open <= p.Now || prevT < ln.close && ln.close <= p.Now) {
						want++
						break
					}
				}
			}
			prev = base
		}
		if changes > want {
			t.Errorf("%v: the base layer changed in %d of %d frames; static connections opened or closed in %d", c.set, changes, frames, want)
		}
	}
}
