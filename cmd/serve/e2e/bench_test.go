//go:build !(js && wasm)

package e2e

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/chromedp/chromedp"
)

// The page numbers and their targets.
const (
	maxWasmGzip     = 3_500_000 // bytes, gzip -9 (3.5 MB, MB = 10^6 bytes)
	maxStillMs      = 500       // something meaningful (the still) drawn after navigation, cold cache
	maxFirstFrameMs = 1500      // first live frame after navigation, cold cache
	minFPS          = 24        // while playing P = 64 at 960x540
	firstFrameLoads = 5         // loads whose median is the first-frame number
	fpsWindow       = 5 * time.Second
)

// TestPageNumbers measures what the issue asks of the page and prints a
// table with each target and PASS or FAIL: the wasm's size raw, gzip -9
// and brotli 11; the first frame after navigation with a cold cache
// (median of 5 fresh browsers); frames per second while playing P = 64 at
// 960x540, and each other scene at its defaults (the overlay against the
// same target). These are measurements, not assertions, so they run only
// under COMMLAB_BENCH=1 (`make bench`), never in `make test`, and a number
// over its target prints FAIL without failing the test.
func TestPageNumbers(t *testing.T) {
	if os.Getenv("COMMLAB_BENCH") != "1" {
		t.Skip("page measurements run under COMMLAB_BENCH=1 (make bench)")
	}
	chromium(t)
	base := serveScenes(t)
	wasm := filepath.Join(sharedWasm(t), "commlab.wasm")

	var rows []benchRow
	raw, gz, br, brNote := wasmSizes(t, wasm)
	rows = append(rows,
		benchRow{"wasm size, raw", mb(raw), "", ""},
		benchRow{"wasm size, gzip -9", mb(gz), fmt.Sprintf("≤ %s", mb(maxWasmGzip)), verdict(gz <= maxWasmGzip)},
		benchRow{"wasm size, brotli 11", brNote, "", ""},
	)
	if br > 0 {
		rows[2].value = mb(br)
	}

	var loads []startTimes
	var browser string
	// Each measurement in a subtest of its own, so its browser has quit
	// (and stopped drawing) before the next starts.
	for i := range firstFrameLoads {
		t.Run(fmt.Sprintf("first frame %d", i+1), func(t *testing.T) {
			st, ua := firstFrame(t, base)
			t.Logf("still at %.0f ms, first frame at %.0f ms", st.still, st.marks["first-frame"])
			loads = append(loads, st)
			browser = ua
		})
	}
	if len(loads) < firstFrameLoads {
		t.Fatalf("%d of %d loads measured", len(loads), firstFrameLoads)
	}
	stills, firsts := make([]float64, len(loads)), make([]float64, len(loads))
	for i, l := range loads {
		stills[i], firsts[i] = l.still, l.marks["first-frame"]
	}
	med := median(firsts)
	rows = append(rows,
		benchRow{
			fmt.Sprintf("the scene's still drawn after navigation, cold cache (median of %d)", len(loads)),
			fmt.Sprintf("%.0f ms", median(stills)), fmt.Sprintf("≤ %d ms", maxStillMs), verdict(median(stills) <= maxStillMs),
		},
		benchRow{
			fmt.Sprintf("first live frame after navigation, cold cache (median of %d)", len(loads)),
			fmt.Sprintf("%.0f ms", med), fmt.Sprintf("≤ %d ms", maxFirstFrameMs), verdict(med <= maxFirstFrameMs),
		})

	var fps float64
	size := "?"
	t.Run("frames per second", func(t *testing.T) {
		fps, size, _ = framesPerSecond(t, base, "scene=butterfly&P=64")
	})
	rows = append(rows, benchRow{
		"frames/s playing P=64 at " + size, fmt.Sprintf("%.1f", fps), fmt.Sprintf("≥ %d", minFPS), verdict(fps >= minFPS),
	})
	// The other scenes at their defaults: no target but the overlay's, and
	// a scene that repaints most of its canvas every frame shows here.
	for _, sc := range scenes(t) {
		name := sc.Info().Name
		if name == "butterfly" {
			continue
		}
		var f float64
		t.Run("frames per second "+name, func(t *testing.T) {
			f, size, _ = framesPerSecond(t, base, "scene="+name)
		})
		row := benchRow{fmt.Sprintf("frames/s playing %s (defaults) at %s", name, size), fmt.Sprintf("%.1f", f), "", ""}
		if name == "overlay" { // issue 13 sets it the butterfly's target
			row.target, row.verdict = fmt.Sprintf("≥ %d", minFPS), verdict(f >= minFPS)
		}
		rows = append(rows, row)
	}

	rows = append(rows, displayListRows(t)...)

	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("\ncommlab page numbers: %s, Go %s, %d cores, load average %s\n",
		browser, runtime.Version(), runtime.NumCPU(), strings.Join(strings.Fields(string(load))[:min(3, len(strings.Fields(string(load))))], " "))
	fmt.Printf("first-frame loads (ms): %s\nstill loads (ms): %s\n\n", join(firsts, "%.0f"), join(stills, "%.0f"))
	printStart(os.Stdout, loads)
	w := tabwriter.NewWriter(os.Stdout, 0, 8, 2, ' ', 0)
	fmt.Fprintln(w, "measure\tvalue\ttarget\t")
	for _, r := range rows {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", r.name, r.value, r.target, r.verdict)
	}
	w.Flush()
	fmt.Println()
}

