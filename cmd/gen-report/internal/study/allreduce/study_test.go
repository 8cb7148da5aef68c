package allreduce

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
	"testing"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/study"
	engine "commlab/engine/allreduce"
	"commlab/engine/cost"
	"commlab/scene"
	"commlab/scene/butterfly"
	"commlab/scene/catalog"
)

// sweepOut, when set, makes TestSweepRun run the whole sweep (quick or
// full) and print what it came to: the measurement behind
// docs/allreduce.md's account of the trials and their cost.
//
//	go test -c -o /tmp/ar.test ./cmd/gen-report/internal/study/allreduce/
//	/usr/bin/time -v /tmp/ar.test -test.run '^TestSweepRun$' -test.v -sweep.run full -sweep.out /tmp/ar.json
var (
	sweepRun = flag.String("sweep.run", "", "TestSweepRun: run the quick or the full sweep and print its account")
	sweepOut = flag.String("sweep.out", "", "TestSweepRun: write the results (JSON) here; -sweep.in reads them back")
	sweepIn  = flag.String("sweep.in", "", "TestSweepRun: build the page from these results instead of sweeping")
)

// quick runs the quick sweep once for every test of the package.
var quick = sync.OnceValues(func() (*Sweep, []json.RawMessage) {
	s := NewSweep(false, 1)
	raw, err := s.Run(context.Background(), nil, nil)
	if err != nil {
		panic(err)
	}
	return s, raw
})

