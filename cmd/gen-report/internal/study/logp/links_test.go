package logp

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/study/studytest"
	engine "commlab/engine/logp"
	sclogp "commlab/scene/logp"
)

// openLink reads a link as the site does: scene.html with a query that
// the scene registry itself parses. It fails the test on another page, a
// parse error, another scene than logp, or a build the page's budget
// would refuse; it returns the machine and planning latency the scene
// would run.
func openLink(t *testing.T, where string, l *report.Link) (engine.Params, float64) {
	t.Helper()
	st := studytest.OpenLink(t, where, l, sceneName)
	p, ls, err := sclogp.Params(st.Values)
	if err != nil {
		t.Fatalf("%s: link %q: %v", where, l.Path, err)
	}
	return p, ls
}

// sameMachine says how the scene's machine differs from want ("" when it
// is the same), P and n as the scene can draw them.
func sameMachine(got engine.Params, gotLs float64, want engine.Params, wantLs float64) string {
	var d []string
	for _, f := range []struct {
		name      string
		got, want any
	}{
		{"P", got.P, want.P}, {"n", got.N, want.N}, {"L", got.L, want.L}, {"o", got.O, want.O}, {"g", got.G, want.G},
		{"sigma", got.Sigma, want.Sigma}, {"gap_sigma", got.GapSigma, want.GapSigma}, {"Ls", gotLs, wantLs},
	} {
		if f.got != f.want {
			d = append(d, fmt.Sprintf("%s %v, want %v", f.name, f.got, f.want))
		}
	}
	return strings.Join(d, ", ")
}

// TestLogpLinksOpenTheirPoint: every point and row of the page opens the
// logp scene (parsed by the scene registry, within the page's budget) on
// the machine and planning latency it shows: a curve's point at its L_s,
// the σ sweep's at its σ and optimum, the P charts' at their P (capped to
// the scene's, the title saying so) and optimum, the table's rows at
// their optimum.
func TestLogpLinksOpenTheirPoint(t *testing.T) {
	st := newLogpStudy(false, 1)
	raw, err := st.Run(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := st.results(raw)
	if err != nil {
		t.Fatal(err)
	}
	pg := st.page(r)
	check := func(where string, l *report.Link, want engine.Params, wantLs float64) {
		t.Helper()
		got, ls := openLink(t, where, l)
		if d := sameMachine(got, ls, want, wantLs); d != "" {
			t.Errorf("%s: link %q opens %s", where, l.Path, d)
		}
	}
	optimumOfP := func(P int, sigma float64) logpOptimum {
		for _, c := range r.Curves {
			if c.P == P && c.Opt.Sigma == sigma {
				return c.Opt
			}
		}
		for _, o := range append(append([]logpOptimum{r.P3AtP2Sigma}, r.Sigma...), r.ByP[0]...) {
			if o.P == P && o.Sigma == sigma {
				return o
			}
		}
		for _, row := range r.ByP {
			for _, o := range row {
				if o.P == P && o.Sigma == sigma {
					return o
				}
			}
		}
		t.Fatalf("no optimum for P = %d, σ = %g", P, sigma)
		return logpOptimum{}
	}
	links := 0
	for _, sec := range pg.Sections {
		for _, it := range sec.Items {
			switch v := it.(type) {
			case *report.LineChart:
				for _, sr := range v.Series {
					if strings.HasPrefix(sr.Name, "slides:") {
						continue // the slides' flat lines are no configuration
					}
					if len(sr.Links) != len(v.X.Labels) {
						t.Errorf("%s, %s: %d links for %d points", v.ID, sr.Name, len(sr.Links), len(v.X.Labels))
						continue
					}
					for i, l := range sr.Links {
						if l == nil {
							if strings.HasPrefix(sr.Name, "optimum") {
								continue // a marker links its one point
							}
							t.Errorf("%s, %s, point %d: no link", v.ID, sr.Name, i)
							continue
						}
						links++
						where := fmt.Sprintf("%s, %s, point %d", v.ID, sr.Name, i)
						x := v.X.Values[i]
						switch v.ID {
						case "logp-p2", "logp-p3":
							P, _ := strconv.Atoi(strings.TrimPrefix(v.ID, "logp-p"))
							o := optimumOfP(P, st.curveSigma(P))
							ls := x
							switch sr.Name {
							case "optimum, Monte Carlo search":
								ls = o.LsIv().Mean
							case "optimum, closed form":
								ls = o.StarLs
							}
							check(where, l, st.params(P, o.Sigma), ls)
						case "logp-sigma":
							o := optimumOfP(3, x)
							ls, _ := o.bestLs()
							check(where, l, st.params(3, x), ls)
						case "logp-offset", "logp-excess":
							var ratio float64
							fmt.Sscanf(sr.Name, "σ/μ = %g", &ratio)
							P := int(x)
							o := optimumOfP(P, ratio*st.base.L)
							ls, _ := o.bestLs()
							want := st.params(min(P, sclogp.MaxP), o.Sigma)
							check(where, l, want, ls)
							if P > sclogp.MaxP && !strings.Contains(l.Title, "capped") {
								t.Errorf("%s: P = %d opens the scene at %d but the title does not say so: %q", where, P, sclogp.MaxP, l.Title)
							}
						default:
							t.Errorf("%s: a link on an unexpected chart", where)
						}
					}
				}
			case *report.Table:
				if v.ID != "logp-optima" {
					continue
				}
				if len(v.RowLinks) != len(v.Rows) {
					t.Fatalf("%s: %d row links for %d rows", v.ID, len(v.RowLinks), len(v.Rows))
				}
				for i, l := range v.RowLinks {
					links++
					P, _ := strconv.Atoi(v.Rows[i][0])
					o := optimumOfP(P, st.curveSigma(P))
					ls, _ := o.bestLs()
					check(fmt.Sprintf("%s row %d", v.ID, i), l, st.params(P, o.Sigma), ls)
				}
			}
		}
	}
	if links < 50 {
		t.Errorf("only %d links on the quick page", links)
	}
	// Beyond the scene's P: capped, n as the report takes it for the
	// scene's P, and said so.
	p := st.params(1024, 1)
	l := st.sceneLink(p, 10.2, "a test point")
	got, ls := openLink(t, "P = 1024", l)
	if d := sameMachine(got, ls, st.params(sclogp.MaxP, 1), 10.2); d != "" {
		t.Errorf("P = 1024: link %q opens %s", l.Path, d)
	}
	if !strings.Contains(l.Title, "P = 1024 capped to 32") {
		t.Errorf("P = 1024: the title does not say the cap: %q", l.Title)
	}
}