type benchRow struct{ name, value, target, verdict string }

// maxFrameMs is the target for building one frame's display list.
const maxFrameMs = 2.0

// displayListRows reads the Go benchmarks' output that `make bench` saved
// in $COMMLAB_BENCH_GO and returns the display-list targets from it: a
// butterfly frame at P = 64 (drawn in full) and at P = 4096 (the
// heat-strip), each at most 2 ms.
func displayListRows(t *testing.T) []benchRow {
	t.Helper()
	want := []struct{ bench, name string }{
		{"BenchmarkFrame/P=64", "display list, butterfly P=64 (Go benchmark)"},
		{"BenchmarkFrame/P=4096", "display list, butterfly heat-strip P=4096 (Go benchmark)"},
	}
	ns := map[string]float64{}
	if path := os.Getenv("COMMLAB_BENCH_GO"); path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		pkg := ""
		for line := range strings.Lines(string(data)) {
			f := strings.Fields(line)
			if len(f) == 2 && f[0] == "pkg:" {
				pkg = f[1]
			}
			if pkg != "commlab/scene/butterfly" || len(f) < 4 || f[3] != "ns/op" {
				continue
			}
			name := f[0]
			if i := strings.LastIndex(name, "-"); i > 0 {
				name = name[:i] // the GOMAXPROCS suffix
			}
			if x, err := strconv.ParseFloat(f[2], 64); err == nil {
				ns[name] = x
			}
		}
	}
	var rows []benchRow
	for _, w := range want {
		x, ok := ns[w.bench]
		if !ok {
			rows = append(rows, benchRow{w.name, "not measured", fmt.Sprintf("≤ %g ms", maxFrameMs), "(make bench runs it)"})
			continue
		}
		ms := x / 1e6
		rows = append(rows, benchRow{w.name, fmt.Sprintf("%.3f ms", ms), fmt.Sprintf("≤ %g ms", maxFrameMs), verdict(ms <= maxFrameMs)})
	}
	return rows
}

func verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

// mb writes a size in MB (10^6 bytes) with the exact bytes beside it.
func mb(n int) string { return fmt.Sprintf("%.2f MB (%d B)", float64(n)/1e6, n) }

// wasmSizes returns the wasm's size raw, gzip -9 and brotli at quality 11
// (node's zlib; 0 and a note when node is missing). gzip -9 is the gzip
// tool's, as the limit is measured (TestWasmGzipSize): Go's compress/gzip
// writes about 1 % more, 35 kB at this size, and is the stand-in only
// where the tool is missing.
func wasmSizes(t *testing.T, path string) (raw, gz, br int, brNote string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if tool, err := exec.LookPath("gzip"); err == nil {
		out, err := exec.CommandContext(t.Context(), tool, "-9", "-c", path).Output()
		if err != nil {
			t.Fatalf("gzip -9 -c %s: %v", path, err)
		}
		gz = len(out)
	} else {
		var buf bytes.Buffer
		zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := zw.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		gz = buf.Len()
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return len(data), gz, 0, "n/a (node not found)"
	}
	const js = `const z = require('zlib'), b = require('fs').readFileSync(process.argv[1]);
process.stdout.write(String(z.brotliCompressSync(b, {params: {
	[z.constants.BROTLI_PARAM_QUALITY]: 11, [z.constants.BROTLI_PARAM_SIZE_HINT]: b.length}}).length));`
	out, err := exec.CommandContext(t.Context(), node, "-e", js, path).Output()
	if err != nil {
		t.Fatalf("brotli by node: %v", err)
	}
	br, err = strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("brotli by node printed %q", out)
	}
	return len(data), gz, br, ""
}

