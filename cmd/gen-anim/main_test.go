//go:build !(js && wasm)

package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"commlab/engine/trace"
	"commlab/render"
	"commlab/scene"
)

var update = flag.Bool("update", false, "rewrite testdata/*.stdout")

// dots is a fake scene: a bar that grows across the frame as the playhead
// moves, so that every frame differs. Its run lasts 10 µs. Build rejects
// gap*P above 16, a constraint between fields like the real scenes have.
type dots struct{ name string }

func (d dots) Info() scene.Info { return scene.Info{Name: d.name, Title: "Dots"} }

func (dots) Fields() []scene.Field {
	return []scene.Field{
		{Key: "P", Label: "P", Kind: scene.Int, Type: "int", Min: 2, Max: 64, Pow2: true, Default: "4"},
		{Key: "gap", Label: "gap", Unit: "s", Kind: scene.Float, Type: "float", Min: 0, Max: 1, OpenMin: true, Default: "0.5"},
	}
}

func (dots) Build(v scene.Values, seed uint64) (scene.Run, error) {
	if v.Float("gap")*v.Float("P") > 16 {
		return nil, &scene.FieldError{Key: "gap", Value: v["gap"], Want: "at most 16/P"}
	}
	return dotsRun{p: v.Int("P"), seed: seed}, nil
}

type dotsRun struct {
	p    int
	seed uint64
}

func (dotsRun) End() float64     { return 1e-5 }
func (dotsRun) Steps() []float64 { return []float64{5e-6} }
func (r dotsRun) Frame(t float64, v scene.View) render.List {
	l := render.List{W: v.W, H: v.H, Background: v.Theme.Background}
	l.Add(render.Rect{Min: render.Point{X: 0, Y: 10}, Max: render.Point{X: v.W * t / r.End(), Y: 30}, Style: render.Style{Fill: v.Theme.Compute}},
		render.Text{At: render.Point{X: 10, Y: 60}, S: fmt.Sprintf("P=%d seed=%d t=%s", r.p, r.seed, scene.Seconds(t)), Size: 14, Color: v.Theme.Ink})
	return l
}
func (dotsRun) Trace() *trace.Trace         { return &trace.Trace{} }
func (dotsRun) Numbers() map[string]float64 { return nil }

var reg = scene.Registry{dots{"dots"}, dots{"bars"}}

// runIn runs the command in dir (paths in args are relative to it) and
// returns stdout with dir shown as $DIR.
func runIn(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	for i, a := range args {
		if i > 0 && (args[i-1] == "-png" || args[i-1] == "-gif" || args[i-1] == "-thumbs") {
			args[i] = filepath.Join(dir, a)
		}
	}
	var stdout, stderr bytes.Buffer
	err := run(&stdout, &stderr, args, reg)
	if stderr.Len() > 0 {
		t.Errorf("stderr: %q; errors are returned, not printed", stderr.String())
	}
	return strings.ReplaceAll(stdout.String(), dir, "$DIR"), err
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".stdout")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./cmd/gen-anim -update creates it)", err)
	}
	if got != string(want) {
		t.Errorf("stdout:\n%s\nwant (%s):\n%s", got, path, want)
	}
}

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

func TestExport(t *testing.T) {
	dir := t.TempDir()
	out, err := runIn(t, dir, "-query", "P=8&seed=3&t=5e-06&theme=dark", "-png", "a.png", "-gif", "a.gif", "-fps", "10", "-seconds", "2", "-scale", "0.5")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "export", out)

	img := decodePNG(t, filepath.Join(dir, "a.png"))
	if got := img.Bounds().Size(); got != image.Pt(480, 270) {
		t.Errorf("PNG is %v, want 480x270 (960x540 at scale 0.5)", got)
	}
	// Half way: the bar ends at the middle, in the dark theme's colours.
	th := render.Dark()
	if got := color.RGBAModel.Convert(img.At(100, 10)); got != th.Compute {
		t.Errorf("PNG at the bar = %v, want %v", got, th.Compute)
	}
	if got := color.RGBAModel.Convert(img.At(360, 10)); got != th.Background {
		t.Errorf("PNG past the bar's end at t = 5 µs = %v, want %v", got, th.Background)
	}

	f, err := os.Open(filepath.Join(dir, "a.gif"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil {
		t.Fatal(err)
	}
	// 2 s at 10 frames a second: 20 ticks, 21 frames from 0 to the end,
	// the last held 1.5 s longer.
	if len(g.Image) != 21 || g.Config.Width != 480 || g.Config.Height != 270 || g.LoopCount != 0 {
		t.Errorf("GIF: %d frames of %dx%d, loop count %d; want 21 of 480x270, looping forever", len(g.Image), g.Config.Width, g.Config.Height, g.LoopCount)
	}
	total := 0
	for _, d := range g.Delay {
		total += d
	}
	if g.Delay[0] != 10 || g.Delay[len(g.Delay)-1] != 160 || total != 360 {
		t.Errorf("GIF delays %v (total %d cs); want 10 cs each, 160 for the last, 360 in all", g.Delay, total)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%d files in the output directory, want the PNG and the GIF only", len(entries))
	}
}

func TestPNGAtEndAndDefaults(t *testing.T) {
	dir := t.TempDir()
	out, err := runIn(t, dir, "-scene", "bars", "-png", "end.png", "-at-end", "-width", "320", "-height", "200", "-scale", "2")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "at_end", out)
	img := decodePNG(t, filepath.Join(dir, "end.png"))
	if got := img.Bounds().Size(); got != image.Pt(640, 400) {
		t.Errorf("PNG is %v, want 640x400", got)
	}
	// At the end the bar spans the whole width; the default theme is light.
	if got := color.RGBAModel.Convert(img.At(639, 30)); got != render.Light().Compute {
		t.Errorf("last column of the bar = %v, want %v", got, render.Light().Compute)
	}
}

