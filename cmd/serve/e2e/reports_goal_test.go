//go:build !(js && wasm)

package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"commlab/engine/goal"
)

// goalRow is one row of an answers' table of the GOAL page as the page
// shows it: its cells by column header, its link and the link's hover.
type goalRow struct {
	Cells map[string]string `json:"cells"`
	Href  string            `json:"href"`
	Title string            `json:"title"`
}

// goalPageInfo is what the GOAL page shows: per parameter set, in page
// order, the answers' table's rows and the critical-path chart's values
// (µs) by series name, a bar per row.
type goalPageInfo struct {
	Tables [][]goalRow                    `json:"tables"`
	Charts []map[string][]json.RawMessage `json:"charts"`
}

// goalPageJS reads the answers' tables from the DOM and the charts' values
// from their echarts instances: what a reader sees.
const goalPageJS = `(() => {
	const tables = [...document.querySelectorAll('figure.table[id^="goal-answers-"] table')].map(tab => {
		const head = [...tab.querySelectorAll('thead th')].map(th => th.textContent.trim());
		return [...tab.querySelectorAll('tbody tr.linked')].map(tr => {
			const cells = {};
			tr.querySelectorAll('td').forEach((td, i) => { cells[head[i]] = td.textContent.trim(); });
			return {cells, href: new URL(tr.dataset.href, location.href).href, title: tr.title};
		});
	});
	const charts = [...document.querySelectorAll('.chart-canvas[id^="chart-goal-critical-"]')].map(el => {
		const out = {};
		for (const s of echarts.getInstanceByDom(el).getOption().series) out[s.name] = s.data.map(d => d && typeof d === 'object' ? d.value : d);
		return out;
	});
	return {tables, charts};
})()`

// goalEval is what `gen-report eval goal` prints, as far as the page shows it.
type goalEval struct {
	Params   map[string]int64 `json:"params"`
	Events   int64            `json:"events"`
	End      int64            `json:"end_ns"`
	EndRank  int              `json:"end_rank"`
	Critical map[string]int64 `json:"critical_path_ns"`
}

// critKinds are the critical path's kinds: eval goal's keys and the
// page's series names.
var critKinds = []struct{ key, series string }{
	{"cpu", "CPU (µs)"}, {"receive", "receive (µs)"}, {"flight", "flight (µs)"}, {"gap", "gap (µs)"}, {"rendezvous", "rendezvous (µs)"},
}

// goalKeys are the schedule scene's parameter keys, LogGOPSim's flags.
var goalKeys = []string{"L", "o", "g", "G", "O", "S"}

// loggopsimFlags writes parameters as expected.tsv's second column does:
// "defaults" for LogGOPSim's own, else the flags that differ from them
// (O only when not 0).
func loggopsimFlags(p map[string]int64) string {
	d := goal.Default()
	if p["L"] == d.L && p["o"] == d.Overhead && p["g"] == d.Gap && p["G"] == d.GapPerByte && p["O"] == d.OverheadPerByte && p["S"] == d.S {
		return "defaults"
	}
	var f []string
	for _, k := range goalKeys {
		if k != "O" || p[k] != 0 {
			f = append(f, "-"+k+" "+strconv.FormatInt(p[k], 10))
		}
	}
	return strings.Join(f, " ")
}