// startTimes are one cold load's times, in ms after the start of the
// navigation: when the still was painted (its element-timing entry), and
// the page's performance marks commlab:NAME (site/boot.js, scene.js and the
// wasm set them; docs/visualizer.md says what each ends).
type startTimes struct {
	still float64
	marks map[string]float64
}

// startPhases are the marks in the order the page reaches them, each with
// what the span before it holds.
var startPhases = []struct{ mark, what string }{
	{"fetch", "boot.js starts the wasm's download and compile"},
	{"response", "the wasm's response begins"},
	{"compiled", "the wasm has arrived and compiled (streaming: compiled as it arrived)"},
	{"instantiated", "scene.js (deferred, after the page is parsed) has instantiated it"},
	{"main", "Go's runtime and package init (Ebiten's shaders among them) are done"},
	{"app", "the scene's run is built"},
	{"rungame", "the page's panel is built (commlab-ready)"},
	{"first-update", "Ebiten has started: canvas, WebGL, its first tick"},
	{"first-frame", "the first frame is laid out and painted"},
}

// firstFrame opens the default scene in a fresh browser (an empty profile:
// nothing cached, nothing compiled) and returns when its still and first
// frame were painted, with the start's marks; and the browser's name.
func firstFrame(t *testing.T, base string) (st startTimes, browser string) {
	t.Helper()
	s := newBrowserSession(t, base, 1024, 768)
	s.open("scene.html?scene=butterfly")
	s.waitFor("the first frame", `window.commlab !== undefined && window.commlab.state().firstFrameMs > 0`, bootTimeout)
	type times struct {
		Still float64            `json:"still"`
		Marks map[string]float64 `json:"marks"`
	}
	page := eval[times](s, `(async () => {
		const marks = {};
		for (const e of performance.getEntriesByType('mark')) {
			if (e.name.startsWith('commlab:')) { marks[e.name.slice(8)] = e.startTime; }
		}
		const still = await new Promise((resolve) => {
			new PerformanceObserver((l) => {
				for (const e of l.getEntries()) { if (e.identifier === 'commlab-still') { resolve(e.renderTime || e.loadTime); } }
			}).observe({type: 'element', buffered: true});
			setTimeout(() => resolve(0), 500);
		});
		return {still, marks};
	})()`)
	if page.Still <= 0 {
		t.Fatal("the still was not painted (is thumbs/butterfly.still-light.png served?)")
	}
	for _, p := range startPhases {
		if page.Marks[p.mark] <= 0 {
			t.Fatalf("no performance mark commlab:%s; marks %v", p.mark, page.Marks)
		}
	}
	browser = eval[string](s, `(navigator.userAgent.match(/(?:Headless)?Chrome\/[\d.]+/) || [navigator.userAgent])[0]`)
	return startTimes{still: page.Still, marks: page.Marks}, browser
}

// printStart prints where the first frame's time goes: for each mark the
// median over the loads of when it came and of the span before it.
func printStart(w io.Writer, loads []startTimes) {
	fmt.Fprintf(w, "the start, median of %d cold loads (ms after navigation; the span is the median of each load's own):\n", len(loads))
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "mark\tat\tspan\tthe span before it\t")
	prev := ""
	for _, p := range startPhases {
		at, span := make([]float64, len(loads)), make([]float64, len(loads))
		for i, l := range loads {
			at[i] = l.marks[p.mark]
			span[i] = at[i]
			if prev != "" {
				span[i] -= l.marks[prev]
			}
		}
		fmt.Fprintf(tw, "%s\t%.0f\t%.0f\t%s\t\n", p.mark, median(at), median(span), p.what)
		prev = p.mark
	}
	tw.Flush()
	fmt.Fprintln(w)
}

