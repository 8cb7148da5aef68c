//go:build !(js && wasm)

package e2e

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// examplesDir holds the schedule scene's shipped GOAL files and
// LogGOPSim's answers for them.
const examplesDir = "scene/schedule/examples"

// logGOPSimEnd returns LogGOPSim's maximum finishing time for a shipped
// example under flags ("defaults" or the second set), from expected.tsv.
func logGOPSimEnd(t *testing.T, file, flags string) float64 {
	t.Helper()
	f, err := os.Open(filepath.Join(repoDir, examplesDir, "expected.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		if len(c) == 3 && c[0] == file && c[1] == flags {
			x, err := strconv.ParseFloat(c[2], 64)
			if err != nil {
				t.Fatal(err)
			}
			return x
		}
	}
	t.Fatalf("expected.tsv has no row for %s %s", file, flags)
	return 0
}

// The second parameter set of expected.tsv.
const secondSet = "-L 3000 -o 1000 -g 2000 -G 4 -S 1024"

// canvasPixels counts the canvas's pixels near the light theme's send
// colour (Okabe–Ito sky blue, #56b4e9) in a screenshot.
func (s *session) sendPixels(name string) int {
	s.t.Helper()
	img := s.shot(name, s.rectOf(`document.querySelector('canvas')`))
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near8(r>>8, 0x56) && near8(g>>8, 0xb4) && near8(bl>>8, 0xe9) {
				n++
			}
		}
	}
	return n
}

func near8(a uint32, b int) bool { return int(a)-b <= 6 && b-int(a) <= 6 }

// TestScheduleScene: a shipped example shows LogGOPSim's maximum finishing
// time under both parameter sets, the chart is drawn, a file loaded
// through commlab.loadGOAL replaces it (and a broken one is refused with
// its line and column, changing nothing), and the page says so without a
// console error.
func TestScheduleScene(t *testing.T) {
	base := serveScenes(t)
	s := newSession(t, base)
	st := s.openScene("scene=schedule&file=dissemination_16&compare=params&theme=light")
	want := logGOPSimEnd(t, "ex_dissemination_16.goal", "defaults")
	wantB := logGOPSimEnd(t, "ex_dissemination_16.goal", secondSet)
	if st.Numbers["end"] != want || st.Numbers["end_b"] != wantB || len(st.Errors) > 0 {
		t.Fatalf("dissemination_16: end %v and end_b %v (errors %v), LogGOPSim %v and %v", st.Numbers["end"], st.Numbers["end_b"], st.Errors, want, wantB)
	}
	if n := s.sendPixels("schedule-dissemination.png"); n < 200 {
		t.Errorf("%d canvas pixels in the send colour, want at least 200: the chart is not drawn", n)
	}

	// A file through the JS API: two ranks, rank 0 sends then computes 5 µs.
	const text = `num_ranks 2
rank 0 {
l1: send 100b to 1 tag 0
l2: calc 5000
l2 requires l1
}
rank 1 {
l1: recv 100b from 0 tag 0
}
`
	r := eval[struct {
		OK  bool   `json:"ok"`
		Key string `json:"key"`
	}](s, `window.commlab.loadGOAL(`+strconv.Quote(text)+`, 'pingpong.goal')`)
	if !r.OK || !strings.HasPrefix(r.Key, "upload:pingpong.goal~") {
		t.Fatalf("loadGOAL = %+v", r)
	}
	st = s.settled("after loadGOAL")
	if st.Params["file"] != r.Key || st.Numbers["end"] != 6500 {
		t.Errorf("after loadGOAL: file %q, end %v; want %q and 6500 (o + calc on rank 0)", st.Params["file"], st.Numbers["end"], r.Key)
	}
	if got := eval[string](s, `document.getElementById('field-file').value`); got != r.Key {
		t.Errorf("the file control shows %q, want %q", got, r.Key)
	}

	// A broken file: refused with its position; the run stays.
	bad := eval[result](s, `window.commlab.loadGOAL("num_ranks 2\nrank 0 {\nl1: send 8b to 7\n}\n", 'broken.goal')`)
	if bad.OK || len(bad.Errors) == 0 || !strings.Contains(bad.Errors[0].Message, "broken.goal:3:") {
		t.Errorf("a peer outside num_ranks: %+v, want an error at broken.goal:3", bad)
	}
	if st2 := s.state(); st2.Params["file"] != r.Key || st2.Numbers["end"] != 6500 {
		t.Errorf("a broken file changed the run: file %q, end %v", st2.Params["file"], st2.Numbers["end"])
	}
	if note := eval[string](s, `document.querySelector('#goal-files [role=status]').textContent`); !strings.Contains(note, "broken.goal:3:") {
		t.Errorf("the panel says %q, want the error's position", note)
	}
	eval[any](s, `document.getElementById('goal-files').scrollIntoView()`)
	s.snap("schedule-panel.png")
}

// TestScheduleURL: ?goal=PATH loads a same-origin file (and the URL the
// page then writes reloads it); a file from elsewhere is refused without
// a request leaving the site.
func TestScheduleURL(t *testing.T) {
	examples, err := filepath.Abs(filepath.Join(repoDir, examplesDir))
	if err != nil {
		t.Fatal(err)
	}
	base := serveScenes(t, mount{"/goal/", examples})
	s := newSession(t, base)
	s.openScene("scene=schedule&compare=none&goal=goal/ex_linear_alltoall_8.goal")
	const key = "url:/goal/ex_linear_alltoall_8.goal"
	s.waitFor("the URL's file to load", `window.commlab.state().params.file === '`+key+`'`, 20*time.Second)
	st := s.settled("after the URL's file")
	if want := logGOPSimEnd(t, "ex_linear_alltoall_8.goal", "defaults"); st.Numbers["end"] != want {
		t.Errorf("linear_alltoall_8 by URL: end %v, LogGOPSim %v", st.Numbers["end"], want)
	}
	// The page's own URL for this view names the file; reloading it loads
	// the file again.
	s.openScene(st.Query)
	s.waitFor("the reloaded URL's file", `window.commlab.state().params.file === '`+key+`'`, 20*time.Second)

	s.openScene("scene=schedule&goal=http://example.com/x.goal")
	s.waitFor("the refusal", `(document.querySelector('#goal-files [role=status]') || {}).textContent.includes('only files from this site')`, 10*time.Second)
	if st := s.state(); st.Params["file"] != "allreduce_recdoub_32" {
		t.Errorf("after a refused URL the file is %q, want the default", st.Params["file"])
	}
}
