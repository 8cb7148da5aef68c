//go:build !(js && wasm)

package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"commlab/scene"
	"commlab/scene/schedule"
)

// A LogGOPSim noise trace: events of 0.8, 0.3 and 2 µs in a 20 µs trace.
const noiseTraceText = "# start\tduration (ns)\n0\t0\n1000\t800\n5000\t300\n9000\t2000\n20000\t0\n"

// TestScheduleNoiseTrace: a noise trace picked with the panel's file
// input becomes the noise_trace choice and stretches CPU work, with the
// numbers the native scene gives for the same seed (random offset per
// rank, then co-scheduled); a trace dropped on the page is told from a
// GOAL file by its first line and loads the same way, a dropped GOAL file
// still opens as a schedule; a broken trace is refused with its line and
// column and changes nothing.
func TestScheduleNoiseTrace(t *testing.T) {
	base := serveScenes(t)
	s := newSession(t, base)
	quiet := s.openScene("scene=schedule&file=dissemination_16&compare=none&theme=light")
	if len(quiet.Errors) > 0 {
		t.Fatalf("errors: %v", quiet.Errors)
	}

	// The picker.
	path := filepath.Join(t.TempDir(), "node17.txt")
	if err := os.WriteFile(path, []byte(noiseTraceText), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(s.ctx, chromedp.SetUploadFiles(chromedp.CSS("#goal-noise_trace"), []string{path})); err != nil {
		t.Fatal(err)
	}
	s.waitFor("the picked trace to load", `(window.commlab.state().params.noise_trace || '').startsWith('trace:node17.txt~')`, bootTimeout)
	own := s.settled("after the picked trace")
	key := own.Params["noise_trace"]
	if !(own.Numbers["stall"] > 0 && own.Numbers["end"] > quiet.Numbers["end"]) {
		t.Errorf("with the trace: stall %v, end %v (quiet %v); want stalls and a later end", own.Numbers["stall"], own.Numbers["end"], quiet.Numbers["end"])
	}
	if got := eval[string](s, `document.getElementById('field-noise_trace').value`); got != key {
		t.Errorf("the noise trace control shows %q, want %q", got, key)
	}
	if note := eval[string](s, `document.querySelector('#goal-files [role=status]').textContent`); !strings.Contains(note, "loaded noise trace "+key) {
		t.Errorf("the panel says %q", note)
	}
	nkey, err := schedule.AddNoiseTrace("node17.txt", []byte(noiseTraceText))
	if err != nil || nkey != key {
		t.Fatalf("native AddNoiseTrace: key %q, %v; the page's %q", nkey, err, key)
	}
	native := func(st pageState) map[string]float64 {
		t.Helper()
		sc := schedule.New()
		v := scene.Values{}
		for _, f := range sc.Fields() {
			v[f.Key] = f.Default
		}
		for k, x := range st.Params {
			if _, ok := v[k]; ok {
				v[k] = x
			}
		}
		r, err := sc.Build(v, uint64(st.Seed))
		if err != nil {
			t.Fatalf("native build of %v: %v", st.Params, err)
		}
		return r.Numbers()
	}
	for _, k := range []string{"end", "end_rank", "stall"} {
		if want := native(own)[k]; own.Numbers[k] != want {
			t.Errorf("random offsets: %s %v on the page, %v natively", k, own.Numbers[k], want)
		}
	}

	// Co-scheduled: one offset for every rank.
	if r := s.setParams(map[string]any{"trace_cosched": true}); !r.OK {
		t.Fatalf("trace_cosched: %+v", r)
	}
	co := s.settled("co-scheduled")
	if co.Numbers["stall"] == own.Numbers["stall"] {
		t.Errorf("co-scheduled loses the same CPU time as random offsets (%v)", co.Numbers["stall"])
	}
	for _, k := range []string{"end", "end_rank", "stall"} {
		if want := native(co)[k]; co.Numbers[k] != want {
			t.Errorf("co-scheduled: %s %v on the page, %v natively", k, co.Numbers[k], want)
		}
	}
	s.snap("schedule-noise-trace.png")

	drop := func(name, text string, shift bool) {
		t.Helper()
		eval[any](s, `(() => {
			const dt = new DataTransfer();
			dt.items.add(new File([`+strconv.Quote(text)+`], `+strconv.Quote(name)+`, {type: 'text/plain'}));
			document.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, shiftKey: `+strconv.FormatBool(shift)+`, bubbles: true, cancelable: true}));
			return null;
		})()`)
	}

	// A dropped trace (another text, so another key).
	drop("other.txt", "\uFEFF0\t0\n3000\t1500\n8000\t0\n", false)
	s.waitFor("the dropped trace to load", `(window.commlab.state().params.noise_trace || '').startsWith('trace:other.txt~')`, bootTimeout)
	dropped := s.settled("after the dropped trace")
	if dropped.Params["file"] != "dissemination_16" || dropped.Numbers["stall"] <= 0 {
		t.Errorf("after the dropped trace: file %q, stall %v", dropped.Params["file"], dropped.Numbers["stall"])
	}

	// A broken trace: refused at its line and column; the run stays.
	drop("bad.txt", "0\t0\n10\t5\n10\t2x\n", false)
	s.waitFor("the refusal", `(document.querySelector('#goal-files [role=status]') || {}).textContent.includes('bad.txt:3:')`, bootTimeout)
	note := eval[string](s, `document.querySelector('#goal-files [role=status]').textContent`)
	if !strings.Contains(note, `bad.txt:3:4: duration "2x"`) {
		t.Errorf("the panel says %q, want bad.txt:3:4 and the duration", note)
	}
	if st := s.state(); st.Params["noise_trace"] != dropped.Params["noise_trace"] || st.Numbers["end"] != dropped.Numbers["end"] {
		t.Errorf("a broken trace changed the run: trace %q, end %v", st.Params["noise_trace"], st.Numbers["end"])
	}

	// A dropped GOAL file still opens as a schedule (side B with Shift).
	drop("pair.goal", "// two ranks\nnum_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\n}\nrank 1 {\nl1: recv 8b from 0 tag 0\n}\n", true)
	s.waitFor("the dropped GOAL file to load", `(window.commlab.state().params.file2 || '').startsWith('upload:pair.goal~')`, bootTimeout)
	if st := s.settled("after the dropped GOAL file"); st.Params["compare"] != "file" || len(st.Errors) > 0 {
		t.Errorf("after the dropped GOAL file: compare %q, errors %v", st.Params["compare"], st.Errors)
	}
	if seen := s.seen(); len(seen) > 0 {
		t.Errorf("console: %v", seen)
	}
}
