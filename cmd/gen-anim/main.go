//go:build !(js && wasm)

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"commlab/cmd/internal/budget"
	"commlab/engine/cost"
	"commlab/internal/outfile"
	"commlab/internal/shown"
	"commlab/render"
	"commlab/render/raster"
	"commlab/scene"
	"commlab/scene/catalog"
)

func main() {
	outfile.CleanOnSignal() // Ctrl-C leaves no temporary file
	err := run(os.Stdout, os.Stderr, os.Args[1:], catalog.All())
	if err == nil {
		return
	}
	fmt.Fprintln(os.Stderr, "gen-anim:", err)
	os.Exit(2) // every failure, as gen-report
}

// usageError is bad input on the command line (flags, the query, values a
// scene rejects, a run over the budget), as against a failure of the
// export itself (a write error); both exit with status 2, as gen-report's
// failures do, but the message of one is about the command line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// Limits of the flags. A side of 4096 at scale 4 is the rasteriser's
// largest image; 50 frames a second is the fastest a GIF plays as written.
// What an export may take is the commands' budget (exportCost).
const (
	minSide, maxSide   = 64, 4096
	minScale, maxScale = 0.25, 4.0
	minFPS, maxFPS     = 1, 50
	minSecs, maxSecs   = 1, 60

	// The page's reference size: thumbnails show the picture a visitor
	// sees there, shrunk.
	thumbW, thumbH, thumbScale = 960, 540, 0.5
	// The scene page's stills, at the same layout size and 1 pixel per
	// CSS pixel: 85-335 kB each (a tenth of the wasm's download at most),
	// on screen for a second or two, so not drawn for high-DPI screens
	// (four times the bytes).
	stillScale = 1.0
)

type options struct {
	scene, query, theme string
	w, h                int
	scale               float64
	png, gif, thumbs    string
	index               string
	atEnd               bool
	fps                 int
	seconds             float64
	set                 map[string]bool // flags given on the command line
	budget              cost.Budget     // what a build and an export may take
}

func run(stdout, stderr io.Writer, args []string, reg scene.Registry) error {
	fs := flag.NewFlagSet("gen-anim", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are returned as one line, usage only on -help
	var o options
	fs.StringVar(&o.scene, "scene", "", "scene `NAME` (default: the first, "+strings.Join(reg.Names(), ", ")+")")
	fs.StringVar(&o.query, "query", "", "a scene page's URL `query`, e.g. 'P=16&T=2&seed=3' (parameters, seed, t, speed, theme)")
	fs.StringVar(&o.theme, "theme", "", "palette: "+strings.Join(render.ThemeNames, " or ")+" (default: the query's, else "+render.ThemeNames[0]+")")
	fs.IntVar(&o.w, "width", 960, fmt.Sprintf("layout width in CSS `px`, %d to %d", minSide, maxSide))
	fs.IntVar(&o.h, "height", 540, fmt.Sprintf("layout height in CSS `px`, %d to %d", minSide, maxSide))
	fs.Float64Var(&o.scale, "scale", 1, fmt.Sprintf("image pixels per CSS pixel, %g to %g (2 for high-DPI slides)", minScale, maxScale))
	fs.StringVar(&o.png, "png", "", "write the frame the page shows for the query (at its t; at the end of the run if it names none) to `FILE`")
	fs.BoolVar(&o.atEnd, "at-end", false, "with -png: the run's last frame")
	fs.StringVar(&o.gif, "gif", "", "write the whole run as a looping animated GIF to `FILE`")
	fs.IntVar(&o.fps, "fps", 20, fmt.Sprintf("with -gif: frames a second, %d to %d", minFPS, maxFPS))
	fs.Float64Var(&o.seconds, "seconds", 0, fmt.Sprintf("with -gif: play the run over this many seconds, %d to %d (default %g divided by the query's speed)", minSecs, maxSecs, scene.PlaySeconds))
	fs.StringVar(&o.index, "index", "", "write the site's start page, its cards made from the scene catalog, to `FILE` (site/index.html); alone or with -thumbs")
	fs.StringVar(&o.thumbs, "thumbs", "", fmt.Sprintf("write every scene's last frame at its defaults to `DIR`/NAME.png, %gx%g px, and the scene page's stills (its opening view, each theme) to DIR/NAME.still-THEME.png, %gx%g px", thumbW*thumbScale, thumbH*thumbScale, thumbW*stillScale, thumbH*stillScale))
	force := fs.Bool("force", false, "build a run over the budget ("+budget.Describe()+") anyway")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "usage: gen-anim [flags] -png FILE | -gif FILE | -thumbs DIR | -index FILE")
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return nil
		}
		// Quoted values and unquoted names ("flag provided but not
		// defined: -NAME") alike may be megabytes long.
		words := strings.Split(shown.Quoted(err.Error()), " ")
		for i, w := range words {
			if !strings.Contains(w, `"`) {
				words[i] = scene.Cut(w)
			}
		}
		return usageError{strings.Join(words, " ")}
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q; every input is a flag (see -help)", scene.Cut(fs.Arg(0)))
	}
	o.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	o.budget = cliBudget(*force)
	reg = reg.Within(o.budget)
	if err := o.check(); err != nil {
		return err
	}
	if len(reg) == 0 {
		return errors.New("no scenes to export: scene/catalog lists none yet")
	}
	if o.index != "" {
		if err := writeFile(o.index, func(w io.Writer) error { return writeIndex(w, reg) }); err != nil {
			return fmt.Errorf("-index: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s: the start page, %d scenes\n", o.index, len(reg))
		if o.thumbs == "" {
			return nil
		}
	}
	if o.thumbs != "" {
		return thumbs(stdout, o, reg)
	}
	dataOut = stdout
	if o.png == "-" || o.gif == "-" {
		stdout = stderr // the image is the output; the note goes beside it
	}
	return export(stdout, o, reg)
}

