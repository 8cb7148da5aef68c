package goal

import (
	"context"
	"encoding/json"
	"io/fs"
	"math"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"commlab/cmd/gen-report/internal/clitest"
	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/study"
	"commlab/scene"
	"commlab/scene/catalog"
	"commlab/scene/schedule"
)

// goalPage runs the sweep over fsys and builds its page.
func goalPage(t *testing.T, fsys fs.FS) (*goalSweep, []answer, report.Page) {
	t.Helper()
	g, err := newSweep(fsys)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := g.Run(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := study.Decode(raw, check)
	if err != nil {
		t.Fatal(err)
	}
	p, err := g.Page(raw)
	if err != nil {
		t.Fatal(err)
	}
	return g, res, p
}

// items returns the page's table, charts and findings by ID (findings
// under "findings").
func items(p report.Page) (tables map[string]*report.Table, bars map[string]*report.BarChart, findings []report.Finding) {
	tables, bars = map[string]*report.Table{}, map[string]*report.BarChart{}
	for _, sec := range p.Sections {
		for _, it := range sec.Items {
			switch v := it.(type) {
			case *report.Table:
				tables[v.ID] = v
			case *report.BarChart:
				bars[v.ID] = v
			case report.Findings:
				findings = append(findings, v.Items...)
			}
		}
	}
	return
}

// tableRow is a row of an answers' table and the example it shows.
type tableRow struct {
	ex    int // index in goalSweep.examples and the results
	cells []string
	link  *report.Link
}

// answerRows lists the rows of the answers' tables, a table per parameter
// set, in page order.
func answerRows(t *testing.T, g *goalSweep, tables map[string]*report.Table) []tableRow {
	t.Helper()
	var out []tableRow
	for si, set := range g.sets() {
		tab := tables[answersID(si)]
		if tab == nil {
			t.Fatalf("no table %s", answersID(si))
		}
		k := 0
		for i, ex := range g.examples {
			if ex.Flags != set {
				continue
			}
			if k >= len(tab.Rows) || len(tab.RowLinks) != len(tab.Rows) {
				t.Fatalf("table %s: %d rows, %d links", tab.ID, len(tab.Rows), len(tab.RowLinks))
			}
			out = append(out, tableRow{i, tab.Rows[k], tab.RowLinks[k]})
			k++
		}
		if k != len(tab.Rows) {
			t.Fatalf("table %s: %d rows for %d examples", tab.ID, len(tab.Rows), k)
		}
	}
	return out
}

// TestGoalPage: the shipped examples give eight rows, every one equal to
// LogGOPSim's answer, and the finding says so.
func TestGoalPage(t *testing.T) {
	g, res, p := goalPage(t, schedule.ExampleFiles())
	tables, bars, findings := items(p)
	rows := answerRows(t, g, tables)
	if len(g.examples) != 8 || len(rows) != 8 || len(tables) != 3 {
		t.Fatalf("%d examples, %d rows in %d tables", len(g.examples), len(rows), len(tables))
	}
	for _, r := range rows {
		if row := r.cells; row[1] != row[2] || row[3] != "0" || row[5] != strconv.FormatInt(res[r.ex].Events, 10) || row[6] != g.examples[r.ex].File {
			t.Errorf("%s: LogGOPSim %s, ours %s, difference %s, events %s, file %s", g.examples[r.ex].File, row[1], row[2], row[3], row[5], row[6])
		}
	}
	if len(findings) != 1 || findings[0].Verdict != report.Reproduced || findings[0].Ours != "8 of 8 equal; the largest difference 0 ns" {
		t.Errorf("findings %+v", findings)
	}
	if len(bars) != 2 || p.Thumbnail != criticalID(0) || bars[p.Thumbnail] == nil {
		t.Fatalf("%d critical-path charts, thumbnail %q", len(bars), p.Thumbnail)
	}
	// Each example's bar adds up to its finishing time (these examples'
	// paths start at 0), in µs that give the ns back.
	for si, set := range g.sets() {
		b := bars[criticalID(si)]
		k := 0
		for i, ex := range g.examples {
			if ex.Flags != set {
				continue
			}
			var sum int64
			for _, s := range b.Series {
				sum += int64(math.Round(s.Values[k] * 1e3))
			}
			if sum != res[i].End {
				t.Errorf("%s under %s: the bar adds up to %d ns, the run ends at %d", ex.File, set, sum, res[i].End)
			}
			k++
		}
	}
}

// TestGoalFindingCanFail: an answer of expected.tsv changed by a
// nanosecond shows in its row and makes the finding partly reproduced.
func TestGoalFindingCanFail(t *testing.T) {
	fsys := fstest.MapFS{}
	err := fs.WalkDir(schedule.ExampleFiles(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(schedule.ExampleFiles(), p)
		fsys[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	tsv := string(fsys[answersFile].Data)
	if !strings.Contains(tsv, "\t55684\n") {
		t.Fatal("expected.tsv lacks the allreduce's 55684")
	}
	fsys[answersFile].Data = []byte(strings.Replace(tsv, "\t55684\n", "\t55685\n", 1))
	g, _, p := goalPage(t, fsys)
	tables, _, findings := items(p)
	if f := findings[0]; f.Verdict != report.PartlyReproduced || f.Ours != "7 of 8 equal; the largest difference 1 ns" ||
		!strings.Contains(f.Evidence, "LogGOPSim 55685 ns, ours 55684 ns (not reproduced)") {
		t.Errorf("with one answer off by 1 ns: %s, %q, %q", f.Verdict, f.Ours, f.Evidence)
	}
	for _, r := range answerRows(t, g, tables) {
		if ex := g.examples[r.ex]; ex.File == "ex_allreduce_recdoub_32.goal" && ex.Flags == "defaults" && (r.cells[1] != "55685" || r.cells[3] != "-1") {
			t.Errorf("the changed row reads %v", r.cells)
		}
	}
}

// TestSceneLinks: every row's link parses in the schedule scene natively,
// without an error, names the row's example and parameters, and built,
// ends where the row says.
func TestSceneLinks(t *testing.T) {
	g, res, p := goalPage(t, schedule.ExampleFiles())
	tables, _, _ := items(p)
	for _, r := range answerRows(t, g, tables) {
		i, l, ex := r.ex, r.link, g.examples[r.ex]
		path, query, ok := strings.Cut(l.Path, "?")
		if !ok || path != "scene.html" {
			t.Fatalf("row %d links to %q, want scene.html?…", i, l.Path)
		}
		st, errs := scene.ParseQuery(query, catalog.All())
		if len(errs) > 0 {
			t.Errorf("%s: %v", l.Path, errs)
		}
		want := map[string]string{schedule.KeyFile: ex.Key, schedule.KeyCompare: schedule.CompareNone}
		for k, v := range paramValues(ex.Params) {
			want[sceneParamKeys[k]] = strconv.FormatInt(v, 10)
		}
		if st.Scene != "schedule" {
			t.Errorf("%s opens scene %q", l.Path, st.Scene)
		}
		for k, v := range want {
			if st.Values[k] != v {
				t.Errorf("%s: %s = %q in the scene, want %q", l.Path, k, st.Values[k], v)
			}
		}
		// Every key of the link is one the scene read (no default
		// standing in for a misspelt key).
		q, _ := url.ParseQuery(query)
		if len(q) != len(want)+1 {
			t.Errorf("%s: %d keys, want scene and %d", l.Path, len(q), len(want))
		}
		sc, _ := catalog.All().Lookup("schedule")
		run, err := sc.Build(st.Values, st.Seed)
		if err != nil {
			t.Fatalf("%s: %v", l.Path, err)
		}
		n := run.Numbers()
		if n["end"] != float64(res[i].End) || r.cells[2] != strconv.FormatFloat(n["end"], 'f', -1, 64) {
			t.Errorf("%s: the scene ends at %v ns, the row says %s", l.Path, n["end"], r.cells[2])
		}
		if !strings.Contains(l.Title, ex.File) || !strings.Contains(l.Title, "L = "+strconv.FormatInt(ex.Params.L, 10)) {
			t.Errorf("%s: title %q does not name the file and its L", l.Path, l.Title)
		}
	}
}

// TestPageMatchesEval: each row's numbers are what `gen-report eval goal`
// prints for the same file and flags.
func TestPageMatchesEval(t *testing.T) {
	g, res, _ := goalPage(t, schedule.ExampleFiles())
	dir := filepath.Join("..", "..", "..", "..", "..", "scene", "schedule", "examples")
	for i, ex := range g.examples {
		args := []string{"eval", "goal", "-f", filepath.Join(dir, ex.File)}
		if ex.Flags != "defaults" {
			args = append(args, strings.Fields(ex.Flags)...)
		}
		out, _, err := clitest.Run(t, cmd, args...)
		if err != nil {
			t.Fatal(err)
		}
		var ev goalEval
		if err := json.Unmarshal([]byte(out), &ev); err != nil {
			t.Fatal(err)
		}
		a := res[i]
		got := answer{Ranks: ev.Ranks, Events: ev.Events, End: ev.End, EndRank: ev.EndRank, Critical: *ev.CritSum}
		if got != a {
			t.Errorf("%s under %s: eval goal %+v, the page %+v", ex.File, ex.Flags, got, a)
		}
	}
}

// TestCheckRefuses: results from a shard file that cannot be a run.
func TestCheckRefuses(t *testing.T) {
	ok := answer{Ranks: 4, Events: 14, End: 100, EndRank: 3, Critical: goalCritSum{Receive: 40, Flight: 60}}
	if err := check(0, ok); err != nil {
		t.Fatalf("a valid answer: %v", err)
	}
	for _, tc := range []struct {
		edit func(*answer)
		want string
	}{
		{func(a *answer) { a.End = -1 }, "end_ns is -1"},
		{func(a *answer) { a.Critical.Gap = -5 }, "critical_path_ns.gap is -5"},
		{func(a *answer) { a.EndRank = 4 }, "end_rank 4 of 4 ranks"},
		{func(a *answer) { a.Ranks = 0 }, "of 0 ranks"},
		{func(a *answer) { a.Critical.CPU = 1 }, "add up to 101 ns, past end_ns 100"},
	} {
		a := ok
		tc.edit(&a)
		if err := check(0, a); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", a, err, tc.want)
		}
	}
}

// TestReadExamplesRefuses: a broken expected.tsv is named with its line.
func TestReadExamplesRefuses(t *testing.T) {
	file := &fstest.MapFile{Data: []byte("num_ranks 1\nrank 0 {\nl1: calc 5\n}\n")}
	for _, tc := range []struct{ tsv, want string }{
		{"ex_a_1.goal\tdefaults\n", "expected.tsv:1: 2 tab-separated columns, want 3"},
		{"ex_a_1.goal\tdefaults\t5\nb.goal\tdefaults\t5\n", `expected.tsv:2: file "b.goal": want ex_NAME.goal`},
		{"ex_b_1.goal\tdefaults\t5\n", "expected.tsv:1: open ex_b_1.goal"},
		{"ex_a_1.goal\t-L\t5\n", `expected.tsv:1: flags "-L": want pairs`},
		{"ex_a_1.goal\t-x 3\t5\n", "expected.tsv:1: flag -x: want one of LogGOPSim's"},
		{"ex_a_1.goal\t-L -3\t5\n", "expected.tsv:1: "},
		{"ex_a_1.goal\tdefaults\t-5\n", `expected.tsv:1: maximum finishing time "-5": want a whole number`},
		{"\n", "expected.tsv: no answers"},
	} {
		_, err := readExamples(fstest.MapFS{"ex_a_1.goal": file, answersFile: {Data: []byte(tc.tsv)}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.tsv, err, tc.want)
		}
	}
}

// TestSpeeds: every measured row says when, how and how to measure it
// again, and where LogGOPSim's figure comes from.
func TestSpeeds(t *testing.T) {
	for _, s := range speeds {
		if len(s.Cases) == 0 || s.Date == "" || s.Conditions == "" || !strings.Contains(s.Command, "go test") {
			t.Errorf("%q: cases, date, conditions or command missing", s.What)
		}
		for _, c := range s.Cases {
			if !(c.Lo > 0 && c.Lo <= c.Hi) {
				t.Errorf("%q: case %q has the range %g-%g", s.What, c.Case, c.Lo, c.Hi)
			}
		}
		if s.LogGOPSim > 0 && s.LogGOPSimFrom == "" {
			t.Errorf("%q: LogGOPSim's %g has no source", s.What, s.LogGOPSim)
		}
	}
	tab := speedTable()
	if got := tab.Rows[0][3]; got != "4.2-10x" {
		t.Errorf("reading: the ratio is %q, want 4.2-10x (255-604 against 60 MB/s)", got)
	}
}

// TestCriticalCaption: a chart's caption names exactly the kinds of link
// whose bars are all zero, the ones a reader would look for in vain.
func TestCriticalCaption(t *testing.T) {
	g, _, p := goalPage(t, schedule.ExampleFiles())
	_, bars, _ := items(p)
	for si := range g.sets() {
		b := bars[criticalID(si)]
		var none []string
		for k, s := range b.Series {
			zero := true
			for _, v := range s.Values {
				zero = zero && v == 0
			}
			if zero {
				none = append(none, critKinds[k])
			}
		}
		want := "no " + orList(none) + " link lies on these paths"
		if has := strings.Contains(b.Caption, want); len(none) > 0 && !has {
			t.Errorf("%s: caption %q lacks %q", b.ID, b.Caption, want)
		}
		if len(none) == 0 && strings.Contains(b.Caption, "lies on these paths") {
			t.Errorf("%s: every kind is on a path, yet the caption says %q", b.ID, b.Caption)
		}
		t.Logf("%s: %s", b.ID, b.Caption)
	}
	for _, c := range []struct {
		in   []string
		want string
	}{{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a or b"}, {[]string{"a", "b", "c"}, "a, b or c"}} {
		if got := orList(c.in); got != c.want {
			t.Errorf("orList(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
