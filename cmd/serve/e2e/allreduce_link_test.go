//go:build !(js && wasm)

package e2e

import (
	"math"
	mbits "math/bits"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	engine "commlab/engine/allreduce"
	"commlab/scene/butterfly"
)

// allreduceCell is what the test reads of one cell of the allreduce
// page's Fig. 10 heat map (set B's effect).
type allreduceCell struct {
	X     int    `json:"x"`
	Y     int    `json:"y"`
	Href  string `json:"href"`
	Title string `json:"title"`
	At    [2]int `json:"at"` // the cell's centre, in the page's CSS pixels
}

// TestAllreduceCellOpensItsScene opens the real allreduce report page
// (the quick one unless $COMMLAB_REPORTS names another), clicks a cell of
// Fig. 10's heat map (set B's effect) at the grid's largest P and the cut's
// x = 10^-2, and checks that the butterfly scene opens with that cell's
// parameters, computed here from engine/allreduce's set B, not read from
// the link: P (capped to butterfly.MaxTraceP, as the link's title says),
// N, α, period, duration, T and the page's reading os_hits=compute.
func TestAllreduceCellOpensItsScene(t *testing.T) {
	chromium(t)
	dir, mounted := reportsDir(t)
	var mounts []mount
	if mounted {
		mounts = append(mounts, mount{"/reports/", dir})
	}
	s := newBrowserSession(t, serveScenes(t, mounts...), 1280, 900)
	s.open("reports/allreduce.html")
	s.waitFor("the allreduce page's charts", chartsSettled, 60*time.Second)

	size := eval[[2]int](s, `(() => { const o = echarts.getInstanceByDom(document.getElementById('chart-fig10')).getOption();
		return [o.xAxis[0].data.length, o.yAxis[0].data.length]; })()`)
	// The cell's parameters, from the engine's set B on the grid the page
	// has (quick or full: the one whose axes have the page's lengths).
	var set engine.Set
	for _, full := range []bool{false, true} {
		for _, st := range engine.PaperSets(full) {
			if st.Name == "B" && len(st.XExp) == size[0] && len(st.K) == size[1] {
				set = st
			}
		}
	}
	if set.Name == "" {
		t.Fatalf("no set B of %d x %d cells (the page's Fig. 10)", size[0], size[1])
	}
	xi := slices.Index(set.XExp, -2)
	c := eval[allreduceCell](s, `((x, y) => {
		const el = document.getElementById('chart-fig10'), chart = echarts.getInstanceByDom(el);
		const spec = JSON.parse(document.getElementById(el.getAttribute('data-option')).textContent);
		const out = {x: x, y: y, href: '', title: '', at: [0, 0]};
		if (!spec.links || !spec.links[y] || !spec.links[y][x]) return out;
		out.href = spec.links[y][x].href; out.title = spec.links[y][x].title;
		el.scrollIntoView({block: 'center'});
		const p = chart.convertToPixel({seriesIndex: 0}, [x, y]), r = el.getBoundingClientRect();
		out.at = [Math.round(r.left + p[0]), Math.round(r.top + p[1])];
		return out;
	})(`+strconv.Itoa(xi)+`, `+strconv.Itoa(len(set.K)-1)+`)`)
	if c.Href == "" {
		t.Fatalf("Fig. 10's cell at x = 10^-2 and the top P has no link (%+v)", c)
	}
	k := set.K[c.Y]
	p, ok := set.Point(c.X, k)
	if !ok {
		t.Fatalf("set B's cell (x %d, P = 2^%d) is infeasible, yet the page links it", c.X, k)
	}
	shown := min(p.P, butterfly.MaxTraceP)
	want := map[string]float64{
		"P": float64(shown), "N": p.N, "alpha": p.Alpha, "period": p.Period, "duration": p.Duration,
		"T": float64(min(p.T, mbits.Len(uint(shown))-1)),
	}

	if err := chromedp.Do(s.ctx, chromedp.MouseClickXY(float64(c.At[0]), float64(c.At[1]))); err != nil {
		t.Fatal(err)
	}
	s.waitNavigated("the click to open the scene", `location.pathname === '/scene.html'`, 20*time.Second)
	s.waitFor("the scene to draw", ready, bootTimeout)
	st := s.state()
	s.snap("allreduce-link-scene.png")
	if st.Scene != "butterfly" {
		t.Fatalf("the click opened scene %q (%s), want the butterfly", st.Scene, eval[string](s, `location.href`))
	}
	for key, v := range want {
		got, err := strconv.ParseFloat(st.Params[key], 64)
		if err != nil || math.Abs(got-v) > 1e-9*math.Abs(v) {
			t.Errorf("state().params[%q] = %q, want %v (set B, x = 10^%g, P = 2^%d)", key, st.Params[key], v, set.XExp[c.X], k)
		}
	}
	if st.Params["os_hits"] != "compute" {
		t.Errorf("state().params[os_hits] = %q, want compute, the page's reading", st.Params["os_hits"])
	}
	if shown < p.P && !strings.Contains(c.Title, "capped") {
		t.Errorf("the link's title %q does not say P is capped (the cell's P = %d, the scene's %d)", c.Title, p.P, shown)
	}
}