// check validates the flags on their own, before any scene is built.
func (o options) check() error {
	if o.png == "" && o.gif == "" && o.thumbs == "" && o.index == "" {
		return usagef("nothing to do: give -png FILE, -gif FILE, -thumbs DIR or -index FILE")
	}
	if o.png == "-" && o.gif == "-" {
		return usagef("-png - and -gif - would both write to stdout; name a file for one of them")
	}
	if o.thumbs == "-" || o.index == "-" {
		return usagef("-thumbs and -index write files; \"-\" (stdout) is for -png and -gif")
	}
	if o.thumbs != "" || o.index != "" {
		what := "-thumbs makes every scene's thumbnail at its defaults (%gx%g px)"
		if o.thumbs == "" {
			what = "-index writes the start page (its thumbnails are %gx%g px)"
		}
		for _, f := range []string{"png", "gif", "scene", "query", "width", "height", "scale", "at-end", "fps", "seconds"} {
			if o.set[f] {
				return usagef(what+"; it cannot be combined with -%s", thumbW*thumbScale, thumbH*thumbScale, f)
			}
		}
	}
	if o.w < minSide || o.w > maxSide {
		return usagef("-width %d: want a width in CSS pixels from %d to %d", o.w, minSide, maxSide)
	}
	if o.h < minSide || o.h > maxSide {
		return usagef("-height %d: want a height in CSS pixels from %d to %d", o.h, minSide, maxSide)
	}
	if !(o.scale >= minScale && o.scale <= maxScale) {
		return usagef("-scale %g: want a number from %g to %g", o.scale, minScale, maxScale)
	}
	if o.theme != "" {
		if _, ok := render.ThemeByName(o.theme); !ok {
			return usagef("-theme %q: want one of %s", scene.Cut(o.theme), strings.Join(render.ThemeNames, ", "))
		}
	}
	if o.atEnd && o.png == "" {
		return usagef("-at-end picks the frame -png writes; give -png FILE too")
	}
	for _, f := range []string{"fps", "seconds"} {
		if o.set[f] && o.gif == "" {
			return usagef("-%s applies to the GIF; give -gif FILE too", f)
		}
	}
	if o.fps < minFPS || o.fps > maxFPS {
		return usagef("-fps %d: want whole frames a second from %d to %d", o.fps, minFPS, maxFPS)
	}
	if o.set["seconds"] && !(o.seconds >= minSecs && o.seconds <= maxSecs) {
		return usagef("-seconds %g: want a play time in seconds from %d to %d", o.seconds, minSecs, maxSecs)
	}
	if o.png != "" && o.png == o.gif {
		return usagef("-png and -gif both name %s; give two files", o.png)
	}
	return nil
}

