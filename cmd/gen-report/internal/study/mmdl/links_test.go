package mmdl

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/study/studytest"
	engine "commlab/engine/mmdl"
	scmmdl "commlab/scene/mmdl"
)

// sceneCase is what a link's scene would run: the case, its parameters,
// the round count and the schedule, and the instance it builds.
type sceneCase struct {
	c          mmdlCase
	calibrated bool
	R          int
	sched      string
	in         engine.Instance
}

// openLink reads a link as the site does: scene.html with a query that
// the scene registry itself parses. It fails the test on another page, a
// parse error, another scene than mmdl, or a build the page's budget would
// refuse.
func openLink(t *testing.T, where string, l *report.Link) sceneCase {
	t.Helper()
	st := studytest.OpenLink(t, where, l, sceneName)
	in, err := scmmdl.Instance(st.Values)
	if err != nil {
		t.Fatalf("%s: link %q: %v", where, l.Path, err)
	}
	return sceneCase{c: mmdlCase{st.Values.Int(scmmdl.KeyProcSet), st.Values[scmmdl.KeyLoad]}, calibrated: st.Values.Bool(scmmdl.KeyCalibrated),
		R: st.Values.Int(scmmdl.KeyRounds), sched: st.Values[scmmdl.KeySchedule], in: in}
}

// TestMmdlLinksOpenTheirPoint: every row and point of the page's tables
// and line charts opens the mmdl scene (parsed by the scene registry,
// within the page's budget) on its case, parameters, round count and
// schedule, with the paper's link; a round count beyond the scene's is
// capped and its title says so, and a row before calibration says what
// the scene does not show.
func TestMmdlLinksOpenTheirPoint(t *testing.T) {
	s, r := runMmdlQuick(t)
	pg := s.page(r)
	check := func(where string, l *report.Link, want sceneCase) {
		t.Helper()
		got := openLink(t, where, l)
		wantR := min(want.R, scmmdl.MaxRounds)
		if got.c != want.c || got.calibrated != want.calibrated || got.R != wantR || got.sched != want.sched {
			t.Errorf("%s: link %q opens %v calibrated %t R %d %s, want %v calibrated %t R %d %s", where, l.Path,
				got.c, got.calibrated, got.R, got.sched, want.c, want.calibrated, wantR, want.sched)
		}
		if p := presetOf(want.c, want.calibrated); got.in.Latency != p.Latency || got.in.Throughput != p.Throughput || got.in.Compute != p.Compute || got.in.Comm != p.Comm {
			t.Errorf("%s: link %q runs %+v, want the paper's %+v", where, l.Path, got.in, p)
		}
		if want.R > scmmdl.MaxRounds && !strings.Contains(l.Title, fmt.Sprintf("R = %d capped to %d", want.R, scmmdl.MaxRounds)) {
			t.Errorf("%s: R = %d opens the scene at %d but the title does not say so: %q", where, want.R, scmmdl.MaxRounds, l.Title)
		}
		if !want.calibrated && !strings.Contains(l.Title, "does not run the guessed plan on the calibrated machine") {
			t.Errorf("%s: a row before calibration does not say what the scene does not show: %q", where, l.Title)
		}
	}
	links, capped := 0, 0
	for _, sec := range pg.Sections {
		for _, it := range sec.Items {
			switch v := it.(type) {
			case *report.Table:
				if strings.HasPrefix(v.ID, "live-") {
					continue // the live section is no configuration of the model's
				}
				if len(v.RowLinks) != len(v.Rows) {
					t.Errorf("%s: %d row links for %d rows", v.ID, len(v.RowLinks), len(v.Rows))
					continue
				}
				for i, l := range v.RowLinks {
					links++
					where := fmt.Sprintf("%s row %d", v.ID, i)
					switch v.ID {
					case "mmdl-table4":
						check(where, l, sceneCase{c: mmdlCases[i/2], calibrated: i%2 == 1, R: mmdlRounds, sched: "paper"})
					case "mmdl-table5":
						R, _ := strconv.Atoi(v.Rows[i][0])
						check(where, l, sceneCase{c: mmdlFigCase, calibrated: true, R: R, sched: "paper"})
					default:
						t.Errorf("%s: a link on an unexpected table", where)
					}
				}
			case *report.LineChart:
				for _, sr := range v.Series {
					if len(sr.Links) != len(v.X.Labels) {
						t.Errorf("%s, %s: %d links for %d points", v.ID, sr.Name, len(sr.Links), len(v.X.Labels))
						continue
					}
					sched := "paper"
					if sr.Name == "ours: overlapped" {
						sched = "overlap"
					}
					for i, l := range sr.Links {
						links++
						R := int(v.X.Values[i])
						if R > scmmdl.MaxRounds {
							capped++
						}
						check(fmt.Sprintf("%s, %s, R = %d", v.ID, sr.Name, R), l, sceneCase{c: mmdlFigCase, calibrated: true, R: R, sched: sched})
					}
				}
			}
		}
	}
	if links < 200 || capped == 0 {
		t.Errorf("%d links on the quick page, %d of them capped", links, capped)
	}
}