func TestPastedPageURL(t *testing.T) {
	// A whole address copied from the browser works like its query.
	dir := t.TempDir()
	out, err := runIn(t, dir, "-query", "http://127.0.0.1:8080/scene.html?scene=bars&P=16&seed=9#top", "-png", "p.png")
	if err != nil {
		t.Fatal(err)
	}
	// With no t in it, the frame is the one the page opens on: the end.
	if !strings.Contains(out, "bars at t = 10 µs of 10 µs") {
		t.Errorf("stdout %q; want the bars scene at its end, 10 µs", out)
	}
}

func TestThumbs(t *testing.T) {
	dir := t.TempDir()
	out, err := runIn(t, dir, "-thumbs", "thumbs", "-theme", "dark")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "thumbs", out)
	for _, name := range reg.Names() {
		img := decodePNG(t, filepath.Join(dir, "thumbs", name+".png"))
		if got := img.Bounds().Size(); got != image.Pt(480, 270) {
			t.Errorf("%s thumbnail is %v, want 480x270", name, got)
		}
		if got := color.RGBAModel.Convert(img.At(479, 10)); got != render.Dark().Compute {
			t.Errorf("%s thumbnail: the bar's end = %v, want the final frame's full bar %v", name, got, render.Dark().Compute)
		}
		// The scene page's stills: every theme whatever -theme says, at
		// the page's 960x540, on the opening view (the end, for these
		// scenes, which name no moment).
		for _, theme := range render.ThemeNames {
			th, _ := render.ThemeByName(theme)
			img := decodePNG(t, filepath.Join(dir, "thumbs", name+".still-"+theme+".png"))
			if got := img.Bounds().Size(); got != image.Pt(960, 540) {
				t.Errorf("%s %s still is %v, want 960x540", name, theme, got)
			}
			if got := color.RGBAModel.Convert(img.At(958, 20)); got != th.Compute {
				t.Errorf("%s %s still: the bar's end = %v, want the opening view's full bar %v", name, theme, got, th.Compute)
			}
		}
	}
}

func TestHelp(t *testing.T) {
	var stdout bytes.Buffer
	if err := run(&stdout, io.Discard, []string{"-help"}, reg); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"-png", "-gif", "-thumbs", "-query", "-fps", "dots, bars"} {
		if !strings.Contains(stdout.String(), f) {
			t.Errorf("usage does not mention %s:\n%s", f, stdout.String())
		}
	}
}