func TestSweepRun(t *testing.T) {
	if *sweepRun == "" && *sweepIn == "" {
		t.Skip("a measurement: -sweep.run quick|full (see study_test.go)")
	}
	s := NewSweep(*sweepRun == "full", 1)
	var raw []json.RawMessage
	if *sweepIn != "" {
		b, err := os.ReadFile(*sweepIn)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &raw); err != nil {
			t.Fatal(err)
		}
		s = NewSweep(len(raw) > 1000, 1)
	} else {
		var err error
		if raw, err = s.Run(context.Background(), nil, nil); err != nil {
			t.Fatal(err)
		}
		if *sweepOut != "" {
			b, _ := json.Marshal(raw)
			if err := os.WriteFile(*sweepOut, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	page, err := s.Page(raw)
	if err != nil {
		t.Fatal(err)
	}
	printPage(t, page)
}

// printPage logs the page's text: intros, tables and findings.
func printPage(t *testing.T, page report.Page) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", page.Intro)
	for _, sec := range page.Sections {
		fmt.Fprintf(&b, "## %s\n%s\n", sec.Title, sec.Intro)
		for _, it := range sec.Items {
			switch x := it.(type) {
			case *report.Table:
				fmt.Fprintf(&b, "table %s: %s\n", x.ID, strings.Join(x.Header, " | "))
				for _, r := range x.Rows {
					fmt.Fprintf(&b, "  %s\n", strings.Join(r, " | "))
				}
			case report.Findings:
				for _, f := range x.Items {
					fmt.Fprintf(&b, "\n* %s\n  verdict: %s\n  paper: %s\n  ours: %s\n  evidence: %s\n  tolerance: %s\n", f.Claim, f.Verdict, f.Paper, f.Ours, f.Evidence, f.Tolerance)
				}
			}
		}
	}
	t.Log("\n" + b.String())
}

// items indexes the page's charts and tables by ID.
func items(page report.Page) map[string]any {
	out := map[string]any{}
	for _, sec := range page.Sections {
		for _, it := range sec.Items {
			switch x := it.(type) {
			case *report.HeatMap:
				out[x.ID] = x
			case *report.LineChart:
				out[x.ID] = x
			case *report.Table:
				out[x.ID] = x
			}
		}
	}
	return out
}

// shown is one number the page shows, read back from its chart.
type shown struct {
	v, lo, hi float64
	link      *report.Link
}

// read returns the number a placement points at, from the page's item.
func read(t *testing.T, it any, pl placement) shown {
	t.Helper()
	switch x := it.(type) {
	case *report.HeatMap:
		s := shown{v: x.Z[pl.row][pl.col], lo: math.NaN(), hi: math.NaN(), link: x.Links[pl.row][pl.col]}
		if x.Lo != nil {
			s.lo, s.hi = x.Lo[pl.row][pl.col], x.Hi[pl.row][pl.col]
		}
		return s
	case *report.LineChart:
		for _, sr := range x.Series {
			if sr.Name != pl.series {
				continue
			}
			s := shown{v: sr.Values[pl.col], lo: math.NaN(), hi: math.NaN(), link: sr.Links[pl.col]}
			if sr.Lo != nil {
				s.lo, s.hi = sr.Lo[pl.col], sr.Hi[pl.col]
			}
			return s
		}
		t.Fatalf("%s has no series %q", x.ID, pl.series)
	case *report.Table:
		return shown{v: math.NaN(), lo: math.NaN(), hi: math.NaN(), link: x.RowLinks[pl.row]}
	}
	t.Fatalf("placement %+v: item %T", pl, it)
	return shown{}
}

// TestSameCellsAgree (issue 22): every pair of numbers the page shows of
// cells with the same parameters agrees within their intervals, wherever
// they appear (Fig. 12 and the readings' charts, Fig. 8 and 9, ...), and
// every number on an allreduce chart is one of a cell's. The readings'
// charts once showed a cell's first 10 trials beside the figure's 30, 2x
// apart at P = 2^7.
func TestSameCellsAgree(t *testing.T) {
	s, raw := quick()
	page, err := s.Page(raw)
	if err != nil {
		t.Fatal(err)
	}
	its := items(page)
	type key struct {
		params, q string
	}
	groups := map[key][]shown{}
	where := map[key][]string{}
	covered := map[string]int{}
	for _, pl := range s.placed {
		it, ok := its[pl.item]
		if !ok {
			t.Fatalf("placement in %q, which the page lacks", pl.item)
		}
		if _, ok := it.(*report.Table); ok {
			continue
		}
		sh := read(t, it, pl)
		b, _ := json.Marshal(s.params[pl.pt])
		k := key{string(b), pl.q}
		groups[k] = append(groups[k], sh)
		where[k] = append(where[k], fmt.Sprintf("%s %s[%d][%d]", pl.item, pl.series, pl.row, pl.col))
		covered[pl.item]++
	}
	pairs := 0
	for k, g := range groups {
		for i := range g {
			for j := i + 1; j < len(g); j++ {
				pairs++
				a, b := g[i], g[j]
				ha, hb := halfWidth(a), halfWidth(b)
				if math.Abs(a.v-b.v) > ha+hb+1e-12*math.Abs(a.v) {
					t.Errorf("%s of one cell: %g [%g, %g] at %s against %g [%g, %g] at %s", k.q, a.v, a.lo, a.hi, where[k][i], b.v, b.lo, b.hi, where[k][j])
				}
			}
		}
	}
	if pairs < 100 {
		t.Errorf("only %d pairs of numbers of the same cell: the test compares nothing", pairs)
	}
	// Every finite number of every chart is a cell's.
	for id, it := range its {
		n := 0
		switch x := it.(type) {
		case *report.HeatMap:
			for _, row := range x.Z {
				for _, v := range row {
					if !math.IsNaN(v) {
						n++
					}
				}
			}
		case *report.LineChart:
			for _, sr := range x.Series {
				for _, v := range sr.Values {
					if !math.IsNaN(v) {
						n++
					}
				}
			}
		default:
			continue
		}
		if covered[id] != n {
			t.Errorf("%s shows %d numbers, %d of them placed as a cell's", id, n, covered[id])
		}
	}
}

func halfWidth(s shown) float64 {
	if math.IsNaN(s.lo) {
		return 0
	}
	return (s.hi - s.lo) / 2
}

// TestLinksOpenTheCell (issue 25): every heat-map cell, chart point and
// table row links to the butterfly or jitter scene with its cell's
// parameters, P capped to what the scene draws (and T with it), and the
// link's title says so; the scene's own parser reads every link without
// a complaint, and the page's budget holds the build it asks for.
func TestLinksOpenTheCell(t *testing.T) {
	s, raw := quick()
	page, err := s.Page(raw)
	if err != nil {
		t.Fatal(err)
	}
	its := items(page)
	reg := catalog.All()
	checked := map[*report.Link]bool{}
	capped := 0
	for _, pl := range s.placed {
		l := read(t, its[pl.item], pl).link
		at := fmt.Sprintf("%s %s[%d][%d]", pl.item, pl.series, pl.row, pl.col)
		if l == nil {
			t.Errorf("%s: no link", at)
			continue
		}
		checked[l] = true
		if checkLink(t, at, l, s.params[pl.pt], reg) {
			capped++
		}
	}
	for id, it := range its {
		var all []*report.Link
		switch x := it.(type) {
		case *report.HeatMap:
			for _, r := range x.Links {
				all = append(all, r...)
			}
		case *report.LineChart:
			for _, sr := range x.Series {
				all = append(all, sr.Links...)
			}
		case *report.Table:
			all = x.RowLinks
		}
		for _, l := range all {
			if l != nil && !checked[l] {
				t.Errorf("%s: link %q belongs to no cell", id, l.Path)
			}
		}
	}
	if len(checked) < 300 {
		t.Errorf("only %d links checked", len(checked))
	}
	t.Logf("%d links, %d of them with P capped", len(checked), capped)
}

// TestLinksOfTheFullGrid: every cell of the full report, P up to 2^20,
// links to both scenes with its parameters, P capped to 2^12 and the
// title saying so.
func TestLinksOfTheFullGrid(t *testing.T) {
	s := NewSweep(true, 1)
	reg := catalog.All()
	capped := 0
	for pt := range s.points {
		for _, sc := range []scene.Scene{butterflyScene, jitterScene} {
			l := s.link(pt, sc)
			at := fmt.Sprintf("point %d (%+v) in %s", pt, s.points[pt], sc.Info().Name)
			if l == nil {
				t.Fatalf("%s: no link", at)
			}
			if checkLink(t, at, l, s.params[pt], reg) {
				capped++
			}
		}
	}
	if capped < 500 {
		t.Errorf("only %d links with P capped", capped)
	}
}

// checkLink parses a link with the scene's own parser and checks that it
// names the cell's configuration p, P capped to butterfly.MaxTraceP (T to
// its K), the title saying so, within the page's budget. It reports
// whether P was capped.
func checkLink(t *testing.T, at string, l *report.Link, p engine.Params, reg scene.Registry) bool {
	t.Helper()
	query, ok := strings.CutPrefix(l.Path, "scene.html?")
	if !ok {
		t.Fatalf("%s: link %q is not a scene", at, l.Path)
	}
	st, errs := scene.ParseQuery(query, reg)
	if len(errs) > 0 {
		t.Fatalf("%s: the scene refuses %q: %v", at, l.Path, errs)
	}
	if st.Scene != "butterfly" && st.Scene != "jitter" {
		t.Fatalf("%s: opens scene %q", at, st.Scene)
	}
	sc, _ := reg.Lookup(st.Scene)
	if err := scene.CheckBudget(sc, st.Values, cost.Page); err != nil {
		t.Errorf("%s: over the page's budget: %v", at, err)
	}
	got, err := butterfly.Params(st.Values)
	if err != nil {
		t.Fatalf("%s: %v", at, err)
	}
	want := p
	capped := want.P > butterfly.MaxTraceP
	if capped {
		want.P = butterfly.MaxTraceP
		if !strings.Contains(l.Title, fmt.Sprintf("P = %s capped to %s", kLabel(p.K()), kLabel(want.K()))) {
			t.Errorf("%s: the title does not say P is capped: %q", at, l.Title)
		}
	}
	want.T = min(want.T, want.K())
	if got != want {
		t.Errorf("%s: the scene gets %+v, want the cell's %+v", at, got, want)
	}
	return capped
}

// TestPageRefusesBadCells: a cell read from a shard file that no run of
// the rule and the model gives is refused, naming the point and what is
// wrong (a *study.PointError, which merge turns into the file's name).
func TestPageRefusesBadCells(t *testing.T) {
	s, raw := quick()
	// A precise cell with a minimum below its cap, so that every tamper
	// below breaks one thing only.
	pt := -1
	for i, r := range raw {
		var c cell
		if err := json.Unmarshal(r, &c); err != nil {
			t.Fatal(err)
		}
		if first, last := s.studyRule().Span(i); !c.Capped && c.Trials > first && c.Trials < last && len(c.MeanByT) > 3 {
			pt = i
			break
		}
	}
	if pt < 0 {
		t.Fatal("no precise cell between its minimum and its cap")
	}
	for _, tc := range []struct {
		name string
		edit func(m map[string]any)
		want string
	}{
		{"trials off the checkpoints", func(m map[string]any) { m["trials"] = m["trials"].(float64) + 1 }, "not a checkpoint"},
		{"trials beyond the cap", func(m map[string]any) { m["trials"] = 8000.0 }, "8000 trials, but the rule stops it between"},
		{"capped before the cap", func(m map[string]any) { m["capped"] = true }, "capped after"},
		{"precise yet wide", func(m map[string]any) { m["precision"] = 0.5 }, "precision 0.5 with capped = false"},
		{"another minimum", func(m map[string]any) { m["min_trials"] = 3.0 }, "minimum 3"},
		{"a negative time", func(m map[string]any) { m["mean_by_T"].([]any)[2] = -1.0 }, "the mean time with T = 2 is -1"},
		{"a best T that is not", func(m map[string]any) { m["best_T"] = 0.0 }, "best T = 0"},
		{"an interval beside its mean", func(m map[string]any) {
			m["proposed"].(map[string]any)["lo"] = m["proposed"].(map[string]any)["mean"].(float64) * 1.1
		}, "the proposed interval"},
		{"a mean that is not the trials'", func(m map[string]any) { m["conventional"].(map[string]any)["mean"] = 1e-3 }, "does not hold the mean"},
		{"more late trials than trials", func(m map[string]any) { m["late_proposed"] = 1e9 }, "late trials"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m map[string]any
			if err := json.Unmarshal(raw[pt], &m); err != nil {
				t.Fatal(err)
			}
			tc.edit(m)
			b, _ := json.Marshal(m)
			bad := append([]json.RawMessage(nil), raw...)
			bad[pt] = b
			_, err := s.Page(bad)
			var pe *study.PointError
			if !errors.As(err, &pe) || pe.Point != pt || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want a PointError on point %d saying %q", err, pt, tc.want)
			}
		})
	}
	bad := append([]json.RawMessage(nil), raw...)
	bad[pt] = json.RawMessage("null")
	if _, err := s.Page(bad); err == nil || !strings.Contains(err.Error(), "null") {
		t.Errorf("a null cell: %v", err)
	}
}
