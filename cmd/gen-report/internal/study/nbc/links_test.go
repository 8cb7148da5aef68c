package nbc

import (
	"fmt"
	"strings"
	"testing"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/study/studytest"
	engine "commlab/engine/nbc"
	scnbc "commlab/scene/nbc"
)

// openLink reads a link as the site does: scene.html with a query that
// the scene registry parses. It fails the test on a path that is not the
// scene page, on any parse error or notice-less fallback, on another scene
// than tcc, and on a build the page's budget would refuse; it returns the
// engine parameters the scene's TCC run would use and its view.
func openLink(t *testing.T, where string, l *report.Link) (engine.Params, string) {
	t.Helper()
	st := studytest.OpenLink(t, where, l, sceneName)
	tcc, _, err := scnbc.Params(st.Values)
	if err != nil {
		t.Fatalf("%s: link %q: %v", where, l.Path, err)
	}
	return tcc, st.Values[scnbc.KeyView]
}

// sameWorkload says how the scene's TCC parameters differ from p on the
// scene's fields ("" when they name the same configuration).
func sameWorkload(got, p engine.Params) string {
	var d []string
	for _, f := range []struct {
		name      string
		got, want any
	}{
		{"nodes", got.Nodes, p.Nodes}, {"msg", got.Msg, p.Msg}, {"matrix", got.Matrix, p.Matrix},
		{"collectives", got.Collectives, p.Collectives}, {"queue", got.QueueCap, p.QueueCap},
		{"cores", got.Cores, p.Cores}, {"oversubscribe", got.Oversubscribe, p.Oversubscribe}, {"test_every", got.TestEvery, p.TestEvery},
	} {
		if f.got != f.want {
			d = append(d, fmt.Sprintf("%s %v, want %v", f.name, f.got, f.want))
		}
	}
	return strings.Join(d, ", ")
}

// TestNbcLinksOpenTheirPoint: every point, cell and row of the page that
// has a link opens the tcc scene (parsed by the scene registry itself,
// within the page's budget) on the configuration it shows, in the view of
// its method; every link on the page parses; and a point the scene cannot
// run as it is (NBCT, calibrated values) says so in its title.
func TestNbcLinksOpenTheirPoint(t *testing.T) {
	s := newNbcStudy(false)
	s.setCalibration(handCalibration())
	// The calibrated values differ from the engine's defaults, as a real
	// calibration's do, so that the titles have something to say.
	for _, c := range s.calib {
		for i, u := range c.Unknowns {
			c.Values[i] = (u.Lo + u.Hi) / 2
		}
	}
	s.jobs, s.index = nil, map[engine.Params]int{}
	s.plan()
	s.setCalibration(s.calib)
	r := syntheticNbc(s, paperLike)
	pg, err := s.page(r)
	if err != nil {
		t.Fatal(err)
	}
	check := func(where string, l *report.Link, p engine.Params, view string) {
		t.Helper()
		got, gotView := openLink(t, where, l)
		if d := sameWorkload(got, p); d != "" {
			t.Errorf("%s: link %q opens %s", where, l.Path, d)
		}
		if view == "" {
			view = viewOf(p.Method)
		}
		if gotView != view {
			t.Errorf("%s: link opens view %q, want %q", where, gotView, view)
		}
		if p.Method == engine.NBCT && !strings.Contains(l.Title, "does not run LibNBC's progress thread, NBCT-ovlp") {
			t.Errorf("%s: an NBCT point's title does not say the scene lacks NBCT: %q", where, l.Title)
		}
		if p.MemoryShare && !strings.Contains(l.Title, "memory_share on") {
			t.Errorf("%s: a calibrated point's title does not say the scene runs without its values: %q", where, l.Title)
		}
	}
	seen := map[string]bool{}
	links := 0
	for _, sec := range pg.Sections {
		for _, it := range sec.Items {
			switch v := it.(type) {
			case *report.LineChart:
				seen[v.ID] = true
				for si, ser := range v.Series {
					if len(ser.Links) != len(v.X.Labels) {
						t.Errorf("%s, %s: %d links for %d points", v.ID, ser.Name, len(ser.Links), len(v.X.Labels))
						continue
					}
					for x, l := range ser.Links {
						links++
						where := fmt.Sprintf("%s, %s, point %d", v.ID, ser.Name, x)
						openLink(t, where, l)
						if want, ok := s.lineWant(v.ID, si, x); ok {
							check(where, l, want, "")
						} else {
							t.Errorf("%s: the test knows no configuration for it", where)
						}
					}
				}
			case *report.HeatMap:
				seen[v.ID] = true
				for y, row := range v.Links {
					for x, l := range row {
						links++
						where := fmt.Sprintf("%s, cell (%d, %d)", v.ID, x, y)
						if want, ok := s.cellWant(v.ID, x, y); ok {
							check(where, l, want, "")
						} else {
							t.Errorf("%s: the test knows no configuration for it", where)
						}
					}
				}
				if v.Links == nil {
					t.Errorf("%s: a heat map without links", v.ID)
				}
			case *report.Table:
				seen[v.ID] = true
				for i, l := range v.RowLinks {
					if l == nil {
						continue
					}
					links++
					where := fmt.Sprintf("%s, row %d", v.ID, i)
					want, view, ok := s.rowWant(r, v.ID, i)
					if !ok {
						t.Errorf("%s: the test knows no configuration for it", where)
						continue
					}
					check(where, l, want, view)
				}
			}
		}
	}
	for _, id := range []string{"nbc-inflight-2", "nbc-msgsize-32", "nbc-testfreq", "nbc-slice", "nbc-switch", "nbc-sens-32-tcc", "nbc-speedups", "nbc-predict", "nbc-recommend", "nbc-missing"} {
		if !seen[id] {
			t.Errorf("the page has no %s", id)
		}
	}
	if links < 100 {
		t.Errorf("%d links on the page, want every point's", links)
	}
}

