package schedule

import (
	"fmt"
	"strings"
	"testing"

	"commlab/engine/goal"
	"commlab/render"
	"commlab/scene"
	"commlab/scene/scenetest"
)

var layoutCases = []struct {
	name string
	set  map[string]string
}{
	{"defaults", nil},
	{"one side", map[string]string{"compare": "none"}},
	{"two files with noise", map[string]string{"file": "dissemination_16", "compare": "file", "file2": "linear_alltoall_8", "noise": "os+net"}},
	{"strips", map[string]string{"file": bigKey, "compare": "params"}},
}

// TestTextFits: at every canvas size and playhead, text stays on the
// canvas, at least 9 px at 960x540, and no two labels overlap.
func TestTextFits(t *testing.T) {
	for _, c := range layoutCases {
		r := scenetest.Build(t, New(), c.set, 1)
		for _, wh := range [][2]float64{{960, 540}, {1280, 720}, {1920, 1080}, {640, 360}, {480, 270}, {540, 960}} {
			for _, f := range []float64{0, 0.3, 1} {
				for _, th := range []render.Theme{render.Light(), render.Dark()} {
					l := r.Frame(r.End()*f, scene.View{W: wh[0], H: wh[1], Theme: th})
					what := fmt.Sprintf("%s t=%.1f·end %s", c.name, f, th.Name)
					scenetest.TextOnCanvas(t, l, 9, what)
					scenetest.NoOverlappingText(t, l, what)
				}
			}
		}
	}
}

// TestPlayheadReveals: nothing after the playhead is drawn; the frame at
// the end holds every CPU bar, every message and the whole critical path.
func TestPlayheadReveals(t *testing.T) {
	r := scenetest.Build(t, New(), map[string]string{"compare": "none"}, 1).(*run)
	v := scene.View{W: 960, H: 540, Theme: render.Light()}
	count := func(l render.List) (rects, arrows, polys int) {
		for _, it := range l.Items {
			switch it.(type) {
			case render.Rect:
				rects++
			case render.Arrow:
				arrows++
			case render.Polyline:
				polys++
			}
		}
		return
	}
	r0, a0, _ := count(r.Frame(0, v))
	rEnd, aEnd, pEnd := count(r.Frame(r.End(), v))
	sd := r.sides[0]
	bars, gaps := 0, 0
	for k := range sd.ranks {
		bars += len(sd.bars[k])
		gaps += len(sd.gaps[k])
	}
	if a0 != 0 || aEnd != len(sd.res.Timeline.Messages) {
		t.Errorf("arrows at 0: %d, at the end: %d; want 0 and one per message (%d)", a0, aEnd, len(sd.res.Timeline.Messages))
	}
	if rEnd-r0 != bars+gaps {
		t.Errorf("the end adds %d rectangles, want %d bars and %d gaps", rEnd-r0, bars, gaps)
	}
	if pEnd != 1 {
		t.Errorf("%d polylines at the end, want the critical path", pEnd)
	}
}

// TestCriticalPathEndsAtEnd: the critical path the scene draws runs from
// time 0 to the maximum finishing time, ending in CPU work (an operation
// or a receive overhead) on the rank that sets it.
func TestCriticalPathEndsAtEnd(t *testing.T) {
	for _, c := range layoutCases {
		r := scenetest.Build(t, New(), c.set, 1).(*run)
		for _, sd := range r.sides {
			cr := sd.crit
			if len(cr) == 0 {
				t.Fatalf("%s side %s: no critical path", c.name, sd.name)
			}
			last := cr[len(cr)-1]
			if cr[0].Start != 0 || last.End != sd.res.End || last.Rank != sd.res.EndRank || last.Kind != goal.CritCPU && last.Kind != goal.CritReceive {
				t.Errorf("%s side %s: path from %d to %d on rank %d (%v), want 0 to %d on rank %d", c.name, sd.name,
					cr[0].Start, last.End, last.Rank, last.Kind, sd.res.End, sd.res.EndRank)
			}
		}
	}
}

// TestHeatStrip: above MaxLanes ranks a side is one grid whose busy
// fractions lie in [0, 1] and whose columns after the playhead are blank.
func TestHeatStrip(t *testing.T) {
	r := scenetest.Build(t, New(), map[string]string{"file": bigKey, "compare": "none"}, 1).(*run)
	sd := r.sides[0]
	if sd.heat == nil || sd.bars != nil {
		t.Fatalf("%d ranks: heat %v, lanes %d; want a heat-strip", sd.ranks, sd.heat != nil, len(sd.bars))
	}
	sum := 0.0
	for _, b := range sd.heat.busy {
		if b < 0 || b > 1+1e-9 {
			t.Fatalf("busy fraction %v", b)
		}
		sum += b
	}
	if sum == 0 {
		t.Fatal("the heat-strip is empty")
	}
	l := r.Frame(r.End()/2, scene.View{W: 960, H: 540, Theme: render.Light()})
	grids := 0
	for _, it := range l.Items {
		g, ok := it.(render.Grid)
		if !ok {
			continue
		}
		grids++
		for row := range g.Rows {
			if g.Cells[row*g.Cols+g.Cols-1].A != 0 {
				t.Fatalf("row %d: the last slice is painted at half time", row)
			}
		}
	}
	if grids != 1 {
		t.Errorf("%d grids, want 1", grids)
	}
}

// TestLongScheduleIsAStrip: a few ranks with more than MaxLaneOps
// operations are a heat-strip too, not tens of thousands of bars.
func TestLongScheduleIsAStrip(t *testing.T) {
	var b strings.Builder
	b.WriteString("num_ranks 2\nrank 0 {\n")
	for i := range MaxLaneOps/2 + 1 {
		fmt.Fprintf(&b, "s%d: send 8b to 1 tag 0\n", i)
		if i > 0 {
			fmt.Fprintf(&b, "s%d requires s%d\n", i, i-1)
		}
	}
	b.WriteString("}\nrank 1 {\n")
	for i := range MaxLaneOps/2 + 1 {
		fmt.Fprintf(&b, "r%d: recv 8b from 0 tag 0\n", i)
	}
	b.WriteString("}\n")
	key, err := AddFile(KindURL, "long.goal", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	r := scenetest.Build(t, New(), map[string]string{"file": key, "compare": "none"}, 1).(*run)
	if r.sides[0].heat == nil {
		t.Fatalf("%d operations on 2 ranks drawn as lanes", r.sides[0].s.NumOps())
	}
	if n := len(r.Frame(r.End(), scene.View{W: 960, H: 540, Theme: render.Light()}).Items); n > 500 {
		t.Errorf("%d items in a frame, want a grid and a few labels", n)
	}
}