// pageQuery is -query as a URL query: a whole page address works too, of
// which it keeps what follows "?" and drops a "#...".
func (o options) pageQuery() string {
	q := o.query
	if i := strings.IndexByte(q, '?'); i >= 0 {
		q = q[i+1:]
	}
	if i := strings.IndexByte(q, '#'); i >= 0 {
		q = q[:i]
	}
	return q
}

// state reads the view to export from -query, -scene and -theme. Unlike the
// page, which falls back to defaults, every bad value is an error here: an
// export should be exactly the view asked for.
func (o options) state(reg scene.Registry) (scene.State, scene.Scene, error) {
	q := o.pageQuery()
	given, err := url.ParseQuery(q)
	if err != nil {
		return scene.State{}, nil, usagef("-query %q: not a URL query (%v)", scene.Cut(o.query), shown.Quoted(err.Error()))
	}
	if o.scene != "" {
		if _, ok := reg.Lookup(o.scene); !ok {
			return scene.State{}, nil, usagef("-scene %q: want one of %s", scene.Cut(o.scene), strings.Join(reg.Names(), ", "))
		}
		if s := given.Get(scene.KeyScene); s != "" && s != o.scene {
			return scene.State{}, nil, usagef("-scene %s and the query's scene=%s disagree; give one", o.scene, scene.Cut(s))
		}
		q = scene.KeyScene + "=" + url.QueryEscape(o.scene) + "&" + q
	}
	if o.theme != "" {
		if th := given.Get(scene.KeyTheme); th != "" && th != o.theme {
			return scene.State{}, nil, usagef("-theme %s and the query's theme=%s disagree; give one", o.theme, scene.Cut(th))
		}
	}
	if o.atEnd && given.Has(scene.KeyT) {
		return scene.State{}, nil, usagef("-at-end and the query's t=%s both set the playhead; give one", scene.Cut(given.Get(scene.KeyT)))
	}
	st, errs := scene.ParseQuery(q, reg)
	if len(errs) > 0 {
		// The first few, so a query of a thousand bad keys stays one
		// readable line.
		const shown = 5
		var msgs []string
		for _, e := range errs[:min(len(errs), shown)] {
			msgs = append(msgs, e.Error())
		}
		if len(errs) > shown {
			msgs = append(msgs, fmt.Sprintf("and %d more", len(errs)-shown))
		}
		return scene.State{}, nil, usagef("-query: %s", strings.Join(msgs, "; "))
	}
	if o.theme != "" {
		st.Theme = o.theme
	}
	sc, _ := reg.Lookup(st.Scene)
	return st, sc, nil
}

// build runs the scene's model for st. Constraints between values that only
// Build checks come back as *scene.FieldError: input errors, like the rest.
func build(sc scene.Scene, st scene.State) (scene.Run, error) {
	r, err := sc.Build(st.Values, st.Seed)
	var fe *scene.FieldError
	switch {
	case errors.As(err, &fe):
		return nil, usagef("-query: %v", fe)
	case err != nil:
		return nil, fmt.Errorf("scene %s: %w", st.Scene, err)
	case r == nil:
		return nil, fmt.Errorf("scene %s: Build returned no run", st.Scene)
	}
	if end := r.End(); !(end >= 0) || math.IsInf(end, 0) {
		return nil, fmt.Errorf("scene %s: the run's end is %v s", st.Scene, end)
	}
	return r, nil
}