// TestGoalPage opens the reports' GOAL page and holds its numbers to
// `gen-report eval goal` run on the same files with the same flags (and
// its LogGOPSim column to expected.tsv), then clicks two rows, one per
// parameter set, and wants the schedule scene that opens to name that
// example and parameters and to end where the row says; no console error,
// nothing fetched from beyond 127.0.0.1.
func TestGoalPage(t *testing.T) {
	chromium(t)
	dir, mounted := reportsDir(t)
	if _, err := os.Stat(filepath.Join(dir, "goal.html")); err != nil {
		t.Fatalf("the report in %s has no goal.html: it was written before the GOAL page; write it again (go run ./cmd/gen-report -quick -out DIR, COMMLAB_REPORTS=DIR)", dir)
	}
	var mounts []mount
	if mounted {
		mounts = append(mounts, mount{"/reports/", dir})
	}
	base := serveScenes(t, mounts...)
	// Built before the browser starts: a session's time is bounded.
	exe, err := filepath.Abs(filepath.Join(t.TempDir(), "gen-report"))
	if err != nil {
		t.Fatal(err)
	}
	goCmd(t, nil, "build", "-o", exe, "./cmd/gen-report")

	s := newBrowserSession(t, base, 1280, 900)
	s.open("reports/goal.html")
	s.waitFor("the GOAL page's charts", chartsSettled, 30*time.Second)
	info := eval[goalPageInfo](s, goalPageJS)
	s.fullShot("reports-goal-1280.png")
	rows := 0
	for _, tab := range info.Tables {
		rows += len(tab)
	}
	if rows != 8 || len(info.Tables) != 2 || len(info.Charts) != 2 {
		t.Fatalf("the GOAL page shows %d linked rows in %d tables and %d critical-path charts, want the 8 rows of expected.tsv in a table and a chart per parameter set", rows, len(info.Tables), len(info.Charts))
	}

	// eval goal, through the gen-report binary, on the files the page ran
	// with the parameters its links open.
	evals := make([][]goalEval, len(info.Tables))
	for si, tab := range info.Tables {
		for bar, r := range tab {
			file := r.Cells["file"]
			u, err := url.Parse(r.Href)
			if err != nil {
				t.Fatalf("%s: link %q: %v", file, r.Href, err)
			}
			q := u.Query()
			if key := strings.TrimSuffix(strings.TrimPrefix(file, "ex_"), ".goal"); u.Path != "/scene.html" || q.Get("scene") != "schedule" || q.Get("file") != key || q.Get("compare") != "none" {
				t.Errorf("%s: the row links to %s, want the schedule scene with file=%s alone", file, r.Href, key)
			}
			args := []string{"eval", "goal", "-f", filepath.Join(repoDir, examplesDir, file)}
			for _, k := range goalKeys {
				args = append(args, "-"+k, q.Get(k))
			}
			out, err := exec.Command(exe, args...).Output()
			if err != nil {
				t.Fatalf("gen-report %s: %v", strings.Join(args, " "), err)
			}
			var ev goalEval
			if err := json.Unmarshal(out, &ev); err != nil {
				t.Fatal(err)
			}
			evals[si] = append(evals[si], ev)
			flags := loggopsimFlags(ev.Params)
			if want := logGOPSimEnd(t, file, flags); r.Cells["LogGOPSim"] != strconv.FormatFloat(want, 'f', -1, 64) {
				t.Errorf("%s %s: the page gives LogGOPSim's answer as %s, expected.tsv %v", file, flags, r.Cells["LogGOPSim"], want)
			}
			for col, want := range map[string]int64{"ours": ev.End, "last rank": int64(ev.EndRank), "events": ev.Events} {
				if r.Cells[col] != strconv.FormatInt(want, 10) {
					t.Errorf("%s %s: the page's %q is %q, eval goal's %d", file, flags, col, r.Cells[col], want)
				}
			}
			if !strings.Contains(r.Title, "Opens the schedule scene: "+file) {
				t.Errorf("%s %s: the row's hover %q does not say it opens the schedule scene with the file", file, flags, r.Title)
			}
			// The critical path's parts, in µs on the page, are eval
			// goal's ns.
			for _, k := range critKinds {
				vals := info.Charts[si][k.series]
				if bar >= len(vals) {
					t.Fatalf("chart %d has %d values of %q, want a bar per row of table %d", si+1, len(vals), k.series, si+1)
				}
				var us float64
				if err := json.Unmarshal(vals[bar], &us); err != nil {
					t.Fatalf("chart %d, %s, bar %d: %s: %v", si+1, k.series, bar, vals[bar], err)
				}
				if ns := int64(math.Round(us * 1e3)); ns != ev.Critical[k.key] {
					t.Errorf("%s %s: the page's %s part of the critical path is %g µs, eval goal's %d ns", file, flags, k.key, us, ev.Critical[k.key])
				}
			}
		}
	}
	// The page at a phone's width, for a person to look at.
	if err := chromedp.Do(s.ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	eval[any](s, `new Promise(r => setTimeout(r, 500))`) // the charts follow the resize
	s.fullShot("reports-goal-390.png")

	// A click on a row of each parameter set opens its schedule.
	for si, bar := range []int{0, 3} {
		r, ev := info.Tables[si][bar], evals[si][bar]
		t.Run(r.Cells["file"]+" "+loggopsimFlags(ev.Params), func(t *testing.T) {
			s := newSession(t, base)
			s.open("reports/goal.html")
			s.waitFor("the GOAL page's charts", chartsSettled, 30*time.Second)
			xy := eval[[2]float64](s, fmt.Sprintf(`(() => { const tr = document.querySelectorAll('#%s tbody tr.linked')[%d]; tr.scrollIntoView({block: 'center'});
				const c = tr.querySelectorAll('td')[2].getBoundingClientRect(); return [c.left + c.width / 2, c.top + c.height / 2]; })()`, fmt.Sprintf("goal-answers-%d", si+1), bar))
			if err := chromedp.Do(s.ctx, chromedp.MouseClickXY(xy[0], xy[1])); err != nil {
				t.Fatal(err)
			}
			s.waitNavigated("the row's click to open the scene", `location.pathname === '/scene.html'`, 20*time.Second)
			s.waitFor("the schedule scene to draw", ready, bootTimeout)
			st := s.state()
			key := strings.TrimSuffix(strings.TrimPrefix(r.Cells["file"], "ex_"), ".goal")
			if st.Scene != "schedule" || st.Params["file"] != key || st.Params["compare"] != "none" || len(st.Errors) > 0 {
				t.Errorf("the click opened scene %q, file %q, compare %q, errors %v; want the schedule scene with %s alone", st.Scene, st.Params["file"], st.Params["compare"], st.Errors, key)
			}
			for k, v := range ev.Params {
				if st.Params[k] != strconv.FormatInt(v, 10) {
					t.Errorf("the scene's %s is %q, the row's (eval goal's) %d", k, st.Params[k], v)
				}
			}
			if st.Numbers["end"] != float64(ev.End) {
				t.Errorf("the scene ends at %v ns, the row at %d", st.Numbers["end"], ev.End)
			}
			s.snap(fmt.Sprintf("reports-goal-scene-%d-%d.png", si+1, bar))
		})
	}
}

// fullShot keeps a screenshot of the whole page as name, when
// $COMMLAB_E2E_SHOTS is set.
func (s *session) fullShot(name string) {
	s.t.Helper()
	if os.Getenv("COMMLAB_E2E_SHOTS") == "" {
		return
	}
	png, err := chromedp.Run(s.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		s.t.Fatalf("screenshot: %v", err)
	}
	s.keep(name, png)
}