// lineWant is the configuration of point x of series si of line chart id.
func (s *nbcStudy) lineWant(id string, si, x int) (engine.Params, bool) {
	for k, set := range nbcSetups {
		switch id {
		case fmt.Sprintf("nbc-inflight-%d", set.Nodes):
			return s.inflightPoint(k, overlapMethods[si], s.inflight[x]), true
		case fmt.Sprintf("nbc-msgsize-%d", set.Nodes):
			return s.sizePoint(k, overlapMethods[si], s.sizes[x]), true
		}
	}
	switch id {
	case "nbc-testfreq": // per setup: NBCF-test, then NBCF-notest
		if si%2 == 1 {
			return s.paperCase(si/2, engine.NBCFNoTest), true
		}
		return s.testPoint(si/2, s.testEvery[x]), true
	case "nbc-slice": // per setup, per threaded method
		k, m := si/len(s.switchMeth), s.switchMeth[si%len(s.switchMeth)]
		return s.threadPoint(k, m, true, nbcSetups[k].params(m).ContextSwitch, s.slices[x]), true
	}
	return engine.Params{}, false
}

// cellWant is the configuration of cell (x, y) of heat map id.
func (s *nbcStudy) cellWant(id string, x, y int) (engine.Params, bool) {
	if id == "nbc-switch" {
		return s.threadPoint(nbcMapSetup, nbcMapMethod, true, s.switches[y], s.slices[x]), true
	}
	for k, set := range nbcSetups {
		for _, m := range nbcCalibMethods {
			if id == fmt.Sprintf("nbc-sens-%d-%s", set.Nodes, m) {
				return s.sensPoint(k, m, s.sensMsg[x], s.sensMatrix[y]), true
			}
		}
	}
	return engine.Params{}, false
}

// rowWant is the configuration of row i of table id, and its view if not
// its method's.
func (s *nbcStudy) rowWant(r *nbcResults, id string, i int) (engine.Params, string, bool) {
	switch id {
	case "nbc-speedups":
		return s.paperCase(i/len(nbcCalibMethods), nbcCalibMethods[i%len(nbcCalibMethods)]), "", true
	case "nbc-predict":
		return s.calibPoint(nbcVarDefault, i/len(nbcCalibMethods), nbcCalibMethods[i%len(nbcCalibMethods)]), "", true
	case "nbc-recommend":
		return s.choose(r, s.regimes[i]).Best.P, "", true
	case "nbc-missing": // the paper's row first, without a link
		return s.probePoint(nbcProbes[i-1], engine.TCC), viewBoth, true
	}
	return engine.Params{}, "", false
}

// TestNbcLinkCaps: a configuration beyond what the scene draws is capped
// to the scene's range, and the title says so; the capped link still
// parses and builds within the budget.
func TestNbcLinkCaps(t *testing.T) {
	p := engine.Paper32Nodes(engine.TCC)
	p.Nodes = 128
	l := sceneLink(p, "", "TCC at 128 nodes")
	got, _ := openLink(t, "128 nodes", l)
	if got.Nodes != scnbc.MaxNodes {
		t.Errorf("nodes %d, want %d (capped)", got.Nodes, scnbc.MaxNodes)
	}
	if !strings.Contains(l.Title, fmt.Sprintf("nodes 128 capped to %d", scnbc.MaxNodes)) {
		t.Errorf("title %q does not say nodes were capped", l.Title)
	}
	p.Nodes = 32
	if l := sceneLink(p, "", "TCC"); strings.Contains(l.Title, "capped") || strings.Contains(l.Title, "engine's defaults") {
		t.Errorf("the paper's own 32-node TCC needs no cap and carries every value: %q", l.Title)
	}
}