func TestBadInput(t *testing.T) {
	tests := []struct {
		args  []string
		want  string
		usage bool // exit status 2
	}{
		{nil, "nothing to do", true},
		{[]string{"extra", "-png", "a.png"}, `unexpected argument "extra"`, true},
		{[]string{"-png", "a.png", "-width", "10"}, "-width 10: want a width in CSS pixels from 64 to 4096", true},
		{[]string{"-png", "a.png", "-height", "5000"}, "-height 5000: want a height in CSS pixels from 64 to 4096", true},
		{[]string{"-png", "a.png", "-width", "wide"}, `invalid value "wide" for flag -width`, true},
		{[]string{"-png", "a.png", "-scale", "0"}, "-scale 0: want a number from 0.25 to 4", true},
		{[]string{"-png", "a.png", "-scale", "NaN"}, "-scale NaN: want a number from 0.25 to 4", true},
		{[]string{"-gif", "a.gif", "-fps", "0"}, "-fps 0: want whole frames a second from 1 to 50", true},
		{[]string{"-gif", "a.gif", "-fps", "60"}, "-fps 60: want whole frames a second from 1 to 50", true},
		{[]string{"-gif", "a.gif", "-seconds", "0.5"}, "-seconds 0.5: want a play time in seconds from 1 to 60", true},
		{[]string{"-png", "a.png", "-seconds", "2"}, "-seconds applies to the GIF", true},
		{[]string{"-png", "a.png", "-fps", "2"}, "-fps applies to the GIF", true},
		{[]string{"-gif", "a.gif", "-at-end"}, "-at-end picks the frame -png writes", true},
		{[]string{"-png", "a.png", "-theme", "blue"}, `-theme "blue": want one of light, dark`, true},
		{[]string{"-png", "a.png", "-scene", "nope"}, `-scene "nope": want one of dots, bars`, true},
		{[]string{"-png", "a.png", "-scene", "dots", "-query", "scene=bars"}, "-scene dots and the query's scene=bars disagree", true},
		{[]string{"-png", "a.png", "-theme", "dark", "-query", "theme=light"}, "-theme dark and the query's theme=light disagree", true},
		{[]string{"-png", "a.png", "-at-end", "-query", "t=1e-6"}, "-at-end and the query's t=1e-6 both set the playhead", true},
		{[]string{"-png", "a.png", "-query", "P=3"}, `-query: P: "3" is not allowed; want a power of two in [2, 64]`, true},
		{[]string{"-png", "a.png", "-query", "P=3&seed=-1"}, `-query: P: "3" is not allowed; want a power of two in [2, 64]; seed: "-1" is not allowed`, true},
		{[]string{"-png", "a.png", "-query", "alpha=1"}, `-query: alpha: "1" is not allowed; want no such parameter in scene dots`, true},
		{[]string{"-png", "a.png", "-query", "scene=nope"}, `-query: scene: "nope" is not allowed; want one of dots, bars`, true},
		{[]string{"-png", "a.png", "-query", "speed=3"}, `-query: speed: "3" is not allowed; want one of 0.125`, true},
		{[]string{"-png", "a.png", "-query", "%zz"}, `-query "%zz": not a URL query`, true},
		{[]string{"-png", "a.png", "-query", "t=1"}, `-query: t: "1" is not allowed; want a time in [0, 1e-05] s (this run's length)`, true},
		{[]string{"-png", "a.png", "-query", "P=64&gap=0.5"}, `-query: gap: "0.5" is not allowed; want at most 16/P`, true},
		{[]string{"-png", "same", "-gif", "same"}, "-png and -gif both name", true},
		{[]string{"-thumbs", "t", "-width", "100"}, "cannot be combined with -width", true},
		{[]string{"-thumbs", "t", "-png", "a.png"}, "cannot be combined with -png", true},
		{[]string{"-gif", "a.gif", "-width", "4096", "-height", "4096", "-scale", "4"}, "-gif: 161 frames of 16384x16384 px (8 s at 20 a second) of scene dots (≈ 46.2 GB, over the command's 4 GB, half of a test's machine; ≈", true},
		{[]string{"-png", "no/such/dir/a.png"}, "-png: open", false},
	}
	machine(t, 4e9)
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			dir := t.TempDir()
			_, err := runIn(t, dir, tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
			var ue usageError
			if got := errors.As(err, &ue); got != tt.usage {
				t.Errorf("usage error (exit 2) = %v, want %v", got, tt.usage)
			}
			if entries, _ := os.ReadDir(dir); len(entries) > 0 {
				t.Errorf("left %d files behind (first %s)", len(entries), entries[0].Name())
			}
		})
	}
}

func TestNoScenes(t *testing.T) {
	err := run(io.Discard, io.Discard, []string{"-png", filepath.Join(t.TempDir(), "a.png")}, nil)
	var ue usageError
	if err == nil || errors.As(err, &ue) || !strings.Contains(err.Error(), "no scenes") {
		t.Errorf("error %v; want a non-usage error saying there are no scenes", err)
	}
}

func TestFailureKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "a.png")
	if err := os.WriteFile(old, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := runIn(t, dir, "-png", "a.png", "-query", "P=3"); err == nil {
		t.Fatal("bad query accepted")
	}
	// A write that fails half way removes its temporary file.
	err := writeFile(old, func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("partial", 10000))
		return errors.New("encoder failed")
	})
	if err == nil || err.Error() != "encoder failed" {
		t.Fatalf("writeFile error %v, want the writer's", err)
	}
	if b, _ := os.ReadFile(old); string(b) != "old" {
		t.Errorf("a.png now holds %q, want the old file untouched", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory, want only a.png (no temporary left)", len(entries))
	}
}