func export(stdout io.Writer, o options, reg scene.Registry) error {
	st, sc, err := o.state(reg)
	if err != nil {
		return err
	}
	o.scene = st.Scene
	th, _ := render.ThemeByName(st.Theme)
	view := scene.View{W: float64(o.w), H: float64(o.h), Theme: th}
	px := fmt.Sprintf("%dx%d px", int(math.Ceil(float64(o.w)*o.scale)), int(math.Ceil(float64(o.h)*o.scale)))

	// Check everything the flags and query decide before building (which
	// runs the model) or writing anything.
	secs := o.seconds
	if !o.set["seconds"] {
		secs = scene.PlaySeconds / st.Speed
	}
	// The export is checked once the run is built and sample frames of
	// it are laid out and painted (the build is within the budget by its
	// own estimate, or Build refuses it naming its parameter). A run that
	// takes long to build is not built for pictures that cannot fit
	// whatever its frames hold: they are checked alone first.
	var buildCost cost.Cost
	if est, ok := sc.(scene.Estimator); ok {
		if c, err := est.Estimate(st.Values); err == nil {
			buildCost = c
		}
	}
	if buildCost.Check(o.budget) == nil && buildCost.Seconds > slowBuild {
		if err := o.checkExport(buildCost, secs, frameCost{at: o.scale}); err != nil {
			return err
		}
	}
	r, err := build(sc, st)
	if err != nil {
		return err
	}
	if err := o.checkExport(buildCost, secs, sample(r, view, o.scale)); err != nil {
		return err
	}
	p := scene.NewPlayer(r)

	if o.png != "" {
		// The frame the page would show for this query: its t, or the
		// end of the run when it names none (see scene.InitialT).
		t := scene.InitialT(o.pageQuery(), st, r)
		if o.atEnd {
			t = r.End()
		}
		if err := p.Seek(t); err != nil {
			return usagef("-query: %v", err)
		}
		l := r.Frame(p.T, view)
		if err := writeFile(o.png, func(w io.Writer) error { return raster.EncodePNG(w, l, o.scale) }); err != nil {
			return fmt.Errorf("-png: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s: %s, %s at t = %s of %s\n", o.png, px, st.Scene, scene.Time(sc.Info(), p.T), scene.Time(sc.Info(), r.End()))
	}

	if o.gif != "" {
		if !(r.End() > 0) {
			return fmt.Errorf("-gif: scene %s's run lasts 0 s; there is nothing to animate", st.Scene)
		}
		frames, delays := play(r, p, view, secs, o.fps)
		if err := writeFile(o.gif, func(w io.Writer) error { return raster.EncodeGIFDelays(w, frames, delays, o.scale) }); err != nil {
			return fmt.Errorf("-gif: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s: %s, %s from 0 to %s, %d frames at %d a second over %g s, then %g s on the end\n",
			o.gif, px, st.Scene, scene.Time(sc.Info(), r.End()), len(frames), o.fps, secs, scene.LoopHold)
	}
	return nil
}

// slowBuild is the estimated build time past which an export's pictures
// are checked before the run is built.
const slowBuild = 10

// checkExport refuses the export when it would take more than the budget:
// the PNG, or else the GIF (the larger). Before the run is built (fc
// without samples) it names no value of -scale, -fps or -seconds, since
// the frames' display lists come on top: only by how much the pictures
// alone are over.
func (o options) checkExport(build cost.Cost, secs float64, fc frameCost) error {
	if o.gif == "" && o.png == "" {
		return nil
	}
	c := exportCost(build, o, o.gif != "", secs, o.fps, o.scale, fc)
	if !fc.sampled {
		c.Knobs = nil
		c.Why += ", the pictures alone"
	}
	if err := c.Check(o.budget); err != nil {
		return usagef("%v", err)
	}
	return nil
}

// play lays out the run as the page plays it: a Player at the speed that
// spans the run in secs, ticked by 1/fps, from 0 until the end, which
// then stays up for scene.LoopHold.
func play(r scene.Run, p *scene.Player, view scene.View, secs float64, fps int) ([]render.List, []time.Duration) {
	p.Restart()
	p.Speed = scene.PlaySeconds / secs
	p.Play()
	dt := 1 / float64(fps)
	var frames []render.List
	for {
		frames = append(frames, r.Frame(p.T, view))
		if p.T >= p.End {
			break
		}
		p.Tick(dt)
		// Summing ticks can fall short of the end by a rounding error,
		// which would add a last frame no viewer could tell apart.
		if p.End-p.T <= p.End*1e-9 {
			p.T = p.End
		}
	}
	delays := make([]time.Duration, len(frames))
	for i := range delays {
		delays[i] = time.Duration(float64(time.Second) * dt)
	}
	delays[len(delays)-1] += time.Duration(scene.LoopHold * float64(time.Second))
	return frames, delays
}

func thumbs(stdout io.Writer, o options, reg scene.Registry) error {
	theme := o.theme
	if theme == "" {
		theme = render.ThemeNames[0]
	}
	th, _ := render.ThemeByName(theme)
	if err := os.MkdirAll(o.thumbs, 0o755); err != nil {
		return fmt.Errorf("-thumbs: %w", err)
	}
	for _, sc := range reg {
		name := sc.Info().Name
		if name == "" || name != filepath.Base(name) || strings.HasPrefix(name, ".") {
			return fmt.Errorf("-thumbs: scene name %q cannot be a file name", name)
		}
		st := scene.Default(sc)
		r, err := build(sc, st)
		if err != nil {
			return fmt.Errorf("-thumbs: scene %s at its defaults: %w", name, err)
		}
		l := r.Frame(r.End(), scene.View{W: thumbW, H: thumbH, Theme: th})
		path := filepath.Join(o.thumbs, name+".png")
		if err := writeFile(path, func(w io.Writer) error { return raster.EncodePNG(w, l, thumbScale) }); err != nil {
			return fmt.Errorf("-thumbs: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s: %gx%g px, %s at its end, t = %s\n", path, thumbW*thumbScale, thumbH*thumbScale, name, scene.Time(sc.Info(), r.End()))
		if err := stills(stdout, o.thumbs, sc, st, r); err != nil {
			return err
		}
	}
	return nil
}

// stills writes the scene page's stills of sc into dir: the page's opening
// view at the defaults (scene.InitialT of a URL that names no playhead),
// laid out at the page's 960x540, one per theme, as NAME.still-THEME.png.
// The page (site/boot.js) shows the one of its theme while the wasm
// starts, until the first live frame covers it.
func stills(stdout io.Writer, dir string, sc scene.Scene, st scene.State, r scene.Run) error {
	name := sc.Info().Name
	t := scene.InitialT("", st, r)
	for _, theme := range render.ThemeNames {
		th, _ := render.ThemeByName(theme)
		l := r.Frame(t, scene.View{W: thumbW, H: thumbH, Theme: th})
		path := filepath.Join(dir, name+".still-"+theme+".png")
		if err := writeFile(path, func(w io.Writer) error { return raster.EncodePNG(w, l, stillScale) }); err != nil {
			return fmt.Errorf("-thumbs: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s: %gx%g px, the scene page's still of %s (its opening view), t = %s\n", path, thumbW*stillScale, thumbH*stillScale, name, scene.Time(sc.Info(), t))
	}
	return nil
}

// dataOut is where an output named "-" goes: the command's stdout (run
// sets it; the notes then go to stderr).
var dataOut io.Writer = os.Stdout

// writeFile writes an output file through outfile: atomically for a
// regular file (a failure leaves no partial file and an existing one
// untouched), through for a FIFO or a device, to its target for a
// symlink, to stdout for "-".
func writeFile(path string, write func(io.Writer) error) error {
	return outfile.Write(path, dataOut, write)
}