// framesPerSecond plays the scene page at query (its parameters in the
// URL, so that no build runs while it counts; loop on) in a fresh browser
// whose viewport is 960x540, with the scene embedded so its canvas fills
// it, and counts the page's draws over fpsWindow after a second of
// warm-up. It returns frames per second, the canvas size it measured at
// and the Go side's mean cost of a frame (layout and paint, in ms), which
// says whether a slow scene is slow in its layout or in its painting.
func framesPerSecond(t *testing.T, base, query string) (fps float64, size string, cost frameCost) {
	t.Helper()
	s := newBrowserSession(t, base, 960, 540)
	// A headless window's viewport can differ from its size by the
	// browser's frame; the emulated viewport is exact.
	if err := chromedp.Do(s.ctx, chromedp.EmulateViewport(960, 540)); err != nil {
		t.Fatal(err)
	}
	s.open("scene.html?" + query + "&embed=1&loop=1")
	s.waitFor("the first frame", ready, bootTimeout)
	eval[any](s, `window.commlab.play()`)
	time.Sleep(time.Second)
	type sample struct {
		Draws    float64 `json:"draws"`
		Base     float64 `json:"baseDraws"`
		Now      float64 `json:"now"`
		Playing  bool    `json:"playing"`
		W        float64 `json:"width"`
		H        float64 `json:"height"`
		LayoutMs float64 `json:"layoutMs"`
		PaintMs  float64 `json:"paintMs"`
	}
	const read = `(() => { const st = window.commlab.state();
		return {draws: st.draws, baseDraws: st.baseDraws, now: performance.now(), playing: st.playing, width: st.width, height: st.height,
			layoutMs: st.layoutMs, paintMs: st.paintMs}; })()`
	a := eval[sample](s, read)
	busy0 := browserCPU()
	time.Sleep(fpsWindow)
	busy1 := browserCPU()
	b := eval[sample](s, read)
	if !a.Playing || !b.Playing {
		t.Errorf("the scene stopped playing during the measurement (loop=1)")
	}
	fps = (b.Draws - a.Draws) / ((b.Now - a.Now) / 1000)
	cost = frameCost{layoutMs: b.LayoutMs, paintMs: b.PaintMs}
	if b.Draws > a.Draws {
		cost.baseShare = (b.Base - a.Base) / (b.Draws - a.Draws)
		if busy0 >= 0 && busy1 >= busy0 {
			cost.cpuMs = (busy1 - busy0) / (b.Draws - a.Draws)
		}
	}
	return fps, fmt.Sprintf("%vx%v", b.W, b.H), cost
}

// frameCost is the page's running mean of the Go side's work per frame,
// the share of the frames that repainted a base layer (render.List.Base;
// 0 for a scene without one), and the CPU time the browser spent per frame
// while counting (all of its processes, the WebGL work included; 0 where
// /proc is missing). The machine has two cores and a playing page keeps
// them busy, so frames per second move with any other load while the CPU
// time per frame moves much less: compare changes by it.
type frameCost struct{ layoutMs, paintMs, baseShare, cpuMs float64 }

func (c frameCost) String() string {
	return fmt.Sprintf("layout %.2f ms + paint %.2f ms a frame, browser CPU %.0f ms a frame, base layer changed in %.0f %% of frames",
		c.layoutMs, c.paintMs, c.cpuMs, 100*c.baseShare)
}

// browserCPU returns the CPU time, in ms, that the browser's processes
// (every process whose command line names chromium) have spent so far,
// from /proc, or -1 where /proc is missing. Other work on the machine is
// not in it, so it holds while other jobs run beside the measurement.
func browserCPU() float64 {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return -1
	}
	total := 0.0
	for _, d := range dirs {
		if d.Name()[0] < '0' || d.Name()[0] > '9' {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + d.Name() + "/cmdline")
		if err != nil || !bytes.Contains(cmd, []byte("chromium")) {
			continue
		}
		stat, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		// Fields after the command name in parentheses: state is the
		// first, utime and stime the 12th and 13th.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 13 {
			continue
		}
		for _, v := range f[11:13] {
			x, err := strconv.ParseFloat(v, 64)
			if err == nil {
				total += x
			}
		}
	}
	return total * 10 // USER_HZ is 100 on Linux
}
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func join(xs []float64, format string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf(format, x)
	}
	return strings.Join(parts, ", ")
}
